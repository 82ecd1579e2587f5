# SPDX-License-Identifier: MIT
# A simulated hall: N clocks running the firmware's own app, each on the broker through its hall
# link, played by scripted players, in real time (or virtual time, as fast as it goes).
#
# One thread runs every clock: each clock's HAL notes when its next pass is due (wait() returns
# at once), and the scheduler runs the pass then, or at once when a player presses a lever or a
# command comes from the broker (its socket is in the scheduler's selector). A USB clock's link
# goes through paho (sim/mqtt_transport.py), a Wi-Fi clock's (picow_oled, `wifi`) through the
# firmware's own network and MQTT code on a simulated radio (sim/hall_wifi.py), which the hall
# can take down and bring back (drop_wifi, restore_wifi). A clock's power can be cut (power_cut):
# it starts again from its flash, as the board does, and its player resumes the game.
import heapq
import math
import os
import queue
import random
import selectors
import time

import sim  # noqa: F401  (puts the firmware on the path)
from app import hall as halls
from app.hall_link import Link
from app.runner import Runner
from clock.game import OVER, PAUSED, READY, RUNNING
from hal import buttons
from sim import boards
from sim.hal_base import HEALTHY_MV, DesktopBuzzer, DesktopHal
from sim.realtime import folder_storage, monotonic_ms

# Time controls of a club hall, and the share of boards on each.
CONTROLS = (
    ("Blitz 3+2", 4),
    ("Blitz 5+3", 4),
    ("Rapid 15+10", 2),
    ("Bullet 1+0", 1),
    ("US delay G/5 d5", 1),
    ("Go 30m 5x30s byoyomi", 1),
)
HOLD_MS = 80
# The USB clocks' board: a 7-segment one, whose frame is 9 bytes (an OLED's is 1 KB, drawn by
# the CPython framebuf stand-in: most of a simulated hall's time at startup). The hall is the
# same whatever the display.
USB_BOARD = "pico_tm1637"
NEXT_GAME_MS = 20000  # after a result, a new game this long after (the demo's hall goes on)


class HallTime:
    """The hall's clock: real (monotonic, folded as ticks_ms) or virtual (moved by the scheduler)."""

    def __init__(self, virtual=False):
        self.virtual = virtual
        self.now = 1000

    def ticks_ms(self):
        return self.now if self.virtual else monotonic_ms()


class SharedHal(DesktopHal):
    """A clock of the hall: ticks from the hall's time; wait() notes when the next pass is due."""

    def __init__(self, storage, time_source):
        DesktopHal.__init__(self, storage, DesktopBuzzer(present=False), HEALTHY_MV)
        self.ticks_ms = time_source.ticks_ms
        self.wake = None

    def wait(self, until):
        self.wake = until


class Player:
    """Both players of a board: a think time per move from a log-normal spread around the time a
    move can take; faster when short of time; a few let their flag fall."""

    def __init__(self, rng, careless=0.05, pace=1.0):
        self.rng = rng
        self.careless = rng.random() < careless
        self.pace = pace * rng.uniform(0.6, 1.6)  # some boards play fast, some slow

    def think_ms(self, remaining_ms, budget_ms):
        rng = self.rng
        typical = max(1500, budget_ms / 40) * self.pace
        if remaining_ms < budget_ms * 0.1:  # time trouble: quick moves
            typical = max(700, remaining_ms / 12)
        think = rng.lognormvariate(math.log(typical), 0.7)
        if self.careless and remaining_ms < 20000 and rng.random() < 0.15:
            return remaining_ms + 1000  # too long: the flag falls
        return int(min(think, max(300, remaining_ms * 0.6)))


class SimClock:
    """A clock of the hall on its own flash folder: `transport` for a USB clock's link, or
    `wifi` (the hall's Air, the broker's address and the account) for a Wi-Fi clock's."""

    def __init__(
        self,
        board,
        folder,
        time_source,
        hall_name,
        transport,
        preset,
        seed,
        wifi=None,
        pace=1.0,
        board_name=USB_BOARD,
    ):
        self.board = board
        self.folder = folder
        self.hal = SharedHal(folder_storage(folder), time_source)
        self.app = boards.build_app(self.hal, boards.load("picow_oled" if wifi else board_name))
        if preset is not None:
            self.app.choose_preset(self.app.presets.index_of(preset))
        hall = halls.of(self.app)
        if hall.name != hall_name or hall.board != board:
            hall.set(hall=hall_name, board=board)
        if wifi is None:
            self.transport = transport
            hall.link = Link(hall, transport, self.hal.ticks_ms())
        else:
            from sim import hall_wifi

            hall_wifi.start(self.app, *wifi)
            self.transport = hall.link.transport
        self.wifi = wifi
        self.runner = Runner(self.hal, self.app)
        self.player = Player(random.Random(seed), pace=pace)
        self.budget = self._budget()
        self.seen = None  # (state, plies) the players last acted on
        self.due = None  # the stamp of the pass the scheduler holds for it
        self.cut = False  # it started again after a power cut: its player resumes the game
        self.sock = None  # a Wi-Fi clock's socket, in the scheduler's selector while online

    def _budget(self):
        from clock.game import View

        game = self.app.game
        return max(60000, game.view(0, 0, View()).time_ms)


class Waker:
    """A Wi-Fi clock's socket in the scheduler's selector: readable, the clock gets a pass."""

    def __init__(self, hall, index):
        self.hall = hall
        self.index = index

    def pump(self):
        self.hall.wakeups.put(self.index)


class SimHall:
    def __init__(
        self,
        broker,
        count,
        hall_name="club",
        virtual=False,
        auto_start=True,
        seed=1,
        wifi=0,
        pace=1.0,
        controls=None,
        board_name=USB_BOARD,
    ):
        """`wifi` clocks (boards 1 to `wifi`) are picow_oled on the hall's simulated Wi-Fi; the
        others reach the broker as USB clocks do. `pace` scales the players' think times;
        `controls`, the presets the boards play in turn (CONTROLS' mix by default)."""
        self.pace = pace
        self.board_name = board_name
        import tempfile

        from sim.hall_air import Air

        if wifi and virtual:
            raise ValueError("the Wi-Fi clocks speak to the broker in real time: not --virtual")
        self.broker = broker
        self.hall_name = hall_name
        self.time = HallTime(virtual)
        self.air = Air(self.time.ticks_ms)
        self.wifi = wifi
        self.selector = selectors.DefaultSelector()  # every clock's broker socket
        self.folder = tempfile.mkdtemp(prefix="clock-hall-")
        self.wakeups = queue.SimpleQueue()
        self.auto_start = auto_start
        self.rng = random.Random(seed)
        self.clocks = []
        self.heap = []  # (stamp, order, kind, clock index)
        self.order = 0
        self.seed = seed
        if controls is None:
            controls = [name for name, share in CONTROLS for _ in range(share)]
        for index in range(count):
            clock = self._clock(index, controls[index % len(controls)])
            self.clocks.append(clock)
            clock.due = self.time.ticks_ms()
            self._at(clock.due, "pass", index)
        self.presses = 0
        self.on_press = None  # on_press(board, plies once pressed): told at each player's press
        self.finished = {}  # (board, game id) -> (plies, record entries, result): games ended
        self.playing = True  # False: the players press nothing more (the clocks run on)

    def _clock(self, index, preset):
        """Board index + 1 on its flash folder (a preset chosen, or None: as its flash has it)."""
        from sim.mqtt_transport import PahoTransport

        board = index + 1
        user = "clock-%d" % board
        password = self.broker.passwords[user]
        transport = wifi = None
        if board <= self.wifi:
            wifi = (self.air, self.broker.host, self.broker.port, user, password)
        else:
            transport = PahoTransport(
                self.broker.host, self.broker.port, user, password, user, selector=self.selector
            )
            transport.notify = lambda: self.wakeups.put(index)
        return SimClock(
            board,
            os.path.join(self.folder, str(board)),
            self.time,
            self.hall_name,
            transport,
            preset,
            self.seed * 100003 + board,
            wifi,
            self.pace,
            self.board_name,
        )

    # --- faults ----------------------------------------------------------------------------

    def drop_wifi(self):
        """The hall's access point goes: every Wi-Fi clock loses its network."""
        self.air.drop()

    def restore_wifi(self):
        self.air.restore()

    def power_cut(self, board):
        """Board `board` loses its power mid-whatever: its connection ends without a word (the
        broker sends its last will), and it starts again from its flash."""
        index = board - 1
        old = self.clocks[index]
        self._forget_socket(old)
        link = old.app.hall.link
        if old.wifi is not None:  # a Wi-Fi clock: its socket just closes
            sock = old.transport.sock
            if sock is not None:
                try:
                    sock.close()
                except OSError:
                    pass
        elif old.transport.client is not None:
            raw = old.transport.client.socket()
            if raw is not None:
                try:
                    raw.close()  # no DISCONNECT: the broker publishes the last will
                except OSError:
                    pass
            old.transport._drop()
        link.online = False
        clock = self._clock(index, None)
        clock.cut = True
        self.clocks[index] = clock
        clock.due = self.time.ticks_ms()
        self._at(clock.due, "pass", index)

    def _forget_socket(self, clock):
        if clock.sock is not None:
            try:
                self.selector.unregister(clock.sock)
            except (KeyError, ValueError, OSError):
                pass
            clock.sock = None

    def _watch_socket(self, clock, index):
        """A Wi-Fi clock's socket in the selector while its link is online."""
        link = clock.app.hall.link
        sock = clock.transport.sock if link.online else None
        if sock is clock.sock:
            return
        self._forget_socket(clock)
        if sock is not None:
            try:
                self.selector.register(sock, selectors.EVENT_READ, Waker(self, index))
                clock.sock = sock
            except (ValueError, OSError):
                pass

    # --- the scheduler -------------------------------------------------------------------

    def _at(self, stamp, kind, index):
        self.order += 1
        heapq.heappush(self.heap, (stamp, self.order, kind, index))

    def run(self, seconds=None, on_press=None):
        """Run the hall for `seconds` (None: until interrupted)."""
        clock_time = self.time
        end = None if seconds is None else time.monotonic() + seconds
        if on_press is not None:
            self.on_press = on_press
        misc_at = 0.0
        while end is None or time.monotonic() < end:
            if time.monotonic() >= misc_at:
                misc_at = time.monotonic() + 1.0
                for clock in self.clocks:
                    if clock.wifi is None:
                        clock.transport.misc()
            if self.heap:
                due = self.heap[0][0]
                wait = (due - clock_time.ticks_ms()) / 1000
            else:
                wait = 1.0
            if clock_time.virtual:
                if self.heap:
                    clock_time.now = max(clock_time.now, due)
                wait = 0
            for key, _events in self.selector.select(min(wait, 0.5) if wait > 0 else 0):
                key.data.pump()  # a command: its clock is woken (transport.notify)
            while True:  # the clocks a command woke
                try:
                    self._pass(self.wakeups.get_nowait())
                except queue.Empty:
                    break
            if wait > 0:
                continue
            stamp, _order, kind, index = heapq.heappop(self.heap)
            clock = self.clocks[index]
            if kind == "pass":
                if clock.due != stamp:
                    continue  # a pass rescheduled since
                self._pass(index)
            elif kind == "press":
                self._press(clock, index)
            elif kind == "release":
                lever = getattr(clock, "pending_release", None)
                if lever is not None:  # (a clock that started again since has none)
                    clock.pending_release = None
                    clock.hal.edges.push(lever, False, clock_time.ticks_ms())
                self._pass(index)
            elif kind == "new":
                if clock.app.game.state() == OVER and not clock.app.overlays:
                    clock.app.new_game()
                self._pass(index)
            elif kind == "start":
                if clock.app.game.state() == READY and not clock.app.overlays:
                    self._lever(clock, index, buttons.RIGHT)
            elif kind == "resume":
                if clock.cut and clock.app.game.state() == PAUSED:
                    if not clock.app.overlays:
                        clock.cut = False
                    clock.seen = None
                    self._lever(clock, index, buttons.PLAY)

    def _pass(self, index):
        clock = self.clocks[index]
        clock.runner.step()
        if clock.wifi is not None:
            self._watch_socket(clock, index)
        self._players(clock, index)
        wake = clock.hal.wake
        if clock.hal.edges.pending():
            wake = self.time.ticks_ms()
        clock.due = wake
        self._at(wake, "pass", index)

    def _lever(self, clock, index, lever):
        now = self.time.ticks_ms()
        clock.hal.edges.push(lever, True, now)
        clock.pending_release = lever
        self._at(now + HOLD_MS, "release", index)
        self._pass(index)

    def _press(self, clock, index):
        if not self.playing:
            return
        game = clock.app.game
        if game.state() != RUNNING or clock.app.overlays:
            return
        mover = game.turn()
        side = 0 if clock.app.player_on(0) == mover else 1
        self.presses += 1
        if self.on_press is not None:
            self.on_press(clock.board, game.plies() + 1)
        self._lever(clock, index, buttons.LEFT if side == 0 else buttons.RIGHT)

    def _players(self, clock, index):
        """After a pass: a new move to think about, a finished game to clear, a game to start."""
        app = clock.app
        game = app.game
        state = game.state()
        seen = (state, game.plies())
        if seen == clock.seen:
            return
        clock.seen = seen
        now = self.time.ticks_ms()
        if state == RUNNING:
            from clock.game import View

            view = game.view(game.turn(), now, View())
            think = clock.player.think_ms(view.time_ms, clock.budget)
            self._at(now + think, "press", index)
        elif state == OVER:
            from clock import report

            record = app.record
            if record.owner is game:
                key = (clock.board, record.tag)
                self.finished[key] = (game.plies(), record.length, report.result(game))
            self._at(now + NEXT_GAME_MS * self.pace, "new", index)
        elif state == READY and self.auto_start:
            self._at(now + self.rng.randint(1000, 8000), "start", index)
        elif state == PAUSED and clock.cut:  # after a power cut: resumed (its offer, then PLAY)
            self._at(now + 1500, "resume", index)
        elif state == PAUSED:
            pass  # the arbiter's: the players wait

    def close(self):
        for clock in self.clocks:
            self._forget_socket(clock)
            try:
                clock.transport.disconnect()
            except Exception:
                pass
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)
