# SPDX-License-Identifier: MIT
# The label for a clock's back: a printable SVG with the short manual, the board, the firmware
# version and the batteries (FIDE C.02 (l) and C.02.03 3.1.4: a manual with the clock, the
# maker's details and the power supply on it).
from xml.sax.saxutils import escape

from app.version import VERSION
from hal import buttons

WIDTH_MM = 100
MARGIN_MM = 4
LINE_MM = 4.2  # 3 mm text (about 8.5 pt): legible at arm's length
TITLE_MM = 5
WRAP = 58  # characters of 3 mm text in 92 mm
BATTERY = "%d x AA alkaline cells (LR6, 1.5 V)"


def manual(board):
    """The label's manual lines for `board`, in the order they are printed."""
    full = buttons.SET in board.BUTTONS and buttons.PLUS in board.BUTTONS
    lines = [
        "Start: Black presses their lever; White's clock runs.",
        "Move, then press your own lever.",
    ]
    if full:
        lines += [
            "PLAY: pause / resume. Levers do nothing in a pause.",
            "SET before a game: choose the time control.",
            "Menus: PLUS / MINUS scroll, SET chooses, PLAY leaves.",
            "SET in a pause: arbiter menu (times, moves, undo, end).",
        ]
    else:
        lines += [
            "The button, short press: PLAY (pause / resume).",
            "The button held 1 s: SET (menus, arbiter).",
            "In menus the left lever is MINUS, the right one PLUS.",
        ]
    lines.append("End/undo/new game: hold SET, then confirm.")
    hold = "SET" if full or buttons.SET in board.BUTTONS else "the button"
    lines.append("Off: hold %s 5 s (not while a clock runs); on: a lever or PLAY." % hold)
    if board.DISPLAY in ("tm1637", "lcd"):
        lines.append("SET while running: moves/periods left; again: battery %")
    if getattr(board, "LEDS", None):
        lines.append("Lights: on = that clock runs; slow blink = to move")
        lines.append("(pause, menu); fast blink = flagged first.")
        if getattr(board, "LED_FLASH_MS", 0):
            lines.append("On battery the running light flashes once a second.")
    return lines


def battery_lines(board):
    lines = [BATTERY % getattr(board, "BATTERY_CELLS", 3) + ", or USB."]
    if board.BATTERY_ADC is None:
        lines.append("Change the batteries before each session (no battery sensing).")
    elif board.DISPLAY == "tm1637":
        lines.append("Low battery: an L before a time, or the last dot, lit.")
        lines.append("Change them after the game: 10 hours and more remain.")
    elif board.DISPLAY == "lcd":
        lines.append("Low battery: the point after the last digit, lit.")
        lines.append("Change them after the game: 10 hours and more remain.")
    else:
        lines.append("Low battery: the % at the bottom right is inverted.")
        lines.append("Change them after the game: 10 hours and more remain.")
    return lines


def texts(board):
    """(title, [(section, [lines])]) of the label."""
    about = ["Board: %s (%s display)" % (board.NAME, board.DISPLAY), "Firmware: " + VERSION]
    return (
        "Tournament game clock",
        [
            ("How to play", manual(board)),
            ("Batteries", battery_lines(board)),
            ("This clock", about),
        ],
    )


def _wrapped(line):
    words = line.split()
    out = [words[0]]
    for word in words[1:]:
        if len(out[-1]) + 1 + len(word) > WRAP:
            out.append("  " + word)
        else:
            out[-1] += " " + word
    return out


def svg(board):
    """The label as SVG text, in millimetres, a cut line round it."""
    title, sections = texts(board)
    rows = []  # (y, size, bold, text)
    y = MARGIN_MM + TITLE_MM
    rows.append((y, TITLE_MM, True, title))
    y += LINE_MM
    for heading, lines in sections:
        y += LINE_MM
        rows.append((y, 3.2, True, heading))
        for line in lines:
            for part in _wrapped(line):
                y += LINE_MM
                rows.append((y, 3, False, part))
    height = round(y + MARGIN_MM, 1)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="%dmm" height="%smm" viewBox="0 0 %d %s">'
        % (WIDTH_MM, height, WIDTH_MM, height),
        "<title>%s: %s</title>" % (escape(title), escape(board.NAME)),
        '<rect x="0.5" y="0.5" width="%d" height="%s" rx="2" fill="white" stroke="black"'
        ' stroke-width="0.3"/>' % (WIDTH_MM - 1, round(height - 1, 1)),
    ]
    for row_y, size, bold, text in rows:
        weight = ' font-weight="bold"' if bold else ""
        out.append(
            '<text x="%d" y="%s" font-family="DejaVu Sans, Arial, sans-serif" font-size="%s"%s>'
            "%s</text>" % (MARGIN_MM, round(row_y, 1), size, weight, escape(text))
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
