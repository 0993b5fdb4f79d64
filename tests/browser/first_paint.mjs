// First paint of `byop serve`'s page in headless Chromium (benches/serve.rs).
// Usage: node first_paint.mjs URL_WITH_TOKEN. Prints the medians of 9 loads of `/`.
import { chromium } from "playwright-core";

const start = process.argv[2];
const origin = new URL(start).origin;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
});
const median = (v) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)];
try {
  const page = await (await browser.newContext()).newPage();
  await page.goto(start);
  const fp = [], fcp = [], ttfb = [];
  for (let i = 0; i < 10; i++) {
    await page.goto(`${origin}/`, { waitUntil: "load" });
    const t = await page.evaluate(() => new Promise((done) => {
      const nav = performance.getEntriesByType("navigation")[0];
      const read = () => {
        const paint = Object.fromEntries(performance.getEntriesByType("paint").map((e) => [e.name, e.startTime]));
        if (paint["first-contentful-paint"] === undefined) return setTimeout(read, 10);
        done({ fp: paint["first-paint"] ?? paint["first-contentful-paint"], fcp: paint["first-contentful-paint"], ttfb: nav.responseStart });
      };
      read();
    }));
    if (i === 0) continue; // the first load warms the browser's caches
    fp.push(t.fp); fcp.push(t.fcp); ttfb.push(t.ttfb);
  }
  console.log(`first paint **${median(fp).toFixed(0)} ms**, first contentful paint ${median(fcp).toFixed(0)} ms, first byte ${median(ttfb).toFixed(1)} ms (from navigation start)`);
} finally {
  await browser.close();
}
