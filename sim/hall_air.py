# SPDX-License-Identifier: MIT
# The simulated hall's Wi-Fi, as MicroPython's `network` module shows it to a Pico W: the hall's
# access point, which the simulation can take down and bring back, a join that takes its time,
# the address got once joined, a link that drops while the access point is down and comes back
# by itself when it returns (as the CYW43 rejoins). Time is the clock's own ticks_ms.
STA_IF = 0
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_CONNECT_FAIL = -1
STAT_NO_AP_FOUND = -2
STAT_WRONG_PASSWORD = -3
STAT_GOT_IP = 3
JOIN_MS = 1500  # from connect(), or the access point's return, to an address


class Air:
    """The radio: the module the firmware is given as `network`. `ssid` and `password` are the
    hall's access point; None for the password takes whatever a clock says (a clock served on
    the desktop, set up with SET WIFI)."""

    STA_IF = STA_IF
    STAT_IDLE = STAT_IDLE
    STAT_CONNECTING = STAT_CONNECTING
    STAT_CONNECT_FAIL = STAT_CONNECT_FAIL
    STAT_NO_AP_FOUND = STAT_NO_AP_FOUND
    STAT_WRONG_PASSWORD = STAT_WRONG_PASSWORD
    STAT_GOT_IP = STAT_GOT_IP

    def __init__(self, ticks_ms, ssid="hall", password=None):
        self.ticks_ms = ticks_ms
        self.ssid = ssid
        self.password = password
        self.up = True  # the access point is on
        self.since = ticks_ms()  # when it (last) came up

    def WLAN(self, interface=STA_IF):  # noqa: N802  (MicroPython's name)
        return Wlan(self)

    def drop(self):
        """The access point goes (a router switched off, out of range)."""
        self.up = False

    def restore(self):
        self.up = True
        self.since = self.ticks_ms()

    def takes(self, ssid, password):
        return ssid == self.ssid or self.password is None

    def right(self, ssid, password):
        return self.password is None or password == self.password


class Wlan:
    def __init__(self, air):
        self.air = air
        self._active = False
        self._target = None  # (ssid, password) of the last connect()
        self._at = 0
        self._joined = False

    def active(self, flag=None):
        if flag is None:
            return self._active
        self._active = bool(flag)
        if not flag:
            self.disconnect()

    def connect(self, ssid, key=""):
        if not self._active:
            raise OSError(1)  # EPERM: the station interface is not up
        self._target = (ssid, key)
        self._at = self.air.ticks_ms()
        self._joined = False

    def disconnect(self):
        self._target = None
        self._joined = False

    def isconnected(self):
        return self.status() == STAT_GOT_IP

    def ifconfig(self):
        return ("127.0.0.1" if self._joined else "0.0.0.0", "255.0.0.0", "127.0.0.1", "127.0.0.1")

    def status(self):
        air = self.air
        if self._target is None or not self._active:
            return STAT_IDLE
        ssid, key = self._target
        if not air.takes(ssid, key):
            return STAT_NO_AP_FOUND if air.ticks_ms() - self._at > JOIN_MS else STAT_CONNECTING
        if not air.up:
            self._joined = False
            return STAT_CONNECTING  # the chip keeps trying
        if not air.right(ssid, key):
            return STAT_WRONG_PASSWORD
        if self._joined:
            return STAT_GOT_IP
        began = max(self._at, air.since)
        if air.ticks_ms() - began >= JOIN_MS:
            self._joined = True
            return STAT_GOT_IP
        return STAT_CONNECTING
