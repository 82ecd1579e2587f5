// SPDX-License-Identifier: MIT
// The game record panel: the current clock's record (GAME), live, and its files: JSON as the clock
// gives it, PGN and SGF by the project's annotate code on the page's server.
import { ClockError } from "./serial.js";
import { $, download, links, say } from "./shared.js";

let clock = null; // the page's Clock (web/clock.js): its notation names the players

export function setupRecord(pageClock) {
  clock = pageClock;
}

// A time as clocks and score sheets write it, cut (never rounded up) to the tenth: 1:30:29.4,
// 4:55.3, 0:02.4.
export function clockTime(ms) {
  if (ms === undefined || ms === null) return "";
  const sign = ms < 0 ? "\u2212" : "";
  const tenths = Math.floor(Math.abs(ms) / 100);
  const seconds = Math.floor(tenths / 10);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor(seconds / 60) % 60;
  const ss = String(seconds % 60).padStart(2, "0");
  const mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
  return `${sign}${hours ? hours + ":" : ""}${mm}:${ss}.${tenths % 10}`;
}

let record = null; // the last GAME answer of the current link
let problem = null; // why there is none: the clock's refusal, or no answer
let busy = null; // {link, promise}: the question asked of that link, one at a time per link

// Ask the current clock for its record (GAME) and show it. A question still out to a clock that
// is no longer the current one (the board chooser switched) is left to end by itself.
export function refreshRecord() {
  const asked = links.current;
  if (!asked) return Promise.resolve();
  if (busy && busy.link === asked) return busy.promise;
  const mine = { link: asked, promise: null };
  mine.promise = (async () => {
    try {
      const answer = await asked.command("GAME");
      if (asked !== links.current) return;
      if (!answer.ok) {
        record = null;
        problem = answer.final.replace(/^ERR /, "");
        $("record").tBodies[0].replaceChildren();
        $("record-state").textContent = "(" + answer.final.replace(/^ERR /, "") + ")";
        return;
      }
      record = JSON.parse(answer.final.slice(3));
      problem = null;
      showRecord(record);
    } catch (error) {
      if (asked !== links.current) return;
      problem = error.message;
      say($("record-answer"), error.message, true);
    } finally {
      if (busy === mine) busy = null;
    }
  })();
  busy = mine;
  return mine.promise;
}

export function forgetRecord() {
  record = null;
  problem = null;
  $("record").tBodies[0].replaceChildren();
  $("record-state").textContent = "";
}

// The first and second players' names in this record's game: White and Black in chess, Black
// first in go, Othello and shogi, Gold and Silver in Arimaa.
function playersOf(game) {
  const field = game.clock || {};
  try {
    return clock ? clock.players(field.preset, field.name) : ["White", "Black"];
  } catch (error) {
    return ["White", "Black"];
  }
}

function resultText(result, names) {
  if (!result) return "";
  if (result.reason === "time" && result.loser) return `${names[result.loser === "first" ? 0 : 1]} lost on time`;
  return { arbiter: "ended by the arbiter", halted: "halted at the game limit", aborted: "aborted" }[result.reason] || result.reason;
}

// What an entry that is not a ply did, in the "took" column.
function entryText(entry, names) {
  switch (entry.entry) {
    case "undo":
      return "taken back";
    case "adjust":
      return `arbiter ${entry.amount_ms < 0 ? "\u2212" : "+"}${clockTime(Math.abs(entry.amount_ms))}`;
    case "set_time":
      return `arbiter: ${clockTime(entry.time_ms)}`;
    case "set_moves":
      return `arbiter: ${entry.moves} moves`;
    case "end":
      return resultText(entry.result, names) || "end";
    default:
      return entry.entry;
  }
}

function showRecord(game) {
  const field = game.clock || {};
  const names = playersOf(game);
  const result = resultText(field.result, names);
  $("record-state").textContent = `(${field.name || field.preset || ""}: ${field.state}${result ? ", " + result : ""}, ${game.plies.length} ${game.plies.length === 1 ? "ply" : "plies"})`;
  const head = $("record").tHead.rows[0].cells;
  head[3].textContent = names[0];
  head[4].textContent = names[1];
  const rows = (field.log || []).map((entry) => {
    const tr = document.createElement("tr");
    const by = entry.side === "second" ? 1 : 0;
    const took = entry.entry === "ply" ? clockTime(entry.elapsed_ms) : entryText(entry, names);
    const cells = [entry.ply || "", names[by], took, clockTime(entry.first && entry.first.remaining_ms), clockTime(entry.second && entry.second.remaining_ms)];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    tr.cells[3 + by].classList.add("mover");
    return tr;
  });
  $("record").tBodies[0].replaceChildren(...rows.reverse());
}

async function annotated(kind) {
  await refreshRecord();
  if (!record) throw new ClockError(problem || "no game has started yet: there is no record");
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
  if (!record) return say($("record-answer"), problem || "no game has started yet: there is no record", true);
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
