# SPDX-License-Identifier: MIT
# The firmware's version: the one place it is written (the label and pyproject.toml read it here).
VERSION = "0.1.0"
