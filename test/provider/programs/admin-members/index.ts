// Fixture program: getMembers with the settings from platform:* config or the environment.
import * as pulumi from "@pulumi/pulumi";
import { getMembers } from "pulumi-platform";

export const members = pulumi.output(getMembers());
export const emails = members.apply((list) => list.map((member) => member.email));
