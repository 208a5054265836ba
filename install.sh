#!/bin/sh
# Installs (or upgrades in place) the stealth-playwright-mcp standalone binary.
#
#   curl -fsSL <release>/install.sh | sh
#   curl -fsSL <release>/install.sh | sh -s -- --prefix /usr/local
#
# Downloads stealth-playwright-mcp-<os>-<arch> and SHA256SUMS from the release
# base URL, verifies the checksum, checks that the binary runs here, and moves
# it into <prefix>/bin in one rename (a running server keeps its old file).
# POSIX sh only: it runs under dash, busybox and bash alike.
set -eu

NAME=stealth-playwright-mcp
# Where release assets live: <base>/stealth-playwright-mcp-linux-x64, <base>/SHA256SUMS.
DEFAULT_BASE_URL="https://github.com/stealth-playwright-mcp/stealth-playwright-mcp/releases/latest/download"

BASE_URL="${STEALTH_PLAYWRIGHT_MCP_RELEASE_URL:-$DEFAULT_BASE_URL}"
PREFIX="${STEALTH_PLAYWRIGHT_MCP_PREFIX:-${HOME:-}/.local}"

say() { printf '%s\n' "$*" >&2; }

# Every failure names what failed and what to do about it.
die() {
  say "install: error: $1"
  [ -n "${2:-}" ] && say "install: fix: $2"
  exit 1
}

usage() {
  cat >&2 <<EOF
Install the $NAME standalone binary (no Node.js needed).

Usage: install.sh [--prefix DIR] [--base-url URL]

  --prefix DIR     Install into DIR/bin (default ~/.local; env STEALTH_PLAYWRIGHT_MCP_PREFIX)
  --base-url URL   Release to install from: the directory holding the binaries and
                   SHA256SUMS (default: the latest release; env STEALTH_PLAYWRIGHT_MCP_RELEASE_URL).
                   Pin a version with .../releases/download/v<version>.
  --help           Show this help

Re-running upgrades the installed binary in place.
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory" "pass --prefix DIR"; PREFIX="$2"; shift 2 ;;
    --prefix=*) PREFIX="${1#*=}"; shift ;;
    --base-url) [ $# -ge 2 ] || die "--base-url needs a URL" "pass --base-url URL"; BASE_URL="$2"; shift 2 ;;
    --base-url=*) BASE_URL="${1#*=}"; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage; die "unknown argument: $1" "see the usage above" ;;
  esac
done

[ -n "$PREFIX" ] || die "no install prefix: HOME is not set" "pass --prefix DIR"
BASE_URL="${BASE_URL%/}"
BIN_DIR="$PREFIX/bin"
TARGET="$BIN_DIR/$NAME"
NPX_HINT="use the npm package instead, on Node.js 22.13+ or 24+: npx -y $NAME"

# --- what to download -------------------------------------------------------
case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) die "no macOS binary is published yet" "$NPX_HINT" ;;
  *) die "unsupported operating system: $(uname -s) (binaries exist for Linux x64 and arm64)" "$NPX_HINT" ;;
esac
machine="$(uname -m)"
case "$machine" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "unsupported CPU architecture: $machine (binaries exist for x86_64 and aarch64)" "$NPX_HINT" ;;
esac
# The binaries link against glibc; on musl (Alpine) they cannot start.
if ls /lib/ld-musl-* >/dev/null 2>&1 && [ ! -e /lib64/ld-linux-x86-64.so.2 ] && [ ! -e /lib/ld-linux-aarch64.so.1 ]; then
  die "this system uses musl libc (e.g. Alpine); the binary needs glibc" "$NPX_HINT (or install glibc compatibility: apk add gcompat)"
fi
ASSET="$NAME-$os-$arch"

# --- tools ------------------------------------------------------------------
if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  die "neither curl nor wget is installed" "install one (Debian/Ubuntu: apt-get install curl), then re-run"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
elif command -v openssl >/dev/null 2>&1; then
  sha256() { openssl dgst -sha256 "$1" | sed 's/^.*= *//'; }
else
  die "no SHA-256 tool found (sha256sum, shasum or openssl)" "install coreutils, then re-run"
fi

# --- download and verify ----------------------------------------------------
mkdir -p "$BIN_DIR" 2>/dev/null || die "cannot create $BIN_DIR" "pick a writable directory with --prefix DIR"
[ -w "$BIN_DIR" ] || die "$BIN_DIR is not writable" "pick a writable directory with --prefix DIR (or run as a user who can write there)"
# The download lands next to its destination, so the final mv is a rename on
# one file system: the installed binary is the old one or the new one, never half.
TMP_BIN="$BIN_DIR/.$NAME.download.$$"
TMP_SUMS="$BIN_DIR/.$NAME.SHA256SUMS.$$"
cleanup() { rm -f "$TMP_BIN" "$TMP_SUMS"; }
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

say "install: downloading $BASE_URL/SHA256SUMS"
fetch "$BASE_URL/SHA256SUMS" "$TMP_SUMS" ||
  die "could not download $BASE_URL/SHA256SUMS" "check your network (and https_proxy), or point --base-url (STEALTH_PLAYWRIGHT_MCP_RELEASE_URL) at a release that exists"
expected="$(awk -v f="$ASSET" '$2 == f || $2 == "*" f { print $1; exit }' "$TMP_SUMS")"
[ -n "$expected" ] || die "$BASE_URL/SHA256SUMS lists no $ASSET" "this release has no build for $os-$arch; $NPX_HINT"

say "install: downloading $BASE_URL/$ASSET (about 130 MB)"
fetch "$BASE_URL/$ASSET" "$TMP_BIN" ||
  die "could not download $BASE_URL/$ASSET" "check your network (and https_proxy) and re-run; the previous install, if any, is unchanged"
actual="$(sha256 "$TMP_BIN")"
[ "$actual" = "$expected" ] ||
  die "checksum mismatch for $ASSET: expected $expected, got $actual" \
    "re-run to download again; if it fails again the download was corrupted or tampered with on the way: do not use it, and report it. Nothing was installed"
say "install: checksum ok ($actual)"

chmod 755 "$TMP_BIN"
new_version="$("$TMP_BIN" --version 2>/dev/null)" ||
  die "the downloaded $ASSET does not run on this machine" "check that the system has glibc 2.27+ ('ldd --version'), or $NPX_HINT"

old_version=""
[ -x "$TARGET" ] && old_version="$("$TARGET" --version 2>/dev/null || echo unknown)"
mv -f "$TMP_BIN" "$TARGET" || die "could not move the binary to $TARGET" "check the permissions of $BIN_DIR"

if [ -n "$old_version" ]; then
  say "install: upgraded $NAME $old_version -> $new_version at $TARGET"
else
  say "install: installed $NAME $new_version at $TARGET"
fi

# --- what next --------------------------------------------------------------
case ":${PATH:-}:" in
  *":$BIN_DIR:"*) run="$NAME" ;;
  *)
    run="$TARGET"
    say ""
    say "$BIN_DIR is not on your PATH. To add it, run this and add it to ~/.profile (or ~/.bashrc, ~/.zshrc):"
    say "  export PATH=\"$BIN_DIR:\$PATH\""
    ;;
esac
say ""
say "Check the installation (it needs a Chromium; Debian/Ubuntu: apt-get install chromium):"
say "  $run doctor"
say ""
say "Add it to an MCP client, e.g. Claude Code:"
say "  claude mcp add stealth-browser -- $TARGET"
say "or in the mcpServers config of Claude Desktop, Cursor and others:"
say "  \"stealth-browser\": { \"command\": \"$TARGET\", \"args\": [] }"
