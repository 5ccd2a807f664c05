// The engine's pieces that need no process: state file, secrets, URNs, delete order, config, arguments.
import * as assert from "assert";
import { createCipheriv, randomBytes, scryptSync } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parseArguments } from "./cli";
import { Condemned, deletionOrder } from "./deletion";
import { loadProject, loadStackConfig } from "./project";
import { annotateSecrets, goString, goStringRedacted, makeSecret, markSecretOutputs, SECRET_SIG, SECRET_SIG_KEY, UNKNOWN } from "./propertyValues";
import { configureVariables, providerInputsFor } from "./providerHost";
import { SecretsCrypter } from "./secretsCrypter";
import { ResourceState, StackState, StateFile } from "./stateFile";
import { engineUrn } from "./urns";

describe("engine: parts", function () {
    let directory = "";
    before(() => (directory = fs.mkdtempSync(path.join(os.tmpdir(), "engine-parts-"))));
    after(() => fs.rmSync(directory, { recursive: true, force: true }));

    describe("state file", function () {
        const resource = (values: Partial<ResourceState>): ResourceState => ({
            type: "pulumi-nodejs:dynamic:Resource",
            custom: true,
            id: "id-1",
            inputs: {},
            outputs: {},
            dependencies: [],
            ...values,
        });
        const state: StackState = {
            resources: {
                "urn:a": resource({
                    inputs: { token: makeSecret("tok-plain-4242"), size: 1 },
                    outputs: { nested: { key: makeSecret(["key-plain-one", "key-plain-two"]) } },
                }),
                "urn:b": resource({ dependencies: ["urn:a"], initErrors: ["not ready"] }),
            },
            pendingDeletes: [{ urn: "urn:a", ...resource({ id: "id-0" }) }],
            pendingOperations: [{ urn: "urn:b", type: "pulumi-nodejs:dynamic:Resource", operation: "updating" }],
        };

        it("round-trips, with secret values encrypted in the file", () => {
            const file = path.join(directory, "round.json");
            new StateFile(file, "pass").save(state);
            const text = fs.readFileSync(file, "utf8");
            assert.ok(!text.includes("tok-plain-4242") && !text.includes("key-plain-one"), text);
            assert.ok(text.includes('"ciphertext"'));
            assert.strictEqual(fs.statSync(file).mode & 0o777, 0o600);
            assert.deepStrictEqual(new StateFile(file, "pass").load(), state);
        });

        it("refuses a wrong or missing passphrase for secrets, and needs none without secrets", () => {
            const file = path.join(directory, "secret.json");
            new StateFile(file, "pass").save(state);
            assert.throws(() => new StateFile(file, "other").load(), /incorrect PULUMI_CONFIG_PASSPHRASE/);
            assert.throws(() => new StateFile(file, undefined).load(), /set PULUMI_CONFIG_PASSPHRASE/);
            const plain = path.join(directory, "plain.json");
            const noSecrets: StackState = { resources: { "urn:b": state.resources["urn:b"] }, pendingDeletes: [], pendingOperations: [] };
            new StateFile(plain, undefined).save(noSecrets);
            assert.deepStrictEqual(new StateFile(plain, undefined).load(), noSecrets);
        });

        it("a file whose secrets an earlier version encrypted (v1: scrypt at Node's default cost) still loads", () => {
            const file = path.join(directory, "v1.json");
            new StateFile(file, "pass").save(state);
            const content = JSON.parse(fs.readFileSync(file, "utf8")) as { secretsSalt: string };
            const key = scryptSync("pass", Buffer.from(content.secretsSalt, "base64"), 32);
            const v1 = (plaintext: string) => {
                const iv = randomBytes(12);
                const cipher = createCipheriv("aes-256-gcm", key, iv);
                return `v1:${iv.toString("base64")}:${Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64")}`;
            };
            let rewritten = 0;
            const text = JSON.stringify(content, (name, value: unknown) => {
                if (name !== "ciphertext") return value;
                rewritten++;
                return v1(new SecretsCrypter("pass", content.secretsSalt).decrypt(String(value)));
            });
            assert.strictEqual(rewritten, 2);
            fs.writeFileSync(file, text);
            assert.deepStrictEqual(new StateFile(file, "pass").load(), state);
        });

        it("an absent file is an empty stack", () => {
            assert.deepStrictEqual(new StateFile(path.join(directory, "none.json"), undefined).load(), {
                resources: {},
                pendingDeletes: [],
                pendingOperations: [],
            });
        });
    });

    describe("secrets carried over by name (annotateSecrets) and additionalSecretOutputs", function () {
        it("marks same-named outputs, recursing into objects; arrays and other values become wholly secret", () => {
            const ins = { password: makeSecret("p"), settings: { key: makeSecret("k"), plain: 1 }, list: [makeSecret("x"), "y"], other: 2 };
            const outs = { password: "p", settings: { key: "k", plain: 1 }, list: ["x", "y"], other: 2, extra: "e" };
            assert.deepStrictEqual(annotateSecrets(outs, ins), {
                password: makeSecret("p"),
                settings: { key: makeSecret("k"), plain: 1 },
                list: makeSecret(["x", "y"]),
                other: 2,
                extra: "e",
            });
            assert.deepStrictEqual(markSecretOutputs({ extra: "e", other: 2 }, ["extra", "missing"]), { extra: makeSecret("e"), other: 2 });
            assert.deepStrictEqual(makeSecret("v"), { [SECRET_SIG_KEY]: SECRET_SIG, value: "v" });
        });
    });

    it("forms URNs like the engine: no stack type for the stack's children, the full parent chain otherwise", () => {
        const stackUrn = engineUrn("dev", "proj", "", "pulumi:pulumi:Stack", "proj-dev");
        assert.strictEqual(stackUrn, "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev");
        const outer = engineUrn("dev", "proj", stackUrn, "x:index:Outer", "o");
        assert.strictEqual(outer, "urn:pulumi:dev::proj::x:index:Outer::o");
        const inner = engineUrn("dev", "proj", outer, "x:index:Inner", "i");
        assert.strictEqual(inner, "urn:pulumi:dev::proj::x:index:Outer$x:index:Inner::i");
        assert.strictEqual(
            engineUrn("dev", "proj", inner, "pulumi-nodejs:dynamic:Resource", "r"),
            "urn:pulumi:dev::proj::x:index:Outer$x:index:Inner$pulumi-nodejs:dynamic:Resource::r",
        );
    });

    it("prints a property value as the engine's PropertyValue.String() does, secrets in plaintext", () => {
        const cases: [Parameters<typeof goString>[0], string][] = [
            [6, "{6}"],
            [-1.5, "{-1.5}"],
            [123456, "{123456}"],
            [1_000_000, "{1e+06}"],
            [0.00001, "{1e-05}"],
            ["text", "{text}"],
            [true, "{true}"],
            [null, "{<nil>}"],
            [undefined, "{<nil>}"],
            [[1, "a"], "{[{1} {a}]}"],
            [{ b: 2, a: { c: "x" } }, "{map[a:{map[c:{x}]} b:{2}]}"],
            [makeSecret("s3cr3t"), "{&{{s3cr3t}}}"],
            [{ kubeconfig: makeSecret("token: t") }, "{map[kubeconfig:{&{{token: t}}}]}"],
            [UNKNOWN, "output<string>{}"],
        ];
        for (const [value, printed] of cases) assert.strictEqual(goString(value), printed, JSON.stringify(value));
    });

    it("prints a check failure's value as the engine's PropertyValue.RedactSecrets() does: every secret as [secret]", () => {
        const cases: [Parameters<typeof goStringRedacted>[0], string][] = [
            [6, "{6}"],
            [makeSecret("s3cr3t"), "{[secret]}"],
            [{ kubeconfig: makeSecret("token: t"), context: "ci" }, "{map[context:{ci} kubeconfig:{[secret]}]}"],
            [[makeSecret(-7), 1], "{[{[secret]} {1}]}"],
        ];
        for (const [value, printed] of cases) assert.strictEqual(goStringRedacted(value), printed, JSON.stringify(value));
    });

    it("orders deletions dependents first and children before parents", () => {
        const entry = (urn: string, dependencies: string[] = [], parent?: string): Condemned => ({
            urn,
            resource: { type: "t", custom: true, id: urn, inputs: {}, outputs: {}, dependencies, ...(parent ? { parent } : {}) },
            replaced: false,
        });
        const order = deletionOrder([entry("stack"), entry("a", [], "stack"), entry("b", ["a"], "stack"), entry("c", [], "b"), entry("d", [], "stack")]);
        const position = (urn: string) => order.findIndex((c) => c.urn === urn);
        assert.strictEqual(order.length, 5);
        assert.ok(position("c") < position("b") && position("b") < position("a"));
        assert.strictEqual(position("stack"), 4);
    });

    it("sends Configure the whole stack config: secrets wrapped in args, plaintext in the legacy variables", () => {
        const inputs = providerInputsFor({ "p:url": { value: "u", secret: false }, "p:token": { value: "t", secret: true } });
        assert.deepStrictEqual(inputs, { "p:url": "u", "p:token": makeSecret("t") });
        assert.deepStrictEqual(configureVariables(inputs), { "pulumi-nodejs:config:p:url": "u", "pulumi-nodejs:config:p:token": "t" });
    });

    it("reads the project and namespaces config: Pulumi.yaml defaults, Pulumi.<stack>.yaml, then the command line", () => {
        const programDir = path.join(directory, "program");
        fs.mkdirSync(programDir);
        fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), "name: proj\nruntime: nodejs\nmain: src/main.ts\nconfig:\n  size:\n    default: 3\n");
        fs.writeFileSync(path.join(programDir, "Pulumi.dev.yaml"), "config:\n  proj:mode: fast\n  aws:region: eu-west-1\n  proj:layout:\n    brokers: 3\n");
        const project = loadProject(programDir);
        assert.deepStrictEqual(project, { name: "proj", dir: programDir, entry: path.join(programDir, "src", "main.ts") });
        assert.deepStrictEqual(loadStackConfig(project, "dev", { mode: "safe" }, { token: "t" }), {
            "proj:size": { value: "3", secret: false },
            "proj:mode": { value: "safe", secret: false },
            "aws:region": { value: "eu-west-1", secret: false },
            "proj:layout": { value: '{"brokers":3}', secret: false },
            "proj:token": { value: "t", secret: true },
        });
        fs.writeFileSync(path.join(programDir, "Pulumi.enc.yaml"), "config:\n  proj:token:\n    secure: v1:abc\n");
        assert.throws(() => loadStackConfig(project, "enc", {}, {}), /encrypted; pass it with --secret/);
    });

    it("parses the command line", () => {
        assert.deepStrictEqual(
            parseArguments(["up", "prog", "--stack", "dev", "--config", "a=1=2", "--secret", "b=s", "--config", "proj:c=", "--state", "s.json"]),
            { command: "up", programDir: "prog", stack: "dev", config: { a: "1=2", "proj:c": "" }, secrets: { b: "s" }, stateFile: "s.json" },
        );
        assert.throws(() => parseArguments(["apply", "prog", "--stack", "dev"]), /unknown command/);
        assert.throws(() => parseArguments(["up", "prog"]), /--stack is required/);
        assert.throws(() => parseArguments(["up", "prog", "--stack", "dev", "--config", "novalue"]), /key=value/);
        assert.throws(() => parseArguments(["up", "prog", "--stack", "dev", "--force"]), /unknown option/);
    });
});
