// The first part of every GitOps controller's story on the real control plane: with the controller's marks on the
// StatefulSet and its object unreadable, preview names it and refuses to move the count from 3, and `up --skip-preview`
// refuses too, sending nothing; the count stays.
import assert from "node:assert/strict";
import { failed, printed } from "../provider/clusterScaleSupport";
import type { RealCluster } from "./realCluster";

export async function refusedWithoutRecipe(cluster: RealCluster, said: { deployedBy: string; cannotRead: string; refusal: RegExp }): Promise<void> {
    const grow = { brokerCount: 5, kubernetes: cluster.route };
    const preview = await cluster.run("preview", grow);
    assert.ok(printed(preview, said.deployedBy, said.cannotRead), preview.result.stdout);
    assert.match(failed(preview), said.refusal);
    const refused = await cluster.run("up", grow, { skipPreview: true });
    assert.match(failed(refused), /Nothing was sent\./);
    assert.equal(await cluster.replicas(), 3);
}
