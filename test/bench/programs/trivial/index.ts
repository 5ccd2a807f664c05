// Benchmark program: `count` resources of the trivial provider (its check echoes, its create returns at once).
import * as pulumi from "@pulumi/pulumi";
import { trivialProvider } from "../../trivialProvider";

class Trivial extends pulumi.dynamic.Resource {
    constructor(name: string) {
        super(trivialProvider, name, { value: 1 }, {});
    }
}

const count = new pulumi.Config().requireNumber("count");
export const created = Array.from({ length: count }, (_, i) => new Trivial(`trivial-${i}`)).length;
