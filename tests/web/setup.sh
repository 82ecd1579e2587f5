#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the browser tier needs, installed when missing: Debian's chromium and npm (apt-get, as
# root: CI runs as root on a clean machine), then web/package.json's pinned packages (npm ci:
# the MicroPython WebAssembly build and playwright-core). Prints one line of what it did.
set -eu
cd "$(dirname "$0")/../.."
missing=()
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "the browser tier needs ${missing[*]}: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "installing ${missing[*]} from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ ! -f web/node_modules/playwright-core/package.json ] ||
  [ ! -f web/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs ] ||
  [ ! -f web/node_modules/mqtt/dist/mqtt.esm.js ]; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi
echo "browser tier: $("${CHROMIUM:-/usr/bin/chromium}" --version 2>/dev/null | head -1), node $(node --version)"
