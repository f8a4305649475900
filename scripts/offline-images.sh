#!/usr/bin/env bash
# Builds stand-ins for the public images Confab runs (node:20-bookworm-slim, postgres:15-alpine, redis:7-alpine,
# rabbitmq:3.13-alpine) from Debian's packages, for a Docker engine that cannot reach a registry. Each stand-in is
# tagged with the public name and behaves as Confab uses the original (infra/offline-images/*.Dockerfile say how);
# an image already present is kept (FORCE=1 rebuilds). Needs root (debootstrap) and a Debian mirror
# (DEBIAN_MIRROR, default http://deb.debian.org/debian). Used by scripts/test-containers.mjs.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="$ROOT/infra/offline-images"
BASE=confab-offline/bookworm:latest
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
say() { printf '\033[36m[offline-images]\033[0m %s\n' "$*"; }
present() { [ -z "${FORCE:-}" ] && docker image inspect "$1" > /dev/null 2>&1; }

docker info > /dev/null 2>&1 || { echo 'no Docker engine answers (start dockerd first)' >&2; exit 1; }

if ! present "$BASE"; then
  command -v debootstrap > /dev/null || { echo 'debootstrap is missing (apt-get install debootstrap)' >&2; exit 1; }
  rootfs="$(mktemp -d)"
  trap 'rm -rf "$rootfs"' EXIT
  say "debootstrap bookworm (minbase) from $MIRROR"
  debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" > "$rootfs.log" 2>&1 || { tail -20 "$rootfs.log" >&2; exit 1; }
  rm -f "$rootfs.log"
  tar -C "$rootfs" -c . | docker import - "$BASE" > /dev/null
  say "imported $BASE"
fi

build() { # tag dockerfile context
  if present "$1"; then say "$1 is present"; return; fi
  say "building $1"
  docker build -q --build-arg "BASE=$BASE" -t "$1" -f "$2" "$3" 2>&1 | grep -v -i -E 'legacy builder|buildx|docs.docker.com|^ *$' || true
  docker image inspect "$1" > /dev/null
}

# The Node.js stand-in carries this machine's node and npm (Node 20, as the Dockerfile's stage expects).
if ! present node:20-bookworm-slim; then
  node --version | grep -q '^v20\.' || { echo "node:20 stand-in needs Node 20 here, not $(node --version)" >&2; exit 1; }
  ctx="$(mktemp -d)"
  cp "$DIR/node.Dockerfile" "$ctx/"
  cp "$(command -v node)" "$ctx/node"
  cp -r "$(npm root -g)/npm" "$ctx/npm"
  mkdir "$ctx/ca"
  cp /usr/local/share/ca-certificates/*.crt "$ctx/ca/" 2> /dev/null || true
  build node:20-bookworm-slim "$ctx/node.Dockerfile" "$ctx"
  rm -rf "$ctx"
fi
build postgres:15-alpine "$DIR/postgres.Dockerfile" "$DIR"
build redis:7-alpine "$DIR/redis.Dockerfile" "$DIR"
build rabbitmq:3.13-alpine "$DIR/rabbitmq.Dockerfile" "$DIR"
say 'done'
