// The page around the clock: levers, keys, board chooser, preset box, the record and its files,
// and the preset manager for whichever clock is connected (this page's, or a board on USB).
import { Clock } from "./clock.js";
import { ClockError, Link, PageChannel, WebSerialChannel } from "./serial.js";

const $ = (id) => document.getElementById(id);
const PAGE_PRESET = "Typed in the page"; // the name the preset box's presets take
const clock = new Clock({
  display: $("display"),
  leds: [$("led-left"), $("led-right")],
  onNote: (text) => note(text),
  onFrame: (info) => frameChanged(info),
});
let pageLink = null; // the Link to this page's clock
let link = null; // the Link the record and the manager talk to: pageLink or a board's
let record = null; // the last GAME answer of `link`
let lastState = null;

function note(text) {
  const notes = $("notes");
  notes.hidden = false;
  notes.textContent = (notes.textContent ? notes.textContent + " · " : "") + text;
}

function say(element, text, bad = false) {
  element.textContent = text;
  element.classList.toggle("bad", bad);
}

function download(name, text, type = "text/plain") {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

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

$("board").addEventListener("change", () => {
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
  $("status").textContent = `${info.board}: ${info.state}, ${info.game_preset || "saved game"}`;
  if (info.state !== lastState) {
    lastState = info.state;
    keepAwake(info.state === "running" || info.state === "interim");
    if (link && link === pageLink) refreshRecord();
  }
}

// --- this page's clock over its own serial line ---------------------------------------------

function connectPage() {
  const channel = new PageChannel(clock);
  clock.serialListeners.clear();
  clock.serialListeners.add((text) => channel.received(text));
  pageLink = new Link(channel);
  pageLink.onEvent = () => {
    if (link === pageLink) refreshRecord();
    refreshPresetList();
  };
  if (!link || link.channel instanceof PageChannel) useLink(pageLink);
  pageLink.ok("STREAM ON").catch((error) => note(error.message));
  refreshPresetList();
}

async function refreshPresetList() {
  try {
    const presets = await pageLink.presets();
    const state = await pageLink.json("STATE");
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

$("preset-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("preset").value.trim();
  const answer = $("preset-answer");
  if (!text) return;
  try {
    const added = await pageLink.command(`PRESET ADD ${PAGE_PRESET} = ${text}`);
    if (!added.ok) return say(answer, added.final.replace(/^ERR /, ""), true);
    const number = /^OK (?:added|replaced) (\d+)/.exec(added.final)[1];
    const used = await pageLink.command(`PRESET USE ${number}`);
    say(answer, used.final.replace(/^(OK|ERR) /, ""), !used.ok);
  } catch (error) {
    say(answer, error.message, true);
  }
  refreshPresetList();
});

$("preset-list").addEventListener("change", async () => {
  const used = await pageLink.command(`PRESET USE ${$("preset-list").value}`);
  say($("preset-answer"), used.final.replace(/^(OK|ERR) /, ""), !used.ok);
  refreshPresetList();
});

// --- the record -------------------------------------------------------------------------------

function seconds(ms) {
  return ms === undefined || ms === null ? "" : (ms / 1000).toFixed(1) + " s";
}

let recordBusy = null;
function refreshRecord() {
  if (recordBusy) return recordBusy;
  const asked = link;
  recordBusy = (async () => {
    try {
      const answer = await asked.command("GAME");
      if (asked !== link) return;
      if (!answer.ok) {
        record = null;
        $("record").tBodies[0].replaceChildren();
        $("record-state").textContent = "(" + answer.final.replace(/^ERR /, "") + ")";
        return;
      }
      record = JSON.parse(answer.final.slice(3));
      showRecord(record);
    } catch (error) {
      say($("record-answer"), error.message, true);
    } finally {
      recordBusy = null;
    }
  })();
  return recordBusy;
}

function showRecord(game) {
  const clockField = game.clock || {};
  const result = clockField.result ? `, ${clockField.result.reason}${clockField.result.loser ? " (" + clockField.result.loser + " lost)" : ""}` : "";
  $("record-state").textContent = `(${clockField.name || clockField.preset || ""}: ${clockField.state}${result}, ${game.plies.length} plies)`;
  const rows = (clockField.log || []).map((entry) => {
    const tr = document.createElement("tr");
    const side = entry.side;
    const after = entry[side] ? seconds(entry[side].remaining_ms) : "";
    const what = entry.entry === "ply" ? seconds(entry.elapsed_ms) : entry.entry;
    for (const text of [entry.ply || "", side, what, after]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
  $("record").tBodies[0].replaceChildren(...rows.reverse());
}

async function annotated(kind) {
  await refreshRecord();
  if (!record) throw new ClockError("no game has started yet: there is no record");
  const response = await fetch("annotate", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ kind, record, moves: $("moves").value }),
  }).catch(() => null);
  if (!response || response.status === 404 || response.status === 501) {
    throw new ClockError(
      "PGN and SGF are written by the project's annotate code, which runs in the server of `python -m sim web` (make web): download the record (JSON) and run python -m sim annotate",
    );
  }
  const text = await response.text();
  if (!response.ok) throw new ClockError(text);
  return text;
}

$("download-json").addEventListener("click", async () => {
  await refreshRecord();
  if (!record) return say($("record-answer"), "no game has started yet: there is no record", true);
  download("clock-game.json", JSON.stringify(record) + "\n", "application/json");
  say($("record-answer"), "saved clock-game.json");
});
for (const kind of ["pgn", "sgf"]) {
  $("download-" + kind).addEventListener("click", async () => {
    try {
      download("clock-game." + kind, await annotated(kind));
      say($("record-answer"), `saved clock-game.${kind}`);
    } catch (error) {
      say($("record-answer"), error.message, true);
    }
  });
}

// --- the preset manager: this page's clock or a board ----------------------------------------

function useLink(next) {
  link = next;
  record = null;
  $("link-name").textContent = next.channel.label;
  $("disconnect").hidden = next === pageLink;
  refreshRecord();
  if ($("manager").open) refreshManager();
}

function log(text) {
  const pre = $("link-log");
  pre.textContent = (pre.textContent + text + "\n").split("\n").slice(-12).join("\n");
}

// The list as the clock has it; `then` (text, bad) is said when it is shown, else the count.
async function refreshManager(then = null) {
  const list = $("manage-list");
  try {
    const presets = await link.presets();
    list.replaceChildren(
      ...presets.map((p, index) => {
        const li = document.createElement("li");
        const reads = clock.checkSpec(p.spec);
        li.innerHTML = "<b></b> <small></small> <span class=reads></span> ";
        li.children[0].textContent = p.name;
        li.children[1].textContent = p.spec;
        li.children[2].textContent = reads.reads ? "— " + reads.reads : "— " + reads.error;
        const button = (label, act) => {
          const b = document.createElement("button");
          b.type = "button";
          b.textContent = label;
          b.addEventListener("click", act);
          li.append(b);
        };
        button("use", () => obey(`PRESET USE ${p.number}`));
        button("delete", () => obey(`PRESET DEL ${p.number}`));
        if (index > 0) button("up", () => reorder(presets, index, index - 1));
        if (index < presets.length - 1) button("down", () => reorder(presets, index, index + 1));
        return li;
      }),
    );
    if (then) say($("link-answer"), then[0], then[1]);
    else say($("link-answer"), `${presets.length} presets on ${link.channel.label}`);
  } catch (error) {
    say($("link-answer"), error.message, true);
  }
}

async function obey(command) {
  let said;
  try {
    const answer = await link.command(command);
    log(`${command}: ${answer.final}`);
    said = [answer.final.replace(/^(OK|ERR) /, ""), !answer.ok];
  } catch (error) {
    said = [error.message, true];
  }
  await refreshManager(said);
  refreshPresetList();
}

async function reorder(presets, from, to) {
  const order = presets.slice();
  const [moved] = order.splice(from, 1);
  order.splice(to, 0, moved);
  await restoreList(order, "moved " + moved.name);
}

async function restoreList(entries, what) {
  let said;
  try {
    const refused = await link.restore(entries, log);
    const now = await link.presets();
    const same = now.length === entries.length && now.every((p, i) => p.name === entries[i].name && p.spec === entries[i].spec);
    said = same
      ? [`${what}: the clock's list is ${now.length} presets, as asked`, false]
      : [`${what}: ${refused} commands refused; the clock's list is not the one asked (each change on the clock is whole: run it again)`, true];
  } catch (error) {
    said = [`${error.message} (each command the clock took is whole; check the list and try again)`, true];
  }
  await refreshManager(said);
  refreshPresetList();
}

$("manager").addEventListener("toggle", () => $("manager").open && refreshManager());
$("refresh").addEventListener("click", refreshManager);
$("add-check").addEventListener("click", () => {
  const checked = clock.checkSpec($("add-spec").value);
  say($("link-answer"), checked.reads ? "the clock reads it: " + checked.reads : checked.error, !checked.reads);
});
$("add-form").addEventListener("submit", (event) => {
  event.preventDefault();
  obey(`PRESET ADD ${$("add-name").value.trim()} = ${$("add-spec").value.trim()}`);
});
$("backup").addEventListener("click", async () => {
  try {
    download("clock-presets.txt", Link.listing(await link.presets()));
    say($("link-answer"), "saved clock-presets.txt (restore it here, or with python -m sim.serial_cli presets send)");
  } catch (error) {
    say($("link-answer"), error.message, true);
  }
});
$("restore").addEventListener("change", async () => {
  const file = $("restore").files[0];
  $("restore").value = "";
  if (!file) return;
  const checked = clock.checkPresets(await file.text());
  if (checked.problems.length || !checked.entries.length) {
    const lines = checked.problems.map((p) => `${file.name}:${p.line}: ${p.problem}`);
    say($("link-answer"), (lines.join("\n") || `${file.name} holds no preset`) + "\nnothing was sent", true);
    return;
  }
  await restoreList(checked.entries, "restored " + file.name);
});

$("connect").addEventListener("click", async () => {
  if (!WebSerialChannel.supported()) {
    say($("link-answer"), "this browser has no Web Serial: use Chrome, Edge or another Chromium browser", true);
    $("manager").open = true;
    return;
  }
  let boardLink = null;
  try {
    const channel = await WebSerialChannel.request();
    boardLink = new Link(channel);
    boardLink.onEvent = () => link === boardLink && refreshRecord();
    await boardLink.ok("PING");
    await boardLink.ok("STREAM ON");
    $("manager").open = true;
    useLink(boardLink);
  } catch (error) {
    if (boardLink) boardLink.channel.close();
    $("manager").open = true;
    console.error("connect:", error);
    say($("link-answer"), "connect: " + error.message, true);
  }
});
$("disconnect").addEventListener("click", async () => {
  const old = link;
  useLink(pageLink);
  await old.channel.close();
});

// Another tab of this page writes the same storage: two clocks would overwrite each other.
window.addEventListener("storage", (event) => {
  if (clock.board && event.key && event.key.startsWith(`tournament-clock/${clock.board}/`)) {
    note("another tab of this page runs this board's clock too: close one of them (or reload this one)");
  }
});

// --- a tab that sleeps ----------------------------------------------------------------------------

let hiddenAt = null;
document.addEventListener("visibilitychange", () => {
  if (!clock.page) return;
  if (document.hidden) {
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

(async () => {
  const started = performance.now();
  try {
    $("mute").checked = clock.muted;
    await clock.boot(new URLSearchParams(location.search).get("board"));
    $("board").replaceChildren(...clock.boards.map((name) => new Option(name, name, false, name === clock.board)));
    connectPage();
    document.body.classList.add("ready");
    console.log(`clock ready in ${Math.round(performance.now() - started)} ms`);
  } catch (error) {
    $("status").textContent = "the clock could not start: " + (error.message || error);
    throw error;
  }
  window.clockPage = { clock, get link() { return link; }, get pageLink() { return pageLink; }, refreshRecord, started };
})();
