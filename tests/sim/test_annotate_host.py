# SPDX-License-Identifier: MIT
# `python -m sim annotate` on files shaped like lichess, chess.com, KGS and OGS write them, read
# back by readers annotate does not share: python-chess for PGN, a strict SGF reader written here.
import io
import json
import os
import re
import shutil
import subprocess
import sys

import chess.pgn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FILES = os.path.join(ROOT, "tests", "sim", "records")


def fixture(name):
    return os.path.join(FILES, name)


def sim(*args, stdin=None):
    done = subprocess.run(
        [sys.executable, "-m", "sim", "annotate", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=60,
    )
    return done.returncode, done.stdout.decode("utf-8", "surrogateescape"), done.stderr.decode()


def annotated(*args):
    status, out, err = sim(*args)
    assert status == 0 and err == "", (status, err)
    return out


def one_error(*args, stdin=None):
    status, out, err = sim(*args, stdin=stdin)
    lines = err.splitlines()
    assert status == 2 and out == "" and len(lines) == 1 and lines[0].startswith("error: "), (
        status,
        err,
    )
    return lines[0][len("error: ") :]


def standing(name):
    """The plies that stand, read as docs/records.md says: a ply pushes, an undo pops."""
    with open(fixture(name), encoding="utf-8") as handle:
        log = json.load(handle)["clock"]["log"]
    stack = []
    for entry in log:
        if entry["entry"] == "ply":
            assert entry["ply"] == len(stack) + 1
            stack.append(entry)
        elif entry["entry"] == "undo":
            assert stack.pop()["ply"] == entry["ply"]
    return stack


def left(entry):
    return entry[entry["side"]]["remaining_ms"]


def games(text):
    handle, found = io.StringIO(text), []
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            return found
        assert game.errors == []
        found.append(game)


# --- a strict SGF reader: FF[4]'s grammar and nothing else --------------------------------

SGF_TOKEN = re.compile(r"\s*(?:([();])|([A-Z]+)((?:\s*\[(?:[^\\\]]|\\.)*\])+))", re.S)
SGF_VALUE = re.compile(r"\[((?:[^\\\]]|\\.)*)\]", re.S)


def read_sgf(text):
    """[tree]: a tree is (nodes, children), a node {ident: [values, unescaped]}."""
    stack, trees, at = [], [], 0
    while text[at:].strip():
        match = SGF_TOKEN.match(text, at)
        assert match, "not SGF at %d: %r" % (at, text[at : at + 20])
        at = match.end()
        mark, ident, values = match.groups()
        if mark == "(":
            tree = ([], [])
            (stack[-1][1] if stack else trees).append(tree)
            stack.append(tree)
        elif mark == ")":
            assert stack.pop()[0], "a tree without nodes"
        elif mark == ";":
            assert not stack[-1][1], "a node after a variation"
            stack[-1][0].append({})
        else:
            node = stack[-1][0][-1]
            assert ident not in node, "%s twice in a node" % ident
            node[ident] = [
                re.sub(r"\\(.)", r"\1", v, flags=re.S) for v in SGF_VALUE.findall(values)
            ]
    assert not stack
    return trees


def main_line(tree):
    nodes, children = tree
    return nodes + (main_line(children[0]) if children else [])


def seconds(ms):
    return ms / 1000


# --- PGN ------------------------------------------------------------------------------------


def test_a_lichess_export_gets_the_clocks_times_and_keeps_the_rest():
    out = annotated(
        "--record", fixture("lichess_blitz.json"), "--pgn", fixture("lichess_blitz.pgn")
    )
    (game,) = games(out)
    plies = standing("lichess_blitz.json")
    nodes = list(game.mainline())
    assert len(nodes) == len(plies) == 24
    for node, ply in zip(nodes, plies):
        # whole seconds, rounded down as a countdown shows them: 179.9 s left reads 0:02:59
        assert node.clock() == left(ply) // 1000
        assert node.comment.count("[%clk") == 1 and node.eval() is not None
        assert node.emt() is None
    assert nodes[0].clock() == 179  # 3 min + 2 s - 2.1 s
    # the undone press (ply 9 at 4.0 s, 170.75 s left) is gone; the ply that stands took 9.5 s
    assert plies[8]["elapsed_ms"] == 9500 and nodes[8].clock() == 165
    # the arbiter's +30 s for White after ply 13 is in every later White clock
    assert nodes[14].clock() == 166  # 134.8 s + 2 s - 7.0 s + 30 s, as the log has it
    # lichess's analysis stays: the NAG, the comment, the variation and its own %clk
    inaccuracy = nodes[14]
    assert inaccuracy.san() == "Nbxd2" and inaccuracy.nags == {6}
    assert "Inaccuracy. Qxd2 was best." in inaccuracy.comment
    assert [v.san() for v in inaccuracy.parent.variations] == ["Nbxd2", "Qxd2"]
    assert inaccuracy.parent.variations[1].next().clock() == 169  # the variation's own
    assert nodes[18].nags == {5}
    assert game.headers["TimeControl"] == "180+2"  # chessclock:3+2, as PGN and lichess say it
    assert game.headers["Site"] == "https://lichess.org/x7Kp2mQa"
    assert out.count("[TimeControl ") == 1
    assert game.headers["Result"] == "1-0" and out.endswith(
        "12... c6 { [%eval 0.25] [%clk 0:01:23] } 1-0\n\n\n"
    )


def test_chess_com_times_exact_to_the_millisecond_with_each_moves_time():
    out = annotated(
        "--record",
        fixture("chesscom_rapid.json"),
        "--pgn",
        fixture("chesscom_rapid.pgn"),
        "--game",
        "2",
        "--exact",
        "--emt",
    )
    first, second = games(out)
    plies = standing("chesscom_rapid.json")
    nodes = list(second.mainline())
    assert len(nodes) == len(plies) == 12
    for node, ply in zip(nodes, plies):
        assert node.clock() == seconds(left(ply))
        assert node.emt() == seconds(ply["elapsed_ms"])
    assert "{[%clk 0:09:58.5] [%emt 0:00:01.5]}" in out  # chess.com's own form, one comment
    assert "[%clk 0:09:23.15] [%emt 0:00:15.25]" in out
    assert second.headers["TimeControl"] == "600"
    # the other game of the file is exactly as it was
    with open(fixture("chesscom_rapid.pgn"), encoding="utf-8") as handle:
        original = handle.read()
    assert out.split("\n\n[Event")[0] == original.split("\n\n[Event")[0]
    assert [node.clock() for node in first.mainline()][:2] == [599.9, 599.1]


def test_out_writes_the_file_whole_and_leaves_nothing_beside_it(tmp_path):
    moves = tmp_path / "round3.pgn"
    shutil.copy(fixture("chesscom_rapid.pgn"), moves)
    args = ["--record", fixture("chesscom_rapid.json"), "--pgn", str(moves), "--game", "2"]
    printed = annotated(*args)
    assert annotated(*args, "--out", str(moves)) == ""
    assert moves.read_text() == printed
    assert os.listdir(tmp_path) == ["round3.pgn"]
    # once more on its own output: the same file (the clock's times replace the clock's times)
    annotated(*args, "--out", str(moves))
    assert moves.read_text() == printed


def test_a_missing_time_control_tag_is_added_after_the_others(tmp_path):
    moves = tmp_path / "game.pgn"
    text = open(fixture("lichess_blitz.pgn"), encoding="utf-8").read()
    moves.write_text(text.replace('[TimeControl "180+2"]\n', ""))
    out = annotated("--record", fixture("lichess_blitz.json"), "--pgn", str(moves))
    assert '[Annotator "lichess.org"]\n[TimeControl "180+2"]\n\n1. e4' in out
    assert games(out)[0].headers["TimeControl"] == "180+2"


def test_moves_without_comments_get_a_comment_of_their_own():
    plies = standing("chesscom_rapid.json")
    bare = "1. e4 e5 2. Nf3 Nc6 3. Nc3 Nf6 4. d3 Bc5 5. Be2 d5 6. O-O $1 (6. Bg5) d4 *\n"
    status, out, err = sim(
        "--record", fixture("chesscom_rapid.json"), "--pgn", "-", stdin=bare.encode()
    )
    assert status == 0 and err == ""
    assert out.startswith('[TimeControl "600"]\n\n1. e4 {[%clk 0:09:58]} e5 {[%clk 0:09:57]}')
    assert "6. O-O $1 {[%clk 0:09:02]} (6. Bg5) d4 {[%clk 0:09:03]} *" in out
    (game,) = games(out)
    assert [node.clock() for node in game.mainline()] == [left(p) // 1000 for p in plies]


def test_a_time_control_pgn_cannot_say_is_left_as_it_was(tmp_path):
    record = json.load(open(fixture("chesscom_rapid.json"), encoding="utf-8"))
    record["clock"]["preset"] = "sgf:TM[600]OT[5x30 byo-yomi]"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    status, out, err = sim(
        "--record", str(path), "--pgn", fixture("chesscom_rapid.pgn"), "--game", "2"
    )
    assert status == 0
    assert err == (
        "note: the TimeControl tag is left as it was: PGN cannot say byo-yomi periods, a period"
        " that replaces the time left or a soft time-out (preset sgf:TM[600]OT[5x30 byo-yomi])\n"
    )
    assert games(out)[1].headers["TimeControl"] == "600"


# --- SGF ------------------------------------------------------------------------------------


def test_a_kgs_game_in_byo_yomi_gets_time_and_periods_left():
    out = annotated("--record", fixture("kgs_byoyomi.json"), "--sgf", fixture("kgs_byoyomi.sgf"))
    (tree,) = read_sgf(out)
    nodes = main_line(tree)
    root, moves = nodes[0], nodes[1:]
    plies = standing("kgs_byoyomi.json")
    assert len(moves) == len(plies) == 14
    for node, ply in zip(moves, plies):
        colour = "B" if ply["side"] == "first" else "W"
        assert colour in node and ("W" if colour == "B" else "B") not in node
        assert float(node[colour + "L"][0]) == seconds(left(ply))
        periods = ply[ply["side"]].get("periods_left")
        assert node.get("O" + colour) == (None if periods is None else [str(periods)])
    assert moves[0] == {"B": ["pd"], "BL": ["10"]}  # 60 s main time, 50 s used; KGS's OB went
    assert moves[1]["WL"] == ["59"]
    assert moves[2]["OB"] == ["3"] and moves[4]["OB"] == ["2"]  # 12 s: a period used
    assert moves[11] == {"W": ["qn"], "WL": ["10"], "OW": ["3"]}  # 36.5 s + 3.5 s of a period
    assert moves[13]["OW"] == ["1"] and moves[13]["C"] == ["sente_san [2d]: thx"]
    assert moves[7]["W"] == [""] and moves[12]["B"] == ["tt"]  # both passes count as moves
    assert root["TM"] == ["60"] and root["OT"] == ["3x10 byo-yomi"]
    assert root["PC"] == ["The KGS Go Server at http://www.gokgs.com/"]
    assert root["C"][0].startswith("sente_san [2d]: hi")
    assert tree[1][1] == ([{"W": ["qk"], "C": ["kogo: this was better"]}], [])
    assert ";B[pd]BL[10];W[dp]WL[59];B[pq]BL[10]OB[3];W[dd]WL[57]C[" in out  # KGS's own layout


def test_an_ogs_game_in_canadian_overtime_gets_stones_left_and_no_undone_press():
    out = annotated("--record", fixture("ogs_canadian.json"), "--sgf", fixture("ogs_canadian.sgf"))
    (tree,) = read_sgf(out)
    root, moves = main_line(tree)[0], main_line(tree)[1:]
    plies = standing("ogs_canadian.json")
    assert len(moves) == len(plies) == 10
    got = [(m.get("BL", m.get("WL")), m.get("OB", m.get("OW"))) for m in moves]
    assert got == [
        (["5"], None),  # 20 s main time, 15 s used
        (["19"], None),
        (["25"], ["2"]),  # 5 s main + 5 s of the 30 s block, 2 stones to go
        (["17"], None),
        (["20"], ["1"]),
        (["12"], None),  # took 5 s; the press at 2 s was undone and is not here (15)
        (["30"], ["3"]),  # the block of 3 stones done in time: a new one
        (["17"], ["2"]),
        (["25"], ["2"]),
        (["4.655"], ["1"]),  # exact milliseconds, as an SGF real
    ]
    assert [p[p["side"]]["remaining_ms"] for p in plies][5] == 12000
    assert root["TM"] == ["20"] and root["OT"] == ["3/30 Canadian"]
    assert root["PC"] == ["OGS: https://online-go.com/game/61234567"] and root["KM"] == ["6.5"]


def test_tm_and_ot_are_added_to_a_root_without_them():
    bare = "(;GM[1]FF[4]SZ[9];B[ee];W[gc];B[cg];W[gg];B[ge];W[ce];B[dc];W[hf];B[cc];W[eg])"
    status, out, err = sim(
        "--record", fixture("ogs_canadian.json"), "--sgf", "-", stdin=bare.encode()
    )
    assert status == 0 and err == ""
    assert out.startswith("(;GM[1]FF[4]SZ[9]TM[20]OT[3/30 Canadian];B[ee]BL[5];W[gc]WL[19];")


def test_a_time_control_sgf_cannot_say_is_left_as_it_was(tmp_path):
    record = json.load(open(fixture("kgs_byoyomi.json"), encoding="utf-8"))
    record["clock"]["preset"] = "chessclock:40/90/30, G/30/30"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    status, out, err = sim("--record", str(path), "--sgf", fixture("kgs_byoyomi.sgf"))
    assert status == 0 and err.startswith("note: TM and OT are left as they were: SGF cannot say")
    root = read_sgf(out)[0][0][0]
    assert root["TM"] == ["60"] and root["OT"] == ["3x10 byo-yomi"]


# --- what does not fit ----------------------------------------------------------------------


def test_a_pgn_with_a_move_fewer_or_more_than_the_record_says_where():
    text = open(fixture("lichess_blitz.pgn"), encoding="utf-8").read()
    shorter = text.replace(" 12... c6 { [%eval 0.25] [%clk 0:02:30] }", "")
    error = one_error(
        "--record", fixture("lichess_blitz.json"), "--pgn", "-", stdin=shorter.encode()
    )
    assert error == (
        "the PGN has 23 plies, the record 24 plies: the record's ply 24 (second, 26.15 s)"
        " has no move"
    )
    longer = text.replace(" 1-0\n", " 13. h3 13... Qc7 1-0\n")
    error = one_error(
        "--record", fixture("lichess_blitz.json"), "--pgn", "-", stdin=longer.encode()
    )
    assert error == (
        "the PGN has 26 plies, the record 24 plies: the PGN's plies 25 to 26 have no time in the"
        " record (ply 25: h3, line 20)"
    )
    error = one_error(
        "--record",
        fixture("chesscom_rapid.json"),
        "--pgn",
        fixture("chesscom_rapid.pgn"),
        "--game",
        "1",
    )
    assert error == (
        "the PGN has 6 plies, the record 12 plies: the record's plies 7 to 12 have no move"
        " (ply 7: first, 12.9 s)"
    )


def test_a_record_cut_at_its_640_entries_says_so(tmp_path):
    record = json.load(open(fixture("chesscom_rapid.json"), encoding="utf-8"))
    record["clock"]["complete"] = False
    record["clock"]["log"] = record["clock"]["log"][:10]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    error = one_error("--record", str(path), "--pgn", fixture("chesscom_rapid.pgn"), "--game", "2")
    assert error == (
        "the PGN has 12 plies, the record 10 plies: the PGN's plies 11 to 12 have no time in the"
        " record (ply 11: O-O, line 47); the record is incomplete (the clock's log stopped at its"
        " 640 entries)"
    )


def test_an_sgf_with_a_move_fewer_or_more_than_the_record_says_where():
    text = open(fixture("ogs_canadian.sgf"), encoding="utf-8").read()
    shorter = text.replace(";W[eg]WL[4.5]OW[1]\n", "")
    error = one_error(
        "--record", fixture("ogs_canadian.json"), "--sgf", "-", stdin=shorter.encode()
    )
    assert error == (
        "the SGF has 9 moves, the record 10 plies: the record's ply 10 (second, 12.345 s)"
        " has no move"
    )
    longer = text.replace(";W[eg]WL[4.5]OW[1]\n", ";W[eg]WL[4.5]OW[1]\n;B[]\n")
    error = one_error(
        "--record", fixture("ogs_canadian.json"), "--sgf", "-", stdin=longer.encode()
    )
    assert error == (
        "the SGF has 11 moves, the record 10 plies: the SGF's move 11 (B[], line 26) has no time"
        " in the record"
    )
    twice = text.replace(";W[gc]WL[18.95]", ";B[gc]")
    error = one_error("--record", fixture("ogs_canadian.json"), "--sgf", "-", stdin=twice.encode())
    assert error == (
        "the SGF's main line does not alternate: move 2 (B[gc], line 17) is B's, as is move 1"
    )


def test_errors_are_one_line_and_status_2(tmp_path):
    lichess = fixture("lichess_blitz.pgn")
    missing = str(tmp_path / "nothing.json")
    assert one_error("--record", missing, "--pgn", lichess) == (
        "cannot read %s: No such file or directory" % missing
    )
    assert one_error(
        "--record", fixture("chesscom_rapid.json"), "--pgn", fixture("chesscom_rapid.pgn")
    ) == ("%s holds 2 games: say which with --game N (1 to 2)" % fixture("chesscom_rapid.pgn"))
    assert one_error(
        "--record", fixture("lichess_blitz.json"), "--pgn", lichess, "--game", "2"
    ) == ("%s holds 1 game: there is no game 2" % lichess)
    assert (
        one_error(
            "--record", fixture("kgs_byoyomi.json"), "--sgf", fixture("kgs_byoyomi.sgf"), "--emt"
        )
        == "--emt and --exact are for PGN: SGF has no move time, BL/WL are exact"
    )
    broken = b'[Event "x"]\n\n1. e4 { unclosed\n1... e5 *\n'
    assert one_error("--record", fixture("lichess_blitz.json"), "--pgn", "-", stdin=broken) == (
        "stdin line 3: a comment opened here is never closed"
    )
    assert one_error("--record", fixture("ogs_canadian.json"), "--sgf", "-", stdin=b"(;B[aa]") == (
        "stdin line 1: the game tree opened here is never closed"
    )
    record = tmp_path / "game.json"
    record.write_text(
        '{"plies": [{"elapsed_ms": 1000}], "clock": {"log": [{"entry": "undo"}, 1]}}'
    )
    assert one_error("--record", str(record), "--pgn", lichess) == (
        "%s: clock.log[0] undoes a ply that is not there" % record
    )
    out = tmp_path / "no-such-folder" / "out.pgn"
    assert one_error(
        "--record", fixture("lichess_blitz.json"), "--pgn", lichess, "--out", str(out)
    ).startswith("cannot write %s: " % out)


def test_a_reader_that_leaves_early_gets_one_line_not_a_traceback():
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "sim", "annotate", "--record", fixture("lichess_blitz.json")]
            + ["--pgn", fixture("lichess_blitz.pgn")],
            cwd=ROOT,
            stdout=writer,
            stderr=subprocess.PIPE,
            timeout=60,
        )
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr.decode()) == (
        2,
        "error: the output was closed before the end (by | head?)\n",
    )


# --- records without the clock's figures ----------------------------------------------------


def test_an_untimed_record_has_no_clock_to_write_but_each_moves_time(tmp_path):
    record = tmp_path / "untimed.json"
    plies = standing("chesscom_rapid.json")
    record.write_text(json.dumps({"plies": [{"elapsed_ms": p["elapsed_ms"]} for p in plies]}))
    args = ["--record", str(record), "--pgn", fixture("chesscom_rapid.pgn"), "--game", "2"]
    assert one_error(*args) == (
        "the record's preset pcn:{} has no time control: the clock counts time up and there is"
        " no time left to write as %clk (--emt writes each move's time)"
    )
    game = games(annotated(*args, "--emt"))[1]
    nodes = list(game.mainline())
    assert [n.emt() for n in nodes] == [p["elapsed_ms"] // 1000 for p in plies]
    assert [n.clock() for n in nodes] == [None] * 12 and game.headers["TimeControl"] == "-"
    assert one_error("--record", str(record), "--sgf", fixture("ogs_canadian.sgf")).startswith(
        "the record's preset pcn:{} has no time control"
    )


def test_a_pcn_record_without_the_clocks_log_is_timed_by_its_periods(tmp_path):
    record = tmp_path / "pcn.json"
    plies = standing("chesscom_rapid.json")
    periods = [{"duration_ms": 600000}]
    record.write_text(
        json.dumps({"periods": periods, "plies": [{"elapsed_ms": p["elapsed_ms"]} for p in plies]})
    )
    args = ["--pgn", fixture("chesscom_rapid.pgn"), "--game", "2", "--exact"]
    assert annotated("--record", str(record), *args) == annotated(
        "--record", fixture("chesscom_rapid.json"), *args
    )


def test_the_second_game_of_an_sgf_collection_and_bytes_that_are_not_utf8(tmp_path):
    moves = ";B[ee];W[gc];B[cg];W[gg];B[ge];W[ce];B[dc];W[hf];B[cc];W[eg]"
    first = b"(;FF[4]CA[GB2312]PB[\xc0\xee]" + moves[:12].encode() + b")\n"
    second = b"(;FF[4]CA[GB2312]PW[\xd5\xc5]" + moves.encode() + b")\n"
    path = tmp_path / "fox.sgf"
    path.write_bytes(first + second)
    args = ["--record", fixture("ogs_canadian.json"), "--sgf", str(path), "--game", "2"]
    annotated(*args, "--out", str(path))
    data = path.read_bytes()
    assert data.startswith(
        first + b"(;FF[4]CA[GB2312]PW[\xd5\xc5]TM[20]OT[3/30 Canadian];B[ee]BL[5];"
    )
    assert data.endswith(b";W[eg]WL[4.655]OW[1])\n")
    assert one_error(*args[:4]) == "%s holds 2 games: say which with --game N (1 to 2)" % path
