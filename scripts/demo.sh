#!/usr/bin/env bash
# `npm run demo`: set-up (pnpm, deps, Java, ZooKeeper jars, builds), then the lock demo (examples/demo/main.ts):
# workers in separate processes contending for zkts locks against a local ZooKeeper it starts itself
# (or ZKTS_SERVER=host:port). Removes its nodes and stops its server at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec node --conditions=zkts-source --import tsx examples/demo/main.ts "$@"
