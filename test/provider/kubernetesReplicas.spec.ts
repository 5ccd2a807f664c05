import * as assert from "assert";
import { planBrokerReplicas, targetReplicas } from "../../provider/kubernetes/brokerReplicas";

describe("broker replicas around a layout change", () => {
    it("scale-up: grows to the target first, and the step after the change leaves it there", () => {
        assert.deepStrictEqual(planBrokerReplicas(3, { brokerCount: 5 }), { current: 3, target: 5, grow: 5, shrink: 5, podsOutsideLayout: [] });
    });

    it("scale-down: keeps the current brokers before the change and stops them only after it", () => {
        assert.deepStrictEqual(planBrokerReplicas(5, { brokers: [0, 1, 2] }), { current: 5, target: 3, grow: 5, shrink: 3, podsOutsideLayout: [] });
    });

    it("no change: both steps keep the current count", () => {
        assert.deepStrictEqual(planBrokerReplicas(3, { brokerCount: 3 }), { current: 3, target: 3, grow: 3, shrink: 3, podsOutsideLayout: [] });
    });

    it("starts a stopped StatefulSet before the layout names its brokers", () => {
        assert.deepStrictEqual(planBrokerReplicas(0, { brokerCount: 3 }), { current: 0, target: 3, grow: 3, shrink: 3, podsOutsideLayout: [] });
    });

    it("a sparse broker list keeps every ordinal up to the highest id and names the pods outside the layout", () => {
        assert.deepStrictEqual(planBrokerReplicas(5, { brokers: [4, 0, 2, 1] }), { current: 5, target: 5, grow: 5, shrink: 5, podsOutsideLayout: [3] });
        assert.deepStrictEqual(planBrokerReplicas(5, { brokers: [0, 2] }), { current: 5, target: 3, grow: 5, shrink: 3, podsOutsideLayout: [1] });
        assert.strictEqual(targetReplicas({ brokers: [7] }), 8);
    });

    it("refuses layouts one StatefulSet cannot run, naming the reason", () => {
        const refused: Array<[Parameters<typeof targetReplicas>[0], RegExp]> = [
            [{ brokers: [0, 1], brokerCount: 2 }, /either brokers or brokerCount, not both/],
            [{}, /give either brokers .* or brokerCount/],
            [{ brokerCount: 0 }, /brokerCount is 0: it must be an integer ≥ 1/],
            [{ brokerCount: 2.5 }, /brokerCount is 2.5/],
            [{ brokers: [] }, /at least one broker/],
            [{ brokers: [0, -1] }, /brokers\[1\] is -1: every broker id must be an integer ≥ 0/],
            [{ brokers: [0, 1.5] }, /brokers\[1\] is 1.5: every broker id must be an integer ≥ 0/],
            [{ brokers: [0, 1, 1] }, /broker 1 is listed twice/],
        ];
        for (const [layout, reason] of refused) {
            assert.throws(() => targetReplicas(layout), reason, JSON.stringify(layout));
        }
    });

    it("refuses a replica count that is not one", () => {
        assert.throws(() => planBrokerReplicas(undefined, { brokerCount: 3 }), /\.spec\.replicas is undefined, not a replica count/);
        assert.throws(() => planBrokerReplicas(-1, { brokerCount: 3 }), /\.spec\.replicas is -1/);
    });
});
