# SPDX-License-Identifier: MIT
# The hall's serial commands: SET BOARD, SET HALL, SET BROKER, SET WIFI, HALL and HALL CMD.
import json

from app import hall as halls
from hal.storage import problem_text

_USAGE = {
    "BOARD": "SET BOARD <n> (1 to %d; 0: none)" % halls.MAX_BOARD,
    "HALL": "SET HALL <name> (letters, digits, - and _)",
    "BROKER": "SET BROKER <host> [<port> [<user> <password>]]",
    "WIFI": "SET WIFI <ssid> [<password>]",
}


def setting(send, app, what, text):
    """SET BOARD/HALL/BROKER/WIFI: stored in hall.txt, answered OK or ERR."""
    words = text.split(None, 2)
    rest = words[2].strip() if len(words) == 3 else ""
    changes = _changes(what, rest)
    if changes is None:
        send("ERR usage: " + _USAGE[what])
        return
    try:
        halls.of(app).set(**changes)
    except OSError as error:
        send("ERR the setting could not be saved: %s" % problem_text(error))
        return
    if what == "BOARD":
        send("OK board %d" % changes["board"])
    elif what == "HALL":
        send("OK hall " + changes["hall"])
    elif what == "BROKER":
        send("OK broker %s port %d" % (changes["broker"], changes["port"]))
    else:
        send("OK wifi " + changes["ssid"])


def _changes(what, rest):
    """The settings a SET line asks for, or None when it is not one."""
    if what == "BOARD":
        if rest.isdigit() and int(rest) <= halls.MAX_BOARD:
            return {"board": int(rest)}
        return None
    if what == "HALL":
        try:
            return {"hall": halls.check_hall_name(rest)}
        except ValueError:
            return None
    words = rest.split()
    if what == "BROKER":
        if not 1 <= len(words) <= 4 or len(words) == 3:
            return None
        port = words[1] if len(words) > 1 else "1883"
        if not port.isdigit() or not 0 < int(port) < 65536:
            return None
        changes = {"broker": words[0], "port": int(port)}
        if len(words) == 4:
            changes["user"] = words[2]
            changes["password"] = words[3]
        return changes
    if not words:
        return None
    ssid, _, password = rest.partition(" ")
    return {"ssid": ssid, "wifi": password.strip()}


def hall(channel, app, text, now):
    """HALL: the settings and the link as JSON; HALL CMD <json>: obey a command."""
    send = channel.send
    words = text.split(None, 2)
    hall = halls.of(app)
    if len(words) == 1:
        settings = hall.settings
        broker = settings.get("broker")
        link = hall.link
        send(
            "OK "
            + json.dumps(
                {
                    "board": hall.board,
                    "hall": hall.name,
                    "seq": hall.seq,
                    "broker": None if broker is None else "%s:%d" % (broker, settings.get("port")),
                    "user": settings.get("user"),
                    "wifi": settings.get("ssid"),
                    "link": None if link is None else link.status(),
                    "notes": hall.notes,
                }
            )
        )
        return
    if len(words) < 3 or words[1].upper() != "CMD":
        send("ERR usage: HALL | HALL CMD <json>")
        return
    try:
        answer = hall.command(words[2], now)
    except halls.CommandError as error:
        hall.refuse(str(error))
        send("ERR not a command: %s" % error)
        return
    send("OK " + json.dumps(answer))
