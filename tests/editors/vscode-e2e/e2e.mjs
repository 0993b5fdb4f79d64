// Drives code-server (VS Code 1.100 in the browser) with the BYOP extension
// installed, through Debian's chromium and playwright-core, as a person would:
// open the example document, see byop problems, run "BYOP: Full Evaluation"
// from the command palette, read "BYOP: ALERT" in the status bar, open the
// report view. Run by tests/editors/run-vscode.sh, which starts code-server.
//
// Environment: CS_URL (code-server base URL), WS (workspace folder),
// CHROMIUM (browser binary), SCREENSHOT_DIR (where PNGs go), PROFILE_DIR
// (fresh browser profile), TIMEOUT_MS.
// Prints one line per check and "N passed, N failed"; exit code 1 on failure.
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";

const env = (name, fallback) => {
  const v = process.env[name] ?? fallback;
  if (v === undefined) throw new Error(`missing environment variable ${name}`);
  return v;
};
const CS_URL = env("CS_URL");
const WS = env("WS");
const CHROMIUM = env("CHROMIUM", "/usr/bin/chromium");
const SCREENSHOT_DIR = env("SCREENSHOT_DIR");
const PROFILE_DIR = env("PROFILE_DIR");
const TIMEOUT = Number(env("TIMEOUT_MS", "60000"));
// Folders that must never contain the API key typed into "BYOP: Set API Key".
const KEY_SCAN_DIRS = env("KEY_SCAN_DIRS", WS).split(path.delimiter);
const SESSION_KEY = "sk-e2e-session-only-7f3a9c";
const DOC = "nda_review.ai.md";

let passed = 0;
let failed = 0;
const log = (s) => process.stdout.write(`${s}\n`);

/** Runs one check; a failing check does not stop the ones that do not depend on it. */
async function check(name, fn) {
  try {
    const detail = await fn();
    passed++;
    log(`ok - ${name}${detail ? ` (${detail})` : ""}`);
    return true;
  } catch (e) {
    failed++;
    log(`not ok - ${name}: ${String(e?.message ?? e).split("\n")[0]}`);
    return false;
  }
}

const context = await chromium.launchPersistentContext(PROFILE_DIR, {
  executablePath: CHROMIUM,
  headless: true,
  viewport: { width: 1440, height: 900 },
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const page = context.pages()[0] ?? (await context.newPage());
page.setDefaultTimeout(TIMEOUT);

async function runCommand(title) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await input.fill(`>${title}`);
  // Pick the row whose label is exactly the command, not a fuzzy neighbour.
  const row = page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first();
  try {
    await row.waitFor({ state: "visible", timeout: Math.min(TIMEOUT, 15000) });
  } catch {
    const offered = await page.locator(".quick-input-list .monaco-list-row").allInnerTexts();
    await page.keyboard.press("Escape");
    throw new Error(`command "${title}" not in the palette; offered: ${offered.slice(0, 8).map((t) => t.replace(/\s+/g, " ")).join(" | ")}`);
  }
  await row.click();
}

/** Problems panel: Ctrl+Shift+M (workbench.actions.view.problems). */
async function showProblems() {
  await page.locator(".tabs-container .tab", { hasText: DOC }).first().click();
  await page.keyboard.press("Control+Shift+M");
  await page.locator(".markers-panel").first().waitFor({ state: "visible" });
}

async function shot(name) {
  const file = path.join(SCREENSHOT_DIR, name);
  await page.screenshot({ path: file });
  return file;
}

try {
  await check("workbench loads", async () => {
    await page.goto(`${CS_URL}/?folder=${encodeURIComponent(WS)}`);
    await page.locator(".monaco-workbench").waitFor({ state: "visible" });
    await page.locator(".explorer-viewlet .monaco-list-row", { hasText: DOC }).first().waitFor({ state: "visible" });
  });

  const opened = await check(`open ${DOC} from the explorer`, async () => {
    await page.locator(".explorer-viewlet .monaco-list-row", { hasText: DOC }).first().click();
    await page.locator(".tabs-container .tab", { hasText: DOC }).first().waitFor({ state: "visible" });
    await page.locator(".monaco-editor .view-lines").first().waitFor({ state: "visible" });
  });

  const problems = opened && (await check("byop problems in the Problems panel", async () => {
    await showProblems();
    const row = page.locator(".markers-panel .monaco-list-row", { hasText: "byop" }).first();
    await row.waitFor({ state: "visible" });
    const count = await page.locator(".markers-panel .monaco-list-row", { hasText: "byop" }).count();
    return `${count} row(s) from byop, e.g. "${(await row.innerText()).replace(/\s+/g, " ").slice(0, 100)}"`;
  }));

  if (opened) {
    await check("status bar shows a BYOP item for the document", async () => {
      await page.locator(".tabs-container .tab", { hasText: DOC }).first().click();
      await page.locator(".statusbar-item", { hasText: "BYOP:" }).first().waitFor({ state: "visible" });
      return (await page.locator(".statusbar-item", { hasText: "BYOP:" }).first().innerText()).trim();
    });

    await check('"BYOP: Full Evaluation" from the command palette → status bar "BYOP: ALERT"', async () => {
      await runCommand("BYOP: Full Evaluation");
      await page.locator(".statusbar-item", { hasText: "BYOP: ALERT" }).first().waitFor({ state: "visible" });
    });

    await check("ALERT item has the error background", async () => {
      const item = page.locator(".statusbar-item", { hasText: "BYOP: ALERT" }).first();
      const cls = (await item.getAttribute("class")) ?? "";
      if (!cls.includes("error-kind")) {
        const bg = await item.evaluate((el) => getComputedStyle(el).backgroundColor);
        if (bg === "rgba(0, 0, 0, 0)" || bg === "transparent") throw new Error(`no background (class "${cls}")`);
        return bg;
      }
      return "error-kind";
    });

    if (problems) await showProblems().catch(() => undefined);
    // Put the first error in view for the screenshot: Problems → first row → editor.
    await page.locator(".markers-panel .monaco-list-row .marker-icon.codicon-error").first().click().catch(() => undefined);
    await page.keyboard.press("Enter").catch(() => undefined);
    await page.waitForTimeout(800);
    await check("screenshot of the evaluated document (vscode.png)", async () => shot("vscode.png"));

    await check('"BYOP: Export Report" writes the report JSON chosen in the save dialog', async () => {
      const dest = path.join(WS, "nda_review.byop-report.json");
      fs.rmSync(dest, { force: true });
      await runCommand("BYOP: Export Report");
      // code-server's save dialog is a quick input prefilled with the default path.
      const input = page.locator(".quick-input-widget input");
      await input.waitFor({ state: "visible" });
      // The dialog fills in the folder first, then the proposed file name.
      let proposed = "";
      const until = Date.now() + Math.min(TIMEOUT, 15000);
      while (Date.now() < until) {
        proposed = await input.inputValue();
        if (proposed.endsWith("nda_review.byop-report.json")) break;
        await page.waitForTimeout(100);
      }
      if (!proposed.endsWith("nda_review.byop-report.json")) throw new Error(`save dialog proposed "${proposed}"`);
      await page.keyboard.press("Enter");
      // The file may exist before it is written whole: wait until it parses.
      const deadline = Date.now() + TIMEOUT;
      let report;
      while (Date.now() < deadline) {
        try {
          report = JSON.parse(fs.readFileSync(dest, "utf8"));
          break;
        } catch {
          await page.waitForTimeout(100);
        }
      }
      if (!report) throw new Error(`no complete report JSON at ${dest}`);
      if (report?.byop_report?.summary?.overall_status !== "ALERT") throw new Error("exported report is not ALERT");
      // The workspace's .vscode/settings.json names an always-pass playbook: ignored.
      const pb = report.byop_report.playbook_id;
      if (pb !== "ai_plugin_observability_v1") throw new Error(`judged by playbook ${pb}, not the built-in`);
      const disclaimers = report.byop_report.presentation_rules?.disclaimers ?? [];
      if (!disclaimers.includes("This is an observability report, not legal advice.")) throw new Error("disclaimers missing");
      await page.keyboard.press("Escape"); // close the "report written" toast's focus, if any
      return path.basename(dest);
    });

    await check('"BYOP: Set API Key" takes a password and writes it nowhere', async () => {
      await runCommand("BYOP: Set API Key");
      const input = page.locator(".quick-input-widget input");
      await input.waitFor({ state: "visible" });
      await page.locator(".quick-input-list .monaco-list-row", { hasText: "anthropic" }).first().click();
      await page.locator('.quick-input-widget input[type="password"]').waitFor({ state: "visible" });
      await page.keyboard.type(SESSION_KEY);
      await page.keyboard.press("Enter");
      await page.locator(".notifications-toasts", { hasText: "API key set for this session" }).first().waitFor({ state: "visible" });
      await page.waitForTimeout(1500); // let settings, state and logs flush
      const hits = [];
      const scan = (dir) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          const p = path.join(dir, entry.name);
          if (entry.isDirectory()) scan(p);
          else if (entry.isFile() && fs.statSync(p).size < 64 * 1024 * 1024 && fs.readFileSync(p).includes(SESSION_KEY)) hits.push(p);
        }
      };
      for (const dir of KEY_SCAN_DIRS) if (fs.existsSync(dir)) scan(dir);
      if (hits.length) throw new Error(`key found in ${hits.join(", ")}`);
      return `scanned ${KEY_SCAN_DIRS.length} folder(s)`;
    });

    await check('"BYOP: Show Report" opens the report with the disclaimer banner', async () => {
      await runCommand("BYOP: Show Report");
      await page.locator(".tabs-container .tab", { hasText: "BYOP Report" }).first().waitFor({ state: "visible" });
      // Webviews nest two iframes; search every frame for our banner.
      const deadline = Date.now() + TIMEOUT;
      while (Date.now() < deadline) {
        for (const frame of page.frames()) {
          const banner = await frame.locator("#byop-disclaimer-banner").count().catch(() => 0);
          if (banner > 0) {
            const text = await frame.locator("#byop-disclaimer-banner").innerText();
            for (const d of [
              "This is an observability report, not legal advice.",
              "Pass ≠ safe. Fail ≠ wrong. Indeterminate is expected.",
              "Report describes behavior under this playbook and inputs.",
              "Variance in results may reflect evaluator model behavior",
            ]) {
              if (!text.includes(d)) throw new Error(`banner lacks "${d}"`);
            }
            const body = await frame.locator("body").innerText();
            if (!body.includes("ALERT")) throw new Error("report view does not show ALERT");
            await page.waitForTimeout(300);
            await shot("vscode-report.png");
            return "banner + ALERT";
          }
        }
        await page.waitForTimeout(250);
      }
      throw new Error("no frame with #byop-disclaimer-banner");
    });

    await check("a byop quick fix applies from the lightbulb menu (Ctrl+.)", async () => {
      if (/^#+\s*Assumptions/m.test(fs.readFileSync(path.join(WS, DOC), "utf8"))) {
        throw new Error("the example already has an Assumptions section; this check would prove nothing");
      }
      await page.locator(".tabs-container .tab", { hasText: DOC }).first().click();
      await page.locator(".markers-panel .monaco-list-row", { hasText: "assumption_disclosure" }).first().click();
      await page.keyboard.press("Enter"); // reveal the problem in the editor
      await page.waitForTimeout(500);
      await page.keyboard.press("Control+.");
      const action = page.locator(".action-widget .monaco-list-row", { hasText: /Insert an? .*assumption/i }).first();
      await action.waitFor({ state: "visible" });
      const title = (await action.innerText()).trim();
      // Move the keyboard focus onto that row, then accept it as a person would.
      for (let i = 0; i < 10; i++) {
        const focused = await page.locator(".action-widget .monaco-list-row.focused").first().innerText().catch(() => "");
        if (focused.trim() === title) break;
        await page.keyboard.press("ArrowDown");
      }
      await page.keyboard.press("Enter");
      // The inserted section's heading appears in the editor (monaco renders spaces as U+00A0).
      await page.locator(".monaco-editor .view-line", { hasText: /^#+[\s\u00a0]*Assumptions/ }).first().waitFor({ state: "visible" });
      return title;
    });
  }
} catch (e) {
  failed++;
  log(`not ok - unexpected error: ${e?.message ?? e}`);
} finally {
  if (failed > 0) await shot("vscode-failure.png").catch(() => undefined);
  await context.close();
}

log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
