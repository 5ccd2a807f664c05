// The second seed of the short soak CI runs (a file of its own, so that the two run side by side): its first steps kill
// ups while their changes run, one of them followed by a refresh, restart a container and fail /scale writes.
import { soakCase } from "./soakCase";

describe("soak: ClusterScale under random interleavings, ups killed among them", function () {
    this.timeout(180_000);
    soakCase(8, 8);
});
