#!/usr/bin/env bash
# Makes a ZooKeeper image for the testkit's container backend without any image registry: Debian's own
# packages (openjdk-17-jre-headless + zookeeper, the same 3.8 server the local backend runs) are installed
# into a root filesystem by debootstrap from the mirror apt already uses, and that tree is imported as an
# image. The backend writes its own zoo.cfg and runs the server's main class, so this image needs no
# entrypoint of its own. Cached: nothing is done when the image exists. Needs root, debootstrap and a Docker
# engine; ~1-2 minutes and ~900 MB once per machine.
#
#   bash scripts/zookeeper-image.sh            # builds zkts-local/zookeeper:3.8 unless it exists
#   ZKTS_LOCAL_IMAGE=name:tag SUITE=bookworm bash scripts/zookeeper-image.sh
set -euo pipefail

IMAGE="${ZKTS_LOCAL_IMAGE:-zkts-local/zookeeper:3.8}"
log() { printf 'zookeeper-image: %s\n' "$*" >&2; }

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

# Debian bookworm ships ZooKeeper 3.8 and Java 17; later releases may not package ZooKeeper at all.
SUITE="${SUITE:-bookworm}"

# The mirror apt uses (deb822 `URIs:` of a stanza for the suite itself, or a one-line `deb URL SUITE`), so the
# build reaches only the package registry this machine already reaches. Security/updates suites are skipped.
mirror_from_apt() {
  local files=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources)
  local f
  for f in "${files[@]}"; do
    [ -f "$f" ] || continue
    case "$f" in
      *.sources)
        awk -v suite="$SUITE" '
          /^[[:space:]]*$/ { if (uri != "" && ok) { print uri; exit } uri = ""; ok = 0; next }
          /^URIs:/ { uri = $2 }
          /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite) ok = 1 }
          END { if (uri != "" && ok) print uri }' "$f"
        ;;
      *)
        awk -v suite="$SUITE" '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/) { if ($(i + 1) == suite) print $i; break } }' "$f"
        ;;
    esac
  done | head -n 1
}
MIRROR="${MIRROR:-$(mirror_from_apt)}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"

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
