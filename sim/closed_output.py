# SPDX-License-Identifier: MIT
# A command's output closed before the end (`| head`): one line and status 2, not a traceback.
import os
import sys


def reader_left():
    """`| head` has what it wanted: the rest of the output goes nowhere, with one line and
    status 2 instead of a traceback."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    print("error: the output was closed before the end (by | head?)", file=sys.stderr)
    return 2
