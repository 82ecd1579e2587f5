# SPDX-License-Identifier: MIT
# A Wi-Fi clock (picow_oled) on the desktop: the firmware's own network and broker code
# (app/hall_net.py, app/hall_mqtt.py) and micropython-lib's umqtt.simple, on a simulated radio
# (sim/hall_air.py) and the desktop's sockets (sim/upy_socket.py), to a real broker.
#
# umqtt.simple comes from where tests/hall/setup.sh puts it (build/umqtt, from its PyPI release),
# $MICROPYTHON_LIB or the MicroPython checkout of $MICROPYTHON_DIR; it imports MicroPython's
# usocket, ustruct and ubinascii, given to it here as the desktop's own.
import binascii
import os
import select
import struct
import sys

from sim import upy_socket

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class NoUmqtt(RuntimeError):
    """umqtt.simple is nowhere to be found: one line saying how to get it."""


def umqtt_path():
    """The folder holding umqtt/simple.py, or None."""
    fetched = os.path.join(ROOT, "build", "umqtt")
    if os.path.exists(os.path.join(fetched, "umqtt", "simple.py")):
        return fetched
    for lib in (
        os.environ.get("MICROPYTHON_LIB", ""),
        os.path.join(os.environ.get("MICROPYTHON_DIR", "/nonexistent"), "lib", "micropython-lib"),
    ):
        folder = os.path.join(lib, "micropython", "umqtt.simple")
        if lib and os.path.exists(os.path.join(folder, "umqtt", "simple.py")):
            return folder
    return None


def client_class():
    """umqtt.simple's MQTTClient; NoUmqtt when it is not here."""
    folder = umqtt_path()
    if folder is None:
        raise NoUmqtt(
            "the Wi-Fi clocks need micropython-lib's umqtt.simple: bash tests/hall/setup.sh"
            " fetches it into build/umqtt (make hall runs it)"
        )
    for name, module in (("usocket", upy_socket), ("ustruct", struct), ("ubinascii", binascii)):
        sys.modules.setdefault(name, module)
    if folder not in sys.path:
        sys.path.append(folder)
    from umqtt.simple import MQTTClient

    return MQTTClient


def start(app, air, broker_host, broker_port, user, password, ssid="hall", key="hall-key"):
    """Put `app` (a picow_oled clock with its board and hall set) on the hall's Wi-Fi and broker
    as main.py does on the board: the settings a SET WIFI and a SET BROKER store, then
    app/hall_net.start. Returns the Net."""
    from app import hall as halls
    from app import hall_net

    hall = halls.of(app)
    hall.settings.store(
        ssid=ssid, wifi=key, broker=broker_host, port=broker_port, user=user, password=password
    )
    return hall_net.start(app, air, upy_socket, select, client_class(), app.hal.ticks_ms())


def serve(app):
    """A picow_oled clock served on the desktop (serve --pty): its Wi-Fi code runs as on the
    board, on a radio whose access point takes any network name and password the clock is given
    (SET WIFI), to the broker SET BROKER names, as main.py starts it. Without umqtt.simple the
    clock is in no hall, and HALL says why."""
    from app import hall as halls
    from app import hall_net
    from sim.hall_air import Air

    try:
        client = client_class()
    except NoUmqtt as error:
        halls.of(app).log("no Wi-Fi: %s" % error)
        return None
    air = Air(app.hal.ticks_ms, ssid=None, password=None)
    return hall_net.start(app, air, upy_socket, select, client, app.hal.ticks_ms())
