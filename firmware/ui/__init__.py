# SPDX-License-Identifier: MIT
# Frame builders for the clock displays: a 128x64 OLED and two TM1637 4-digit modules.
