// ESLint: the recommended rules of ESLint and typescript-eslint over the TypeScript sources; `npm run lint`.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
    { ignores: ["dist/**", "node_modules/**", "test/bench/results/**", "**/*.js", "**/*.mjs"] },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
        rules: {
            // `_name` marks what is unused on purpose (a destructured field left out, an argument an interface requires).
            "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
        },
    },
);
