import * as pulumi from "@pulumi/pulumi";
import { ClusterScale } from "pulumi-platform";

const layout = new ClusterScale("cluster", { managementUrl: new pulumi.Config().require("managementUrl"), brokerCount: 3 });
export const changeId = layout.changeId;
