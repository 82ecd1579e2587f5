// SPDX-License-Identifier: MIT
// Headless Chromium driven line by line, for the hall page's tests (tests/hall/page_support.py):
// each line on stdin is a request, each line on stdout its answer, so a Python test moves the
// world (the broker, the clocks) and looks at the page in between.
//   {"do": "goto", "url": U}   {"do": "eval", "js": E}   {"do": "wait", "js": E, "timeout": ms}
//   {"do": "click", "selector": S}   {"do": "fill", "selector": S, "value": V}   {"do": "errors"}
// answers {"ok": true, "value": ...} or {"ok": false, "error": "..."}; page errors are kept.
import { createInterface } from "node:readline";
import { chromium } from "../../web/node_modules/playwright-core/index.mjs";

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
const errors = [];
page.on("pageerror", (error) => errors.push(error.message));
page.on("console", (message) => {
  if (message.type() === "error") errors.push("console: " + message.text());
});

async function answer(request) {
  switch (request.do) {
    case "goto":
      return page.goto(request.url).then(() => null);
    case "eval":
      return page.evaluate(request.js);
    case "wait":
      await page.waitForFunction(request.js, null, { timeout: request.timeout || 10000, polling: 50 });
      return page.evaluate(request.js);
    case "click":
      return page.click(request.selector).then(() => null);
    case "fill":
      return page.fill(request.selector, request.value).then(() => null);
    case "errors":
      return errors;
    default:
      throw new Error("unknown request " + request.do);
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  let reply;
  try {
    reply = { ok: true, value: await answer(JSON.parse(line)) };
  } catch (error) {
    reply = { ok: false, error: String((error && error.message) || error) };
  }
  process.stdout.write(JSON.stringify(reply === undefined ? null : reply) + "\n");
}
await browser.close();
