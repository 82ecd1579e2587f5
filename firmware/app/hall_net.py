# SPDX-License-Identifier: MIT
# A Wi-Fi clock's network: it joins the hall's Wi-Fi in the background of the main loop and says on
# the status line whether the clock is on the hall's broker (NET) or not (NO NET).
#
# The `network` module is injected: MicroPython's on the Pico W, a fake with real state in the
# tests. Everything here runs after the frame and the save, in calls that return at once but
# one: starting the wireless chip (wlan.active(True): its power-up waits and firmware load; 0.37 s
# on the emulated RP2040, where no chip answers) is done once, at boot or else in a pass where
# no clock runs. A join is started with connect() and then only watched: wlan.status() every 2 s
# while it goes on, every 5 s once joined. A join that fails or takes over 20 s is started again
# after 5 s, then up to 60 s; a lost network gets 20 s to come back by itself first. A chip that
# did not start (its connect() refused: no chip, or one that does not answer) is left alone
# until the next boot. Meanwhile the clock plays exactly as a clock in no hall. In a pause and
# over a result the status line keeps its own words (PAUSE, OVER): NO NET would not fit beside
# PAUSE.
from micropython import const

from clock.game import RUNNING
import ticks

NET = "NET"  # the status line's word: on the broker
NO_NET = "NO NET"  # a Wi-Fi clock that is not, whatever the reason
_POLL_JOINING_MS = const(2000)
_POLL_UP_MS = const(5000)
_JOIN_MS = const(20000)
_RETRY_MS = const(5000)
_RETRY_MAX_MS = const(60000)
_EPERM = const(1)  # connect() of a chip that did not start

# What the network is doing.
IDLE = const(0)  # no Wi-Fi stored (SET WIFI): a clock in no hall
STARTING = const(1)  # the chip to be started, in the next pass where no clock runs
JOINING = const(2)  # a join under way (or the chip rejoining by itself after a loss)
WAITING = const(3)  # a join failed: the next one at _retry_at
UP = const(4)  # joined, an address got: the link may connect
DEAD = const(5)  # the wireless chip did not start
_NAMES = ("idle", "starting", "joining", "waiting", "up", "no chip")


def start(app, network, socket, select, client, now):
    """Put the clock on its hall's broker over Wi-Fi (main.py, for a board with WIFI): the
    link over umqtt.simple's `client` class (app/hall_mqtt.py) behind a Net. The chip is
    started now, before the loop, when a Wi-Fi network is stored."""
    from app import hall as halls
    from app.hall_mqtt import Transport

    hall = halls.of(app)
    transport = Transport(hall, client, socket, select, app.hal.ticks_ms)
    return attach(hall, network, transport, now)


def attach(hall, network, transport, now):
    """The hall's link on `transport`, connected only while `network`'s Wi-Fi is up."""
    from app.hall_link import Link

    net = Net(hall, network, now)
    link = Link(hall, transport, now)
    link.net = net
    net.link = link
    hall.link = link
    hall.net = net
    net.step(now)
    return net


class Net:
    def __init__(self, hall, network, now):
        self.hall = hall
        self.app = hall.app
        self.link = None
        self.wlan = network.WLAN(network.STA_IF)
        self._got_ip = network.STAT_GOT_IP
        self.state = STARTING if hall.settings.get("ssid") else IDLE
        self.joins = 0  # connect() calls
        self._at = now  # the state's next step: a status poll, a retry, a join's end
        self._since = now  # when the join (or the loss) began
        self._retry_ms = _RETRY_MS

    @property
    def up(self):
        return self.state == UP

    def status(self):
        """For HALL: the state and, joined, the address."""
        found = {"state": _NAMES[self.state], "joins": self.joins}
        if self.state == UP:
            try:
                found["address"] = self.wlan.ifconfig()[0]
            except (AttributeError, OSError):
                pass
        return found

    # --- the main loop's calls -------------------------------------------------------------

    def wake_by(self, until, now):
        if self._word() is not self.app.net_note:
            return now
        state = self.state
        if state == IDLE or state == DEAD:
            return until
        if state == STARTING:  # at the next pass that has no clock running
            at = ticks.add(now, _POLL_JOINING_MS)
        else:
            at = self._at
        return at if ticks.diff(until, at) > 0 else until

    def take(self, now):
        """Before the frame: the status line's word, when it changed (True: draw it)."""
        word = self._word()
        if word is self.app.net_note:
            return False
        self.app.net_note = word
        return True

    def step(self, now):
        """After the frame and the save: the chip started, a join begun or watched."""
        state = self.state
        if state == IDLE or state == DEAD:
            return
        if state == STARTING:
            if self.app.game.state() != RUNNING:
                self._start(now)
            return
        if ticks.diff(now, self._at) < 0:
            return
        if state == WAITING:
            self._join(now)
            return
        status = self.wlan.status()
        if state == UP:
            if status == self._got_ip:
                self._at = ticks.add(now, _POLL_UP_MS)
                return
            self.hall.log("Wi-Fi: lost (status %d)" % status)
            self.state = JOINING
            self._since = now
            self._at = ticks.add(now, _POLL_JOINING_MS)
            if self.link is not None:
                self.link.lost("Wi-Fi lost", now)
            return
        # JOINING
        if status == self._got_ip:
            self.state = UP
            self._retry_ms = _RETRY_MS
            self._at = ticks.add(now, _POLL_UP_MS)
            self.hall.log("Wi-Fi: joined %s" % self.hall.settings.get("ssid"))
            if self.link is not None:
                self.link.retry(now)
        elif status < 0 or ticks.diff(now, self._since) >= _JOIN_MS:
            self._failed(now, _FAILURES.get(status, "no address after %d s" % (_JOIN_MS // 1000)))
        else:
            self._at = ticks.add(now, _POLL_JOINING_MS)

    def rejoin(self, now):
        """SET WIFI: the new network joined at the next pass (the chip started first if it is
        not yet)."""
        if self.state == DEAD:
            return
        if self.state == UP and self.link is not None:
            self.link.lost("Wi-Fi changed", now)
        if self.state == IDLE or self.state == STARTING:
            self.state = STARTING
        else:
            self.state = WAITING
        self._at = now
        self._retry_ms = _RETRY_MS

    # --- the steps ---------------------------------------------------------------------------

    def _word(self):
        if self.state == IDLE:
            return ""
        link = self.link
        return NET if link is not None and link.online else NO_NET

    def _start(self, now):
        try:
            self.wlan.active(True)
        except OSError as error:
            self._dead(error)
            return
        self._join(now)

    def _join(self, now):
        settings = self.hall.settings
        wlan = self.wlan
        try:
            if self.joins:
                wlan.disconnect()  # the last join's end, if it has not ended
            self.joins += 1
            wlan.connect(settings.get("ssid"), settings.get("wifi") or "")
        except OSError as error:
            if error.args and error.args[0] == _EPERM:
                self._dead(error)
            else:
                self._failed(now, "connect refused (%s)" % error)
            return
        self.state = JOINING
        self._since = now
        self._at = ticks.add(now, _POLL_JOINING_MS)

    def _failed(self, now, why):
        self.hall.log("Wi-Fi: %s; again in %d s" % (why, self._retry_ms // 1000))
        self.state = WAITING
        self._at = ticks.add(now, self._retry_ms)
        self._retry_ms = min(self._retry_ms * 2, _RETRY_MAX_MS)

    def _dead(self, error):
        self.state = DEAD
        self.hall.log("Wi-Fi: the wireless chip did not start (%s); the clock plays on" % error)


# network.STAT_* as MicroPython's CYW43 driver gives them (a join that ended without a network).
_FAILURES = {-1: "the join failed", -2: "no such network", -3: "wrong password"}
