# SPDX-License-Identifier: MIT
# The RP2040 HAL: hal.Rp2040Hal and the drivers it builds from a board module.
