// Which permissions ClusterScale asks the API server about before a run with kubernetes.statefulSet begins: those of
// the writes and watches it will need once it has begun, and only those (a pure function of the StatefulSet and the
// layout; the reviews themselves are proven against the stand-in and a real API server).
import * as assert from "assert";
import { neededAccess } from "../../provider/clusterScale/kubernetes/accessCheck";
import { BrokerStatefulSet, type StatefulSetView } from "../../sdk/kubernetes/brokerStatefulSet";

const statefulSet = BrokerStatefulSet.at({ namespace: "camunda", statefulSet: "camunda-zeebe" }, { server: "https://api-server.invalid", connection: {} });
const view = (replicas: number): StatefulSetView => ({
    replicas,
    resourceVersion: "1",
    claimTemplates: ["data"],
    claimTemplateSpecs: [{ name: "data", storage: "1Gi" }],
    selectorLabels: { app: "zeebe" },
    whenScaled: "Retain",
    podSelector: "app=zeebe",
    replicaManagers: [],
    annotations: {},
    labels: {},
    managers: [],
    podManagementPolicy: "Parallel",
    firstOrdinal: 0,
});
const asked = (replicas: number, plan: { needed: number; ranReplicas: number; deleteVolumes: boolean }) =>
    neededAccess(statefulSet, view(replicas), plan).map(({ verb, resource, name }) => `${verb} ${resource}${name ? ` ${name}` : ""}`);
const SCALE = ["get statefulsets/scale camunda-zeebe", "update statefulsets/scale camunda-zeebe", "watch pods"];

describe("ClusterScale: the permissions a run asks about before it begins", () => {
    it("nothing to move, nothing owed: no review at all", () => {
        assert.deepStrictEqual(asked(3, { needed: 3, ranReplicas: 3, deleteVolumes: true }), []);
    });

    it("3 → 5: scaling and watching the pods", () => {
        assert.deepStrictEqual(asked(3, { needed: 5, ranReplicas: 3, deleteVolumes: true }), SCALE);
    });

    it('5 → 3 with "retain": scaling and watching, no claim', () => {
        assert.deepStrictEqual(asked(5, { needed: 3, ranReplicas: 5, deleteVolumes: false }), SCALE);
    });

    it('5 → 3 with "delete": also listing claims and deleting each removed broker\'s, by name', () => {
        assert.deepStrictEqual(asked(5, { needed: 3, ranReplicas: 5, deleteVolumes: true }), [
            ...SCALE,
            "list persistentvolumeclaims",
            "delete persistentvolumeclaims data-camunda-zeebe-3",
            "delete persistentvolumeclaims data-camunda-zeebe-4",
        ]);
    });

    it('the resume of an up killed after the scale-down, under "delete": only the claims it still owes', () => {
        assert.deepStrictEqual(asked(3, { needed: 3, ranReplicas: 5, deleteVolumes: true }), [
            "list persistentvolumeclaims",
            "delete persistentvolumeclaims data-camunda-zeebe-3",
            "delete persistentvolumeclaims data-camunda-zeebe-4",
        ]);
    });
});
