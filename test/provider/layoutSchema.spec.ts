// The one layout schema: what passes, what fails with which field and rule, and values not known yet.
import * as assert from "assert";
import { LIMITS, checkLayout } from "../../provider/shared/layoutSchema";
import { UNKNOWN } from "../../provider/shared/unknowns";

describe("the layout schema", () => {
    it("passes a layout and leaves what was not given out", () => {
        const { layout, failures } = checkLayout({ brokers: [2, 0, 1], partitionCount: 6, replicationFactor: 3, resourceName: "ignored" });
        assert.deepStrictEqual(failures, []);
        assert.deepStrictEqual(layout, { brokers: [2, 0, 1], partitionCount: 6, replicationFactor: 3 });
    });

    it("lets values not known yet through, anywhere", () => {
        assert.deepStrictEqual(checkLayout({ brokerCount: UNKNOWN, replicationFactor: UNKNOWN, force: UNKNOWN, timeoutSeconds: UNKNOWN }).failures, []);
        assert.deepStrictEqual(checkLayout({ brokers: [0, UNKNOWN, 2] }).failures, []);
    });

    const cases: { title: string; raw: Record<string, unknown>; failures: [string, string][] }[] = [
        { title: "no brokers", raw: {}, failures: [["brokers", "give either brokers (the ids of every broker) or brokerCount (brokers 0 … n-1)"]] },
        { title: "both forms", raw: { brokers: [0], brokerCount: 1 }, failures: [["brokerCount", "give either brokers or brokerCount, not both"]] },
        { title: "not a list", raw: { brokers: "0,1" }, failures: [["brokers", "brokers must be a list of broker ids"]] },
        { title: "an empty list", raw: { brokers: [] }, failures: [["brokers", "brokers must name at least one broker"]] },
        {
            title: "a bad id",
            raw: { brokers: [0, -1] },
            failures: [["brokers", `brokers[1] is -1: every broker id must be an integer ≥ 0 and at most ${LIMITS.brokerId}`]],
        },
        { title: "a duplicate", raw: { brokers: [0, 1, 1] }, failures: [["brokers", "broker 1 is listed twice: broker ids must be unique"]] },
        {
            title: "a count above the limit",
            raw: { brokerCount: LIMITS.brokers + 1 },
            failures: [["brokerCount", `brokerCount is ${LIMITS.brokers + 1}: it must be an integer ≥ 1 and at most ${LIMITS.brokers}`]],
        },
        {
            title: "more replicas than brokers",
            raw: { brokerCount: 2, replicationFactor: 3 },
            failures: [["replicationFactor", "replicationFactor 3 is more than the 2 broker(s) of the cluster"]],
        },
        { title: "force as text", raw: { brokerCount: 2, force: "yes" }, failures: [["force", 'force is "yes": it must be true or false']] },
        {
            title: "a negative timeout",
            raw: { brokerCount: 2, timeoutSeconds: -1 },
            failures: [["timeoutSeconds", `timeoutSeconds is -1: it must be a number of seconds > 0 and at most ${LIMITS.timeoutSeconds} (7 days)`]],
        },
        {
            title: "two problems at once",
            raw: { brokers: [], partitionCount: 0 },
            failures: [
                ["brokers", "brokers must name at least one broker"],
                ["partitionCount", `partitionCount is 0: it must be an integer ≥ 1 and at most ${LIMITS.partitionCount}`],
            ],
        },
    ];
    for (const { title, raw, failures } of cases) {
        it(`${title}: ${failures.map(([property]) => property).join(", ")}`, () => {
            assert.deepStrictEqual(
                checkLayout(raw).failures.map((failure) => [failure.property, failure.reason]),
                failures,
            );
        });
    }

    it("refuses a billion brokers without making a billion of anything", () => {
        assert.strictEqual(checkLayout({ brokerCount: 1e9, replicationFactor: 3 }).failures[0].property, "brokerCount");
    });
});
