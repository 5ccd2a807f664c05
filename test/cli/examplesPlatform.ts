// The platform every example runs against under the real CLI (TypeScript and the other languages alike): 3 brokers
// and 6 partitions with partition scaling, brokers 3 and 4 already running (as the pods of a StatefulSet scaled
// beforehand would be), the organization's owner Ada and admin Grace, hosted clusters that come up in 200 ms.
import type { EmulatorOptions } from "../emulator";

export const EXAMPLE_MEMBERS = [
    { name: "Ada Lovelace", email: "ada@example.com", roles: ["owner"], invitePending: false },
    { name: "Grace Hopper", email: "grace@example.com", roles: ["admin"], invitePending: false },
];

export function examplesPlatform(clients: NonNullable<EmulatorOptions["clients"]>): EmulatorOptions {
    return {
        brokers: 3,
        partitions: 6,
        replicationFactor: 3,
        partitionScaling: true,
        running: [0, 1, 2, 3, 4],
        opMs: 10,
        rateLimitBlockSeconds: 0,
        clients,
        members: EXAMPLE_MEMBERS,
        seats: 10,
        clusterCreateMs: 200,
        clusterDeleteMs: 100,
        secretDeleteLagMs: 100,
    };
}
