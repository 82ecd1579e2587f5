# SPDX-License-Identifier: MIT
# The TRF reader and writer on random tournaments (hypothesis): any names a player line can hold
# (any script, quotes, markup), ratings, a round's pairing and results; the round written and read
# back gives every cell, the points its results give, every name and every other line as it was.
from hypothesis import given, settings
from hypothesis import strategies as st

from sim import rounds, trf, trf_write
from sim.trf import Cell

NAME = (
    st.text(
        st.characters(
            blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\u0085"
        ),
        min_size=1,
        max_size=trf.MAX_NAME,
    )
    .map(str.strip)
    .filter(lambda name: name and not any(trf.name_problem(c) for c in name))
)


def player_line(number, name, rating):
    """Columns as the specification's table says them: laid out here, not by the writer."""
    return "001 %4d m    %-33s %4s %3s %11s %10s %4s %4d" % (
        number,
        name,
        rating or "",
        "ITA",
        "",
        "",
        "0.0",
        number,
    )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(NAME, st.integers(0, 3000)), min_size=2, max_size=24),
    st.randoms(use_true_random=False),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_a_random_round_written_and_read_back(players, chance, newline):
    head = ["012 A random open", "### a comment", "XXR 9"]
    lines = [player_line(n, name, rating) for n, (name, rating) in enumerate(players, 1)]
    text = newline.join(head + lines) + newline
    tournament = trf.read(text, "random.trf")
    numbers = list(range(1, len(players) + 1))
    chance.shuffle(numbers)
    cells = {}
    results = list(rounds.RESULTS.values())
    while len(numbers) >= 2:
        white, black = numbers.pop(), numbers.pop()
        codes = chance.choice(results)
        cells[white] = Cell(black, "w", codes[0])
        cells[black] = Cell(white, "b", codes[1])
    for number in numbers:
        cells[number] = Cell(0, "-", chance.choice("UHFZ"))
    written = trf_write.with_round(tournament, 1, cells)
    again = trf.read(written, "random.trf")
    assert again.lines[: len(head)] == head and again.newline == newline
    for number, (name, rating) in enumerate(players, 1):
        player = again.players[number]
        assert (player.name, player.rating) == (name, rating)
        assert player.cells == [cells[number]]
        assert player.points == again.scoring.points(cells[number])
        higher = sum(1 for p in again.players.values() if p.points > player.points)
        assert player.rank == higher + 1
        assert again.lines[player.line][:80] == lines[number - 1][:80]


def test_the_property_test_sees_wide_names():
    # a name of 33 characters in a script of wide letters still ends at column 47
    name = "\u674e" * 33
    line = player_line(1, name, 2000)
    assert line[14:47] == name and line[48:52] == "2000"
    assert trf.read(line + "\n" + player_line(2, "B", 0), "x").players[1].name == name
