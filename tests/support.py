# SPDX-License-Identifier: MIT
# Helpers for tests that run under both CPython (pytest) and the MicroPython unix port.


def raises(error_type, function, *args, **kwargs):
    """Call `function`; return the exception of `error_type` it raised, or fail the test."""
    try:
        function(*args, **kwargs)
    except error_type as error:
        return error
    raise AssertionError("%s did not raise %s" % (function, error_type.__name__))
