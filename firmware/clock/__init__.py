# SPDX-License-Identifier: MIT
# The clock core: time-control model, two-player game, display queries. Pure, no hardware.
