// `byop serve` driven in headless Chromium: paste → Run → progress → report → Save as
// Baseline → run again → history shows both → compare → drift chart with two points →
// audit rows of a report → a plan validated → a dataset's view → Forget key (the next run has no key).
// Usage: node check_serve.mjs URL_WITH_TOKEN
// Env: BYOP_KEY (the evaluator key to enter), CHROMIUM, BYOP_USER_DATA_DIR,
//      BYOP_SCREENSHOT_DIR (saves serve-page.png, serve-history.png and serve-dataset.png there).
import { chromium } from "playwright-core";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const start = process.argv[2];
const key = process.env.BYOP_KEY || "";
if (!start || !key) {
  console.error("usage: BYOP_KEY=… node check_serve.mjs URL_WITH_TOKEN");
  process.exit(2);
}
const origin = new URL(start).origin;
const token = new URL(start).searchParams.get("token");
const shots = process.env.BYOP_SCREENSHOT_DIR;
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

const context = await chromium.launchPersistentContext(
  process.env.BYOP_USER_DATA_DIR || mkdtempSync(join(tmpdir(), "byop-chromium-")),
  {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
      "--disable-quic", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1200, height: 900 },
  },
);
// Every progress line the page showed, kept across navigations.
await context.addInitScript(() => {
  const watch = () => {
    const el = document.getElementById("progress-text");
    if (!el) return;
    new MutationObserver(() => {
      const seen = JSON.parse(sessionStorage.getItem("progress") || "[]");
      seen.push(el.textContent);
      sessionStorage.setItem("progress", JSON.stringify(seen));
    }).observe(el, { childList: true, characterData: true, subtree: true });
  };
  document.addEventListener("DOMContentLoaded", watch);
});
const requests = [];
const bodies = [];
try {
  const page = context.pages()[0] || (await context.newPage());
  page.on("request", (r) => requests.push(r.url()));
  page.on("response", async (r) => {
    const type = r.request().resourceType();
    if (type === "document" || type === "fetch" || type === "xhr") {
      bodies.push(await r.text().catch(() => ""));
    }
  });
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));

  await page.goto(start);
  check(new URL(page.url()).search === "", "the token leaves the address bar");
  check(await page.isVisible("#run-form"), "the run form is shown");

  const output = "# NDA review\n\nThis NDA is fully enforceable and you can sign it without changes.\n\n<script>window.__pwned=1</script>\n";
  const run = async (text, withKey) => {
    if (withKey) await page.fill("#api-key", key);
    await page.fill("#document", "browser memo");
    await page.fill("#output", text);
    await page.fill("#source", "The NDA between the parties.");
    await page.check("#mode-screening");
    await Promise.all([page.waitForURL(/\/reports\//, { timeout: 60000 }), page.click("#run")]);
    const frame = page.frameLocator("#report-frame");
    await frame.locator("#overall-status").waitFor({ timeout: 20000 });
    return {
      badge: (await frame.locator("#overall-status").textContent()).trim(),
      view: (await page.textContent("#view-status")).trim(),
      id: (await page.textContent("#report-id")).trim(),
    };
  };

  const first = await run(output, true);
  check(first.badge === first.view, `report shown in the view (${first.badge})`);
  const progress = await page.evaluate(() => JSON.parse(sessionStorage.getItem("progress") || "[]"));
  check(progress.some((p) => /check \d+\/\d+, run \d+\/\d+/.test(p)), `progress shown: ${progress.join(" | ")}`);
  const frame = page.frameLocator("#report-frame");
  check((await frame.locator("#disclaimers").count()) === 1, "disclaimer banner in the report");
  check(await page.evaluate(() => typeof window.__pwned === "undefined"), "pasted <script> not executed");
  const exportJson = await page.getAttribute("#export-json", "href");
  const exported = await page.evaluate(async (u) => (await fetch(u)).json(), exportJson);
  check(exported.byop_report.report_id === first.id, "Export JSON gives the report");
  const sarif = await page.evaluate(async (u) => (await fetch(u)).json(), await page.getAttribute("#export-sarif", "href"));
  check(sarif.version === "2.1.0", "Export SARIF gives SARIF 2.1.0");

  await page.click("#save-baseline");
  // Locators, not waitForFunction: the page's CSP forbids eval, which waitForFunction needs
  // whenever its condition is not already true on the first try.
  await page.locator("#baseline-result").filter({ hasText: /\S/ }).waitFor();
  const saved = await page.textContent("#baseline-result");
  check(saved.includes("Saved as the baseline of web:browser memo"), `Save as Baseline: ${saved}`);

  await page.goto(`${origin}/`);
  check(await page.isVisible("#key-held"), "the page says a key is held for this session");
  if (shots) {
    await page.fill("#document", "browser memo");
    await page.fill("#output", output);
    await page.screenshot({ path: join(shots, "serve-page.png"), fullPage: true });
  }
  const second = await run(output + "\nWe did not review the schedules.\n", false);
  check(second.id !== first.id, "a second report (the key held by the session)");

  await page.goto(`${origin}/history?document=${encodeURIComponent("web:browser memo")}`);
  const rows = await page.$$eval("#history-table tbody tr", (trs) => trs.map((t) => t.dataset.report));
  check(rows.length === 2 && rows.includes(first.id) && rows.includes(second.id), `history shows both (${rows.length})`);
  check((await page.$$("#history-table .badge.base")).length === 1, "one row marked baseline");
  const points = await page.$$eval("#drift-svg circle.point", (cs) => cs.map((c) => c.dataset.baseline));
  check(points.length === 2, `drift chart has two points (${points.length})`);
  check(points.filter((b) => b === "true").length === 1, "the baseline is marked on the chart");
  check((await page.textContent("#audit-verdict")).includes("intact"), "audit log verdict shown");
  if (shots) await page.screenshot({ path: join(shots, "serve-history.png"), fullPage: true });

  await page.check(`input[name=a][value="${first.id}"]`);
  await page.check(`input[name=b][value="${second.id}"]`);
  await Promise.all([page.waitForURL(/\/compare\?/), page.click("#compare")]);
  const cmp = page.frameLocator("#compare-frame");
  await cmp.locator("#checks").waitFor({ timeout: 10000 });
  check((await cmp.locator("#checks tbody tr").count()) > 0, "compare shows the checks side by side");

  // The report's request id opens its audit-log rows.
  await page.goto(`${origin}/reports/${first.id}`);
  await Promise.all([page.waitForURL(/\/audit\//), page.click("#audit-link")]);
  const states = await page.$$eval("#audit-table tbody tr td:nth-child(3)", (tds) => tds.map((t) => t.textContent));
  check(states[0] === "received" && states.includes("evaluated"), `audit rows: ${states.join(", ")}`);

  // PlanProof from the same page: notes + plan + time + zone → the validation object.
  await page.goto(`${origin}/plan`);
  await page.fill("#plan-notes", "Working hours 9am-5pm\nHard stop at 3pm\n- Draft the brief\n- Call Dana");
  await page.fill("#plan-text", '{"plan": [{"task": "Draft the brief", "timebox_minutes": 400, "why": "due"}, {"task": "Call Dana", "timebox_minutes": 30, "why": "x"}, {"task": "Lunch with Marcus", "timebox_minutes": 60, "why": "y"}], "assumptions": [], "questions": [], "confidence": "high"}');
  await page.fill("#plan-now", "2026-06-01T09:00:00-04:00");
  await page.fill("#plan-tz", "America/Toronto");
  await page.click("#validate");
  await page.waitForSelector("#plan-result:not([hidden])");
  check((await page.textContent("#plan-status")) === "fail", `plan validation shown: ${await page.textContent("#plan-status")}`);
  check((await page.$$("#plan-errors li")).length > 0, "plan errors listed");

  // A dataset named at start-up opens as its HTML view (the comparison byop dataset renders).
  await page.goto(`${origin}/datasets`);
  await Promise.all([page.waitForURL(/\/datasets\/planproof$/), page.click('#dataset-list a[href="/datasets/planproof"]')]);
  const ds = page.frameLocator("#dataset-frame");
  await ds.locator("h1").waitFor({ timeout: 30000 });
  check((await ds.locator("h1").textContent()) === "Dataset · planproof_v1", `dataset view: ${await ds.locator("h1").textContent()}`);
  check((await ds.locator("text=Per scenario").count()) === 1, "the dataset's per-scenario table is shown");
  if (shots) await page.screenshot({ path: join(shots, "serve-dataset.png"), fullPage: true });

  // Forget key: the server drops the session's key; the next run has none (fail-closed).
  await page.goto(`${origin}/`);
  check(await page.isVisible("#key-held"), "a key is held before Forget key");
  await page.click("#forget-key");
  await page.locator("#forget-key").filter({ hasText: /^Key forgotten$/ }).waitFor();
  check(!(await page.isVisible("#key-held")), "Forget key: the page no longer says a key is held");
  await page.reload();
  check(!(await page.isVisible("#key-held")), "after a reload, the server holds no key for this session");
  check((await page.getAttribute("#api-key", "placeholder")) === "sk-…", "the key field asks for a key again");
  const after = await page.evaluate(async () => {
    const csrf = document.querySelector('meta[name="byop-csrf"]').content;
    const r = await fetch("/api/evaluate", {
      method: "POST", headers: { "Content-Type": "application/json", "X-Byop-Csrf": csrf },
      body: JSON.stringify({ output: "# Memo\n\nThis NDA is fully enforceable.\n", mode: "screening", document: "after forget" }),
    });
    return { status: r.status, body: await r.json() };
  });
  const why = (after.body.error && after.body.error.message) || "";
  check(after.status === 503 && after.body.error.code === "evaluator_unavailable" && /key/i.test(why),
    `the next run has no key: ${after.status} ${why}`);
  const unjudged = (after.body.byop_report.check_results || []).filter((c) => c.result === "indeterminate");
  check(unjudged.length > 0, `its report is fail-closed (${unjudged.length} check(s) indeterminate)`);

  // A request from this page without the CSRF token is refused.
  const forged = await page.evaluate(async (id) => (await fetch("/api/baseline", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ report_id: id }),
  })).status, first.id);
  check(forged === 403, `a state change without the CSRF token is refused (${forged})`);

  const foreign = requests.filter((u) => !u.startsWith(origin) && !u.startsWith("data:") && !u.startsWith("about:"));
  check(foreign.length === 0, `no request to another host (${foreign.join(", ")})`);
  check(bodies.every((b) => !b.includes(key)), "the key is in no response");
  check(bodies.every((b) => !b.includes(token)), "the token is in no response");
  check(errors.filter((e) => /Content Security Policy/.test(e)).length === 0, `no CSP violations (${errors.join("; ")})`);
} catch (e) {
  failures.push(String(e));
  console.log(`FAIL ${e}`);
} finally {
  await context.close();
}
if (failures.length) {
  console.log(`${failures.length} failure(s)`);
  process.exit(1);
}
console.log("all serve checks passed");
