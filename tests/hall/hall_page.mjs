// SPDX-License-Identifier: MIT
// The hall page in headless Chromium (tests/hall/check_hall_page.py runs it): the tiles, their
// order and filters, a command confirmed and answered, the read-only page. Writes what it saw as
// JSON to OUT.   node tests/hall/hall_page.mjs ARBITER_URL VIEWER_URL OUT
import { writeFileSync } from "node:fs";
import { chromium } from "../../web/node_modules/playwright-core/index.mjs";

const [arbiterUrl, viewerUrl, out] = process.argv.slice(2);
const seen = { errors: [] };
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on("pageerror", (error) => seen.errors.push(error.message));
  await page.goto(arbiterUrl);
  await page.waitForFunction(() => window.hall && window.hall.boards.size >= 5 && [...window.hall.boards.values()].every((b) => b.state), null, { timeout: 15000 });
  // A retained state is the clock as it was: a running one is run here once the clock's next
  // message (a heartbeat, 5 s at most) says what its ticks are now.
  await page.waitForFunction(() => [...window.hall.boards.values()].every((b) => b.phase !== "running" || b.sync), null, { timeout: 15000 });
  seen.synced = await page.evaluate(() => performance.now());
  // the tiles shown, in their places (sorted now, as the page does every 2 s)
  const order = () => page.evaluate(() => (window.hall.reorder(), window.hall.order()));
  seen.order = await order();
  seen.tiles = await page.evaluate(() =>
    Object.fromEntries([...document.querySelectorAll("#tiles .tile")].map((t) => [
      t.dataset.board,
      {
        left: t.querySelector(".left .time").textContent,
        right: t.querySelector(".right .time").textContent,
        leftWho: t.querySelector(".left .who").textContent,
        rightWho: t.querySelector(".right .who").textContent,
        flags: t.querySelector(".flags").textContent,
        move: t.querySelector(".move").textContent,
        preset: t.querySelector(".preset").textContent,
        classes: t.className,
      },
    ])),
  );
  // The running board with little time, sampled as the page runs it, with the wall clock.
  seen.samples = [];
  for (let i = 0; i < 6; i++) {
    seen.samples.push(await page.evaluate(() => {
      const tile = document.querySelector('#tiles .tile[data-board="1"]');
      return [performance.timeOrigin + performance.now(), tile.querySelector(".left .time").textContent, tile.querySelector(".right .time").textContent];
    }));
    await page.waitForTimeout(350);
  }
  seen.filters = {};
  for (const filter of ["flagged", "paused", "finished", "trouble"]) {
    await page.selectOption("#filter", filter);
    seen.filters[filter] = await order();
  }
  await page.selectOption("#filter", "all");
  // A command: pause board 5, asked first; no is no.
  const tile5 = '#tiles .tile[data-board="5"]';
  await page.click(tile5 + ' button[data-do="pause"]');
  seen.question = await page.textContent("#confirm-text");
  await page.click("#confirm-no");
  // the dialog closed: a yes would have put its row in the audit by then
  await page.waitForFunction(() => !document.getElementById("confirm").open, null, { timeout: 5000 });
  seen.auditAfterNo = await page.evaluate(() => window.hall.audit.length);
  await page.click(tile5 + ' button[data-do="pause"]');
  await page.click("#confirm-yes");
  await page.waitForFunction(() => window.hall.audit.length === 1 && window.hall.audit[0].answer, null, { timeout: 10000 });
  await page.waitForFunction(() => document.querySelector('#tiles .tile[data-board="5"] .flags').textContent.includes("paused"), null, { timeout: 10000 });
  // A minute more for the left clock of board 5, in the pause.
  await page.click(tile5 + ' button[data-do="adjust"]');
  await page.fill('#confirm [name="seconds"]', "60");
  await page.click("#confirm-yes");
  await page.waitForFunction(() => window.hall.audit.length === 2 && window.hall.audit[1].answer, null, { timeout: 10000 });
  // Resume on a board that is not paused: refused by the clock, and said so.
  await page.click('#tiles .tile[data-board="4"] button[data-do="resume"]');
  await page.click("#confirm-yes");
  await page.waitForFunction(() => window.hall.audit.length === 3 && window.hall.audit[2].answer, null, { timeout: 10000 });
  seen.audit = await page.evaluate(() => window.hall.audit.map(({ element, ...row }) => row));
  seen.auditRows = await page.evaluate(() => [...document.querySelectorAll("#audit tbody tr")].map((r) => r.textContent));
  seen.tile5 = await page.evaluate(() => document.querySelector('#tiles .tile[data-board="5"]').textContent);
  // The read-only page: the tiles, no arbiter's controls.
  const viewer = await browser.newPage();
  viewer.on("pageerror", (error) => seen.errors.push(error.message));
  await viewer.goto(viewerUrl);
  await viewer.waitForFunction(() => window.hall && window.hall.boards.size >= 5, null, { timeout: 15000 });
  seen.viewer = await viewer.evaluate(() => ({
    boards: window.hall.boards.size,
    controls: getComputedStyle(document.querySelector("nav .arbiter")).display,
    tileControls: getComputedStyle(document.querySelector("#tiles .tile .arbiter")).display,
  }));
} catch (error) {
  seen.errors.push(String(error && error.stack || error));
} finally {
  await browser.close();
  writeFileSync(out, JSON.stringify(seen, null, 1));
}
