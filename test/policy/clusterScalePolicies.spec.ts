// ClusterScale's policies called directly, with the dynamic resource's type token and the plugin's: what violates,
// what passes, what each message names, and how the stack and the config decide.

import * as assert from "assert";
import { forceRemoval, minimumReplicationFactor, partitionCount, removalLimit, retainRemovedBrokerVolumes, typeTokens } from "../../policy";
import { violations } from "./policyCalls";

const on = (stack: string | undefined) => ({ stackName: () => stack });

for (const type of typeTokens("ClusterScale")) {
    describe(`ClusterScale's policies (${type})`, () => {
        describe("platform-force-removal", () => {
            it("refuses force on a stack not listed, naming the resource, the field, the stack and the rule", async () => {
                const found = await violations(forceRemoval(on("prod")), { type, name: "layout", props: { brokers: [0, 1, 2], force: true } });
                assert.deepStrictEqual(found, [
                    'ClusterScale "layout": force is true on stack "prod", which is not in allowedStacks ((none)): force removal may produce split-brain or an unrecoverable cluster; list the stack in this policy\'s allowedStacks to allow it',
                ]);
            });

            it("allows it on a listed stack (a pattern too) with the survivors named, from the factory's config or the pack's", async () => {
                const props = { brokers: [0, 1, 2], force: true };
                assert.deepStrictEqual(await violations(forceRemoval({ ...on("scratch-7"), config: { allowedStacks: ["scratch-*"] } }), { type, props }), []);
                assert.deepStrictEqual(await violations(forceRemoval(on("dev")), { type, props, config: { allowedStacks: ["dev"] } }), []);
            });

            it("refuses a count with force even where force is allowed", async () => {
                const found = await violations(forceRemoval(on("dev")), { type, props: { brokerCount: 3, force: true }, config: { allowedStacks: ["dev"] } });
                assert.deepStrictEqual(found, [
                    'ClusterScale "under-test": force is true with brokerCount: name the surviving brokers with brokers (their ids), never a count',
                ]);
            });

            it("counts a stack it cannot know as not listed, and has nothing to say without force", async () => {
                const unknown = await violations(forceRemoval({ ...on(undefined), config: { allowedStacks: ["*"] } }), {
                    type,
                    props: { brokers: [0], force: true },
                });
                assert.match(unknown.join(), /a stack whose name is not known here \(counted as production\)/);
                assert.deepStrictEqual(await violations(forceRemoval(on("prod")), { type, props: { brokerCount: 5, force: false } }), []);
            });
        });

        describe("platform-minimum-replication-factor", () => {
            it("on production, wants replicationFactor given and at least 3", async () => {
                const policy = minimumReplicationFactor(on("prod-eu"));
                assert.deepStrictEqual(await violations(policy, { type, name: "layout", props: { brokerCount: 5 } }), [
                    'ClusterScale "layout": replicationFactor is not given on stack "prod-eu": declare it explicitly, at least 3',
                ]);
                assert.deepStrictEqual(await violations(policy, { type, name: "layout", props: { brokerCount: 5, replicationFactor: 2 } }), [
                    'ClusterScale "layout": replicationFactor 2 on stack "prod-eu" is below the minimum 3: a production partition must survive losing a broker',
                ]);
                assert.deepStrictEqual(await violations(policy, { type, props: { brokerCount: 5, replicationFactor: 3 } }), []);
            });

            it("takes the minimum and the production stacks from config, and leaves other stacks and force removals alone", async () => {
                assert.strictEqual(
                    (await violations(minimumReplicationFactor(on("prod")), { type, props: { replicationFactor: 3 }, config: { minimum: 4 } })).length,
                    1,
                );
                assert.deepStrictEqual(
                    await violations(minimumReplicationFactor(on("prod")), { type, props: { replicationFactor: 1 }, config: { productionStacks: ["live"] } }),
                    [],
                );
                assert.strictEqual(
                    (await violations(minimumReplicationFactor(on("live")), { type, props: { replicationFactor: 1 }, config: { productionStacks: ["live"] } }))
                        .length,
                    1,
                );
                assert.deepStrictEqual(await violations(minimumReplicationFactor(on("dev")), { type, props: { replicationFactor: 1 } }), []);
                assert.deepStrictEqual(await violations(minimumReplicationFactor(on("prod")), { type, props: { brokers: [0, 1], force: true } }), []);
            });

            it("counts a stack it cannot know as production", async () => {
                assert.strictEqual((await violations(minimumReplicationFactor(on(undefined)), { type, props: { replicationFactor: 1 } })).length, 1);
            });
        });

        describe("platform-partition-count", () => {
            it("on production, refuses a declared partition count unless config pins exactly it", async () => {
                assert.deepStrictEqual(await violations(partitionCount(on("prod")), { type, name: "layout", props: { partitionCount: 6 } }), [
                    'ClusterScale "layout": partitionCount 6 on stack "prod": partition scaling is experimental and not for production clusters; leave partitionCount out, or pin the cluster\'s count in this policy\'s pinnedPartitionCount',
                ]);
                assert.deepStrictEqual(
                    await violations(partitionCount(on("prod")), { type, props: { partitionCount: 6 }, config: { pinnedPartitionCount: 6 } }),
                    [],
                );
                assert.match(
                    (await violations(partitionCount(on("prod")), { type, props: { partitionCount: 8 }, config: { pinnedPartitionCount: 6 } })).join(),
                    /the pinned count is 6/,
                );
            });

            it("passes without a partition count, and on other stacks", async () => {
                assert.deepStrictEqual(await violations(partitionCount(on("prod")), { type, props: { brokerCount: 3 } }), []);
                assert.deepStrictEqual(await violations(partitionCount(on("dev")), { type, props: { partitionCount: 6 } }), []);
            });
        });

        describe("platform-retain-removed-broker-volumes", () => {
            it('on production, refuses kubernetes.volumesOfRemovedBrokers "delete"', async () => {
                const props = { brokerCount: 3, kubernetes: { namespace: "brokers", statefulSet: "camunda-zeebe", volumesOfRemovedBrokers: "delete" } };
                assert.deepStrictEqual(await violations(retainRemovedBrokerVolumes(on("prod")), { type, name: "layout", props }), [
                    'ClusterScale "layout": kubernetes.volumesOfRemovedBrokers is "delete" on stack "prod": keep removed brokers\' volumes on production ("retain", the default)',
                ]);
                assert.deepStrictEqual(await violations(retainRemovedBrokerVolumes(on("dev")), { type, props }), []);
                const retained = { brokerCount: 3, kubernetes: { namespace: "brokers", volumesOfRemovedBrokers: "retain" } };
                assert.deepStrictEqual(await violations(retainRemovedBrokerVolumes(on("prod")), { type, props: retained }), []);
                assert.deepStrictEqual(await violations(retainRemovedBrokerVolumes(on("prod")), { type, props: { brokerCount: 3 } }), []);
            });
        });

        describe("platform-removal-limit", () => {
            it("on production, asks for maxBrokersRemoved, at most the maximum; elsewhere leaves it to the program", async () => {
                assert.deepStrictEqual(await violations(removalLimit(on("prod")), { type, name: "layout", props: { brokerCount: 5 } }), [
                    'ClusterScale "layout": maxBrokersRemoved is not set on stack "prod": set it, at most 1, so that no change removes more brokers',
                ]);
                assert.deepStrictEqual(await violations(removalLimit(on("prod")), { type, name: "layout", props: { brokerCount: 5, maxBrokersRemoved: 2 } }), [
                    'ClusterScale "layout": maxBrokersRemoved 2 on stack "prod" is above the maximum 1',
                ]);
                assert.deepStrictEqual(
                    await violations(removalLimit(on("prod")), { type, props: { brokerCount: 5, maxBrokersRemoved: 2 }, config: { maximum: 2 } }),
                    [],
                );
                assert.deepStrictEqual(await violations(removalLimit(on("prod")), { type, props: { brokerCount: 5, maxBrokersRemoved: 0 } }), []);
                assert.deepStrictEqual(await violations(removalLimit(on("dev")), { type, props: { brokerCount: 5 } }), []);
            });
        });

        it("every ClusterScale policy leaves the package's other resources and other packages' alone", async () => {
            const props = { force: true, brokerCount: 1, partitionCount: 9, replicationFactor: 1, kubernetes: { volumesOfRemovedBrokers: "delete" } };
            for (const policy of [
                forceRemoval(on("prod")),
                minimumReplicationFactor(on("prod")),
                partitionCount(on("prod")),
                retainRemovedBrokerVolumes(on("prod")),
                removalLimit(on("prod")),
            ]) {
                for (const other of [...typeTokens("Cluster"), "pulumi-nodejs:dynamic:Resource", "kubernetes:apps/v1:StatefulSet"]) {
                    assert.deepStrictEqual(await violations(policy, { type: other, props }), [], `${policy.name} on ${other}`);
                }
            }
        });
    });
}
