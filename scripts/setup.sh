#!/usr/bin/env bash
# Installs everything zkts needs on a fresh Debian machine with Node 20: pnpm, the workspace's
# dependencies, a Java runtime and ZooKeeper's server jars (Debian's `zookeeper` package), Curator's jars
# (interoperability tests and benchmarks) and tcpdump (the CLI's pcap test). Idempotent: a second run only
# checks. Set ZOOKEEPER_HOME to an Apache ZooKeeper release to use it instead of Debian's jars.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'setup: %s\n' "$*" >&2; }

if ! command -v pnpm >/dev/null 2>&1; then
  log "installing pnpm"
  npm install -g pnpm@9.15.9 >/dev/null 2>&1 || { corepack enable && corepack prepare pnpm@9.15.9 --activate; }
fi

if [ ! -d node_modules/.pnpm ] || [ pnpm-lock.yaml -nt node_modules/.modules.yaml ]; then
  log "installing workspace dependencies"
  pnpm install --frozen-lockfile >/dev/null
fi

need_apt=()
command -v javac >/dev/null 2>&1 || need_apt+=(default-jdk-headless)
if [ -z "${ZOOKEEPER_HOME:-}" ] && [ ! -f /usr/share/java/zookeeper.jar ]; then need_apt+=(zookeeper); fi
[ -f /usr/share/java/curator-recipes.jar ] || need_apt+=(libcurator-recipes-java)
command -v tcpdump >/dev/null 2>&1 || need_apt+=(tcpdump)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing ${need_apt[*]} (apt)"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  else
    log "missing: ${need_apt[*]}. Install them (Debian: sudo apt-get install ${need_apt[*]}),"
    log "or set ZOOKEEPER_HOME to an Apache ZooKeeper release and put java on PATH."
    exit 1
  fi
fi

log "building packages"
pnpm -r --silent run build
