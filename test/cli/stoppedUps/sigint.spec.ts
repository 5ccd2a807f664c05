// A pipeline's `up` interrupted (SIGINT, the CLI's own cancel) at each stage of the work: see ../stoppedUps.ts.
import { describeStoppedUps } from "../stoppedUps";

describeStoppedUps("SIGINT");
