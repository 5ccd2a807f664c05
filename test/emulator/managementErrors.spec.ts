// The error catalogue of the reference (§3) and bad input: each request gets the reference's status
// and body, and none of them changes the cluster.

import { strict as assert } from "node:assert";
import { CLUSTER, HttpResult, emulatorApi, http, useEmulator } from "./harness";
import { ResetBody } from "./index";

describe("emulator: management API errors and bad input", () => {
    const emulator = useEmulator();
    const api = emulatorApi(emulator, { brokers: 3, partitions: 3, replicationFactor: 3 });
    const { management, control } = api;
    let before: string;

    async function reset(body: ResetBody = {}): Promise<void> {
        await api.reset(body);
        before = (await http("GET", management())).text;
    }

    function assertMessage(result: HttpResult, status: number, message: string): void {
        assert.equal(result.status, status, result.text);
        assert.match(result.headers.get("content-type") ?? "", /application\/json/);
        assert.deepEqual(result.json, { message });
    }

    function assertSpringError(result: HttpResult, status: number, path: string): void {
        assert.equal(result.status, status, result.text);
        assert.equal(result.json.status, status);
        assert.equal(result.json.path, path);
        assert.equal(typeof result.json.error, "string");
        assert.equal(typeof result.json.timestamp, "string");
    }

    afterEach(async () => {
        // Whatever was sent, the cluster is exactly as before and still answers.
        const after = await http("GET", management());
        assert.equal(after.status, 200);
        if (before !== undefined) assert.equal(after.text, before);
    });

    describe("plan validation (400)", () => {
        beforeEach(() => reset());

        it("an empty broker list", async () => {
            assertMessage(
                await http("POST", management("/brokers"), { body: [] }),
                400,
                "java.lang.IllegalArgumentException: Cannot reassign partitions if no brokers are provided",
            );
        });

        it("a replication factor of 0", async () => {
            assertMessage(
                await http("POST", management("/brokers?replicationFactor=0"), { body: [0, 1, 2] }),
                400,
                "Replication factor [0] must be greater than 0",
            );
            assertMessage(
                await http("PATCH", management(), { body: { partitions: { replicationFactor: 0 } } }),
                400,
                "Replication factor [0] must be greater than 0",
            );
        });

        it("fewer brokers than the replication factor", async () => {
            assertMessage(
                await http("PATCH", management(), { body: { brokers: { count: 2 } } }),
                400,
                "Number of brokers [2] is less than the replication factor [3]",
            );
            assertMessage(
                await http("POST", management("/brokers?replicationFactor=4"), { body: [0, 1, 2] }),
                400,
                "Number of brokers [3] is less than the replication factor [4]",
            );
        });

        it("a lower partition count (partition scaling on)", async () => {
            await reset({ partitionScaling: true });
            assertMessage(
                await http("PATCH", management(), { body: { partitions: { count: 2 } } }),
                400,
                "New partition count [2] must be greater than or equal to the current partition count [3]",
            );
        });

        it("count together with add or remove, and the same broker added and removed", async () => {
            assertMessage(
                await http("PATCH", management(), { body: { brokers: { count: 4, add: [3] } } }),
                400,
                "Cannot change brokers count and add/remove brokers at the same time. Specify either the new brokers count or brokers to add and remove.",
            );
            assertMessage(
                await http("PATCH", management(), { body: { brokers: { add: [3, 4], remove: [4] } } }),
                400,
                "java.lang.IllegalArgumentException: Cannot add and remove the same member in the same request",
            );
        });

        it("joining a partition that does not exist, on a non-member, or twice", async () => {
            assertMessage(
                await http("POST", management("/brokers/0/partitions/9"), { body: { priority: 1 } }),
                400,
                "java.lang.IllegalStateException: Expected to join partition 9, but partition has no active members",
            );
            assertMessage(
                await http("POST", management("/partitions/1/brokers/7"), { body: { priority: 1 } }),
                400,
                "java.lang.IllegalStateException: Expected to join partition, but the local member is not active",
            );
            assertMessage(
                await http("POST", management("/brokers/0/partitions/1"), { body: { priority: 1 } }),
                400,
                "java.lang.IllegalStateException: Expected to join partition 1, but the local member already has the partition at state ACTIVE",
            );
        });

        it("leaving a partition the broker lacks, or its last replica", async () => {
            await reset({ replicationFactor: 1 });
            assertMessage(
                await http("DELETE", management("/brokers/0/partitions/2"), { headers: { "content-type": "application/json" } }),
                400,
                "java.lang.IllegalStateException: Expected to leave partition, but the local member does not have the partition 2",
            );
            assertMessage(
                await http("DELETE", management("/partitions/1/brokers/0"), { headers: { "content-type": "application/json" } }),
                400,
                "java.lang.IllegalStateException: Expected to leave partition, but the partition 1 has only one replica",
            );
        });

        it("removing a broker that still has partitions", async () => {
            assertMessage(
                await http("DELETE", management("/brokers/1")),
                400,
                "java.lang.IllegalStateException: Expected to remove member 1, but the member still has partitions assigned. Partitions: [1, 2, 3]",
            );
        });

        it("force scale-down with a replication factor", async () => {
            assertMessage(
                await http("POST", management("/brokers?force=true&replicationFactor=2"), { body: [0, 1] }),
                400,
                "The replication factor cannot be changed to requested value '2' during force scale down. It will be automatically changed based on which brokers are removed. Do not provide any replication factor in the request",
            );
        });
    });

    describe("partition scaling switched off (500)", () => {
        beforeEach(() => reset());

        it("refuses any request carrying partitions.count, even the current count", async () => {
            for (const body of [{ partitions: { count: 3 } }, { partitions: { count: 6 } }, { brokers: { add: [3] }, partitions: { count: 4 } }]) {
                assertMessage(
                    await http("PATCH", management("?dryRun=true"), { body }),
                    500,
                    "java.lang.UnsupportedOperationException: Partition scaling is not enabled.",
                );
            }
        });
    });

    describe("cancellation", () => {
        beforeEach(() => reset());

        it("without a change in progress, with a wrong id, a non-numeric id, or as a dry run", async () => {
            assertMessage(await http("DELETE", management("/changes/2")), 400, "Cannot cancel change 2 because no change is in progress");
            assertMessage(await http("DELETE", management("/changes/abc")), 400, "Change id must be a number");
            const dryRun = await http("DELETE", management("/changes/2?dryRun=true"));
            assert.equal(dryRun.status, 501);
            assert.equal(dryRun.text, "Dry run is not supported for cancelling changes");

            await http("POST", management("/brokers/3")); // broker 3 is not running: the change stalls
            assertMessage(await http("DELETE", management("/changes/7")), 400, "Cannot cancel change 7 because it is not the current change");
            assert.equal((await http("DELETE", management("/changes/2"))).status, 200);
            before = (await http("GET", management())).text;
        });
    });

    describe("a change in progress (409) and empty plans (202)", () => {
        beforeEach(() => reset());

        it("refuses every non-empty mutation, dry runs included, but answers empty plans", async () => {
            const stalled = await http("POST", management("/brokers/3"));
            assert.equal(stalled.status, 202);
            assert.equal(stalled.json.changeId, 2);
            before = (await http("GET", management())).text;

            const conflicts = [
                await http("POST", management("/brokers?dryRun=true"), { body: [0, 1, 2, 3, 4] }),
                await http("POST", management("/brokers?replicationFactor=2"), { body: [0, 1, 2] }),
                await http("PATCH", management("?dryRun=true"), { body: { brokers: { add: [4] } } }),
                await http("DELETE", management("/brokers/2?dryRun=true")),
                await http("POST", management("/brokers/4")),
                await http("PATCH", management("?force=true"), { body: { brokers: { remove: [2] } } }),
            ];
            for (const conflict of conflicts) {
                assert.equal(conflict.status, 409, conflict.text);
                assert.match(conflict.json.message, /^Cannot apply configuration change\. Another configuration change \[.*\] is in progress\.$/s);
            }

            // Empty plans are answered before the conflict check, against the mid-change configuration.
            for (const empty of [
                await http("DELETE", management("/brokers/9")),
                await http("DELETE", management("/brokers/abc")),
                await http("PATCH", management(), { body: {} }),
                await http("POST", management("/brokers/1")),
                await http("POST", management("/brokers"), { body: [0, 1, 2] }),
            ]) {
                assert.equal(empty.status, 202, empty.text);
                assert.equal(empty.json.changeId, 0);
                assert.deepEqual(empty.json.plannedChanges, []);
                assert.deepEqual(empty.json.currentTopology, empty.json.expectedTopology);
            }
        });
    });

    describe("what the web framework answers", () => {
        beforeEach(() => reset());

        it("415 for a body that is not declared as JSON", async () => {
            assertSpringError(
                await http("POST", management("/brokers"), { rawBody: "[0,1]", headers: { "content-type": "text/plain" } }),
                415,
                `${CLUSTER}/brokers`,
            );
            assertSpringError(await http("POST", management("/brokers"), { rawBody: "[0,1]" }), 415, `${CLUSTER}/brokers`);
            assertSpringError(
                await http("PATCH", management(), { rawBody: "{}", headers: { "content-type": "application/x-www-form-urlencoded" } }),
                415,
                CLUSTER,
            );
            assertSpringError(await http("DELETE", management("/brokers/0/partitions/1")), 415, `${CLUSTER}/brokers/0/partitions/1`);
        });

        it("400 for malformed or mistyped bodies and parameters", async () => {
            const json = { "content-type": "application/json" };
            const cases: [string, string, string | undefined][] = [
                ["POST", "/brokers", "[0, 1"],
                ["POST", "/brokers", '["a"]'],
                ["POST", "/brokers", "[0.5]"],
                ["POST", "/brokers", '{"brokers":[0]}'],
                ["POST", "/brokers", ""],
                ["POST", "/brokers?dryRun=maybe", "[0,1,2]"],
                ["POST", "/brokers?replicationFactor=two", "[0,1,2]"],
                ["PATCH", "", "{"],
                ["PATCH", "", "[]"],
                ["PATCH", "", '{"brokers":{"add":"3"}}'],
                ["PATCH", "", '{"brokers":[3]}'],
                ["PATCH", "", '{"partitions":{"replicationFactor":"x"}}'],
                ["POST", "/brokers/abc", undefined],
                ["POST", "/nodes", "[0]"],
                ["POST", "/brokers/x/partitions/1", '{"priority":1}'],
                ["POST", "/brokers/0/partitions/1", '{"priority":"high"}'],
            ];
            for (const [method, path, rawBody] of cases) {
                const result = await http(method, management(path), { rawBody, headers: json });
                assertSpringError(result, 400, `${CLUSTER}${path.split("?")[0]}`);
            }
        });

        it("404 and 405 for unknown paths and methods", async () => {
            assertSpringError(await http("GET", `${emulator().managementUrl}/actuator/clusters`), 404, "/actuator/clusters");
            assertSpringError(await http("GET", `${emulator().managementUrl}/`), 404, "/");
            assertSpringError(await http("GET", management("/a/b/c")), 404, `${CLUSTER}/a/b/c`);
            assertSpringError(await http("PUT", management()), 405, CLUSTER);
            assertSpringError(await http("GET", management("/brokers")), 405, `${CLUSTER}/brokers`);
            const json = { "content-type": "application/json" };
            const combo = await http("POST", management("/brokers/1/brokers/2"), { rawBody: "{}", headers: json });
            assert.equal(combo.status, 404);
            assert.equal(combo.text, "");
            assert.equal((await http("DELETE", management("/changes/1/partitions/2"), { headers: json })).status, 404);
        });

        it("501 plain-text stubs", async () => {
            const json = { "content-type": "application/json" };
            const stubs: [string, string, string | undefined, string][] = [
                ["POST", "/partitions/1", undefined, "Adding partitions is not supported"],
                ["POST", "/changes/1", undefined, "Changing cluster directly is not supported. Use POST /cluster/brokers for scaling the cluster"],
                ["DELETE", "/partitions/1", undefined, "Removing partitions is not supported"],
                ["POST", "/partitions", "[1]", "Scaling partitions is not supported"],
                ["POST", "/changes", "[1]", "Changing cluster directly is not supported. Use POST /cluster/brokers for scaling the cluster"],
            ];
            for (const [method, path, rawBody, text] of stubs) {
                const result = await http(method, management(path), { rawBody, headers: rawBody === undefined ? {} : json });
                assert.equal(result.status, 501, `${method} ${path}`);
                assert.equal(result.text, text);
                assert.match(result.headers.get("content-type") ?? "", /^text\/plain/);
            }
        });
    });

    describe("an unreachable coordinator (502)", () => {
        beforeEach(() => reset());
        after(() => http("POST", control("/brokers/0/start")));

        it("answers 502 while the lowest broker is down, for reads and writes", async () => {
            await http("POST", control("/brokers/0/stop"));
            const read = await http("GET", management());
            assert.equal(read.status, 502);
            assert.match(read.json.message, /broker 0/);
            assert.equal((await http("POST", management("/brokers?dryRun=true"), { body: [0, 1, 2, 3] })).status, 502);
            assert.equal((await http("PATCH", management(), { body: { brokers: { add: [3] } } })).status, 502);
            // A force request goes to the lowest retained broker, which is up.
            assert.equal((await http("PATCH", management("?force=true&dryRun=true"), { body: { brokers: { remove: [0] } } })).status, 202);
            await http("POST", control("/brokers/0/start"));
        });
    });
});
