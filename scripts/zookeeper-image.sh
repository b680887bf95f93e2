#!/usr/bin/env bash
# Makes a ZooKeeper image for the testkit's container backend without any image registry: Debian's own
# packages (openjdk-17-jre-headless + zookeeper, the same 3.8 server the local backend runs) are installed
# into a root filesystem by debootstrap from the mirror apt already uses, and that tree is imported as an
# image. The backend writes its own zoo.cfg and runs the server's main class, so this image needs no
# entrypoint of its own. Cached: nothing is done when the image exists. Needs root, debootstrap and a Docker
# engine; ~1-2 minutes and ~900 MB once per machine.
#
# The mirror comes from MIRROR= when set, else from this machine's apt configuration (the sources apt-config
# names); there is no built-in default: without either the script stops and says so.
#
#   bash scripts/zookeeper-image.sh                 # builds zkts-local/zookeeper:3.8 unless it exists
#   bash scripts/zookeeper-image.sh --print-mirror  # prints the mirror a build would use, builds nothing
#   ZKTS_LOCAL_IMAGE=name:tag SUITE=bookworm MIRROR=http://… bash scripts/zookeeper-image.sh
set -euo pipefail

IMAGE="${ZKTS_LOCAL_IMAGE:-zkts-local/zookeeper:3.8}"
log() { printf 'zookeeper-image: %s\n' "$*" >&2; }

print_mirror=0
case "${1:-}" in
  '') ;;
  --print-mirror) print_mirror=1 ;;
  *) log "unknown argument '$1' (the only one is --print-mirror)"; exit 2 ;;
esac

# Debian bookworm ships ZooKeeper 3.8 and Java 17; later releases may not package ZooKeeper at all.
SUITE="${SUITE:-bookworm}"

# The mirror apt uses for SUITE: the first URI of a deb822 stanza (`*.sources`: `Types:` with deb, `Suites:` with
# SUITE, not `Enabled: no`) or of a one-line `deb [options] URI SUITE …` entry, in apt's own source files (their
# places from apt-config, so APT_CONFIG and Dir::Etc settings count). The build then reaches only the
# package mirror this machine already reaches. Security/updates suites do not match SUITE and are skipped.
apt_source_files() {
  command -v apt-config >/dev/null 2>&1 || return 0
  local List='' Parts='' f
  eval "$(apt-config shell List Dir::Etc::sourcelist/f Parts Dir::Etc::sourceparts/d)"
  for f in ${List:+"$List"} ${Parts:+"${Parts%/}"/*.list "${Parts%/}"/*.sources}; do
    if [ -f "$f" ]; then printf '%s\n' "$f"; fi
  done
}
mirror_from_apt() {
  local f uri
  while IFS= read -r f; do
    case "$f" in
      *.sources)
        uri="$(awk -v suite="$SUITE" '
          function flush() { if (uri != "" && deb && ok && on) { print uri; found = 1; exit } uri = ""; deb = 0; ok = 0; on = 1 }
          BEGIN { on = 1 }
          /^[[:space:]]*$/ { flush(); next }
          /^#/ { next }
          tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
          tolower($1) == "uris:" { uri = $2 }
          tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == suite) ok = 1 }
          tolower($1) == "enabled:" { if (tolower($2) == "no") on = 0 }
          END { if (!found) flush() }' "$f")"
        ;;
      *)
        uri="$(awk -v suite="$SUITE" '
          { sub(/#.*/, ""); gsub(/\[[^]]*\]/, "") }
          $1 == "deb" && $3 == suite { print $2; exit }' "$f")"
        ;;
    esac
    if [ -n "$uri" ]; then
      printf '%s\n' "$uri"
      return 0
    fi
  done < <(apt_source_files)
}
# MIRROR= when set, else apt's; fails with what to do when neither gives one.
resolve_mirror() {
  if [ -n "${MIRROR:-}" ]; then
    printf '%s\n' "$MIRROR"
    return 0
  fi
  local found
  found="$(mirror_from_apt)"
  if [ -z "$found" ]; then
    log "no Debian mirror for '$SUITE' in this machine's apt configuration (apt-config's sources.list and sources.list.d)"
    log "and MIRROR is not set: set MIRROR=<the Debian mirror URL this machine may use> and run again"
    return 1
  fi
  printf '%s\n' "$found"
}

if [ "$print_mirror" = 1 ]; then
  resolve_mirror
  exit
fi

if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  log "$IMAGE exists (cached)"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  log "building $IMAGE needs root (debootstrap); run: sudo bash $0"
  exit 1
fi
if ! command -v debootstrap >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    log "installing debootstrap (apt)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
  else
    log "debootstrap is missing (Debian: apt-get install debootstrap)"
    exit 1
  fi
fi

MIRROR="$(resolve_mirror)" || exit 1

# One build at a time per machine (set-up of two worktrees at once must not run two debootstraps).
exec 9>/var/lock/zkts-zookeeper-image.lock
flock 9
if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  log "$IMAGE exists (built meanwhile)"
  exit 0
fi

ROOTFS="$(mktemp -d /var/tmp/zkts-rootfs.XXXXXX)"
trap 'rm -rf "$ROOTFS"' EXIT
started=$(date +%s)
log "debootstrap $SUITE from $MIRROR into $ROOTFS (openjdk-17-jre-headless, zookeeper)"
if ! debootstrap --variant=minbase --include=openjdk-17-jre-headless,zookeeper \
  "$SUITE" "$ROOTFS" "$MIRROR" >"$ROOTFS.log" 2>&1; then
  tail -n 30 "$ROOTFS.log" >&2
  rm -f "$ROOTFS.log"
  log "debootstrap failed"
  exit 1
fi
rm -f "$ROOTFS.log"
[ -f "$ROOTFS/usr/share/java/zookeeper.jar" ] || { log "the root filesystem has no /usr/share/java/zookeeper.jar"; exit 1; }

# What a server never reads: downloaded .debs, apt lists, documentation.
rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/usr/share/doc/* \
  "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/locale/*

log "importing $IMAGE"
tar -C "$ROOTFS" -c . | docker import \
  --change 'CMD ["/bin/sh"]' \
  --change 'LABEL zkts.image="zookeeper from Debian packages, built by scripts/zookeeper-image.sh"' \
  - "$IMAGE" >/dev/null
log "built $IMAGE in $(( $(date +%s) - started )) s ($(docker image inspect -f '{{.Size}}' "$IMAGE" | awk '{ printf "%d MB", $1 / 1e6 }'))"
