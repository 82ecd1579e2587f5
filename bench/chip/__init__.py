# SPDX-License-Identifier: MIT
# The emulated-chip benchmarks: scripts run beside the emulator (a package so that the layer test
# and the imports picture read them).
