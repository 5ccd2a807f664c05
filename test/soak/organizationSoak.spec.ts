// The short organization soak CI runs: a fixed seed whose first up is killed while the cluster is Creating (the resume
// up refuses a second cluster and the program takes the one made over by existingClusterId, as the refusal says), then
// a change in the web console followed by a refresh, against an emulator that leaves a cluster's labels out and lists
// pending invitations by email. A failure names the seed, the step, what broke and the command
// that replays it. `npm run soak -- --organization` runs longer ones, any seed; the bench runs a long one.
import * as assert from "assert";
import { describeOrganizationStep, parseSoakArguments } from "./cli";
import { runOrganizationSoak } from "./organization/soak";
import { nextOrganizationStep } from "./organization/steps";
import { Random } from "./random";

describe("soak: the administration resources under random interleavings of programs and faults", function () {
    this.timeout(180_000);

    it("seed 88, 2 steps: every invariant holds after every step, the killed cluster create taken over as the refusal says", async () => {
        const result = await runOrganizationSoak({ seed: 88, steps: 2 });
        const failure = result.failure;
        assert.ok(
            failure === undefined,
            failure &&
                `seed 88, step ${failure.step}:\n${failure.broken.join("\n")}\nreplay: ${failure.replay}\n${result.steps.map(describeOrganizationStep).join("\n")}`,
        );
        // This seed's emulator answers the undocumented the other way: no labels on a cluster, invitations listed by email.
        assert.deepStrictEqual(result.server, { clusterLabels: false, invitationName: "email" });
        const [first, second] = result.steps;
        assert.deepStrictEqual(first.fault, { kind: "kill", at: "clusterCreating", afterMs: 149 });
        assert.match(first.waysOut.join(), /^existingClusterId [0-9a-f-]{36}$/, describeOrganizationStep(first));
        assert.strictEqual(second.fault?.kind, "outside");
    });

    it("the same seed draws the same programs and faults; the command line takes --organization", () => {
        const draw = (seed: number) => {
            const random = new Random(seed);
            let program: ReturnType<typeof nextOrganizationStep>["program"] | undefined;
            return Array.from({ length: 20 }, () => {
                const step = nextOrganizationStep(random, program);
                program = step.program;
                return step;
            });
        };
        assert.deepStrictEqual(draw(5), draw(5));
        assert.notDeepStrictEqual(draw(5), draw(6));
        assert.deepStrictEqual(parseSoakArguments(["--organization", "--seed", "3"]), { seed: 3, steps: 20, organization: true });
        assert.strictEqual(parseSoakArguments([]).organization, false);
    });
});
