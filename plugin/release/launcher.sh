#!/bin/sh
# The provider plugin `platform` of pulumi-platform as the Pulumi CLI installs it from a release (its plugin folder):
# runs the plugin's code with the node on PATH (22.19 or later).
here=$(cd "$(dirname "$0")" && pwd -P)
exec node "$here/dist/provider/plugin/main.js" "$@"
