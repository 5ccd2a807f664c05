// The ready pack: pulumi preview --policy-pack <this folder> [--policy-pack-config config.json].
// Every policy at its own level; config.example.json shows every setting.
require("../dist/policy/index.js").platformPolicyPack();
