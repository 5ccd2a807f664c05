// Check failures reach Pulumi's engine as failures of the resource, the field named first: the engine would otherwise
// print the property's value, a secret's plaintext included.
import * as assert from "assert";
import { asResourceFailures } from "../../provider/shared/checkFailures";

describe("check failures are failures of the resource, naming the field", () => {
    const TABLE: [string, { property: string; reason: string }, string][] = [
        [
            "a reason that starts with the field keeps its words",
            { property: "brokerCount", reason: "brokerCount must be at least 1" },
            "brokerCount must be at least 1",
        ],
        [
            "a nested path at the start counts as the field",
            { property: "kubernetes.namespace", reason: "kubernetes.namespace must be a name" },
            "kubernetes.namespace must be a name",
        ],
        ["the field's name as a word of its own", { property: "force", reason: "force removal cannot add brokers" }, "force removal cannot add brokers"],
        [
            "a reason that does not name the field gets it in front",
            { property: "kubernetes", reason: "the API server refused (401)" },
            "kubernetes: the API server refused (401)",
        ],
        ["a longer word is not the field's name", { property: "auth", reason: "authentication failed" }, "auth: authentication failed"],
        ["a failure of the whole resource stays as it is", { property: "", reason: "give managementUrl or kubernetes" }, "give managementUrl or kubernetes"],
    ];
    for (const [title, failure, reason] of TABLE) {
        it(title, () => assert.deepStrictEqual(asResourceFailures([failure]), [{ property: "", reason }]));
    }
});
