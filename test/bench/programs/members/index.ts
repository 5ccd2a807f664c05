// Benchmark program: `count` OrganizationMembers person0@example.com … with the credentials from stack config.
import * as pulumi from "@pulumi/pulumi";
import { OrganizationMember } from "pulumi-platform";

const count = new pulumi.Config().requireNumber("count");
const members = Array.from({ length: count }, (_, i) => new OrganizationMember(`person${i}`, { email: `person${i}@example.com`, roles: ["developer"] }));

export const pending = members.map((member) => member.invitePending);
