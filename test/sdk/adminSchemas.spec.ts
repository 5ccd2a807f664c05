// The administration API's answers as the SDK reads them: every shape of the reference decodes, a value of an
// enumeration unknown today decodes as itself (a new role, status or permission breaks no program), null reads as
// absent, and a wrong type is refused naming where, never the value.
import assert from "node:assert/strict";
import {
    auditEventSchema,
    backupSchema,
    clusterClientDetailsSchema,
    clusterClientListSchema,
    clusterSchema,
    connectorSecretsSchema,
    createdClusterClientSchema,
    generationUpgradeSchema,
    ipRangesSchema,
    memberListSchema,
    monitoringClientSchema,
    parametersSchema,
    restoreSchema,
    secureConnectivitySchema,
} from "../../sdk/adminSchemas";
import { decoder } from "../../sdk/schemas";

const ref = (name: string) => ({ uuid: `${name}-id`, name });
const CLUSTER = {
    uuid: "c-1",
    name: "orders",
    created: "2026-11-20T10:00:00.000Z",
    ownerId: "owner",
    autoUpdate: true,
    channel: ref("Stable"),
    generation: ref("Camunda 8.9.1"),
    planType: ref("Basic"),
    region: ref("Belgium"),
    labels: ["prod"],
    links: { zeebe: "c-1.bel.zeebe.example:443", operate: "https://bel.operate.example/c-1", identity: null },
    status: { ready: "Healthy", zeebeStatus: "Healthy" },
    ipallowlist: [{ ip: "10.0.0.0/8", description: "office" }],
};

const SAMPLES: [string, Parameters<typeof decoder>[1], unknown][] = [
    ["members", memberListSchema, [{ name: "Ada", email: "ada@example.com", roles: ["owner", "newly-invented-role"], invitePending: false }]],
    ["cluster", clusterSchema, CLUSTER],
    [
        "parameters",
        parametersSchema,
        {
            channels: [{ ...ref("Stable"), defaultGeneration: ref("8.9"), allowedGenerations: [{ ...ref("8.9"), classification: "channel" }] }],
            clusterPlanTypes: [ref("Basic")],
            regions: [{ ...ref("Belgium"), provider: "gcp" }],
        },
    ],
    ["client list", clusterClientListSchema, [{ clientId: "client-1", name: "worker", permissions: ["Zeebe", "SomethingNew"] }]],
    [
        "created client",
        createdClusterClientSchema,
        { uuid: "u", clientId: "client-1", clientSecret: "s", name: "worker", permissions: ["Zeebe"], audience: "zeebe.example" },
    ],
    [
        "client details",
        clusterClientDetailsSchema,
        { ZEEBE_ADDRESS: "a:443", ZEEBE_AUTHORIZATION_SERVER_URL: "https://login/token", ZEEBE_CLIENT_ID: "client-1", name: "worker" },
    ],
    ["secrets", connectorSecretsSchema, { API_KEY: "value" }],
    [
        "upgrade",
        generationUpgradeSchema,
        { cluster: { id: "c-1", name: "orders" }, oldGeneration: { id: "a", name: "8.8" }, newGeneration: { id: "b", name: "8.9" }, orgId: "o" },
    ],
    ["backup", backupSchema, { uuid: "b", name: "nightly", created: "2026-11-20", completed: null, status: "In progress", zeebeStatus: "Complete" }],
    ["restore", restoreSchema, { uuid: "r", backupId: "b", state: "SOMETHING_NEW" }],
    [
        "audit event",
        auditEventSchema,
        { audit: "a", auditType: "c", entity: "cluster", entityId: "c-1", orgId: "o", service: "console", userId: "u", timestamp: 1 },
    ],
    [
        "monitoring client",
        monitoringClientSchema,
        { uuid: "m", name: "grafana", username: "g", created: "x", createdBy: "u", createdByName: "Ada", lastUsed: null, password: "p" },
    ],
    ["secure connectivity", secureConnectivitySchema, { status: {} }],
    ["ip ranges", ipRangesSchema, { "web-modeler": ["203.0.113.0/28"] }],
];

describe("sdk: the administration API's answers (adminSchemas)", () => {
    for (const [name, schema, sample] of SAMPLES) {
        it(`${name}: decodes, unknown enumeration values and nulls included`, () => {
            const result = decoder(name, schema)(sample);
            assert.ok(result.ok, result.ok ? "" : result.problem);
        });
    }

    it("keeps a new status or role as it is, reads null as absent, and a stage label from the labels", () => {
        const decoded = clusterSchema.parse({ ...CLUSTER, status: { ready: "Hibernating" }, description: null });
        assert.equal(decoded.status.ready, "Hibernating");
        assert.equal(decoded.description, undefined);
        assert.equal(decoded.links.identity, undefined);
        assert.deepEqual(memberListSchema.parse([{ name: "", email: "x@example.com", roles: null, invitePending: null }]), [
            { name: "", email: "x@example.com", roles: [], invitePending: false },
        ]);
    });

    it("an absent allowlist stays absent (the feature or the permission is missing), not an empty list", () => {
        const { ipallowlist: _allowlist, ...withoutAllowlist } = CLUSTER;
        assert.equal(clusterSchema.parse(withoutAllowlist).ipallowlist, undefined);
    });

    it("a wrong type is refused naming the field, never the value", () => {
        const result = decoder(
            "created client",
            createdClusterClientSchema,
        )({ clientId: "client-1", clientSecret: 12345678901234, name: "w", permissions: [] });
        assert.equal(result.ok, false);
        assert.match(result.ok ? "" : result.problem, /^created client does not match the expected shape: clientSecret: /);
        assert.ok(!(result.ok ? "" : result.problem).includes("12345678901234"));
    });
});
