#!/usr/bin/env bash
# Installs everything zkts needs on a fresh Debian machine with Node 20: pnpm, a C/C++ toolchain and python3
# (node-gyp, for the bench's native `zookeeper` peer), the workspace's dependencies, a Java runtime and
# ZooKeeper's server jars (Debian's `zookeeper` package), Curator's jars (interoperability tests and
# benchmarks), kazoo (python3-kazoo: the recipes' mixed-library lock tests), tcpdump (the CLI's pcap
# test), chromium (the console's browser tests), Kerberos (GSSAPI headers for the `kerberos` module; a KDC for the SASL GSSAPI tests), and for the
# testkit's container backend a Docker engine and a ZooKeeper image (the last section).
# Idempotent: a second run only checks. Set ZOOKEEPER_HOME to an Apache ZooKeeper release to use it
# instead of Debian's jars.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'setup: %s\n' "$*" >&2; }

if ! command -v pnpm >/dev/null 2>&1; then
  log "installing pnpm"
  npm install -g pnpm@9.15.9 >/dev/null 2>&1 || { corepack enable && corepack prepare pnpm@9.15.9 --activate; }
fi

# The apt packages come before `pnpm install`: that install runs the `zookeeper` package's install script
# (bench/ devDependency), which compiles its bundled ZooKeeper C client (./configure + make, cc) and the addon
# (node-gyp: python3, make, c++), and a failed dependency build fails the whole install, tests included. Only
# `command -v` checks when the tools are there, so this costs `npm test` nothing.
need_apt=()
if ! command -v cc >/dev/null 2>&1 || ! command -v c++ >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
  need_apt+=(build-essential)
fi
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
command -v javac >/dev/null 2>&1 || need_apt+=(default-jdk-headless)
if [ -z "${ZOOKEEPER_HOME:-}" ] && [ ! -f /usr/share/java/zookeeper.jar ]; then need_apt+=(zookeeper); fi
[ -f /usr/share/java/curator-recipes.jar ] || need_apt+=(libcurator-recipes-java)
# Curator service discovery (curator-x-discovery) for the discovery interop tests.
[ -f /usr/share/java/curator-x-discovery.jar ] || need_apt+=(libcurator-discovery-java)
# kazoo (Python) for the recipes' mixed-library lock tests; Debian's package serves Debian's python3.
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import kazoo' >/dev/null 2>&1 || need_apt+=(python3-kazoo)
# The C client's shell, cli_mt, for @zkts/server's interop test (Debian installs it outside PATH).
[ -x /usr/lib/zookeeper/bin/cli_mt ] || need_apt+=(zookeeper-bin)
command -v tcpdump >/dev/null 2>&1 || need_apt+=(tcpdump)
# A real browser for the console's tests (driven by playwright-core, which downloads none).
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
# Kerberos: GSSAPI headers for the `kerberos` native module (@zkts/sasl-kerberos, built by `pnpm install`), and
# MIT's KDC and tools for the SASL GSSAPI tests (the testkit starts a throw-away realm; see packages/testkit/src/kdc.ts).
[ -f /usr/include/gssapi/gssapi.h ] || need_apt+=(libkrb5-dev)
[ -x /usr/sbin/krb5kdc ] || need_apt+=(krb5-kdc)
[ -x /usr/sbin/kadmin.local ] || need_apt+=(krb5-admin-server)
command -v kinit >/dev/null 2>&1 || need_apt+=(krb5-user)
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

# node-gyp needs Node's headers and downloads them when it has none, and this machine reaches no download
# site; the image's ~/.npmrc sets nodedir=/usr, but nothing else would. Node installed with its headers
# (NodeSource's /usr/include/node, nvm, the release tarballs) has them under its own prefix, and those are the
# running node's own: point node-gyp there unless npm_config_nodedir is already in the environment.
# (bench.sh does the same for its fallback build.)
if [ -z "${npm_config_nodedir:-}" ]; then
  node_prefix=$(dirname "$(dirname "$(command -v node)")")
  if [ -f "$node_prefix/include/node/common.gypi" ]; then export npm_config_nodedir="$node_prefix"; fi
fi

if [ ! -d node_modules/.pnpm ] || [ pnpm-lock.yaml -nt node_modules/.modules.yaml ]; then
  log "installing workspace dependencies"
  pnpm install --frozen-lockfile >/dev/null
fi

log "building packages"
pnpm -r --silent run build

# The testkit's container backend: a Docker engine and a ZooKeeper image. Where no engine answers and this is
# Debian as root, install Debian's docker.io (when dockerd is missing) and start dockerd in the background,
# detached, its log in /var/log/zkts-dockerd.log; it stays up for later runs. The image: zookeeper:3.8 when
# present or pullable, else zkts-local/zookeeper:3.8 built once from Debian's packages
# (scripts/zookeeper-image.sh, cached). Where none of this is possible the container tests skip, saying why.
# ZKTS_NO_DOCKER=1 leaves Docker alone.
engine_answers() { command -v docker >/dev/null 2>&1 && timeout 20 docker info >/dev/null 2>&1; }
if [ "${ZKTS_NO_DOCKER:-}" = 1 ]; then
  log "ZKTS_NO_DOCKER=1: not setting up the container backend"
elif ! engine_answers && [ "$(id -u)" = 0 ] && [ -f /etc/debian_version ] && command -v apt-get >/dev/null 2>&1; then
  if ! command -v dockerd >/dev/null 2>&1; then
    # With its recommends (apparmor, cgroupfs-mount…): the set this engine was tried with here.
    log "installing docker.io and debootstrap (apt) for the container backend"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io debootstrap >/dev/null || log "docker.io did not install"
  fi
  if command -v dockerd >/dev/null 2>&1; then
    if ! pgrep -x dockerd >/dev/null 2>&1; then
      log "starting dockerd"
      setsid dockerd >/var/log/zkts-dockerd.log 2>&1 </dev/null &
    fi
    for _ in $(seq 1 60); do engine_answers && break; sleep 1; done
    engine_answers || log "dockerd did not answer within 60 s (tail of /var/log/zkts-dockerd.log:)
$(tail -n 5 /var/log/zkts-dockerd.log 2>/dev/null)"
  fi
fi
if [ "${ZKTS_NO_DOCKER:-}" != 1 ] && engine_answers; then
  if [ -n "${ZKTS_ZOOKEEPER_IMAGE:-}" ]; then
    docker image inspect "$ZKTS_ZOOKEEPER_IMAGE" >/dev/null 2>&1 || docker pull -q "$ZKTS_ZOOKEEPER_IMAGE" >/dev/null ||
      log "cannot pull $ZKTS_ZOOKEEPER_IMAGE"
  elif ! docker image inspect zookeeper:3.8 >/dev/null 2>&1 && ! docker image inspect zkts-local/zookeeper:3.8 >/dev/null 2>&1; then
    if timeout 300 docker pull -q zookeeper:3.8 >/dev/null 2>&1; then
      log "pulled zookeeper:3.8"
    elif [ "$(id -u)" = 0 ]; then
      log "zookeeper:3.8 cannot be pulled: building zkts-local/zookeeper:3.8 from Debian's packages (once)"
      bash scripts/zookeeper-image.sh || log "the image build failed: the container tests will fail"
    else
      log "no ZooKeeper image and no root to build one (sudo bash scripts/zookeeper-image.sh): the container tests will fail"
    fi
  fi
elif [ "${ZKTS_NO_DOCKER:-}" != 1 ]; then
  log "no Docker engine answers: the container backend's tests will be skipped"
fi
