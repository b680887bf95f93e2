#!/usr/bin/env bash
# `pnpm bench`: zkts against node-zookeeper-client, the native `zookeeper` package, ZooKeeper's Java client and
# Curator, in one run against one local ZooKeeper. Set-up first (pnpm, deps, Java, jars, builds), then the
# harness (bench/harness/run.ts). Extra arguments go to the harness: --quick, --clients a,b, --workloads x,y.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

# pnpm 9 runs the native package's install script (it compiles the bundled C client); if that was skipped
# (e.g. --ignore-scripts, or pnpm configured not to run dependency scripts), build it here, the way its
# install script does: unpack the C sources (prepublish.js), then `node-gyp-build`, which finds no Linux
# prebuild and runs `node-gyp rebuild` (npm puts its bundled node-gyp on PATH). setup.sh has installed the
# tools (cc, c++, make, python3). The build's output (a few hundred lines) goes to a log, shown if it fails.
native_dir=$(node -e "const p=require('node:path');process.stdout.write(p.dirname(require.resolve('zookeeper/package.json',{paths:['bench']})))" 2>/dev/null || true)
if [ -n "$native_dir" ] && [ ! -f "$native_dir/build/Release/zookeeper.node" ]; then
  echo "bench: building the native zookeeper client (bundled C sources, a minute or two)" >&2
  # node-gyp would download Node's headers, which this machine cannot: use the running node's (see setup.sh).
  if [ -z "${npm_config_nodedir:-}" ]; then
    node_prefix=$(dirname "$(dirname "$(command -v node)")")
    if [ -f "$node_prefix/include/node/common.gypi" ]; then export npm_config_nodedir="$node_prefix"; fi
  fi
  mkdir -p bench/.build
  build_log=$PWD/bench/.build/native-build.log
  if ! (cd "$native_dir" && node ./scripts/prepublish.js && npm run build) >"$build_log" 2>&1 \
    || [ ! -f "$native_dir/build/Release/zookeeper.node" ]; then
    tail -n 40 "$build_log" >&2
    echo "bench: building the native zookeeper client failed (full log: $build_log)" >&2
    exit 1
  fi
fi

exec node --conditions=zkts-source --import tsx bench/harness/run.ts "$@"
