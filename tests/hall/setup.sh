#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the hall's tests and `make hall` need, installed when missing: Debian's mosquitto (apt-get,
# as root: CI runs as root on a clean machine). Prints one line of what it found.
set -eu
if ! command -v mosquitto >/dev/null && [ ! -x /usr/sbin/mosquitto ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "the hall needs Mosquitto: sudo apt-get install mosquitto" >&2
    exit 1
  fi
  echo "installing mosquitto from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto >/dev/null
fi
echo "hall: $(command -v mosquitto || echo /usr/sbin/mosquitto)"
