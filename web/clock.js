// SPDX-License-Identifier: MIT
// The clock in the page: MicroPython (WebAssembly) runs the firmware's ClockApp and Runner on the
// browser HAL (sim/web_hal.py, web/clock_page.py); this module feeds it time, edges and serial
// bytes, and draws what it gives back. Nothing here decides anything about the game.
import { loadMicroPython } from "./node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs";
import { drawLcd, drawOled, drawSeg, hexBytes } from "./display.js";

export const KEY_PREFIX = "tournament-clock/"; // as web/clock_page.py's KEY_PREFIX
const BOARD_KEY = KEY_PREFIX + "board";
const MUTE_KEY = KEY_PREFIX + "page-muted";
export const BUTTONS = { left: 0, right: 1, play: 2, set: 3, plus: 4, minus: 5 };

// localStorage as StoredFs wants it (sim/web_hal.py), and the page's clock, tone and lights.
function pageObject(clock) {
  return {
    now: () => performance.now(),
    tone: (hz, ms) => clock.tone(hz, ms),
    leds: (left, right) => clock.showLeds(left, right),
    serial: (text) => clock.serialOut(text),
    get_all: (prefix) => {
      const found = {};
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        if (key.startsWith(prefix + "/")) found[key] = localStorage.getItem(key);
      }
      return JSON.stringify(found);
    },
    put: (key, text) => {
      try {
        localStorage.setItem(key, text);
        return true;
      } catch (error) {
        clock.el.onNote("the browser's storage is full: the clock's last change was not kept");
        return false;
      }
    },
    drop: (key) => localStorage.removeItem(key),
  };
}

export class Clock {
  constructor(elements) {
    if (globalThis.ResizeObserver) new ResizeObserver(() => this.paint()).observe(elements.display);
    this.el = elements; // {display, leds: [left, right], onInfo, onNote, onFrame}
    this.mp = null;
    this.page = null;
    this.timer = null;
    this.writes = -1;
    this.frame = null;
    this.info = null;
    this.down = new Map(); // button -> how many inputs hold it
    this.serialListeners = new Set();
    this.audio = null;
    this.muted = localStorage.getItem(MUTE_KEY) === "1";
    this.steps = 0;
    this.lastStep = performance.now();
    this.longestGap = 0;
  }

  async boot(boardName) {
    const [mp, bundle] = await Promise.all([
      loadMicroPython({
        heapsize: 8 * 1024 * 1024,
        stdout: (line) => console.log(line),
        stderr: (line) => console.error(line),
      }),
      fetch("build/bundle.json").then((r) => {
        if (!r.ok) throw new Error("build/bundle.json is missing: start the page with make web");
        return r.json();
      }),
    ]);
    this.mp = mp;
    const made = new Set();
    const put = (path, data) => {
      const full = "/clock/" + path;
      const folder = full.slice(0, full.lastIndexOf("/"));
      if (!made.has(folder)) mp.FS.mkdirTree(folder);
      made.add(folder);
      mp.FS.writeFile(full, data);
    };
    for (const [path, text] of Object.entries(bundle.files)) put(path, text);
    for (const [path, data] of Object.entries(bundle.compiled || {})) {
      put(path, Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
    }
    mp.globals.set("page_js", pageObject(this));
    mp.runPython(
      'import sys\nsys.path[:0] = ["/clock/firmware", "/clock", "/clock/web"]\nimport clock_page',
    );
    this.module = mp.globals.get("clock_page");
    // A board file that does not import or that the board would refuse is left out of the
    // chooser with one line; the others work.
    const checked = JSON.parse(this.module.usable(JSON.stringify(bundle.boards)));
    this.boards = checked.boards;
    const stored = localStorage.getItem(BOARD_KEY);
    const wanted = [boardName, stored].find((name) => this.boards.includes(name));
    this.start(wanted || this.boards[0]);
    for (const line of checked.refused) this.el.onNote("left out of the boards: " + line);
    if (boardName && boardName !== this.board) this.el.onNote(`no board ${boardName} here: ${this.board} instead`);
  }

  start(boardName) {
    clearTimeout(this.timer);
    this.down.clear();
    this.writes = -1;
    this.mp.globals.set("board_name", boardName);
    this.mp.runPython("page = clock_page.Page(board_name, page_js)");
    this.page = this.mp.globals.get("page");
    this.page.set_muted(this.muted);
    localStorage.setItem(BOARD_KEY, boardName);
    this.board = boardName;
    this.info = JSON.parse(this.page.info());
    this.showLeds(false, false);
    this.pump();
    for (const note of this.info.notes) this.el.onNote(note);
  }

  // One pass of the firmware's loop, the frame drawn if it changed, the next pass timed.
  pump() {
    clearTimeout(this.timer);
    this.timer = null;
    const now = performance.now();
    this.longestGap = Math.max(this.longestGap, now - this.lastStep);
    this.lastStep = now;
    let due;
    try {
      due = this.page.step();
    } catch (error) {
      this.el.onNote("the clock stopped: " + (error.message || error));
      throw error;
    }
    this.steps += 1;
    this.redraw();
    if (due >= 0) this.timer = setTimeout(() => this.pump(), due);
  }

  redraw() {
    const writes = this.page.frame_writes();
    if (writes !== this.writes) {
      this.writes = writes;
      this.frame = hexBytes(this.page.frame_hex());
      this.info = JSON.parse(this.page.info());
      this.paint();
      this.el.onFrame(this.info);
    }
  }

  // The frame drawn again, for the size the display now has (a resize, a zoom, a rotation).
  paint() {
    if (!this.frame || !this.info) return;
    if (this.info.display === "oled") drawOled(this.el.display, this.frame);
    else if (this.info.display === "lcd") drawLcd(this.el.display, this.frame);
    else drawSeg(this.el.display, this.frame, this.info.points);
  }

  // A button's edge stamped when its event happened (event.timeStamp: performance.now()'s
  // scale), however late the page gets to it.
  edge(name, pressed, stamp) {
    const button = BUTTONS[name];
    const count = this.down.get(button) || 0;
    if (pressed) {
      this.down.set(button, count + 1);
      this.unlockAudio();
      if (count > 0) return;
    } else {
      if (count === 0) return;
      this.down.set(button, count - 1);
      if (count > 1) return;
    }
    this.page.edge(button, pressed, stamp);
    this.pump();
  }

  // A press held `ms` (a key that stands for a long press): the release is stamped exactly.
  hold(name, ms, stamp) {
    this.edge(name, true, stamp);
    setTimeout(() => this.edge(name, false, stamp + ms), Math.max(0, stamp + ms - performance.now()));
  }

  has(name) {
    return this.info.buttons.includes(name);
  }

  // --- serial ---------------------------------------------------------------------------
  serialIn(text) {
    this.page.send(text);
    this.pump();
  }
  serialOut(text) {
    for (const listener of this.serialListeners) listener(text);
  }

  // --- sound and lights -------------------------------------------------------------------
  unlockAudio() {
    if (!this.audio && window.AudioContext) this.audio = new AudioContext();
    if (this.audio && this.audio.state === "suspended") this.audio.resume();
  }
  tone(hz, ms) {
    this.lastTone = { hz, ms, at: performance.now() };
    if (this.muted || !this.audio) return;
    const osc = this.audio.createOscillator();
    const gain = this.audio.createGain();
    osc.type = "square";
    osc.frequency.value = hz;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(this.audio.destination);
    const t = this.audio.currentTime;
    osc.start(t);
    osc.stop(t + ms / 1000);
  }
  setMuted(muted) {
    this.muted = muted;
    localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
    if (this.page) this.page.set_muted(muted);
  }
  showLeds(left, right) {
    this.leds = [left, right];
    this.el.leds[0].classList.toggle("on", !!left);
    this.el.leds[1].classList.toggle("on", !!right);
  }

  // The game in progress saved as of now: the tab is hidden (a phone may drop it) or goes.
  saveNow() {
    if (this.page) this.page.save_now();
  }

  // --- the clock's own parsers --------------------------------------------------------------
  checkSpec(spec) {
    return JSON.parse(this.module.check_spec(spec));
  }
  checkEntry(name, spec) {
    return JSON.parse(this.module.check_name_spec(name, spec));
  }
  fold(text) {
    return this.module.fold(text);
  }
  players(spec, name) {
    return JSON.parse(this.module.players(spec || "", name || ""));
  }
  checkPresets(text) {
    return JSON.parse(this.module.check_presets(text));
  }
  trace() {
    return JSON.parse(this.page.trace());
  }
}
