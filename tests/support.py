# SPDX-License-Identifier: MIT
# Helpers for tests that run under both CPython (pytest) and the MicroPython unix port.


def raises(error_type, function, *args, **kwargs):
    """Call `function`; return the exception of `error_type` it raised, or fail the test."""
    try:
        function(*args, **kwargs)
    except error_type as error:
        return error
    raise AssertionError("%s did not raise %s" % (function, error_type.__name__))


def parsers_kept(function, *args):
    """function(*args) with the preset parsers kept loaded between parses. The app unloads them
    after each (the board's RAM is small) and both interpreters here then compile them afresh
    from source at the next: a test that sets up hundreds of clocks keeps them, which changes
    what is in memory and nothing else."""
    import notation

    forget = notation.forget
    notation.forget = _nothing
    try:
        return function(*args)
    finally:
        notation.forget = forget


def _nothing():
    pass
