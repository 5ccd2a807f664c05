// test/engine against the real CLI (engineParity.ts): the lifecycle and the failures.
import { describeParity } from "./engineParity";

describeParity("lifecycle and failures", ["the lifecycle", "check failures"]);
