// 1. Bad input: every case fails at preview with an error naming the field and the rule, and the emulator saw no
// request that could change anything (no scale request, no member listing, no token request unless the case
// needs one to find out). One fixture program serves every case (its arguments are JSON config); cases run a few
// at a time.
import * as assert from "assert";
import { LIMITS } from "../../provider/shared/layoutSchema";
import type { RunningEmulator } from "../emulator";
import { CLIENT, Lab, LabStack, Scenario, Section, failed, mutating, once, requestLine, tokenRequests } from "./support";

interface BadInputCase {
    name: string;
    /** ClusterScale arguments (managementUrl: the worker's emulator unless given). */
    scale?: (emulator: RunningEmulator) => Record<string, unknown>;
    auth?: (emulator: RunningEmulator) => Record<string, unknown>;
    admin?: (emulator: RunningEmulator) => Record<string, unknown>;
    adminSecret?: string;
    /** The case starts from the state of an up of `{ brokerCount: 3, partitionCount: 3 }` (old inputs in state). */
    fromState?: boolean;
    /** The field the error must name, and the rule it must state. */
    field: string;
    rule: RegExp;
    /** Token requests the case needs to find out (default none). */
    tokenRequests?: number;
    /** A value that must not be repeated in the product's reason (a password in a URL). */
    hidden?: string;
}

/** Credentials of the cases, as distinctive as the real secret: the leak scan looks for them too. */
const wrongSecret = `${CLIENT.clientSecret}-but-wrong`;
const headerSecret = `hdr-${CLIENT.clientSecret}`;
const brokers3 = { brokerCount: 3 };
const admin = (emulator: RunningEmulator): Record<string, unknown> => ({ clientId: CLIENT.clientId, oauthUrl: emulator.authUrl, baseUrl: emulator.baseUrl });
const port = (url: string): string => new URL(url).port;

const CASES: BadInputCase[] = [
    // ClusterScale: broker ids
    {
        name: "a negative broker id",
        scale: () => ({ brokers: [-1, 0, 1] }),
        field: "brokers",
        rule: /brokers\[0\] is -1: every broker id must be an integer ≥ 0/,
    },
    {
        name: "a fractional broker id",
        scale: () => ({ brokers: [0, 1.5, 2] }),
        field: "brokers",
        rule: /brokers\[1\] is 1\.5: every broker id must be an integer ≥ 0/,
    },
    {
        name: "a huge broker id",
        scale: () => ({ brokers: [0, 1, 2 ** 53 + 2] }),
        field: "brokers",
        rule: /brokers\[2\] is 9007199254740994: every broker id must be an integer ≥ 0/,
    },
    { name: "a duplicate broker id", scale: () => ({ brokers: [0, 1, 1] }), field: "brokers", rule: /broker 1 is listed twice: broker ids must be unique/ },
    { name: "an empty broker list", scale: () => ({ brokers: [] }), field: "brokers", rule: /brokers must name at least one broker/ },
    {
        name: "brokers and brokerCount both",
        scale: () => ({ brokers: [0, 1, 2], brokerCount: 3 }),
        field: "brokerCount",
        rule: /give either brokers or brokerCount, not both/,
    },
    { name: "neither brokers nor brokerCount", scale: () => ({ replicationFactor: 2 }), field: "brokers", rule: /give either brokers .* or brokerCount/ },
    // ClusterScale: replication factor and partitions
    {
        name: "replicationFactor 0",
        scale: () => ({ ...brokers3, replicationFactor: 0 }),
        field: "replicationFactor",
        rule: /replicationFactor is 0: it must be an integer ≥ 1/,
    },
    {
        name: "replicationFactor above the broker count",
        scale: () => ({ ...brokers3, replicationFactor: 4 }),
        field: "replicationFactor",
        rule: /replicationFactor 4 is more than the 3 broker\(s\)/,
    },
    {
        name: "a partition decrease (old inputs in state)",
        fromState: true,
        scale: () => ({ ...brokers3, partitionCount: 2 }),
        field: "partitionCount",
        rule: /partitionCount 2 is below the current 3: partitions can only be added, never removed/,
    },
    {
        name: "a partition decrease (new resource, live cluster)",
        scale: () => ({ ...brokers3, partitionCount: 2 }),
        field: "partitionCount",
        rule: /partitionCount 2 is below the cluster's 3 partitions/,
    },
    // ClusterScale: force
    {
        name: "force with added brokers",
        fromState: true,
        scale: () => ({ brokers: [0, 1, 2, 3], force: true }),
        field: "force",
        rule: /force removal cannot add brokers \(3 is not a member of the cluster\)/,
    },
    {
        name: "force with a replication factor",
        scale: () => ({ ...brokers3, force: true, replicationFactor: 2 }),
        field: "force",
        rule: /force removal cannot change the replication factor/,
    },
    {
        name: "force with a partition change",
        fromState: true,
        scale: () => ({ ...brokers3, force: true, partitionCount: 4 }),
        field: "force",
        rule: /force removal cannot add partitions \(3 → 4\)/,
    },
    // ClusterScale: absurd sizes (limits far above real clusters; without them the provider host ran out of memory)
    {
        name: "a billion brokers",
        scale: () => ({ brokerCount: 1e9 }),
        field: "brokerCount",
        rule: new RegExp(`brokerCount is 1000000000: it must be an integer ≥ 1 and at most ${LIMITS.brokers}`),
    },
    {
        name: "a broker id above the limit",
        scale: () => ({ brokers: [0, 1, 70_000] }),
        field: "brokers",
        rule: new RegExp(`brokers\\[2\\] is 70000: every broker id must be an integer ≥ 0 and at most ${LIMITS.brokerId}`),
    },
    {
        name: "more broker ids than a cluster can have",
        scale: () => ({ brokers: Array.from({ length: 2000 }, (_, i) => i) }),
        field: "brokers",
        rule: new RegExp(`brokers lists 2000 ids: a cluster has at most ${LIMITS.brokers} brokers`),
    },
    {
        name: "a billion partitions",
        scale: () => ({ ...brokers3, partitionCount: 1e9 }),
        field: "partitionCount",
        rule: new RegExp(`partitionCount is 1000000000: it must be an integer ≥ 1 and at most ${LIMITS.partitionCount}`),
    },
    {
        name: "a replication factor of a billion",
        scale: () => ({ ...brokers3, replicationFactor: 1e9 }),
        field: "replicationFactor",
        rule: new RegExp(`replicationFactor is 1000000000: it must be an integer ≥ 1 and at most ${LIMITS.brokers}`),
    },
    {
        name: "a timeout of thirty years",
        scale: () => ({ ...brokers3, timeoutSeconds: 1e9 }),
        field: "timeoutSeconds",
        rule: /timeoutSeconds is 1000000000: it must be a number of seconds > 0 and at most 604800/,
    },
    // ClusterScale: wrong types
    { name: "a string for brokerCount", scale: () => ({ brokerCount: "3" }), field: "brokerCount", rule: /brokerCount is "3": it must be an integer ≥ 1/ },
    { name: "an object for brokers", scale: () => ({ brokers: { first: 0 } }), field: "brokers", rule: /brokers must be a list of broker ids/ },
    // ClusterScale: time limit
    {
        name: "timeoutSeconds 0",
        scale: () => ({ ...brokers3, timeoutSeconds: 0 }),
        field: "timeoutSeconds",
        rule: /timeoutSeconds is 0: it must be a number of seconds > 0/,
    },
    {
        name: "a negative timeoutSeconds",
        scale: () => ({ ...brokers3, timeoutSeconds: -5 }),
        field: "timeoutSeconds",
        rule: /timeoutSeconds is -5: it must be a number of seconds > 0/,
    },
    // ClusterScale: where the API is
    {
        name: "a malformed managementUrl",
        scale: () => ({ ...brokers3, managementUrl: "not a url" }),
        field: "managementUrl",
        rule: /managementUrl must be an absolute http\(s\) origin/,
    },
    {
        name: "a managementUrl with credentials",
        scale: (e) => ({ ...brokers3, managementUrl: `http://admin:pa55-in-url@127.0.0.1:${port(e.managementUrl)}` }),
        field: "managementUrl",
        rule: /managementUrl must be an absolute http\(s\) origin without path, query or credentials/,
        hidden: "pa55-in-url",
    },
    {
        name: "a wrong base path (the server answers 404)",
        scale: () => ({ ...brokers3, basePath: "/orchestration/actuator/cluster" }),
        field: "basePath",
        rule: /no cluster endpoint there .*\/orchestration\/actuator\/cluster/,
    },
    {
        name: "a malformed gatewayUrl",
        scale: () => ({ ...brokers3, gatewayUrl: "gateway:8080" }),
        field: "gatewayUrl",
        rule: /gatewayUrl must be an absolute http\(s\) origin/,
    },
    // ClusterScale: credentials
    {
        name: "auth without a client secret",
        scale: () => brokers3,
        auth: (e) => ({ clientId: CLIENT.clientId, oauthUrl: e.authUrl }),
        field: "auth.clientSecret",
        rule: /auth\.clientSecret is required/,
    },
    {
        name: "auth with headers and a grant",
        scale: () => brokers3,
        auth: () => ({ headers: { "x-api-key": headerSecret }, clientId: CLIENT.clientId }),
        field: "auth",
        rule: /either headers or a client-credentials grant/,
    },
    {
        name: "auth with a malformed oauthUrl",
        scale: () => brokers3,
        auth: () => ({ clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret, oauthUrl: "token endpoint" }),
        field: "auth.oauthUrl",
        rule: /auth\.oauthUrl must be an absolute http\(s\) URL/,
    },
    {
        name: "auth whose credentials the issuer rejects",
        scale: () => brokers3,
        auth: (e) => ({ clientId: CLIENT.clientId, clientSecret: wrongSecret, oauthUrl: e.authUrl, audience: CLIENT.audience }),
        field: "auth",
        rule: /rejected the credentials of client 'reliability-client'/,
        tokenRequests: 1,
    },
    // ClusterScale: TLS
    {
        name: "a tls CA that is not PEM text",
        scale: () => ({ ...brokers3, tls: { caCertificate: "not a certificate" } }),
        field: "tls.caCertificate",
        rule: /tls\.caCertificate must be PEM text/,
    },
    {
        name: "a tls client certificate without its key",
        scale: () => ({ ...brokers3, tls: { clientCertificate: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n" } }),
        field: "tls",
        rule: /tls\.clientCertificate and tls\.clientKey go together/,
    },
    // AdminClient
    {
        name: "AdminClient: an empty clientId",
        admin: (e) => ({ ...admin(e), clientId: "" }),
        adminSecret: CLIENT.clientSecret,
        field: "clientId",
        rule: /clientId must not be empty/,
    },
    {
        name: "AdminClient: a malformed oauthUrl",
        admin: (e) => ({ ...admin(e), oauthUrl: "token-endpoint" }),
        adminSecret: CLIENT.clientSecret,
        field: "oauthUrl",
        rule: /oauthUrl must be an absolute http\(s\) URL/,
    },
    {
        name: "AdminClient: a baseUrl of another scheme",
        admin: (e) => ({ ...admin(e), baseUrl: "ftp://127.0.0.1/admin" }),
        adminSecret: CLIENT.clientSecret,
        field: "baseUrl",
        rule: /baseUrl must be an http or https URL, not ftp:/,
    },
    {
        name: "AdminClient: a baseUrl with credentials",
        admin: (e) => ({ ...admin(e), baseUrl: `http://admin:pa55-in-url@127.0.0.1:${port(e.baseUrl)}` }),
        adminSecret: CLIENT.clientSecret,
        field: "baseUrl",
        rule: /baseUrl must not contain a user name or password/,
        hidden: "pa55-in-url",
    },
    {
        name: "AdminClient: an empty clientSecret",
        admin: (e) => ({ ...admin(e), clientSecret: "" }),
        field: "clientSecret",
        rule: /clientSecret must not be empty/,
    },
    {
        name: "AdminClient: no clientSecret anywhere",
        admin: admin,
        field: "clientSecret",
        rule: /clientSecret is required: set the clientSecret input, stack config platform:clientSecret or environment variable PLATFORM_CONSOLE_CLIENT_SECRET/,
    },
];

/** Cases at once, each worker with its own emulator (so that each case's request log is its own). */
const WORKERS = 3;

export function badInputs(lab: Lab): Section {
    lab.ledger.addSecret("rejected client secret of a bad-input case", wrongSecret);
    lab.ledger.addSecret("header value of a bad-input case", headerSecret);
    const emulators = Array.from({ length: WORKERS }, () => once(() => lab.emulator()));
    // The cases that need old inputs in state start from a copy of one up's state, made on another worker's emulator
    // of the same layout: check refuses a partition decrease on the old inputs alone; what a force removal may not
    // add is refused by its plan, against the live cluster.
    const seed = once(async () => {
        const stack = lab.stack("bad inputs seed");
        const up = await lab.run(await emulators[0](), stack, { command: "up", scale: { brokerCount: 3, partitionCount: 3 } });
        assert.strictEqual(up.result.exitCode, 0, up.result.stdout + up.result.stderr);
        return stack;
    });
    const scenarios: Scenario[] = CASES.map((testCase) => ({
        name: testCase.name,
        run: async (worker) => {
            const label = `bad input ${testCase.name}`;
            const stack = testCase.fromState ? lab.copyStack(await seed(), label) : lab.stack(label);
            await checkCase(lab, await emulators[worker](), stack, testCase);
        },
    }));
    scenarios.push({
        name: `covers at least 30 cases over ClusterScale and AdminClient (${CASES.length})`,
        run: async () => {
            assert.ok(CASES.length >= 30);
            assert.ok(CASES.some((c) => c.admin !== undefined) && CASES.some((c) => c.scale !== undefined));
        },
    });
    return { number: 1, title: "bad input fails at preview, naming the field and the rule, with nothing sent", scenarios, parallel: WORKERS };
}

async function checkCase(lab: Lab, emulator: RunningEmulator, stack: LabStack, testCase: BadInputCase): Promise<void> {
    const run = await lab.run(emulator, stack, {
        command: "preview",
        scale: testCase.scale?.(emulator),
        auth: testCase.auth?.(emulator),
        admin: testCase.admin?.(emulator),
        adminSecret: testCase.adminSecret,
    });
    const errors = failed(run);
    const context = `${run.result.stdout}\n${run.result.stderr}`;
    const named = new RegExp(`(has a problem: ${escape(testCase.field)}\\b|\\b${escape(testCase.field)}: )`);
    assert.match(errors, named, `the error does not name ${testCase.field}\n${context}`);
    assert.match(errors, testCase.rule, context);
    assert.deepStrictEqual(
        run.result.steps.filter((step) => step.op !== "same" && step.type !== "pulumi:pulumi:Stack"),
        [],
        `a step was planned for a resource that failed\n${context}`,
    );
    assert.deepStrictEqual(mutating(run.requests).map(requestLine), [], "a mutating request was sent");
    assert.deepStrictEqual(run.requests.filter((entry) => entry.interface === "admin").map(requestLine), [], "the administration API was called");
    assert.strictEqual(tokenRequests(run.requests).length, testCase.tokenRequests ?? 0, `token requests: ${run.requests.map(requestLine).join(", ")}`);
    if (testCase.hidden !== undefined) {
        // Pulumi's engine would print the value of a failing property: the product names the field, never the property.
        assert.ok(!context.includes(testCase.hidden), "a password given in a URL was printed");
    }
}

function escape(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
