// The brokers' StatefulSet as the API server holds it, read by leaveBrokerReplicasToClusterScale while the program
// registers it. The read is a look before the provider's own, never a condition of it: a kubeconfig that cannot be
// used, an API server that does not answer in time, a refusal or no StatefulSet yet all give undefined, and
// Pulumi's Kubernetes provider goes on as it would without the look.
import { BrokerStatefulSet, type StatefulSetView } from "../../sdk/kubernetes/brokerStatefulSet";
import { resolveApiServer } from "../../sdk/http/kubernetesRoute";

export interface StatefulSetReach {
    /** kubeconfig YAML content or a file path (else stack config kubernetes:kubeconfig, else KUBECONFIG, else ~/.kube/config). */
    kubeconfig?: string;
    /** The kubeconfig context (default: its current-context, or stack config kubernetes:context). */
    context?: string;
}

const READ_TIME_LIMIT_MS = 10_000;

export async function readLiveStatefulSet(
    reach: StatefulSetReach,
    namespace: string,
    statefulSet: string,
): Promise<{ view: StatefulSetView; server: string } | undefined> {
    const signal = AbortSignal.timeout(READ_TIME_LIMIT_MS);
    try {
        const access = await resolveApiServer(reach, { signal });
        const view = await BrokerStatefulSet.at({ namespace, statefulSet }, access).read(signal);
        return { view, server: access.server };
    } catch {
        return undefined;
    }
}
