#!/bin/sh
# Builds the container image with podman on this kind of machine (no registry,
# no Docker engine): the compiled binary, the debootstrap base (base-image.sh,
# cached), then `podman build --isolation chroot` (the default OCI isolation
# fails on hybrid cgroups). Installs podman/buildah/runc/debootstrap when missing.
# Usage: sh scripts/container/build-image.sh [--with-build] [tag]   (default localhost/stealth-playwright-mcp:dev)
#   --with-build  download and verify the stealth build into the image's cache
#                 (/home/node/.stealth) at build time: no download on first use,
#                 works offline. For your own image only (the build's licence
#                 forbids redistribution). STEALTH_DOWNLOAD_URL (a mirror) is
#                 passed on when set.
# Output on stderr; the image tag on stdout.
set -eu
cd "$(dirname "$0")/../.."
with_build=false
if [ "${1:-}" = --with-build ]; then with_build=true; shift; fi
tag=${1:-localhost/stealth-playwright-mcp:dev}

missing=""
for tool in podman buildah runc debootstrap; do command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"; done
if [ -n "$missing" ]; then
  echo "build-image: installing$missing from Debian" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$missing >&2
fi

[ -x node_modules/.bin/bun ] || { echo "build-image: run npm ci first (scripts/setup-debian.sh)" >&2; exit 1; }
npm run --silent build:bin >&2

base=$(sh scripts/container/base-image.sh)
version=$(node_modules/.bin/node -p 'require("./package.json").version')
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
# The image this tag pointed at before, removed below once replaced (each build
# would otherwise leave ~900 MB behind; the builder stage's layer cache stays).
previous=$(podman image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)
start=$(date +%s)
set --
if [ "$with_build" = true ]; then
  set -- --build-arg PREPARE_BUILD=true --build-arg STEALTH_DOWNLOAD_URL="${STEALTH_DOWNLOAD_URL:-}" \
    --build-arg STEALTH_TEST_TRUSTED_KEY="${STEALTH_TEST_TRUSTED_KEY:-}"
  # A mirror on this machine's loopback is reachable from the build only on the host network.
  case "${STEALTH_DOWNLOAD_URL:-}" in http://127.*|http://localhost*|http://\[::1\]*) set -- "$@" --network host ;; esac
fi
podman build --isolation chroot --format docker "$@" \
  --build-arg BASE_IMAGE="${base%@*}" --build-arg BASE_DIGEST="${base#*@}" \
  --build-arg VERSION="$version" --build-arg REVISION="$revision" \
  --build-arg CREATED="$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  -t "$tag" -f Containerfile . >&2
echo "build-image: built $tag in $(( $(date +%s) - start )) s ($(podman image inspect --format '{{.Size}}' "$tag") bytes)" >&2
current=$(podman image inspect --format '{{.Id}}' "$tag")
if [ -n "$previous" ] && [ "$previous" != "$current" ]; then podman rmi "$previous" >/dev/null 2>&1 || true; fi
echo "$tag"
