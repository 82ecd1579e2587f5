#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# mpremote for flash.sh's tests: a board's filesystem in the folder $FAKE_BOARD. Does what
# flash.sh asks of mpremote (exec, cp -r DIRS :, cp FILE :PATH, reset) as a board would,
# refusing a copy into a folder the board does not have.
import os
import shutil
import sys
import types

ROOT = os.environ["FAKE_BOARD"]


def on_board(path):
    return os.path.join(ROOT, path.lstrip("/"))


def board_os():
    """The os calls flash.sh's exec scripts make, on the board's folder."""
    fake = types.SimpleNamespace()
    for name in ("stat", "listdir", "rmdir", "remove", "mkdir"):
        call = getattr(os, name)
        setattr(fake, name, lambda path, call=call: call(on_board(path)))
    return fake


def main(args):
    if args[:1] != ["connect"] or len(args) < 3:
        return fail("usage: connect PORT COMMAND ...")
    command, rest = args[2], args[3:]
    if command == "exec":
        exec(rest[0].replace("import os\n", "", 1), {"os": board_os()})
    elif command == "cp" and rest[0] == "-r":
        if rest[-1] != ":":
            return fail("cp -r: this fake copies into the root only")
        for folder in rest[1:-1]:
            shutil.copytree(folder, on_board(os.path.basename(folder)), dirs_exist_ok=True)
    elif command == "cp":
        source, target = rest
        target = on_board(target[1:])
        if not os.path.isdir(os.path.dirname(target)):
            return fail("cp: No such file or directory: ENOENT.")
        shutil.copyfile(source, target)
    elif command != "reset":
        return fail("unknown command " + command)
    return 0


def fail(message):
    print("mpremote: " + message, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
