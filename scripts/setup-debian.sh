#!/bin/sh
# Sets up a fresh Debian machine for running and testing stealth-playwright-mcp:
# Debian's Chromium, Xvfb and HAProxy when missing (needs root), the npm packages
# (including the project's own Node 22 and Bun), and the Node package build.
# All output goes to stderr: this script may run in front of a stdio MCP server.
set -eu
exec 1>&2
cd "$(dirname "$0")/.."

missing=""
command -v npm >/dev/null 2>&1 || missing="$missing npm"
[ -x /usr/lib/chromium/chromium ] || command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v Xvfb >/dev/null 2>&1 || missing="$missing xvfb"
# The input test types into an unautomated Chromium by real X input (xdotool), the yardstick of humanised input.
command -v xdotool >/dev/null 2>&1 || missing="$missing xdotool"
# The gateway test runs replicas behind Debian's HAProxy (deploy/haproxy).
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing="$missing haproxy"
if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: please install as root:$missing (apt-get install$missing), then re-run" >&2
    exit 1
  fi
  echo "setup: installing$missing from Debian" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

# npm ci runs the install scripts of the `node` and `bun` devDependencies,
# which place Node 22 and Bun in node_modules/.bin (no browser is downloaded).
if [ ! -x node_modules/.bin/node ] || [ ! -x node_modules/.bin/bun ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npm run --silent build:node
