// SPDX-License-Identifier: MIT
// The preset manager: the list of the current clock (this page's, or a board's over Web Serial)
// read in plain words by the clock's own parsers, add, check, use, delete, reorder, back up and
// restore; and Connect / Disconnect of a board.
import { Link, WebSerialChannel } from "./serial.js";
import { forgetRecord, refreshRecord } from "./record.js";
import { $, download, links, note, say } from "./shared.js";

let clock = null; // the page's Clock (web/clock.js): its parsers read the presets
let listChanged = () => {}; // told after the clock's list may have changed

export function setupManager(pageClock, onListChanged) {
  clock = pageClock;
  listChanged = onListChanged;
}

export function useLink(next) {
  links.current = next;
  forgetRecord();
  $("link-name").textContent = next.channel.label;
  $("disconnect").hidden = next === links.page;
  refreshRecord();
  if ($("manager").open) refreshManager();
}

function log(text) {
  const pre = $("link-log");
  pre.textContent = (pre.textContent + text + "\n").split("\n").slice(-12).join("\n");
}

// The list as the clock has it; `then` (text, bad) is said when it is shown, else the count.
export async function refreshManager(then = null) {
  const list = $("manage-list");
  try {
    const presets = await links.current.presets();
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
    else say($("link-answer"), `${presets.length} presets on ${links.current.channel.label}`);
  } catch (error) {
    say($("link-answer"), error.message, true);
  }
}

async function obey(command) {
  let said;
  try {
    const answer = await links.current.command(command);
    log(`${command}: ${answer.final}`);
    said = [answer.final.replace(/^(OK|ERR) /, ""), !answer.ok];
  } catch (error) {
    said = [error.message, true];
  }
  await refreshManager(said);
  listChanged();
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
    const refused = await links.current.restore(entries, log);
    const now = await links.current.presets();
    const same = now.length === entries.length && now.every((p, i) => p.name === entries[i].name && p.spec === entries[i].spec);
    said = same
      ? [`${what}: the clock's list is ${now.length} presets, as asked`, false]
      : [`${what}: ${refused} commands refused; the clock's list is not the one asked (each change on the clock is whole: run it again)`, true];
  } catch (error) {
    said = [`${error.message} (each command the clock took is whole; check the list and try again)`, true];
  }
  await refreshManager(said);
  listChanged();
}

$("manager").addEventListener("toggle", () => $("manager").open && refreshManager());
$("refresh").addEventListener("click", refreshManager);
// The name and the preset as the clock will take them: a name with "=" is refused as a name
// (on the line, the first "=" ends the name, and the rest would be read as a preset).
function checked() {
  const name = $("add-name").value;
  return name.trim() ? clock.checkEntry(name, $("add-spec").value) : clock.checkSpec($("add-spec").value);
}
$("add-check").addEventListener("click", () => {
  const found = checked();
  say($("link-answer"), found.reads ? "the clock reads it: " + found.reads : found.error, !found.reads);
});
$("add-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const found = checked();
  if (!$("add-name").value.trim()) return say($("link-answer"), "give the preset a name (1 to 24 characters, no =)", true);
  if (!found.reads) return say($("link-answer"), found.error + " (nothing was sent)", true);
  obey(`PRESET ADD ${$("add-name").value.trim()} = ${$("add-spec").value.trim()}`);
});
$("backup").addEventListener("click", async () => {
  try {
    download("clock-presets.txt", Link.listing(await links.current.presets()));
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

export const NO_WEB_SERIAL =
  "Connect a clock needs Web Serial, which this browser does not have (Safari, Firefox and phone browsers lack it): " +
  "open this page in Chrome or Edge on a computer. The clock in this page works here as it is.";

if (!WebSerialChannel.supported()) $("connect").title = NO_WEB_SERIAL;
$("connect").addEventListener("click", async () => {
  if (!WebSerialChannel.supported()) {
    // Said at the top, where the eye is after the click, not in a panel below the fold.
    note(NO_WEB_SERIAL);
    say($("link-answer"), NO_WEB_SERIAL, true);
    $("notes").scrollIntoView({ block: "nearest" });
    return;
  }
  let boardLink = null;
  try {
    const channel = await WebSerialChannel.request();
    boardLink = new Link(channel);
    boardLink.onEvent = () => links.current === boardLink && refreshRecord();
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
  const old = links.current;
  useLink(links.page);
  await old.channel.close();
});
