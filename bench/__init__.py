# SPDX-License-Identifier: MIT
# The benchmarks: scripts run by make bench, bench-hall and bench-chip (a package so that the
# layer test and the imports picture read them).
