#!/bin/sh
# Drops spec.replicas of the StatefulSet named by the argument from the manifest Helm is about to apply.
set -eu
exec awk -v name="$1" '
  /^---/ { kind = ""; named = ""; seen_name = 0 }
  /^kind:/ { kind = $2 }
  /^  name:/ && !seen_name { named = $2; gsub(/"/, "", named); seen_name = 1 }
  /^  replicas:/ && kind == "StatefulSet" && named == name { next }
  { print }
'
