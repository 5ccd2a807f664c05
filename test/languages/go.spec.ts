// examples/go-cluster's life under the real CLI and the provider plugin (see languageLifecycle.ts).
import { describeLanguage } from "./languageLifecycle";

describeLanguage("go");
