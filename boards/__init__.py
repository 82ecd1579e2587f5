# SPDX-License-Identifier: MIT
# One module per board: its wiring table and pin numbers, and nothing else.
