// The Kubernetes stand-in runs pods as brokers: the StatefulSet's /scale subresource, pods and their watch streams,
// claims, RBAC per resource and verb, the faults a test injects, and kubectl against it.
import { strict as assert } from "node:assert";
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as https from "node:https";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { BROKER_NAMESPACE, BROKER_STATEFUL_SET, BrokerPods, OPERATOR_RULES, startBrokerPods } from "../support/brokerPods";
import { BrokerWorkloads } from "./brokerWorkloads";
import { useEmulator } from "../support/emulator";
import { KubeApiServer } from "./kubeApiServer";
import { http, waitFor } from "./harness";

const NAMESPACE = BROKER_NAMESPACE;
const STS = BROKER_STATEFUL_SET;
const STS_PATH = `/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets/${STS}`;
const SCALE_PATH = `${STS_PATH}/scale`;
const PODS_PATH = `/api/v1/namespaces/${NAMESPACE}/pods`;
const CLAIMS_PATH = `/api/v1/namespaces/${NAMESPACE}/persistentvolumeclaims`;

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- Kubernetes objects, read field by field

describe("emulator: the Kubernetes stand-in runs pods as brokers", function () {
    this.timeout(30_000);
    const emulator = useEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 10 });
    let pods: BrokerPods;
    let workloads: BrokerWorkloads;
    let server: KubeApiServer;
    let operator: { token: string; kubeconfig: string };
    let viewer: { token: string; kubeconfig: string };

    beforeEach(async () => {
        pods = await startBrokerPods(emulator().control, { replicas: 3 });
        ({ workloads, server } = pods);
        operator = pods.user(OPERATOR_RULES, "operator");
        viewer = pods.user({ statefulsets: ["get"], "statefulsets/scale": ["get"], pods: ["get", "list"] }, "viewer");
    });
    afterEach(() => pods.stop());

    const kube = (method: string, target: string, body?: unknown, token = operator.token, contentType = "application/json") =>
        new Promise<{ status: number; json: Json }>((resolve, reject) => {
            const request = https.request(
                new URL(target, server.url),
                { method, ca: pods.tls.caCertificate, headers: { authorization: `Bearer ${token}`, "content-type": contentType } },
                (response) => {
                    const chunks: Buffer[] = [];
                    response.on("data", (chunk: Buffer) => chunks.push(chunk));
                    response.on("end", () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString("utf8") || "null") }));
                },
            );
            request.on("error", reject);
            request.end(body === undefined ? undefined : JSON.stringify(body));
        });
    const pod = async (ordinal: number): Promise<Json> => (await kube("GET", `${PODS_PATH}/${STS}-${ordinal}`)).json;
    const ready = (object: Json) => object.status.conditions.find((condition: Json) => condition.type === "Ready").status === "True";

    it("serves the StatefulSet's scale with its resourceVersion, the pods of the brokers (Ready) and their claims", async () => {
        const scale = await kube("GET", SCALE_PATH);
        assert.equal(scale.status, 200);
        assert.equal(scale.json.kind, "Scale");
        assert.equal(scale.json.apiVersion, "autoscaling/v1");
        assert.equal(scale.json.spec.replicas, 3);
        assert.match(scale.json.metadata.resourceVersion, /^\d+$/);
        const pods = await kube("GET", `${PODS_PATH}?labelSelector=app.kubernetes.io/component%3Dzeebe-broker`);
        assert.deepEqual(
            pods.json.items.map((item: Json) => [item.metadata.name, ready(item)]),
            [0, 1, 2].map((ordinal) => [`${STS}-${ordinal}`, true]),
        );
        const claims = await kube("GET", CLAIMS_PATH);
        assert.deepEqual(
            claims.json.items.map((item: Json) => item.metadata.name),
            ["data-platform-zeebe-0", "data-platform-zeebe-1", "data-platform-zeebe-2"],
        );
        const statefulSet = await kube("GET", `/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets/${STS}`);
        assert.equal(statefulSet.json.spec.volumeClaimTemplates[0].metadata.name, "data");
        assert.equal(statefulSet.json.spec.persistentVolumeClaimRetentionPolicy.whenScaled, "Retain");
    });

    it("a new pod's broker runs but is not Ready until the change gives it partitions, as the engine's readiness check has it", async () => {
        const { json: scale } = await kube("GET", SCALE_PATH);
        const raised = await kube("PUT", SCALE_PATH, { ...scale, spec: { replicas: 4 } });
        assert.equal(raised.status, 200, JSON.stringify(raised.json));
        const started = await waitFor(async () => {
            const candidate = await pod(3);
            return candidate.status.containerStatuses[0].started ? candidate : undefined;
        }, "pod 3's container to start");
        assert.equal(ready(started), false, "a broker that is no member yet reports ready");
        assert.ok((emulator().control.state() as { running: number[] }).running.includes(3), "the pod's broker does not run");
        assert.equal((await kube("GET", `${CLAIMS_PATH}/data-${STS}-3`)).status, 200, "the new pod's claim was not created");

        const plan = await http("POST", `${emulator().managementUrl}/actuator/cluster/brokers`, { body: [0, 1, 2, 3] });
        assert.equal(plan.status, 202, plan.text);
        await waitFor(async () => (ready(await pod(3)) ? true : undefined), "pod 3 to become Ready once its partitions are installed");
    });

    it("with podManagementPolicy OrderedReady, one pod at a time: the next only once the lower ones are Ready, the highest removed first", async () => {
        await pods.stop();
        pods = await startBrokerPods(emulator().control, { replicas: 3, podManagementPolicy: "OrderedReady", terminationMs: 300 });
        ({ workloads, server } = pods);
        operator = pods.user(OPERATOR_RULES, "operator");
        assert.equal((await kube("GET", `/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets/${STS}`)).json.spec.podManagementPolicy, "OrderedReady");
        assert.equal((await kube("PATCH", SCALE_PATH, { spec: { replicas: 5 } }, operator.token, "application/merge-patch+json")).status, 200);
        await waitFor(async () => ((await pod(3)).status.containerStatuses[0].started ? true : undefined), "pod 3's container to start");
        assert.equal((await kube("GET", `${PODS_PATH}/${STS}-4`)).status, 404, "pod 4 was created before pod 3 was Ready");

        const plan = await http("POST", `${emulator().managementUrl}/actuator/cluster/brokers`, { body: [0, 1, 2, 3] });
        assert.equal(plan.status, 202, plan.text);
        await waitFor(async () => ((await kube("GET", `${PODS_PATH}/${STS}-4`)).status === 200 ? true : undefined), "pod 4 once pod 3 is Ready");

        assert.equal((await kube("PATCH", SCALE_PATH, { spec: { replicas: 3 } }, operator.token, "application/merge-patch+json")).status, 200);
        const deleting = (ordinal: number) => pod(ordinal).then((candidate) => candidate.metadata.deletionTimestamp !== undefined);
        assert.deepEqual([await deleting(3), await deleting(4)], [false, true], "pod 4 is removed first, pod 3 after it");
        await waitFor(async () => ((await kube("GET", `${PODS_PATH}/${STS}-3`)).status === 404 ? true : undefined), "pod 3 to go after pod 4");
        assert.equal((await kube("GET", `${PODS_PATH}/${STS}-4`)).status, 404);
    });

    it("a write with a stale resourceVersion is a 409 Conflict; a fresh read then succeeds", async () => {
        server.workloadApi!.concurrentWriterOnce = true;
        const { json: scale } = await kube("GET", SCALE_PATH); // someone else writes right after this read
        const stale = await kube("PUT", SCALE_PATH, { ...scale, spec: { replicas: 3 } });
        assert.equal(stale.status, 409);
        assert.equal(stale.json.reason, "Conflict");
        assert.match(stale.json.message, /Operation cannot be fulfilled on statefulsets.apps "platform-zeebe": the object has been modified/);
        const { json: fresh } = await kube("GET", SCALE_PATH);
        assert.equal((await kube("PUT", SCALE_PATH, { ...fresh, spec: { replicas: 3 } })).status, 200);
        const patched = await kube("PATCH", SCALE_PATH, { spec: { replicas: 3 } }, operator.token, "application/merge-patch+json");
        assert.equal(patched.status, 200);
    });

    it("a write through /scale takes spec.replicas over: the managers that owned it before no longer show in managedFields", async () => {
        pods.workloads.otherReplicaManagers.push({ manager: "helm", operation: "Update" });
        const owners = async () =>
            ((await kube("GET", STS_PATH)).json.metadata.managedFields as { manager: string; fieldsV1: { "f:spec"?: { "f:replicas"?: object } } }[])
                .filter((entry) => entry.fieldsV1["f:spec"]?.["f:replicas"] !== undefined)
                .map((entry) => entry.manager);
        assert.deepEqual(await owners(), ["helm"]);
        const { json: scale } = await kube("GET", SCALE_PATH);
        assert.equal((await kube("PUT", `${SCALE_PATH}?fieldManager=pulumi-platform`, { ...scale, spec: { replicas: 3 } })).status, 200);
        assert.deepEqual(await owners(), ["pulumi-platform"]);
    });

    it("a watch from a resourceVersion streams what changed after it: the new pod added, started, then removed again", async () => {
        const { json: list } = await kube("GET", PODS_PATH);
        const events: Json[] = [];
        const stream = https.request(new URL(`${PODS_PATH}?watch=true&resourceVersion=${list.metadata.resourceVersion}`, server.url), {
            ca: pods.tls.caCertificate,
            headers: { authorization: `Bearer ${operator.token}` },
        });
        stream.on("response", (response) => {
            let buffered = "";
            response.on("data", (chunk: Buffer) => {
                buffered += chunk.toString("utf8");
                const lines = buffered.split("\n");
                buffered = lines.pop() ?? "";
                for (const line of lines) if (line.trim()) events.push(JSON.parse(line));
            });
        });
        stream.on("error", () => undefined); // destroyed below
        stream.end();
        await kube("PATCH", SCALE_PATH, { spec: { replicas: 4 } }, operator.token, "application/merge-patch+json");
        await waitFor(
            async () => (events.some((event) => event.type === "MODIFIED" && event.object.status.containerStatuses[0].started) ? true : undefined),
            "a started event",
        );
        await kube("PATCH", SCALE_PATH, { spec: { replicas: 3 } }, operator.token, "application/merge-patch+json");
        await waitFor(async () => (events.some((event) => event.type === "DELETED") ? true : undefined), "a deleted event");
        stream.destroy();
        assert.deepEqual(
            events.map((event) => [event.type, event.object.metadata.name]).filter(([type]) => type !== "MODIFIED"),
            [
                ["ADDED", `${STS}-3`],
                ["DELETED", `${STS}-3`],
            ],
        );
        assert.ok(
            events.some((event) => event.type === "MODIFIED" && event.object.metadata.deletionTimestamp),
            "no event marked the pod for deletion",
        );
    });

    it("lowering replicas before the brokers left records their replicas as lost; claims stay, and deleting one removes it", async () => {
        await kube("PATCH", SCALE_PATH, { spec: { replicas: 2 } }, operator.token, "application/merge-patch+json");
        await waitFor(async () => ((await kube("GET", `${PODS_PATH}/${STS}-2`)).status === 404 ? true : undefined), "pod 2 to go");
        assert.deepEqual(workloads.lost, [{ brokerId: 2, partitions: [1, 2, 3] }]);
        assert.equal((await kube("GET", `${CLAIMS_PATH}/data-${STS}-2`)).status, 200, "the claim was not retained");
        const deleted = await kube("DELETE", `${CLAIMS_PATH}/data-${STS}-2`);
        assert.equal(deleted.status, 200);
        assert.equal((await kube("GET", `${CLAIMS_PATH}/data-${STS}-2`)).status, 404);
    });

    it("a pod whose image cannot be pulled waits with the reason, and its broker never starts", async () => {
        workloads.neverStarting.set(3, { reason: "ImagePullBackOff", message: 'Back-off pulling image "camunda/camunda:8.9.16"' });
        await kube("PATCH", SCALE_PATH, { spec: { replicas: 4 } }, operator.token, "application/merge-patch+json");
        const waiting = await waitFor(async () => {
            const candidate = await pod(3);
            return candidate.status.containerStatuses[0].state.waiting?.reason === "ImagePullBackOff" ? candidate : undefined;
        }, "pod 3 to wait on its image");
        assert.equal(waiting.status.phase, "Pending");
        assert.ok(!(emulator().control.state() as { running: number[] }).running.includes(3));
    });

    it("RBAC is per resource and verb: the refusal names both, as the API server's 403 does", async () => {
        const refused = await kube("PATCH", SCALE_PATH, { spec: { replicas: 4 } }, viewer.token, "application/merge-patch+json");
        assert.equal(refused.status, 403);
        assert.equal(
            refused.json.message,
            'statefulsets.apps "platform-zeebe" is forbidden: User "viewer" cannot patch resource "statefulsets/scale" in API group "apps" in the namespace "camunda"',
        );
        const watch = await kube("GET", `${PODS_PATH}?watch=true`, undefined, viewer.token);
        assert.equal(watch.status, 403);
        assert.match(watch.json.message, /cannot watch resource "pods" in API group ""/);
        const claims = await kube("DELETE", `${CLAIMS_PATH}/data-${STS}-0`, undefined, viewer.token);
        assert.match(claims.json.message, /cannot delete resource "persistentvolumeclaims"/);
    });

    it("kubectl works against it: get (with the API server's columns), scale, get pods -w, get and delete a claim", async () => {
        const directory = fs.mkdtempSync(path.join(os.tmpdir(), "kubectl-"));
        const args = ["--kubeconfig", operator.kubeconfig, "--cache-dir", path.join(directory, "cache"), "-n", NAMESPACE];
        const kubectl = async (...command: string[]) => (await promisify(execFile)("kubectl", [...args, ...command])).stdout;
        const watching = spawn("kubectl", [...args, "get", "pods", "-w"], { stdio: ["ignore", "pipe", "pipe"] });
        let watched = "";
        watching.stdout.on("data", (chunk: Buffer) => (watched += chunk.toString("utf8")));
        try {
            assert.match(await kubectl("get", "statefulset", STS, "-o", "jsonpath={.spec.replicas}"), /^3$/);
            await waitFor(async () => (watched.includes(`${STS}-2`) ? true : undefined), "kubectl get pods -w to list the pods");
            assert.match(watched, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\n/);
            assert.match(watched, new RegExp(`^${STS}-0\\s+1/1\\s+Running\\s+0\\s+\\d+s$`, "m"));
            assert.match(await kubectl("get", "statefulset", STS), new RegExp(`^${STS}\\s+3/3\\s+\\d+s$`, "m"));
            assert.match(await kubectl("scale", "statefulset", STS, "--replicas=4"), /scaled/);
            // Broker 3 is not a member yet: its container starts, and it does not become Ready.
            await waitFor(
                async () => (new RegExp(`^${STS}-3\\s+0/1\\s+Running`, "m").test(watched) ? true : undefined),
                "kubectl get pods -w to show pod 3 running",
            );
            assert.match(watched, new RegExp(`^${STS}-3\\s+0/1\\s+ContainerCreating`, "m"));
            assert.match(await kubectl("get", "statefulset", STS), new RegExp(`^${STS}\\s+3/4\\s`, "m"));
            assert.match(await kubectl("get", "pvc", `data-${STS}-3`), new RegExp(`^data-${STS}-3\\s+Bound\\s+\\S+\\s+1Gi\\s+RWO\\s`, "m"));
            assert.match(await kubectl("scale", "statefulset", STS, "--replicas=3"), /scaled/);
            await waitFor(async () => (!(await kubectl("get", "pods", "-o", "name")).includes(`${STS}-3`) ? true : undefined), "pod 3 to go");
            assert.match(watched, new RegExp(`^${STS}-3\\s+0/1\\s+Terminating`, "m"));
            assert.match(await kubectl("delete", "pvc", `data-${STS}-3`), /deleted/);
            assert.doesNotMatch(await kubectl("get", "pvc", "-o", "name"), new RegExp(`data-${STS}-3`));
        } finally {
            watching.kill();
            fs.rmSync(directory, { recursive: true, force: true });
        }
    });
});
