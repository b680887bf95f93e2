#!/usr/bin/env bash
# `pnpm bench`: zkts against node-zookeeper-client, the native `zookeeper` package, ZooKeeper's Java client and
# Curator, in one run against one local ZooKeeper. Set-up first (pnpm, deps, Java, jars, builds), then the
# harness (bench/harness/run.ts). Extra arguments go to the harness: --quick, --clients a,b, --workloads x,y.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

# pnpm 9 runs the native package's install script (it compiles the bundled C client); if that was skipped
# (e.g. --ignore-scripts, or pnpm configured not to run dependency scripts), build it here.
native_dir=$(node -e "const p=require('node:path');process.stdout.write(p.dirname(require.resolve('zookeeper/package.json',{paths:['bench']})))" 2>/dev/null || true)
if [ -n "$native_dir" ] && [ ! -f "$native_dir/build/Release/zookeeper.node" ]; then
  echo "bench: building the native zookeeper client (bundled C sources, a few minutes)" >&2
  (cd "$native_dir" && node ./scripts/prepublish.js && npm run build) >&2
fi

exec node --conditions=zkts-source --import tsx bench/harness/run.ts "$@"
