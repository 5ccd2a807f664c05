// A pipeline's `up` killed (SIGKILL of the CLI's process group) at each stage of the work: see ../stoppedUps.ts.
import { describeStoppedUps } from "../stoppedUps";

describeStoppedUps("SIGKILL");
