// SPDX-License-Identifier: MIT
// The page in a real browser: Debian's headless Chromium driven by playwright-core. Plays a game
// by clicking the levers, reads the drawn display back, checks a preset error, reloads mid-game,
// refuses a corrupt stored game, talks the serial protocol to the page's clock, and downloads
// the record. Writes what it saw into OUT (result.json, the downloads) for tests/web/check_web.py,
// which compares it with the CPython simulator and python-chess. Usage:
//   node tests/web/browser.mjs OUT [--screenshots DIR]
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "../../web/node_modules/playwright-core/index.mjs";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const OUT = path.resolve(process.argv[2] || "build/web-test");
const shotsAt = process.argv.indexOf("--screenshots");
const SHOTS = shotsAt > 0 ? path.resolve(process.argv[shotsAt + 1]) : null;
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const result = { checks: [] };
const started = Date.now();

function check(name, ok, detail = "") {
  result.checks.push({ name, ok: !!ok, detail: String(detail) });
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? ": " + String(detail).replace(/\n/g, " | ").slice(0, 200) : ""}`);
}

function serve() {
  return new Promise((resolve, reject) => {
    const python = fs.existsSync(path.join(ROOT, ".venv/bin/python")) ? path.join(ROOT, ".venv/bin/python") : "python3";
    const child = spawn(python, ["-m", "sim", "web", "--port", "0"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let seen = "";
    child.stdout.on("data", (data) => {
      seen += data;
      const found = /http:\/\/[^ ]+?:(\d+)\//.exec(seen);
      if (found) resolve({ child, url: `http://127.0.0.1:${found[1]}/` });
    });
    child.on("exit", (code) => reject(new Error(`python -m sim web exited ${code}: ${seen}`)));
  });
}

const ready = (page) => page.waitForFunction(() => document.body.classList.contains("ready") && window.clockPage, null, { timeout: 30000 });
const state = (page) => page.evaluate(() => window.clockPage.clock.info.state);
async function waitState(page, wanted, ms = 5000) {
  await page.waitForFunction((w) => window.clockPage && window.clockPage.clock.info.state === w, wanted, { timeout: ms });
}
// The game's own time passing: a move `ms` long, counted on the page's clock (the one its edges
// are stamped with), not a wait for something to happen. What a check reads next is waited for
// as a condition.
async function elapse(page, ms) {
  const until = await page.evaluate((ms) => performance.now() + ms, ms);
  await page.waitForFunction((until) => performance.now() >= until, until, { timeout: ms + 30000, polling: 10 });
}
async function lever(page, side, moveMs) {
  await page.click(`#lever-${side}`);
  await elapse(page, moveMs);
}

const { child, url } = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
fs.mkdirSync(OUT, { recursive: true });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message.slice(0, 300)));
  const t0 = Date.now();
  await page.goto(url);
  await ready(page);
  result.load_ms = Date.now() - t0;
  check("the page loads and the clock starts", (await state(page)) === "ready", `${result.load_ms} ms`);
  await page.waitForFunction(() => /battery .* simulated/.test(document.getElementById("status").textContent), null, { timeout: 5000 }).catch(() => {});
  const status = await page.textContent("#status");
  check("the page says the battery figure on the display is simulated", /battery \d\.\d\d V, \d+ %, simulated/.test(status), status);

  // A preset error is the clock's own one-line message; a good preset is read back in words.
  await page.fill("#preset", "5+x");
  await page.click("#preset-form button");
  await page.waitForFunction(() => document.getElementById("preset-answer").textContent !== "");
  const bad = await page.textContent("#preset-answer");
  result.preset_error = bad;
  check("a bad preset shows the clock's error", /expected an increment/.test(bad) && (await page.getAttribute("#preset-answer", "class")).includes("bad"), bad);
  await page.fill("#preset", "pgn:15+1"); // under 20 s the display shows tenths
  await page.click("#preset-form button");
  await page.waitForFunction(() => /using/.test(document.getElementById("preset-answer").textContent));
  result.preset_used = await page.textContent("#preset-answer");
  check("a good preset is used, read in words", /15 s \+ 1 s/.test(result.preset_used), result.preset_used);

  // A fresh start on the chosen preset: the trace a replay needs starts at this boot.
  await page.reload();
  await ready(page);
  await lever(page, "left", 300); // the left lever starts the right clock
  const gaps = [700, 450, 900, 300, 600];
  for (const [i, gap] of gaps.entries()) await lever(page, i % 2 ? "left" : "right", gap);
  await page.click("#buttons [data-button=play]");
  await waitState(page, "paused"); // info comes with the frame painted: nothing more to wait for
  result.oled = await page.evaluate(async () => {
    const display = await import("./display.js");
    const clock = window.clockPage.clock;
    return { canvas: display.readOled(document.getElementById("display")), trace: clock.trace(), leds: clock.leds };
  });
  const frameHex = result.oled.trace.frame;
  check("the paused game's frame is drawn", frameHex.length === 2048, `${frameHex.length / 2} bytes`);
  await window_record(page, "paused");
  check("the record has the five plies", result.record_paused.plies.length === 5, result.record_paused.plies.length);

  // Reload mid-game: the game is offered as after a power cut, and resumes with its plies.
  await page.reload();
  await ready(page);
  check("after a reload the game is offered to resume", (await state(page)) === "resume");
  await page.click("#buttons [data-button=play]");
  await page.waitForFunction(() => window.clockPage.clock.info.state !== "resume");
  result.after_resume = await state(page);
  await window_record(page, "resumed");
  check(
    "the resumed game has the same record",
    JSON.stringify(result.record_resumed.plies) === JSON.stringify(result.record_paused.plies),
    `${result.record_resumed.plies.length} plies, state ${result.after_resume}`,
  );
  await page.click("#buttons [data-button=play]"); // a paused game resumes; a ply more
  await waitState(page, "running");
  await elapse(page, 250);
  await lever(page, result.record_paused.plies.length % 2 ? "left" : "right", 100);
  await lever(page, "left", 50);
  await page.click("#buttons [data-button=play]");
  await waitState(page, "paused");

  // Downloads: the record as JSON, PGN with %clk and SGF with BL/WL, through the page's buttons.
  for (const kind of ["json", "pgn", "sgf"]) {
    const [download] = await Promise.all([page.waitForEvent("download"), page.click(`#download-${kind}`)]);
    await download.saveAs(path.join(OUT, `clock-game.${kind}`));
  }
  check("the record downloads as JSON, PGN and SGF", ["json", "pgn", "sgf"].every((k) => fs.existsSync(path.join(OUT, `clock-game.${k}`))));

  // A clock that answers garbage, or nothing: a clear message, and nothing half done.
  result.garbage = await page.evaluate(async () => {
    const { Link } = await import("./serial.js");
    const fake = (answer) => ({ label: "a test port", onText(h) { this.h = h; }, async send() { if (answer) setTimeout(() => this.h(answer), 5); } });
    const out = {};
    for (const [name, answer] of [["garbage", "\x00\xffgarbage\r\n"], ["silent", null], ["garbled list", "1 Blitz = G/5/3\nbanana\nOK 2 presets\n"]]) {
      try {
        await new Link(fake(answer), 300).presets();
        out[name] = "no error";
      } catch (error) {
        out[name] = error.message;
      }
    }
    return out;
  });
  check("garbage from a port is a clear error", /not the clock's protocol/.test(result.garbage.garbage), result.garbage.garbage);
  check("a port that does not answer is a clear error", /no answer from a test port/.test(result.garbage.silent), result.garbage.silent);
  check("a garbled list is refused whole", /answered "banana"/.test(result.garbage["garbled list"]), result.garbage["garbled list"]);

  // A corrupt stored game is refused, and the page starts clean, saying so. It is written while
  // no clock runs (from another file of the page's origin): a running page saves its game as it
  // goes (pagehide), as it should.
  await page.goto(url + "style.css");
  await page.evaluate(() => localStorage.setItem("tournament-clock/pico_oled/data/game.txt", btoa("clock-game 2\nnot a game\n")));
  await page.goto(url);
  await ready(page);
  const notes = await page.textContent("#notes");
  check("a corrupt stored game is refused, saying so", /could not be read back/.test(notes) && (await state(page)) === "ready", notes);
  check("the corrupt file is gone from storage", await page.evaluate(() => localStorage.getItem("tournament-clock/pico_oled/data/game.txt") === null));

  // The serial protocol against the page's own clock, no game in progress: list, check, reorder,
  // back up, restore.
  result.serial = await page.evaluate(async () => {
    const link = window.clockPage.pageLink;
    const { Link } = await import("./serial.js");
    const before = await link.presets();
    const order = before.slice();
    order.splice(0, 2, before[1], before[0]);
    const refused = await link.restore(order);
    const after = await link.presets();
    const listing = Link.listing(after);
    const checked = window.clockPage.clock.checkPresets(listing);
    const bad = window.clockPage.clock.checkPresets("Blitz = 5+3\nOops = 5+x\nno equals here\n");
    return { before: before.map((p) => p.name), after: after.map((p) => p.name), refused, listing, checked, bad, ping: await link.ok("PING") };
  });
  const s = result.serial;
  check("PING answers pong", s.ping === "pong");
  check("reordering swaps the first two presets", s.after[0] === s.before[1] && s.after[1] === s.before[0] && s.after.length === s.before.length, s.after.slice(0, 3));
  check("a backup reads back whole", s.checked.listing && s.checked.problems.length === 0 && s.checked.entries.length === s.after.length);
  check("a bad presets file names each bad line", s.bad.problems.map((p) => p.line).join(",") === "2,3", JSON.stringify(s.bad.problems));

  // A tab that sleeps: while it is hidden (here: a main thread held 4.5 s, no timer runs at all)
  // the running clock is charged from timestamps; its flag falls at its own instant, not late.
  await page.fill("#preset", "pgn:3");
  await page.click("#preset-form button");
  await page.waitForFunction(() => /using .*3 s/.test(document.getElementById("preset-answer").textContent));
  const visibility = (hidden) =>
    page.evaluate((h) => {
      Object.defineProperty(document, "hidden", { configurable: true, get: () => h });
      document.dispatchEvent(new Event("visibilitychange"));
    }, hidden);
  await visibility(true);
  await page.click("#lever-left");
  await page.evaluate(() => {
    const end = performance.now() + 4500;
    while (performance.now() < end);
  });
  await visibility(false);
  await waitState(page, "over");
  await window_record(page, "slept");
  const end = result.record_slept.clock.log.find((e) => e.entry === "end");
  check("a sleeping tab's flag falls at its instant", end && end.at_ms >= 3000 && end.at_ms <= 3001 && end.result.reason === "time", JSON.stringify(end));
  result.flagged_frame = await page.evaluate(() => window.clockPage.clock.trace().frame);
  const tone = await page.evaluate(() => window.clockPage.clock.lastTone);
  check("the flag sounds through the page's speaker", tone && tone.hz > 0 && tone.ms > 0, JSON.stringify(tone));
  result.sleep_note = await page.textContent("#sleep");
  check("the page says what the tab's sleep did", /hidden 4\.\d s/.test(result.sleep_note), result.sleep_note);

  // A finished game's result stays through the page's preset list and box: they choose the
  // next game's preset; only a confirmed new game (NEW, or the clock's own question) clears it.
  const endBefore = JSON.stringify(end);
  await page.selectOption("#preset-list", "2");
  await page.waitForFunction(() => /result stays/.test(document.getElementById("preset-answer").textContent));
  await page.fill("#preset", "5+3");
  await page.click("#preset-form button");
  await page.waitForFunction(() => /result stays/.test(document.getElementById("preset-answer").textContent) && /5 min/.test(document.getElementById("preset-answer").textContent));
  await window_record(page, "kept");
  const kept = result.record_kept.clock.log.find((e) => e.entry === "end");
  check("the preset list and box keep a finished game's result", (await state(page)) === "over" && JSON.stringify(kept) === endBefore, await page.textContent("#preset-answer"));

  // The TM1637 board: its segments drawn from its frame bytes.
  await page.selectOption("#board", "pico_tm1637");
  await page.waitForFunction(() => window.clockPage.clock.info.board === "pico_tm1637");
  await lever(page, "right", 400);
  await page.click("#buttons [data-button=play]");
  await waitState(page, "paused");
  result.seg = await page.evaluate(async () => {
    const display = await import("./display.js");
    const clock = window.clockPage.clock;
    return { canvas: display.readSeg(document.getElementById("display"), clock.info.points), frame: Array.from(clock.frame.slice(0, 8)), state: clock.info.state };
  });
  check("the 7-segment digits drawn are the frame's", JSON.stringify(result.seg.canvas) === JSON.stringify(result.seg.frame), JSON.stringify(result.seg));
  check("no script error in the page", errors.length === 0, errors.join(" | "));

  await webSerial(url);
  for (const part of [onAPhone, savedWhenHidden, legibility]) await apart(part, url);
  if (SHOTS) await screenshots(url);
  await apart(offline, url, child); // last: it stops the server
} finally {
  await browser.close();
  child.kill();
}

result.seconds = (Date.now() - started) / 1000;
fs.writeFileSync(path.join(OUT, "result.json"), JSON.stringify(result, null, 1));
const failed = result.checks.filter((c) => !c.ok);
console.log(`browser: ${result.checks.length - failed.length} passed, ${failed.length} failed in ${result.seconds.toFixed(1)} s`);
process.exit(failed.length ? 1 : 0);

// Web Serial to a board: a second page runs the clock as the "board", and a stand-in for
// navigator.serial in the first carries the bytes between them through this script, so the page's
// Web Serial code, the protocol and the firmware's serial channel meet as they do over USB.
async function webSerial(url) {
  const boardContext = await browser.newContext();
  const board = await boardContext.newPage();
  await board.goto(url);
  await ready(board);
  const hostContext = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  const host = await hostContext.newPage();
  await host.exposeFunction("wireIn", (text) => board.evaluate((t) => window.clockPage.clock.serialIn(t), text));
  await board.exposeFunction("wireOut", (text) => host.evaluate((t) => window.fakeSerialDeliver(t), text));
  await board.evaluate(() => {
    // The board's own page stops talking on its serial line: the host alone is on it.
    window.clockPage.pageLink.channel.send = async () => {};
    window.clockPage.clock.serialListeners.clear();
    window.clockPage.clock.serialListeners.add((text) => window.wireOut(text));
  });
  await host.addInitScript(() => {
    window.fakeSerialDeliver = () => {};
    const serial = {
      requestPort: async () => {
        let controller;
        const readable = new ReadableStream({ start: (c) => (controller = c) });
        window.fakeSerialDeliver = (text) => controller.enqueue(new TextEncoder().encode(text));
        const writable = new WritableStream({ write: (chunk) => window.wireIn(new TextDecoder().decode(chunk)) });
        return { open: async () => {}, close: async () => {}, readable, writable, getInfo: () => ({ usbVendorId: 0x2e8a }) };
      },
    };
    Object.defineProperty(navigator, "serial", { value: serial, configurable: true });
  });
  await host.goto(url);
  await ready(host);
  host.on("pageerror", (e) => check("no script error in the host page", false, e.message));
  await host.click("#connect");
  await host.waitForFunction(() => /board/.test(document.getElementById("link-name").textContent));
  await host.waitForFunction(() => /on the board/.test(document.getElementById("link-answer").textContent));
  const label = await host.textContent("#link-name");
  check("Connect finds the board and lists its presets", /board on USB \(RP2040\)/.test(label) && (await host.$$("#manage-list li")).length === 16, label);
  const reads = await host.textContent("#manage-list li:first-child .reads");
  check("each preset is read in plain words", /5 min \+ 3 s/.test(reads), reads);

  await host.fill("#add-name", "Club");
  await host.fill("#add-spec", "G/10/5");
  await host.click("#add-check");
  const checked = await host.textContent("#link-answer");
  await host.click("#add-form button[type=submit]");
  await host.waitForFunction(() => document.querySelectorAll("#manage-list li").length === 17);
  check("a preset is checked, then added to the board", /reads it: 10 min \+ 5 s/.test(checked), checked);

  const [backup] = await Promise.all([host.waitForEvent("download"), host.click("#backup")]);
  const backupPath = path.join(OUT, "board-presets.txt");
  await backup.saveAs(backupPath);
  const listing = fs.readFileSync(backupPath, "utf8");
  check("the board's presets back up as a listing", /^17 Club = chessclock:G\/10\/5$/m.test(listing) && /^OK 17 presets$/m.test(listing), listing.split("\n").slice(-3).join(" | "));

  await host.setInputFiles("#restore", { name: "bad.txt", mimeType: "text/plain", buffer: Buffer.from("Blitz = 5+3\nBroken = 5+x\n") });
  await host.waitForFunction(() => /nothing was sent/.test(document.getElementById("link-answer").textContent));
  const afterBad = await board.evaluate(() => window.clockPage.clock.page.info());
  const boardList = await board.evaluate(() => localStorage.getItem("tournament-clock/pico_oled/data/presets.txt"));
  check("a file with a bad line is refused whole, nothing sent", atob(boardList).includes("Club = chessclock:G/10/5") && JSON.parse(afterBad).state === "ready", await host.textContent("#link-answer"));

  const small = listing.split("\n").filter((l) => /^\d+ /.test(l)).slice(0, 3).reverse().map((l, i) => l.replace(/^\d+ /, `${i + 1} `));
  await host.setInputFiles("#restore", { name: "three.txt", mimeType: "text/plain", buffer: Buffer.from(small.join("\n") + "\nOK 3 presets\n") });
  await host.waitForFunction(() => /restored three.txt/.test(document.getElementById("link-answer").textContent));
  await host.waitForFunction(() => document.querySelectorAll("#manage-list li").length === 3);
  const restored = await host.evaluate(() => [...document.querySelectorAll("#manage-list li b")].map((b) => b.textContent));
  const said = await host.textContent("#link-answer");
  check("a backup restores the list exactly, in its order", JSON.stringify(restored) === JSON.stringify(small.map((l) => l.replace(/^\d+ /, "").split(" = ")[0])) && /as asked/.test(said), said + " " + restored);

  // Follow a game live: the board's levers pressed by its keys (a, l), the host's record follows
  // (STREAM).
  await board.keyboard.press("a");
  await elapse(board, 400);
  await board.keyboard.press("l");
  await elapse(board, 300);
  await board.keyboard.press("ArrowLeft");
  await host.waitForFunction(() => document.querySelectorAll("#record tbody tr").length === 2, null, { timeout: 5000 });
  check("the host follows the board's game live", true, await host.textContent("#record-state"));
  await hostContext.close();
  await boardContext.close();
}

// part(...args), whose exception is a failed check of its own: the other parts still run.
async function apart(part, ...args) {
  try {
    await part(...args);
  } catch (error) {
    check(`${part.name} ran to its end`, false, error.message);
  }
}

// A fresh context and page on `url`, the clock started; `options` for browser.newContext.
async function fresh(url, options = {}) {
  const context = await browser.newContext({ acceptDownloads: true, ...options });
  const page = await context.newPage();
  page.on("pageerror", (error) => check("no script error in a page", false, error.message));
  await page.goto(url);
  await ready(page);
  return { context, page };
}

async function answerTo(page, text, wanted) {
  await page.fill("#preset", text);
  await page.click("#preset-form button");
  await page
    .waitForFunction((w) => new RegExp(w).test(document.getElementById("preset-answer").textContent), wanted.source, { timeout: 5000 })
    .catch(async (error) => {
      throw new Error(`${text}: the page answered "${await page.textContent("#preset-answer")}" (${error.message})`);
    });
  return page.textContent("#preset-answer");
}

// What a phone types, a PDF carries: read as printed, in the box, the manager's check and the
// presets a file restores; what goes over the serial line is ASCII. An empty box and a name with
// "=" say what is wrong.
async function presetsTyped(page) {
  result.typed = {};
  for (const [text, reads] of [
    ["90\u2019+30\u2019\u2019", /using Typed in the page: 90 min \+ 30 s\/move/],
    ["90\u2032+30\u2033", /using Typed in the page: 90 min \+ 30 s\/move/],
    ["45m 3\u00d730s", /using Typed in the page: 45 min; then 3x30 s byo-yomi/],
  ]) {
    result.typed[text] = await answerTo(page, text, reads).catch((error) => error.message);
    check(`the box reads ${text} as printed`, reads.test(result.typed[text]) && !/serial line/.test(result.typed[text]), result.typed[text]);
  }
  const stored = await page.evaluate(() => atob(localStorage.getItem("tournament-clock/pico_oled/data/presets.txt")));
  check("the page stores a typed preset in ASCII", /^Typed in the page = go:45m 3x30s$/m.test(stored), stored.split("\n").slice(-2).join(" | "));
  result.typed.each = await page.evaluate(() => {
    if (typeof window.clockPage.clock.fold !== "function") return [{ char: "all", folded: false, reads: false }];
    const clock = window.clockPage.clock;
    const forms = { "'": ["90{c}+30{c}{c}", "90'+30''"], '"': ["90'+30{c}", '90\'+30"'], x: ["45m 3{c}30s", "45m 3x30s"], "-": ["45 min 3x30 byo{c}yomi", "45 min 3x30 byo-yomi"], " ": ["45m{c}3x30s", "45m 3x30s"] };
    const family = { "\u2018": "'", "\u2019": "'", "\u2032": "'", "\u201c": '"', "\u201d": '"', "\u2033": '"', "\u00d7": "x", "\u2010": "-", "\u2013": "-", "\u2014": "-", "\u00a0": " ", "\u2009": " ", "\u202f": " " };
    return Object.entries(family).map(([char, ascii]) => {
      const [typed, plain] = forms[ascii];
      const text = typed.replaceAll("{c}", char);
      return { char, folded: clock.fold(text) === plain, reads: clock.checkSpec(text).reads === clock.checkSpec(plain).reads };
    });
  });
  const bad = result.typed.each.filter((c) => !c.folded || !c.reads);
  check("each typographic character reads as its ASCII form in the page", bad.length === 0 && result.typed.each.length === 13, JSON.stringify(bad));

  await page.fill("#preset", "   ");
  await page.click("#preset-form button");
  const empty = await page.textContent("#preset-answer");
  check("an empty preset box says so", /type a time control first/.test(empty) && (await page.getAttribute("#preset-answer", "class")).includes("bad"), empty);

  await page.click("#manager summary");
  await page.waitForFunction(() => /presets on/.test(document.getElementById("link-answer").textContent));
  const before = await page.$$eval("#manage-list li", (items) => items.length);
  await page.fill("#add-name", "A=B");
  await page.fill("#add-spec", "5+3");
  await page.click("#add-form button[type=submit]");
  await page.waitForFunction(() => /nothing was sent/.test(document.getElementById("link-answer").textContent));
  const named = await page.textContent("#link-answer");
  const after = await page.$$eval("#manage-list li", (items) => items.length);
  check("a name with = is refused as a name, nothing sent", /a name has no '='/.test(named) && after === before, named);
}

// The record panel follows the board chosen; its JSON downloads while a game runs; the table
// names the players and writes times as clocks do.
async function recordFollowsTheBoard(page) {
  await answerTo(page, "G/90/30", /using/);
  for (const side of ["left", "right", "left", "right"]) await lever(page, side, 150); // 3 plies
  await page.waitForFunction(() => /3 plies/.test(document.getElementById("record-state").textContent));
  result.table = await page.evaluate(() => ({
    head: [...document.querySelectorAll("#record th")].map((th) => th.textContent),
    rows: [...document.querySelectorAll("#record tbody tr")].map((tr) => [...tr.cells].map((td) => td.textContent)),
  }));
  const [head, rows] = [result.table.head, result.table.rows];
  const times = rows.flatMap((row) => row.slice(2));
  check(
    "the record names White and Black and writes h:mm:ss",
    head.join("|") === "ply|by|took|White|Black" && rows.length === 3 && rows[2][1] === "White" && rows[1][1] === "Black" &&
      times.every((t) => /^(\d+:)?\d{1,2}:\d\d\.\d$/.test(t)) && /^1:30:\d\d\.\d$/.test(rows[0][3]),
    JSON.stringify(result.table),
  );
  await page.selectOption("#board", "pico_tm1637");
  await page.waitForFunction(() => window.clockPage.clock.info.board === "pico_tm1637");
  await answerTo(page, "45m 3x30s", /using/);
  await lever(page, "right", 300);
  await lever(page, "left", 300); // 1 ply on this board, a game running
  await page.waitForFunction(() => /1 ply\)/.test(document.getElementById("record-state").textContent), null, { timeout: 5000 }).catch(() => {});
  const switched = await page.textContent("#record-state");
  const goHead = await page.$$eval("#record th", (ths) => ths.map((th) => th.textContent));
  check("after switching boards the record is the new board's game", /running, 1 ply\)/.test(switched) && goHead[3] === "Black" && goHead[4] === "White", switched + " " + goHead);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-json")]);
  const saved = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
  check("record (JSON) downloads the running game of the board chosen", saved.plies.length === 1 && saved.clock.state === "running", await page.textContent("#record-answer"));
  await page.selectOption("#board", "pico_oled");
  await page.waitForFunction(() => /3 plies/.test(document.getElementById("record-state").textContent), null, { timeout: 2000 }).catch(() => {});
  check("and back: the first board's game", /3 plies/.test(await page.textContent("#record-state")), await page.textContent("#record-state"));
}

// A reload, or a phone dropping a hidden tab, gives the running player no time back: the page
// saves its game as the tab goes (pagehide) and as it is hidden (visibilitychange).
async function savedWhenHidden(url) {
  const { context, page } = await fresh(url);
  await answerTo(page, "pgn:300", /using/);
  const mover = async () => {
    const state = await page.evaluate(async () => JSON.parse((await window.clockPage.pageLink.command("STATE")).final.slice(3)));
    return state.left.remaining_ms; // the left player's: the right lever starts their clock
  };
  await lever(page, "right", 1000); // the right lever starts the left clock: 1 s of it
  await page.reload();
  await ready(page);
  const reloaded = await mover();
  check("a reload gives the running player no time back", reloaded <= 300000 - 900 && reloaded >= 300000 - 2000, reloaded);
  await page.click("#buttons [data-button=play]"); // resume (paused), then run again
  await page.click("#buttons [data-button=play]");
  await waitState(page, "running");
  await elapse(page, 700);
  await page.evaluate(() => {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    document.dispatchEvent(new Event("visibilitychange"));
    localStorage.setItem = () => {}; // the phone drops the tab: nothing more is written
  });
  await elapse(page, 500); // the time the tab was away
  await page.reload();
  await ready(page);
  const dropped = await mover();
  check("a tab dropped while hidden is charged up to the moment it was hidden", dropped <= reloaded - 650 && dropped >= reloaded - 1300, `${reloaded} -> ${dropped}`);
  await context.close();
}

// On a phone (no Web Serial, no keyboard): Connect says why at once, at the top of the page; the
// buttons carry no key hints; presets typed as a phone types them; the record panel.
async function onAPhone(url) {
  const context = await browser.newContext({ viewport: { width: 844, height: 390 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, acceptDownloads: true });
  await context.addInitScript(() => delete Navigator.prototype.serial);
  const page = await context.newPage();
  page.on("pageerror", (error) => check("no script error in the phone's page", false, error.message));
  await page.goto(url);
  await ready(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  const labels = await page.$$eval("#buttons button", (buttons) => buttons.map((b) => b.innerText.trim()));
  check("a phone's buttons carry no keyboard hints", labels.join("|") === "play|set|\u2212|+", labels.join("|"));
  await page.tap("#connect");
  await page.waitForFunction(() => !document.getElementById("notes").hidden && document.getElementById("notes").textContent, null, { timeout: 5000 }).catch(() => {});
  const said = await page.evaluate(() => {
    const notes = document.getElementById("notes");
    const box = notes.getBoundingClientRect();
    return { text: notes.textContent, visible: !notes.hidden && box.height > 0 && box.bottom <= innerHeight && box.top >= 0 };
  });
  check("Connect without Web Serial says why at once, in sight", said.visible && /needs Web Serial/.test(said.text) && /Chrome or Edge/.test(said.text), JSON.stringify(said));
  await presetsTyped(page);
  await recordFollowsTheBoard(page);
  await context.close();
}

// Inverted text (dark on lit pixels) stays legible at every zoom and on a phone. Each frame with
// text dark on lit pixels (a paused and a flagged one from the game above, a menu and a question)
// is drawn by the page where it is shown from 1.2 to 8 screen pixels an OLED pixel (0.3 to 2 of
// the 4-pixel cells the canvas had; a phone shows 2 to 3), and the screenshot compared with one
// of the same frame drawn ideally, each pixel a plain lit or dark square, on the same canvas at
// the same size: every screen pixel must be lit (above half the lit colour's brightness) in
// both, or dark in both. A mesh of dark gaps across lit pixels (the old drawing) darkens about
// two screen pixels in five of a lit area, and more where the browser shrinks it.
async function legibility(url) {
  const { context, page } = await fresh(url, { viewport: { width: 2100, height: 1800 } });
  const frames = { paused: result.oled.trace.frame, flagged: result.flagged_frame }; // the main game's
  const frame = () => page.evaluate(() => window.clockPage.clock.trace().frame);
  const press = async (name, gap = 100) => {
    await page.click(`#buttons [data-button=${name}]`); // taken in the click's own handler
    await elapse(page, gap); // the next press past the 30 ms lockout, as a hand leaves it
  };
  await press("set");
  frames.menu = await frame(); // the selected line inverted
  await press("play");
  await lever(page, "left", 100);
  await press("play");
  await press("set");
  for (let i = 0; i < 7; i++) await press("set", 40);
  await press("plus");
  frames.question = await frame(); // "End the game?" inverted
  const scales = [0.3, 0.45, 0.6, 0.8, 1, 1.5, 2];
  fs.mkdirSync(path.join(OUT, "legibility"), { recursive: true });
  result.legibility = [];
  for (const [name, hex] of Object.entries(frames)) {
    const layout = await page.evaluate(drawForShots, [hex, scales]);
    const shot = await page.locator("#legibility").screenshot();
    fs.writeFileSync(path.join(OUT, "legibility", `${name}.png`), shot);
    const seen = await page.evaluate(compareShots, [shot.toString("base64"), layout]);
    for (const one of seen) result.legibility.push({ frame: name, ...one });
  }
  const bad = result.legibility.filter((r) => r.differ > 0);
  check(
    "inverted text reads as the frame at every zoom (PAUSE, a menu line, a question, a flag)",
    bad.length === 0 && result.legibility.length === 28,
    JSON.stringify(bad.slice(0, 4)),
  );
  await context.close();
}

// In the page: frame `hex` on canvases shown at each of `scales` screen pixels a canvas pixel of
// the old 512-wide drawing (a context of 1 screen pixel a CSS pixel), one drawn by the page's own
// drawOled, beside it one drawn ideally (plain squares, no seams or gaps) at the size drawOled
// chose; each at whole pixels, so both are shown alike. Returns where each pair is.
async function drawForShots([hex, scales]) {
  const display = await import("./display.js");
  document.getElementById("legibility")?.remove();
  const box = document.createElement("div");
  box.id = "legibility";
  box.style.cssText = "position: absolute; left: 0; top: 0; z-index: 9; background: #000";
  document.body.append(box);
  const frame = display.hexBytes(hex);
  const layout = [];
  let top = 0;
  let widest = 0;
  for (const scale of scales) {
    const [width, height] = [512 * scale, 256 * scale];
    const left = Math.ceil(width) + 4;
    const pair = [];
    for (const x of [0, left]) {
      const canvas = document.createElement("canvas");
      canvas.style.cssText = `position: absolute; left: ${x}px; top: ${top}px; width: ${width}px; height: ${height}px; image-rendering: pixelated`;
      box.append(canvas);
      pair.push(canvas);
    }
    display.drawOled(pair[0], frame); // at the size the page draws it for that room
    const cell = pair[0].width / display.OLED_WIDTH;
    const ideal = pair[1];
    ideal.width = pair[0].width;
    ideal.height = pair[0].height;
    const ctx = ideal.getContext("2d");
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, ideal.width, ideal.height);
    ctx.fillStyle = "#7fd8ff";
    for (let y = 0; y < display.OLED_HEIGHT; y++) {
      for (let x = 0; x < display.OLED_WIDTH; x++) {
        if (display.oledPixel(frame, x, y)) ctx.fillRect(x * cell, y * cell, cell, cell);
      }
    }
    layout.push({ scale, left, top, width: Math.floor(width), height: Math.floor(height) });
    top += Math.ceil(height) + 4;
    widest = Math.max(widest, 2 * left);
  }
  box.style.width = widest + "px";
  box.style.height = top + "px";
  return layout;
}

// In the page: for each pair of `layout` in the screenshot `png`, how many screen pixels of the
// page's drawing are lit where the ideal one is dark or the other way round (lit: above half the
// lit colour's brightness), of how many lit in the ideal one.
async function compareShots([png, layout]) {
  const bitmap = await createImageBitmap(await (await fetch("data:image/png;base64," + png)).blob());
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext("2d");
  ctx.drawImage(bitmap, 0, 0);
  const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
  const half = (0.2126 * 0x7f + 0.7152 * 0xd8 + 0.0722 * 0xff) / 2;
  const lit = (x, y) => {
    const i = (y * bitmap.width + x) * 4;
    return 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2] > half;
  };
  return layout.map(({ scale, left, top, width, height }) => {
    let differ = 0;
    let litPixels = 0;
    for (let y = top; y < top + height; y++) {
      for (let x = 0; x < width; x++) {
        const want = lit(x + left, y);
        litPixels += want;
        if (lit(x, y) !== want) differ += 1;
      }
    }
    return { scale, differ, lit: litPixels, width };
  });
}

// Offline after a reload: the page's service worker answers when the server is gone.
async function offline(url, server) {
  const { context, page } = await fresh(url);
  await page.evaluate(async () => {
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    await Promise.race([navigator.serviceWorker.ready, sleep(5000)]); // none: the check below says so
    for (let i = 0; i < 100 && !navigator.serviceWorker.controller; i++) await sleep(50);
    for (let i = 0; i < 100; i++) {
      const cache = await caches.open("tournament-clock");
      if ((await cache.keys()).length >= 13) return;
      await sleep(50);
    }
  });
  server.kill();
  await new Promise((r) => (server.exitCode === null ? server.once("exit", r) : r()));
  let started = false;
  try {
    await page.reload({ timeout: 15000 });
    await ready(page);
    await lever(page, "left", 300);
    started = (await state(page)) === "running";
  } catch (error) {
    result.offline_error = error.message;
  }
  check("with the server gone, a reload still starts the clock (service worker)", started, result.offline_error || "");
  await context.close();
}

// The page at desktop and phone sizes, each from clean storage, a few moves into a game.
async function screenshots(url) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const sizes = [
    ["web-desktop.png", { viewport: { width: 1280, height: 900 } }],
    ["web-phone.png", { viewport: { width: 844, height: 390 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ];
  for (const [name, options] of sizes) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    await page.goto(url);
    await ready(page);
    const press = (side) => (options.hasTouch ? page.tap(`#lever-${side}`) : page.click(`#lever-${side}`));
    for (const [side, ms] of [["left", 900], ["right", 1300], ["left", 700], ["right", 1100], ["left", 400]]) {
      await press(side);
      await elapse(page, ms);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, name) });
    await context.close();
  }
}

async function window_record(page, when) {
  result["record_" + when] = await page.evaluate(async () => {
    const answer = await window.clockPage.pageLink.command("GAME");
    return JSON.parse(answer.final.slice(3));
  });
}
