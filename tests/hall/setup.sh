#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the hall's tests and `make hall` need, installed when missing: Debian's mosquitto (apt-get,
# as root: CI runs as root on a clean machine), and micropython-lib's umqtt.simple for the unix
# port's test, from its PyPI release (pinned, checked by its hash) into build/umqtt. Prints one
# line of what it found.
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
UMQTT_URL=https://files.pythonhosted.org/packages/bd/cf/697e3418b2f44222b3e848078b1e33ee76aedca9b6c2430ca1b1aec1ce1d/micropython-umqtt.simple-1.3.4.tar.gz
UMQTT_SHA256=b6a2520239e3992c63a7de9370ee9b3d9d27819a90359c521f1c0f7ccab8d12f
if [ ! -f build/umqtt/umqtt/simple.py ]; then
  mkdir -p build/umqtt
  if curl -fsSL -o build/umqtt/release.tar.gz "$UMQTT_URL" &&
    echo "$UMQTT_SHA256  build/umqtt/release.tar.gz" | sha256sum -c --quiet; then
    tar -xzf build/umqtt/release.tar.gz -C build/umqtt --strip-components=1
  else
    echo "umqtt.simple 1.3.4 could not be fetched from PyPI" >&2
    exit 1
  fi
fi
echo "hall: $(command -v mosquitto || echo /usr/sbin/mosquitto), build/umqtt/umqtt/simple.py"
