# SPDX-License-Identifier: MIT
# CPython only: what the notations' *_host.py fuzz tests share: the checks, the model strategies.
from hypothesis import strategies as st

from clock.model import ADD, BRONSTEIN, DELAY, FISCHER, FISCHER_AFTER, FLAG, NEXT, SET, SOFT
from clock.model import ClockError, Control, Setup, Stage
from notation.errors import PresetError

# ---- checks


def round_trips(module, setup):
    """Format `setup` with the notation `module`: the text must parse back to it and format to
    itself again. Returns the text."""
    text = module.format(setup)
    assert module.parse(text) == setup
    assert module.format(module.parse(text)) == text
    return text


def check(module, text, notation=None):
    """Parse `text` with `module`: a refusal is a PresetError naming the notation (`notation`, or
    the module's NAME: pcn_toml's errors say pcn) at no position or one inside the text; a Setup
    must survive round_trips. Returns the Setup, or None when refused."""
    try:
        result = module.parse(text)
    except PresetError as error:
        assert error.notation == (notation or module.NAME)
        assert error.position is None or 0 <= error.position <= len(text)
        return None
    assert isinstance(result, Setup)
    round_trips(module, result)
    return result


def format_refuses_or_round_trips(module, setup):
    """Format `setup` with `module`: either a PresetError naming the notation, returned for the
    caller's own checks, or a text that parses back to the setup (and None is returned)."""
    try:
        text = module.format(setup)
    except PresetError as error:
        assert error.notation == module.NAME
        return error
    assert module.parse(text) == setup
    return None


def parses_or_refuses(function, text, notation, kinds=Setup):
    """Call function(text): it returns one of `kinds` or refuses with a PresetError whose message
    starts "<notation> preset ". Returns the result, or None when refused."""
    try:
        result = function(text)
    except PresetError as error:
        assert str(error).startswith(notation + " preset ")
        return None
    assert isinstance(result, kinds)
    return result


# ---- texts


def texts(tokens, alphabet, valid=None, max_tokens=14, max_text=40, max_alphabet=30):
    """Fuzz texts: any text, text over `alphabet`, runs of `tokens` and, given `valid` (valid
    texts), valid texts with one character deleted, replaced or inserted."""
    parts = [
        st.text(max_size=max_text),
        st.text(alphabet=alphabet, max_size=max_alphabet),
        st.lists(st.sampled_from(tokens), max_size=max_tokens).map("".join),
    ]
    if valid is not None:
        parts.append(mutants(valid, alphabet))
    return st.one_of(*parts)


@st.composite
def mutants(draw, valid, alphabet):
    """A valid text with one character deleted, or replaced or inserted from `alphabet`."""
    text = draw(valid)
    at = draw(st.integers(0, len(text)))
    char = draw(st.sampled_from(alphabet + "\x00\u00e9"))
    how = draw(st.integers(0, 2))
    if how == 0:
        return text[:at] + text[at + 1 :]
    return text[:at] + char + text[at + (how == 1) :]


# ---- the model: stages, controls, setups


def choices(values):
    """A strategy as it is; a list or tuple as a choice among its items (repeats weigh more)."""
    return values if isinstance(values, st.SearchStrategy) else st.sampled_from(values)


def built(kind, *args, **fields):
    """Strategy for kind(*args, **fields) (Stage, Control or Setup), each argument drawn from its
    choices; a combination the model refuses with ClockError is drawn again."""
    names = list(fields)

    def build(values):
        try:
            return kind(*values[: len(args)], **dict(zip(names, values[len(args) :])))
        except ClockError:
            return None

    drawn = st.tuples(*(choices(value) for value in args + tuple(fields.values())))
    return drawn.map(build).filter(lambda value: value is not None)


# What `stages` draws a field from when not told: chess-like quotas and increments, now and then
# an increment every other move, byo-yomi periods or a SET; the model's defaults most often.
STAGE_CHOICES = dict(
    moves=[0, 0, 1, 40],
    increment_ms=[0, 0, 5, 2000],
    mode=[FISCHER, FISCHER_AFTER, FISCHER_AFTER, BRONSTEIN, DELAY],
    increment_every=[1, 1, 1, 2],
    periods=[1, 1, 1, 3],
    on_enter=[ADD, ADD, SET],
    on_repeat=[ADD, ADD, SET],
    on_expire=[FLAG, FLAG, NEXT, SOFT],
)
# The Go notations' (SGF, GTP) instead: one move or 25 stones a period, 5 byo-yomi periods.
GO_CHOICES = dict(
    moves=[0, 0, 1, 1, 25],
    increment_ms=[0, 0, 0, 2000],
    periods=[1, 1, 5],
    on_enter=[ADD, SET],
    on_repeat=[ADD, SET],
)


def stages(max_size, duration_ms, **fields):
    """Lists of at most `max_size` stages: durations drawn from `duration_ms`, each other field
    from its choices in `fields`, or in STAGE_CHOICES if not there."""
    return st.lists(built(Stage, duration_ms, **dict(STAGE_CHOICES, **fields)), max_size=max_size)


def setups(stage_lists, **fields):
    """Setups whose first control has its stages drawn from `stage_lists`, and whose second is the
    same control or, about as often, one of its own; other Setup fields drawn from their choices
    in `fields`."""
    controls = built(Control, stage_lists)
    return built(Setup, controls, st.none() | controls, **fields)
