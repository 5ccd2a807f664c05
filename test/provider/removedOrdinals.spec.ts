// Which claims volumesOfRemovedBrokers "delete" owes: those of the pods this resource ran and the layout leaves out.
import * as assert from "assert";
import { ranReplicas, removedOrdinals } from "../../provider/clusterScale/kubernetes/removedOrdinals";

describe("ClusterScale: the removed brokers whose claims are deleted", () => {
    const rows: [string, { needed: number; recorded?: number; observed: number }, number[]][] = [
        ["5 → 3: brokers 3 and 4 (a claim of ordinal 7 is no broker this resource ran)", { needed: 3, recorded: 5, observed: 5 }, [3, 4]],
        ["a scale-down under retain left 4 replicas; 4 → 3 under delete: broker 3 only", { needed: 3, recorded: 4, observed: 4 }, [3]],
        ["killed after replicas went 5 → 3, refreshed, resumed: brokers 3 and 4 still", { needed: 3, recorded: 5, observed: 3 }, [3, 4]],
        ["a state written before the count was recorded: the pods this up stops", { needed: 3, observed: 5 }, [3, 4]],
        ["the same state resumed after the kill: nothing it can prove it ran", { needed: 3, observed: 3 }, []],
        ["a scale-up: none", { needed: 5, recorded: 3, observed: 3 }, []],
    ];
    for (const [name, { needed, recorded, observed }, expected] of rows) {
        it(name, () => assert.deepStrictEqual(removedOrdinals(needed, ranReplicas(recorded, observed)), expected));
    }
});
