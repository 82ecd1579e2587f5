# SPDX-License-Identifier: MIT
# The environment for a program the tests run in a pseudo-terminal.
import os


def terminal_env(**settings):
    """This environment less LINES and COLUMNS, with `settings`: curses takes those two over the
    terminal's own size, and pytest-xdist's workers have them (24 x 80)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LINES", "COLUMNS")}
    env.update(settings)
    return env
