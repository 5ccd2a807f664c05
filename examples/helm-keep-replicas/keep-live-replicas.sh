#!/bin/sh
# A Helm post-renderer that keeps the brokers' count ClusterScale set: it writes the StatefulSet's live spec.replicas
# into the manifest Helm is about to apply, so Helm's three-way merge has nothing to change there. With no live
# StatefulSet yet (the first install), the chart's count passes through.
#
#   helm upgrade camunda camunda/camunda-platform --reuse-values \
#     --post-renderer ./keep-live-replicas.sh --post-renderer-args camunda --post-renderer-args camunda-zeebe
#
# Arguments: the namespace and the StatefulSet's name. Needs kubectl with the same access as helm (KUBECONFIG).
set -eu
namespace=$1
statefulset=$2
live=$(kubectl get statefulset "$statefulset" --namespace "$namespace" -o 'jsonpath={.spec.replicas}' 2>/dev/null || true)
if [ -z "$live" ]; then
  exec cat
fi
# Only the `replicas:` of that StatefulSet's spec: documents are split by `---`; kind and metadata.name come before spec.
exec awk -v live="$live" -v name="$statefulset" '
  /^---/ { kind = ""; named = ""; seen_name = 0 }
  /^kind:/ { kind = $2 }
  /^  name:/ && !seen_name { named = $2; gsub(/"/, "", named); seen_name = 1 }
  /^  replicas:/ && kind == "StatefulSet" && named == name { print "  replicas: " live; next }
  { print }
'
