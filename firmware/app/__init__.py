# SPDX-License-Identifier: MIT
# The board app: one state machine over the clock core, the HAL and the preset notations.
