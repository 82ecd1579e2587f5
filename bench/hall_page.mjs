// SPDX-License-Identifier: MIT
// The hall page under load, for bench/hall.py: opens it in headless Chromium, waits for every
// tile, then for SECONDS records each tile update (board, plies, the wall clock) and every
// frame's interval. Prints one line of JSON.   node bench/hall_page.mjs URL BOARDS SECONDS
import { chromium } from "../web/node_modules/playwright-core/index.mjs";

const [url, boards, seconds] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
const result = { errors: [] };
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.on("pageerror", (error) => result.errors.push(error.message));
  const opened = Date.now();
  await page.goto(url);
  await page.waitForFunction((n) => window.hall && window.hall.boards.size >= n, boards, { timeout: 120000, polling: 200 });
  result.allTilesMs = Date.now() - opened;
  await page.evaluate(() => {
    window.hall.stats.updates.length = 0;
    window.frames = [];
    let last = performance.now();
    const frame = (now) => {
      window.frames.push(now - last);
      last = now;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  await page.waitForTimeout(seconds * 1000);
  Object.assign(result, await page.evaluate(() => ({
    updates: window.hall.stats.updates,
    frames: window.frames,
    messages: window.hall.stats.messages,
    tiles: window.hall.boards.size,
    running: [...window.hall.boards.values()].filter((b) => b.phase === "running").length,
  })));
} catch (error) {
  result.errors.push(String((error && error.stack) || error));
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
