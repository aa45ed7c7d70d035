#!/usr/bin/env bash
# Issue 28 §2: does the wire-protocol statement writer (apps/api/src/database/prepared-statement.ts)
# still buy >= 10 % over node-postgres' own named statements on the hot reads? This makes the
# other side of that A/B: a copy of HEAD (git archive, sharing this checkout's node_modules) whose
# PreparedStatement.execution() hands every statement to pg's public `query({ name, text, values })`
# (PreparedReads' own fallback), built there. Prints the copy's directory, for bench-cpu's AGAINST:
#
#   AGAINST=$(tools/bench/variant-pg-named.sh) ONLY=interrupt,audit,inbox LOG_LEVEL=info \
#     REQUESTS=20000 ROUNDS=4 npx nx run tools:bench-cpu
#
# "this / other" is the writer's CPU a request over pg's named statements': below 0.90 on a hot
# read, the writer earns its keep. Usage: variant-pg-named.sh [dir] (default /tmp/interlock-pg-named).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-/tmp/interlock-pg-named}
rm -rf "$out"
mkdir -p "$out"
git -C "$root" archive HEAD | tar -x -C "$out"
ln -s "$root/node_modules" "$out/node_modules"
file="$out/apps/api/src/database/prepared-statement.ts"
sed -i 's/^  execution(params: readonly unknown\[\]): StatementExecution | undefined {$/&\n    if (params.length >= 0) return undefined; \/\/ variant-pg-named.sh: pg'"'"'s own named statements/' "$file"
if ! grep -q "variant-pg-named.sh: pg's own named statements" "$file"; then
  echo "variant-pg-named.sh: PreparedStatement.execution() not found as expected in $file: update this script" >&2
  exit 1
fi
(cd "$out" && npx tsup --config apps/api/tsup.config.ts >/dev/null 2>&1)
echo "$out"
