// test/engine against the real CLI (engineParity.ts): refresh, stored provider config, import, a killed run.
import { describeParity } from "./engineParity";

describeParity("refresh, provider config, import, kills", ["refresh", "a refresh", "the import", "a run killed"]);
