# SPDX-License-Identifier: MIT
# The hall's serial commands: SET BOARD, SET HALL, SET BROKER, SET WIFI, HALL, HALL CMD and OUTBOX.
# They come seldom (a SET once, the gateway's OUTBOX every 30 s): each unloads this module when
# done, so that its functions and tables hold no heap between them (about 0.5 KB on the board).
import json

from app import hall as halls
from hal.storage import problem_text

_USAGE = {
    "BOARD": "SET BOARD <n> (1 to %d; 0: none)" % halls.MAX_BOARD,
    "HALL": "SET HALL <name> (letters, digits, - and _)",
    "BROKER": "SET BROKER <address> [<port> [<user> <password>]] (an IPv4 address, as"
    " 192.168.1.10: a name would need a DNS lookup, which stops the clock for seconds)",
    "WIFI": "SET WIFI <ssid> [<password>]",
}


def setting(send, app, what, text):
    """SET BOARD/HALL/BROKER/WIFI: stored in hall.txt, answered OK or ERR."""
    try:
        _setting(send, app, what, text)
    finally:
        _forget()


def hall(channel, app, text, now):
    """HALL: the settings and the link as JSON; HALL CMD <json>: obey a command."""
    try:
        _hall(channel, app, text, now)
    finally:
        _forget()


def outbox(channel, app, words):
    """OUTBOX: the finished games kept for the hall, as JSON; OUTBOX GET <id>: one's message,
    with its CRC-32 after it (as GAME SUM); OUTBOX ACK <id> <version>: the recorder has it."""
    try:
        _outbox(channel, app, words)
    finally:
        _forget()


def _forget():
    import sys

    sys.modules.pop(__name__, None)
    package = sys.modules.get(__name__.rpartition(".")[0])
    if package is not None and hasattr(package, "hall_commands"):
        delattr(package, "hall_commands")


def _setting(send, app, what, text):
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
        from app.hall_mqtt import ipv4

        if not 1 <= len(words) <= 4 or len(words) == 3 or not ipv4(words[0]):
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


def _hall(channel, app, text, now):
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
                    "net": None if hall.net is None else hall.net.status(),
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


def _outbox(channel, app, words):
    send = channel.send
    hall = halls.of(app)
    outbox = hall.outbox
    rest = words[2].split() if len(words) == 3 else []
    action = words[1].upper() if len(words) > 1 else ""
    if len(words) == 1:
        send("OK " + json.dumps(outbox.listing()))
    elif action == "GET" and len(rest) == 1 and rest[0].isdigit():
        item = outbox.find(int(rest[0]))
        payload = None if item is None else outbox.read(item)
        if payload is None:
            send("ERR no game %s waits" % rest[0])
            return
        channel.write_part("OK ")
        summed = Summed(channel)
        try:
            channel.write_part(payload.decode())
        finally:
            end = summed.end()
        send(end)
    elif action == "ACK" and len(rest) == 2 and rest[0].isdigit() and rest[1].isdigit():
        taken = hall.acknowledged(int(rest[0]), int(rest[1]))
        send("OK %s" % ("acknowledged" if taken else "not waiting"))
    else:
        send("ERR usage: OUTBOX | OUTBOX GET <id> | OUTBOX ACK <id> <version>")


class Summed:
    """The CRC-32 of what the channel writes to its port from now till end() (GAME SUM, OUTBOX
    GET): the bytes as they go, after the channel made them ASCII. end() gives the line's end,
    " <8 hex digits>", and leaves the port as it was."""

    def __init__(self, channel):
        import binascii

        self._crc32 = binascii.crc32
        self.crc = 0
        self.port = port = channel.port
        self._write = port.write
        port.write = self._counted

    def _counted(self, data):
        self.crc = self._crc32(data, self.crc)
        self._write(data)

    def end(self):
        try:
            del self.port.write  # the port's own method again
        except AttributeError:
            self.port.write = self._write
        return " %08x" % (self.crc & 0xFFFFFFFF)
