#!/usr/bin/env bash
# `npm run demo`: the lock demo (examples/demo/main.ts): workers in separate processes contending for zkts locks.
# By default against an in-memory ZooKeeper 3.8 server it starts in its own process (@zkts/server): Node alone,
# no Java, no apt, no build (the demo runs from the sources through tsx). `--server HOST:PORT` (or
# ZKTS_SERVER=HOST:PORT) uses a real ZooKeeper instead. Removes its nodes and stops its server at the end.
#
# All it installs, and only when missing, is pnpm and the workspace's dependencies. Where those dependencies'
# native builds cannot run (no C toolchain: the bench's `zookeeper` addon), it installs without build scripts;
# pnpm runs them on the next full install, which scripts/setup.sh (`npm test`) then does.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'demo: %s\n' "$*" >&2; }

if [ ! -d node_modules/.pnpm ] || [ ! -e node_modules/tsx ]; then
  if ! command -v pnpm >/dev/null 2>&1; then
    log "installing pnpm"
    npm install -g pnpm@9.15.9 >/dev/null 2>&1 || { corepack enable && corepack prepare pnpm@9.15.9 --activate; }
  fi
  log "installing workspace dependencies"
  if ! pnpm install --frozen-lockfile >/dev/null 2>&1; then
    log "a native build failed (C toolchain missing?): installing without build scripts, enough for the demo"
    pnpm install --frozen-lockfile --ignore-scripts >/dev/null
    # Older than the lockfile: scripts/setup.sh then installs again, and the skipped builds run.
    touch -t 197001010000 node_modules/.modules.yaml
  fi
fi

exec node --conditions=zkts-source --import tsx examples/demo/main.ts "$@"
