// DOM checks of a byop HTML report in headless Chromium.
// Usage: node check_report.mjs REPORT.html
// Env: CHROMIUM (default /usr/bin/chromium), BYOP_SCREENSHOT (png path, optional),
//      BYOP_USER_DATA_DIR (fresh profile dir, default: a new temp dir).
// Expectations come from the report JSON embedded in the page, not from the renderer.
import { chromium } from "playwright-core";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const file = process.argv[2];
if (!file) {
  console.error("usage: node check_report.mjs REPORT.html");
  process.exit(2);
}
const url = pathToFileURL(resolve(file)).href;
const userDataDir = process.env.BYOP_USER_DATA_DIR || mkdtempSync(join(tmpdir(), "byop-chromium-"));
const STATUS_COLOURS = {
  ALERT: "rgb(198, 40, 40)",
  REVIEW: "rgb(178, 106, 0)",
  OBSERVE: "rgb(21, 101, 192)",
  STABLE: "rgb(46, 125, 50)",
};

const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
    "--disable-quic",
    "--disable-component-update",
    "--disable-sync",
  ],
  viewport: { width: 1200, height: 900 },
});
try {
  const page = context.pages()[0] || (await context.newPage());
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  const dialogs = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });
  await page.goto(url, { waitUntil: "load" });

  const report = await page.evaluate(() => JSON.parse(document.getElementById("raw-json").textContent).byop_report);
  const locatedCitations = report.check_results
    .flatMap((c) => c.evidence_citations)
    .filter((c) => c.located !== "unlocated" && Array.isArray(c.byte_range)).length;

  const badge = await page.evaluate(() => {
    const el = document.getElementById("overall-status");
    return { text: el.textContent.trim(), colour: getComputedStyle(el).backgroundColor };
  });
  const status = report.summary.overall_status;
  check(badge.text === status, `badge text ${badge.text} == ${status}`);
  check(badge.colour === STATUS_COLOURS[status], `badge colour ${badge.colour} == ${STATUS_COLOURS[status]}`);

  const banner = await page.evaluate(() => {
    const el = document.getElementById("disclaimers");
    if (!el) return null;
    const s = getComputedStyle(el);
    return { text: el.innerText, visible: s.display !== "none" && s.visibility !== "hidden", buttons: el.querySelectorAll("button").length };
  });
  check(banner !== null && banner.visible, "disclaimer banner visible");
  check(banner && banner.buttons === 0, "disclaimer banner has no dismiss control");
  for (const d of report.presentation_rules.disclaimers) check(banner && banner.text.includes(d), `banner says: ${d}`);

  const cards = await page.$$eval("article.card", (els) => els.map((e) => e.dataset.check));
  check(cards.length === report.check_results.length, `cards ${cards.length} == checks ${report.check_results.length}`);
  check(JSON.stringify(cards) === JSON.stringify(report.check_results.map((c) => c.check_id)), "one card per check, in order");

  const highlights = await page.$$eval("#doc mark.hl", (els) => els.length);
  console.log(`highlights=${highlights}`);
  check(highlights === locatedCitations, `highlights ${highlights} == located citations ${locatedCitations}`);
  const links = await page.evaluate(() => {
    const marks = [...document.querySelectorAll("#doc mark.hl")];
    const toCard = marks.every((m) => document.getElementById(m.id.replace("span-", "cite-")));
    const toSpan = [...document.querySelectorAll('blockquote a[href^="#span-"]')].every((a) =>
      document.querySelector(a.getAttribute("href")),
    );
    const backRefs = [...document.querySelectorAll("#doc a.ref")].every((a) => document.querySelector(a.getAttribute("href")));
    return { toCard, toSpan, backRefs, hlVisible: marks.length > 0 && getComputedStyle(marks[0]).backgroundColor !== "rgba(0, 0, 0, 0)" };
  });
  check(links.toCard && links.toSpan && links.backRefs, "spans and cards link both ways");
  check(links.hlVisible, "highlights are coloured");
  // Clicking a card's quote lands on its span.
  const firstQuote = await page.$('blockquote a[href^="#span-"]');
  if (firstQuote) {
    const target = (await firstQuote.getAttribute("href")).slice(1);
    await firstQuote.click();
    check((await page.evaluate(() => location.hash.slice(1))) === target, "quote link navigates to its span");
  }

  const docText = await page.evaluate(() => document.getElementById("doc").textContent);
  check(docText.includes("<script>window.__pwned=1;alert(1)</script>"), "document <script> shown as text");
  check((await page.evaluate(() => typeof window.__pwned)) === "undefined", "document <script> not executed");
  check(dialogs.length === 0, `no dialogs opened (${dialogs.length})`);
  check((await page.$$("#doc script")).length === 0, "no script element inside the document view");

  const before = await page.isVisible("#raw-json");
  await page.click("#toggle-json");
  const shown = await page.isVisible("#raw-json");
  await page.click("#toggle-json");
  const hidden = await page.isVisible("#raw-json");
  check(!before && shown && !hidden, "raw JSON toggle shows and hides the JSON");
  const download = await page.evaluate(async () => {
    const a = document.getElementById("download-json");
    const body = decodeURIComponent(a.href.slice(a.href.indexOf(",") + 1));
    return { name: a.download, same: JSON.stringify(JSON.parse(body)) === JSON.stringify(JSON.parse(document.getElementById("raw-json").textContent)) };
  });
  check(download.same && download.name.endsWith(".json"), "download link carries the report JSON");

  check(await page.isVisible("#variance-note"), "variance note shown");
  check(await page.isVisible("#threshold"), "0.85 threshold marked");

  await page.emulateMedia({ media: "print" });
  const print = await page.evaluate(() => ({
    toggle: getComputedStyle(document.getElementById("toggle-json")).display,
    json: getComputedStyle(document.getElementById("raw-json")).display,
  }));
  check(print.toggle === "none" && print.json !== "none", "print hides the toggle and shows the JSON");
  await page.emulateMedia({ media: "screen" });

  if (process.env.BYOP_SCREENSHOT) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: process.env.BYOP_SCREENSHOT, fullPage: true });
    console.log(`screenshot: ${process.env.BYOP_SCREENSHOT}`);
  }

  const outside = requests.filter((u) => u !== url);
  check(outside.length === 0, `no requests besides the file itself (${JSON.stringify(outside)})`);
} finally {
  await context.close();
}

if (failures.length) {
  console.log(`${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("all browser checks passed");
