#!/bin/sh
# Makes the local base image the Containerfile starts from, when no registry is
# reachable: Debian bookworm (minbase) built with debootstrap from the apt
# mirror, imported into podman as localhost/debian-bookworm-minbase. The rootfs
# tarball is cached (STEALTH_IMAGE_CACHE, default ~/.cache/stealth-playwright-mcp/container),
# so later runs only re-import it. Prints the image's digest reference
# (name@sha256:...) on stdout, for the BASE_IMAGE/BASE_DIGEST build args.
set -eu
cache=${STEALTH_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stealth-playwright-mcp/container}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
name=localhost/debian-bookworm-minbase
tarball=$cache/bookworm-minbase.tar
mkdir -p "$cache"

if [ ! -s "$tarball" ]; then
  echo "base-image: debootstrap bookworm (minbase) from $mirror" >&2
  root=$(mktemp -d "$cache/rootfs.XXXXXX")
  trap 'rm -rf "$root" "$tarball.tmp"' EXIT
  debootstrap --variant=minbase bookworm "$root" "$mirror" >&2
  # Nothing of the build host's apt state or caches belongs in a base image.
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar --numeric-owner -C "$root" -cf "$tarball.tmp" .
  mv "$tarball.tmp" "$tarball"
  rm -rf "$root"
  trap - EXIT
fi

if ! podman image exists "$name:bookworm" 2>/dev/null; then
  echo "base-image: importing $tarball as $name:bookworm" >&2
  podman import --quiet "$tarball" "$name:bookworm" >&2
fi
digest=$(podman image inspect --format '{{.Digest}}' "$name:bookworm")
echo "$name@$digest"
