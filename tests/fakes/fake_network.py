# SPDX-License-Identifier: MIT
# MicroPython's `network` module for a Pico W, with real state: access points that come and go,
# a join that takes its time and ends joined, refused or not found, a link that drops when its
# access point goes and comes back by itself when it returns (as the CYW43 does), and a chip that
# may not be there at all (rp2040js: active(True) returns, connect() raises EPERM). Time is the
# clock's (`now()`: the virtual HAL's ms). Both interpreters.
STA_IF = 0
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_CONNECT_FAIL = -1
STAT_NO_AP_FOUND = -2
STAT_WRONG_PASSWORD = -3
STAT_GOT_IP = 3
JOIN_MS = 3000  # from connect() (or the access point's return) to an address


class Air:
    """The radio around the clock; also the module: Air(now) is passed as `network`."""

    STA_IF = STA_IF
    STAT_IDLE = STAT_IDLE
    STAT_CONNECTING = STAT_CONNECTING
    STAT_CONNECT_FAIL = STAT_CONNECT_FAIL
    STAT_NO_AP_FOUND = STAT_NO_AP_FOUND
    STAT_WRONG_PASSWORD = STAT_WRONG_PASSWORD
    STAT_GOT_IP = STAT_GOT_IP

    def __init__(self, now, chip=True):
        self.now = now
        self.chip = chip  # False: no wireless chip answers
        self.points = {}  # ssid -> password, the access points in range
        self.since = {}  # ssid -> when it (last) came up
        self.calls = []  # (stamp, name) of every call the clock made
        self.record = True  # False: calls are not kept (a heap-locked test)
        self.wlans = []

    def WLAN(self, interface=STA_IF):
        wlan = Wlan(self)
        self.wlans.append(wlan)
        return wlan

    def open(self, ssid, password):
        self.points[ssid] = password
        self.since[ssid] = self.now()

    def close(self, ssid):
        del self.points[ssid]

    def called(self, name):
        """The stamps of the clock's calls of `name`."""
        return [at for at, called in self.calls if called == name]


class Wlan:
    def __init__(self, air):
        self.air = air
        self._active = False
        self._up = False  # the chip started
        self._target = None  # (ssid, password) of the last connect()
        self._at = 0  # when it was called
        self._joined = False
        self._rejoining = False  # the link went down; the chip keeps trying

    def _call(self, name):
        if self.air.record:
            self.air.calls.append((self.air.now(), name))

    def active(self, flag=None):
        if flag is None:
            return self._active
        self._call("active")
        self._active = bool(flag)
        self._up = self._active and self.air.chip  # MicroPython says nothing when it fails
        if not self._active:
            self.disconnect()

    def connect(self, ssid, key=""):
        self._call("connect")
        if not self._up:
            raise OSError(1)  # EPERM: the station interface is not up
        self._target = (ssid, key)
        self._at = self.air.now()
        self._joined = False
        self._rejoining = False

    def disconnect(self):
        self._call("disconnect")
        self._target = None
        self._joined = False
        self._rejoining = False

    def isconnected(self):
        return self.status() == STAT_GOT_IP

    def ifconfig(self):
        address = "192.168.4.23" if self._joined else "0.0.0.0"
        return (address, "255.255.255.0", "192.168.4.1", "192.168.4.1")

    def status(self):
        self._call("status")
        if self._target is None or not self._up:
            return STAT_IDLE
        air = self.air
        now = air.now()
        ssid, key = self._target
        there = air.points.get(ssid)
        if self._joined:
            if there == key:
                return STAT_GOT_IP
            self._joined = False
            self._rejoining = True
        begun = self._at
        if there is not None and now - air.since[ssid] < now - begun:
            begun = air.since[ssid]
        ended = now - begun >= JOIN_MS
        if there is None:
            return STAT_CONNECTING if self._rejoining or not ended else STAT_NO_AP_FOUND
        if there != key:
            return STAT_WRONG_PASSWORD if ended else STAT_CONNECTING
        if ended:
            self._joined = True
            self._rejoining = False
            return STAT_GOT_IP
        return STAT_CONNECTING
