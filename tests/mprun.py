# SPDX-License-Identifier: MIT
# Runs the plain test modules under the MicroPython unix port: every test_* function of every
# tests/<dir>/test_*.py that is not CPython-only (*_host.py), or of one file named as
# <dir>/test_name (tests/mprun.py core/test_flags). Prints "N passed, N failed".
import os
import sys

ROOT = (sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else ".") + "/.."
for path in ("tests", "", "firmware"):  # firmware, then the root: tests/hal must not shadow hal
    sys.path.insert(0, ROOT + "/" + path)


def modules(folders):
    for folder in folders:
        if "/" in folder:  # one file
            folder, name = folder.rsplit("/", 1)
            yield folder, name[:-3] if name.endswith(".py") else name
            continue
        for name in sorted(os.listdir(ROOT + "/tests/" + folder)):
            if name.startswith("test_") and name.endswith(".py") and not name.endswith("_host.py"):
                yield folder, name[:-3]


def main(folders):
    passed = failed = 0
    for folder, name in modules(folders):
        sys.path.insert(0, ROOT + "/tests/" + folder)
        try:
            module = __import__(name)
        except Exception as error:
            failed += 1
            print("FAIL %s/%s: cannot import: %s %s" % (folder, name, type(error).__name__, error))
            sys.print_exception(error)
            continue
        finally:
            sys.path.pop(0)
        for attr in sorted(dir(module)):
            test = getattr(module, attr)
            if not attr.startswith("test_") or not callable(test):
                continue
            try:
                test()
                passed += 1
            except Exception as error:
                failed += 1
                print("FAIL %s/%s.%s: %s %s" % (folder, name, attr, type(error).__name__, error))
                sys.print_exception(error)
        del sys.modules[name]  # test files in different folders may share a name
    print("micropython: %d passed, %d failed" % (passed, failed))
    return failed == 0 and passed > 0


if not main(sys.argv[1:] or ("core", "notation")):
    sys.exit(1)
