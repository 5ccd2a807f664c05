// The organization's policies called directly, with both type tokens of each resource: protected production clusters,
// closed allowlists, the admin role, API clients' permissions, and the stack policy of a production cluster's allowlist.

import * as assert from "assert";
import { adminRole, closedIpAllowlist, clusterClientPermissions, productionClusterAllowlist, protectProductionCluster, typeTokens } from "../../policy";
import { stackViolations, violations } from "./policyCalls";

const on = (stack: string | undefined) => ({ stackName: () => stack });
const CLUSTER = { name: "orders", channel: "Stable", region: "eu", planType: "Basic" };

describe("the organization's policies", () => {
    for (const type of typeTokens("Cluster")) {
        it(`platform-protect-production-cluster (${type}): a production stack's cluster, or one labelled prod, is protected`, async () => {
            assert.deepStrictEqual(await violations(protectProductionCluster(on("prod")), { type, name: "orders", props: CLUSTER }), [
                'Cluster "orders": protect is not set and it is on stack "prod": set the resource option protect: true (a policy never sees a delete, so protect is what stops one)',
            ]);
            assert.deepStrictEqual(await violations(protectProductionCluster(on("dev")), { type, name: "orders", props: { ...CLUSTER, stageLabel: "prod" } }), [
                'Cluster "orders": protect is not set and its stageLabel is "prod": set the resource option protect: true (a policy never sees a delete, so protect is what stops one)',
            ]);
            assert.deepStrictEqual(await violations(protectProductionCluster(on("prod")), { type, props: CLUSTER, opts: { protect: true } }), []);
            assert.deepStrictEqual(await violations(protectProductionCluster(on("dev")), { type, props: { ...CLUSTER, stageLabel: "dev" } }), []);
            assert.strictEqual((await violations(protectProductionCluster(on(undefined)), { type, props: CLUSTER })).length, 1);
        });
    }

    for (const type of typeTokens("IpAllowlist")) {
        it(`platform-closed-ip-allowlist (${type}): on production, no empty list and no range of every address`, async () => {
            const policy = closedIpAllowlist(on("prod"));
            assert.deepStrictEqual(await violations(policy, { type, name: "office", props: { clusterId: "c-1", entries: [] } }), [
                'IpAllowlist "office": entries is empty on stack "prod": an empty allowlist lifts every restriction; list the addresses that may connect',
            ]);
            const open = { clusterId: "c-1", entries: [{ ip: "10.0.0.0/8" }, { ip: "192.0.2.1, 0.0.0.0/0" }, { ip: "::/0" }] };
            assert.deepStrictEqual(await violations(policy, { type, name: "office", props: open }), [
                'IpAllowlist "office": entries[1].ip has 0.0.0.0/0 on stack "prod": a range of prefix length 0 lets every address in; list the addresses that may connect',
                'IpAllowlist "office": entries[2].ip has ::/0 on stack "prod": a range of prefix length 0 lets every address in; list the addresses that may connect',
            ]);
            assert.deepStrictEqual(
                await violations(policy, { type, props: { clusterId: "c-1", entries: [{ ip: "10.0.0.0/8" }, { ip: "2001:db8::/32" }] } }),
                [],
            );
            assert.deepStrictEqual(await violations(closedIpAllowlist(on("dev")), { type, props: open }), []);
        });
    }

    for (const type of typeTokens("OrganizationMember")) {
        it(`platform-admin-role (${type}): admin only for the emails or domains listed`, async () => {
            const admin = { email: "Ada@Example.com", roles: ["admin", "developer"] };
            assert.deepStrictEqual(await violations(adminRole(), { type, name: "ada", props: admin }), [
                'OrganizationMember "ada": roles gives "admin" to ada@example.com, who is not in allowedEmails ((none)) or allowedDomains ((none))',
            ]);
            assert.deepStrictEqual(await violations(adminRole(), { type, props: admin, config: { allowedDomains: ["example.com"] } }), []);
            assert.deepStrictEqual(await violations(adminRole({ config: { allowedEmails: ["ada@example.com"] } }), { type, props: admin }), []);
            assert.deepStrictEqual(await violations(adminRole(), { type, props: { email: "bob@example.com", roles: ["developer"] } }), []);
            const guarded = await violations(adminRole(), {
                type,
                props: { email: "bob@example.org", roles: ["operationsengineer"] },
                config: { roles: ["admin", "operationsengineer"] },
            });
            assert.match(guarded.join(), /roles gives "operationsengineer" to bob@example.org/);
        });
    }

    for (const type of typeTokens("ClusterClient")) {
        it(`platform-cluster-client-permissions (${type}): only what the client needs, Secrets only where allowed`, async () => {
            const every = { clusterId: "c-1", clientName: "worker", permissions: ["Zeebe", "Operate", "Tasklist", "Optimize", "Secrets"] };
            assert.deepStrictEqual(await violations(clusterClientPermissions(on("prod")), { type, name: "worker", props: every }), [
                'ClusterClient "worker": permissions grants all five (Zeebe, Operate, Tasklist, Optimize, Secrets), as leaving it out does: list only what the client needs',
                'ClusterClient "worker": permissions has Secrets on stack "prod", which is not in secretsAllowedStacks ((none)), for a client not in secretsAllowedClients',
            ]);
            const secrets = { clusterId: "c-1", clientName: "connectors", permissions: ["Zeebe", "Secrets"] };
            assert.strictEqual((await violations(clusterClientPermissions(on("prod")), { type, props: secrets })).length, 1);
            assert.deepStrictEqual(
                await violations(clusterClientPermissions(on("prod")), { type, props: secrets, config: { secretsAllowedClients: ["connectors"] } }),
                [],
            );
            assert.deepStrictEqual(
                await violations(clusterClientPermissions(on("dev")), { type, props: secrets, config: { secretsAllowedStacks: ["dev"] } }),
                [],
            );
            assert.deepStrictEqual(
                await violations(clusterClientPermissions(on("prod")), { type, props: { clusterId: "c-1", clientName: "w", permissions: ["Zeebe"] } }),
                [],
            );
        });
    }

    for (const token of [0, 1]) {
        const [clusterType, allowlistType] = [typeTokens("Cluster")[token], typeTokens("IpAllowlist")[token]];
        it(`platform-production-cluster-allowlist (${clusterType}): a production cluster has an allowlist on it`, async () => {
            const policy = productionClusterAllowlist(on("prod"));
            const cluster = { type: clusterType, name: "orders", props: { ...CLUSTER, clusterId: "c-1" } };
            const missing = await stackViolations(policy, [cluster]);
            assert.deepStrictEqual(missing, [
                {
                    message:
                        'Cluster "orders" has no IpAllowlist in this stack and it is on stack "prod": declare one whose clusterId is this cluster\'s clusterId',
                    urn: `urn:pulumi:stack::project::${clusterType}::orders`,
                },
            ]);
            const byDependency = { type: allowlistType, name: "office", props: { clusterId: "c-1" }, propertyDependencies: { clusterId: ["orders"] } };
            assert.deepStrictEqual(await stackViolations(policy, [cluster, byDependency]), []);
            assert.deepStrictEqual(await stackViolations(policy, [cluster, { type: allowlistType, name: "office", props: { clusterId: "c-1" } }]), []);
            assert.strictEqual((await stackViolations(policy, [cluster, { type: allowlistType, name: "office", props: { clusterId: "c-2" } }])).length, 1);
            assert.deepStrictEqual(await stackViolations(productionClusterAllowlist(on("dev")), [cluster]), []);
            assert.strictEqual(
                (await stackViolations(productionClusterAllowlist(on("dev")), [{ ...cluster, props: { ...cluster.props, stageLabel: "prod" } }])).length,
                1,
            );
        });
    }
});
