// SPDX-License-Identifier: MIT
// The page around the clock: levers, keys, board chooser, preset box, the record and its files,
// and the preset manager for whichever clock is connected (this page's, or a board on USB).
import { Clock } from "./clock.js";
import { setupManager, useLink } from "./manager.js";
import { refreshRecord, setupRecord } from "./record.js";
import { Link, PageChannel } from "./serial.js";
import { $, links, note, say } from "./shared.js";

const PAGE_PRESET = "Typed in the page"; // the name the preset box's presets take
const clock = new Clock({
  display: $("display"),
  leds: [$("led-left"), $("led-right")],
  onNote: (text) => note(text),
  onFrame: (info) => frameChanged(info),
});
setupManager(clock, () => refreshPresetList());
setupRecord(clock);
let lastState = null;

// --- levers, buttons and keys ------------------------------------------------------------------

for (const element of document.querySelectorAll("[data-button]")) {
  const name = element.dataset.button;
  const up = (event) => {
    if (element.dataset.held !== String(event.pointerId)) return;
    delete element.dataset.held;
    element.classList.remove("down");
    clock.edge(name, false, event.timeStamp);
  };
  element.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    if (element.dataset.held) return;
    element.dataset.held = String(event.pointerId);
    element.setPointerCapture(event.pointerId);
    element.classList.add("down");
    clock.edge(name, true, event.timeStamp);
  });
  element.addEventListener("pointerup", up);
  element.addEventListener("pointercancel", up);
  element.addEventListener("contextmenu", (event) => event.preventDefault());
}

const KEYS = {
  a: "left", A: "left", ArrowLeft: "left",
  l: "right", L: "right", ArrowRight: "right",
  " ": "play",
  "+": "plus", "=": "plus", ArrowUp: "plus",
  "-": "minus", _: "minus", ArrowDown: "minus",
};
const keysDown = new Map(); // key -> button it pressed

document.addEventListener("keydown", (event) => {
  if (!clock.page || event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  if (key === "m" || key === "M") {
    $("mute").checked = !$("mute").checked;
    clock.setMuted($("mute").checked);
    return;
  }
  let name = KEYS[key];
  if (key === "s" || key === "S" || key === "r" || key === "R") {
    event.preventDefault();
    if (event.repeat) return;
    const reset = key.toLowerCase() === "r";
    if (clock.has("set") && !reset) name = "set";
    else {
      clock.hold(clock.has("set") ? "set" : "play", reset ? clock.info.reset_hold_ms : clock.info.set_hold_ms, event.timeStamp);
      return;
    }
  }
  if (!name) return;
  event.preventDefault();
  if (event.repeat || keysDown.has(key) || !clock.has(name)) return;
  keysDown.set(key, name);
  clock.edge(name, true, event.timeStamp);
});
document.addEventListener("keyup", (event) => {
  const name = keysDown.get(event.key);
  if (name === undefined) return;
  keysDown.delete(event.key);
  clock.edge(name, false, event.timeStamp);
});
window.addEventListener("blur", () => {
  for (const [key, name] of keysDown) clock.edge(name, false, performance.now());
  keysDown.clear();
});

$("mute").addEventListener("change", () => clock.setMuted($("mute").checked));

// --- the board and what the frame says ------------------------------------------------------

// Another board is another clock: the old board's line closes before the new one starts, so
// nothing asked of the old one (its record) is answered by the new one, or waits for it.
$("board").addEventListener("change", () => {
  if (links.page) links.page.close();
  clock.start($("board").value);
  connectPage();
});

// While a clock runs, the screen of a phone stays on (where the browser allows it: Wake Lock
// needs a secure page, such as localhost).
let wakeLock = null;
async function keepAwake(running) {
  try {
    if (running && !wakeLock && navigator.wakeLock) {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => (wakeLock = null));
    } else if (!running && wakeLock) {
      await wakeLock.release();
    }
  } catch (error) {
    wakeLock = null; // refused (a hidden tab, an insecure page): the screen may dim
  }
}

$("fullscreen").addEventListener("click", () => {
  if (document.fullscreenElement) document.exitFullscreen();
  else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
});

function frameChanged(info) {
  for (const element of document.querySelectorAll("#buttons [data-button]")) {
    element.hidden = !info.buttons.includes(element.dataset.button);
  }
  document.body.dataset.display = info.display;
  // The board's display shows its battery; the page has no cell to read, so it says the figure
  // is made up.
  const battery = info.battery ? ` · battery ${info.battery}, simulated (the page has no cell to read)` : "";
  $("status").textContent = `${info.board}: ${info.state}, ${info.game_preset || "saved game"}${battery}`;
  if (info.state !== lastState) {
    lastState = info.state;
    keepAwake(info.state === "running" || info.state === "interim");
    if (links.current && links.current === links.page) refreshRecord();
  }
}

// --- this page's clock over its own serial line ---------------------------------------------

function connectPage() {
  const channel = new PageChannel(clock);
  clock.serialListeners.clear();
  clock.serialListeners.add((text) => channel.received(text));
  const pageLink = new Link(channel);
  links.page = pageLink;
  pageLink.onEvent = () => {
    if (links.current === pageLink) refreshRecord();
    refreshPresetList();
  };
  if (!links.current || links.current.channel instanceof PageChannel) useLink(pageLink);
  pageLink.ok("STREAM ON").catch((error) => note(error.message));
  refreshPresetList();
}

async function refreshPresetList() {
  try {
    const presets = await links.page.presets();
    const state = await links.page.json("STATE");
    const select = $("preset-list");
    select.replaceChildren(
      ...presets.map((p) => {
        const option = new Option(`${p.number}. ${p.name}`, p.number);
        option.title = p.spec;
        option.selected = p.number === state.chosen;
        return option;
      }),
    );
  } catch (error) {
    note(error.message);
  }
}

// The clock's answer to PRESET USE without its list number: "using Blitz 5+3: 5 min + 3 s/move".
function used(final) {
  return final.replace(/^(OK|ERR) /, "").replace(/^(using|chosen) \d+ /, "$1 ");
}

$("preset-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("preset").value.trim();
  const answer = $("preset-answer");
  if (!text) return say(answer, "type a time control first, such as 5+3, G/90/30, 90'+30'' or 45m 3x30s", true);
  try {
    const added = await links.page.command(`PRESET REPLACE ${PAGE_PRESET} = ${text}`);
    if (!added.ok) return say(answer, added.final.replace(/^ERR /, ""), true);
    const number = /^OK (?:added|replaced) (\d+)/.exec(added.final)[1];
    const chosen = await links.page.command(`PRESET USE ${number}`);
    say(answer, used(chosen.final), !chosen.ok);
  } catch (error) {
    say(answer, error.message, true);
  }
  refreshPresetList();
});

$("preset-list").addEventListener("change", async () => {
  const chosen = await links.page.command(`PRESET USE ${$("preset-list").value}`);
  say($("preset-answer"), used(chosen.final), !chosen.ok);
  refreshPresetList();
});

// Another tab of this page writes the same storage: two clocks would overwrite each other.
window.addEventListener("storage", (event) => {
  if (clock.board && event.key && event.key.startsWith(`tournament-clock/${clock.board}/`)) {
    note("another tab of this page runs this board's clock too: close one of them (or reload this one)");
  }
});


// --- a tab that sleeps ----------------------------------------------------------------------------

// A hidden tab may never come back (a phone drops it; a reload or a closed tab goes through
// pagehide): the game in progress is saved as it goes, so what comes back gives no time back.
window.addEventListener("pagehide", () => clock.saveNow());

let hiddenAt = null;
document.addEventListener("visibilitychange", () => {
  if (!clock.page) return;
  if (document.hidden) {
    clock.saveNow();
    hiddenAt = performance.now();
    clock.longestGap = 0;
    clock.stepsHidden = clock.steps;
    return;
  }
  if (hiddenAt === null) return;
  keepAwake(lastState === "running" || lastState === "interim"); // a lock ends when a tab hides
  const slept = (performance.now() - hiddenAt) / 1000;
  const passes = clock.steps - clock.stepsHidden;
  clock.pump(); // at once: the clock catches up from the timestamps
  const gap = Math.max(clock.longestGap, performance.now() - clock.lastStep) / 1000;
  $("sleep").textContent =
    `This tab was hidden ${slept.toFixed(1)} s; the browser ran the clock's loop ${passes} times meanwhile ` +
    `(longest wait ${gap.toFixed(1)} s). No time was lost or invented: a running clock is charged from the ` +
    `timestamps of its presses, as on the board, and a flag falls at its own instant however late the pass is.`;
  hiddenAt = null;
});

// --- start -----------------------------------------------------------------------------------

// Offline after a reload: a service worker keeps the page's files (web/sw.js). Browsers allow one
// on localhost and https pages only; a phone on http://ADDRESS keeps working while the tab stays.
if ("serviceWorker" in navigator) navigator.serviceWorker.register("sw.js").catch(() => {});

(async () => {
  const started = performance.now();
  try {
    $("mute").checked = clock.muted;
    await clock.boot(new URLSearchParams(location.search).get("board"));
    Link.fold = (text) => clock.fold(text); // what is typed goes over the serial line in ASCII
    $("board").replaceChildren(...clock.boards.map((name) => new Option(name, name, false, name === clock.board)));
    connectPage();
    document.body.classList.add("ready");
    console.log(`clock ready in ${Math.round(performance.now() - started)} ms`);
  } catch (error) {
    $("status").textContent = "the clock could not start: " + (error.message || error);
    throw error;
  }
  window.clockPage = { clock, get link() { return links.current; }, get pageLink() { return links.page; }, refreshRecord, started };
})();
