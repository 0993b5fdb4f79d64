// BYOP for VS Code: starts `byop lsp` for AI-output documents and adds the
// status bar item, the commands and the report view. The server does the work;
// this file only translates between VS Code and the server's protocol (README, "Language server").
import * as path from "path";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  Trace,
} from "vscode-languageclient/node";
import { findByop } from "./binary";
import { renderReportHtml, wrapServerHtml } from "./report";
import { serverSettings } from "./settings";
import { StatusParams, parseStatusParams, presentStatus } from "./status";

const INCLUDE_PATTERNS = ["**/*.ai.md", "**/*.byop.md", "**/*.aiout"];
const SELECTOR = INCLUDE_PATTERNS.map((pattern) => ({ scheme: "file", pattern }));
type Mode = "full" | "screening" | "deterministic";

let client: LanguageClient | undefined;
let starting: Promise<LanguageClient | undefined> | undefined;
let output: vscode.OutputChannel;
let statusItem: vscode.StatusBarItem;
let reportPanel: { panel: vscode.WebviewPanel; uri: string } | undefined;
/** Latest `byop/status` per document (normalized URI string). */
const statuses = new Map<string, StatusParams>();
/** Keys typed into "BYOP: Set API Key": this session only, re-sent after a server restart. */
const sessionKeys = new Map<string, string>();

const isByopDocument = (doc: vscode.TextDocument) => vscode.languages.match(SELECTOR, doc) > 0;
const normalizeUri = (uri: string) => vscode.Uri.parse(uri).toString();

function currentSettings() {
  const cfg = vscode.workspace.getConfiguration("byop");
  return serverSettings((key) => cfg.get(key));
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("BYOP");
  statusItem = vscode.window.createStatusBarItem("byop.status", vscode.StatusBarAlignment.Left, 100);
  statusItem.name = "BYOP";
  statusItem.command = "byop.runFull";
  context.subscriptions.push(output, statusItem);

  const register = (id: string, fn: () => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  register("byop.runFull", () => evaluate(context, "full"));
  register("byop.runScreening", () => evaluate(context, "screening"));
  register("byop.saveAsBaseline", () => saveBaseline(context));
  register("byop.exportReportToFile", () => exportReport(context));
  register("byop.showReport", () => showReport(context));
  register("byop.counterfactualAudit", () => counterfactualAudit(context));
  register("byop.enterApiKey", () => enterApiKey(context));
  register("byop.restartServer", async () => {
    await stopClient();
    await ensureClient(context);
  });

  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(() => refreshStatusItem()),
    vscode.workspace.onDidOpenTextDocument((doc) => {
      if (isByopDocument(doc)) void ensureClient(context, false);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration("byop")) return;
      if (e.affectsConfiguration("byop.path")) {
        if (client || starting) {
          await stopClient();
          await ensureClient(context);
        }
        return;
      }
      if (client?.state === State.Running) {
        await client.sendNotification(DidChangeConfigurationNotification.type, { settings: { byop: currentSettings() } });
      }
    }),
  );

  if (vscode.workspace.textDocuments.some(isByopDocument)) await ensureClient(context, false);
  refreshStatusItem();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}

async function stopClient(): Promise<void> {
  const c = client ?? (await starting);
  client = undefined;
  starting = undefined;
  if (c) await c.stop().catch((e) => output.appendLine(`stop: ${errorText(e)}`));
}

/** A missing binary is reported once for automatic starts, every time for commands. */
let missingBinaryReported = false;

/** Starts the server once; every caller shares the same start. */
function ensureClient(context: vscode.ExtensionContext, interactive = true): Promise<LanguageClient | undefined> {
  if (client) return Promise.resolve(client);
  if (!starting) {
    starting = startClient(context, interactive).then(
      (c) => {
        client = c;
        if (!c) starting = undefined; // let a later attempt retry (e.g. after fixing byop.path)
        return c;
      },
      (e) => {
        starting = undefined;
        void vscode.window.showErrorMessage(`BYOP: the language server failed to start: ${errorText(e)}`);
        return undefined;
      },
    );
  }
  return starting;
}

async function startClient(context: vscode.ExtensionContext, interactive: boolean): Promise<LanguageClient | undefined> {
  const found = findByop({
    configuredPath: vscode.workspace.getConfiguration("byop").get<string>("path") ?? "",
    extensionPath: context.extensionPath,
    envPath: process.env.PATH,
    platform: process.platform,
  });
  if (!found.ok) {
    output.appendLine(found.message);
    if (!interactive && missingBinaryReported) return undefined;
    missingBinaryReported = true;
    const action = found.fixIsSetting ? "Open Settings" : "Set byop.path";
    const choice = await vscode.window.showErrorMessage(`BYOP: ${found.message}`, action);
    if (choice) await vscode.commands.executeCommand("workbench.action.openSettings", "byop.path");
    return undefined;
  }
  output.appendLine(`Starting ${found.path} lsp (found via ${found.source})`);

  const serverOptions: ServerOptions = { command: found.path, args: ["lsp"], options: { env: process.env } };
  const clientOptions: LanguageClientOptions = {
    documentSelector: SELECTOR,
    initializationOptions: { byop: currentSettings() },
    outputChannel: output,
    traceOutputChannel: output,
  };
  const c = new LanguageClient("byop", "BYOP", serverOptions, clientOptions);
  c.onNotification("byop/status", (raw: unknown) => onStatus(raw));
  await c.start();
  for (const [provider, key] of sessionKeys) await sendApiKey(c, provider, key);
  return c;
}

function onStatus(raw: unknown): void {
  const params = parseStatusParams(raw);
  if (!params) {
    output.appendLine("Ignored a malformed byop/status notification");
    return;
  }
  const uri = normalizeUri(params.uri);
  statuses.set(uri, params);
  refreshStatusItem();
  if (reportPanel?.uri === uri && params.status !== "RUNNING" && params.status !== "NONE") {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    if (doc && client) void fillReportPanel(client, doc, reportPanel.panel);
  }
}

/** The document the status bar describes: the active AI-output document, or the
 *  last one while a non-text view (report, output) has focus. */
let statusDocUri: string | undefined;

function refreshStatusItem(): void {
  const doc = vscode.window.activeTextEditor?.document;
  if (doc) statusDocUri = isByopDocument(doc) ? doc.uri.toString() : undefined;
  if (!statusDocUri) {
    statusItem.hide();
    return;
  }
  const look = presentStatus(statuses.get(statusDocUri));
  statusItem.text = look.text;
  statusItem.backgroundColor = look.background ? new vscode.ThemeColor(look.background) : undefined;
  statusItem.tooltip = new vscode.MarkdownString(look.tooltip);
  statusItem.show();
}

/** The active AI-output document and a running server, or a message saying what is missing. */
async function target(context: vscode.ExtensionContext): Promise<{ c: LanguageClient; doc: vscode.TextDocument } | undefined> {
  const doc = vscode.window.activeTextEditor?.document;
  if (!doc || !isByopDocument(doc)) {
    void vscode.window.showWarningMessage("BYOP: open an AI-output document (*.ai.md, *.byop.md or *.aiout) first.");
    return undefined;
  }
  const c = await ensureClient(context);
  return c ? { c, doc } : undefined;
}

function runCommand(c: LanguageClient, command: string, args: object): Promise<unknown> {
  return c.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] });
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

async function evaluate(context: vscode.ExtensionContext, mode: Mode): Promise<void> {
  const t = await target(context);
  if (!t) return;
  const uri = t.c.code2ProtocolConverter.asUri(t.doc.uri);
  try {
    const result = await runCommand(t.c, "byop.evaluate", { uri, mode });
    // The server also sends byop/status; this covers a result that arrives without one.
    const summary = (result as { byop_report?: { summary?: { overall_status?: unknown } } } | null)?.byop_report?.summary;
    const known = statuses.get(t.doc.uri.toString());
    if (typeof summary?.overall_status === "string" && (!known || known.status === "RUNNING")) {
      onStatus({ uri, status: summary.overall_status, mode });
    }
  } catch (e) {
    void vscode.window.showErrorMessage(`BYOP: ${mode} evaluation failed: ${errorText(e)}`);
  }
}

async function saveBaseline(context: vscode.ExtensionContext): Promise<void> {
  const t = await target(context);
  if (!t) return;
  try {
    await runCommand(t.c, "byop.saveBaseline", { uri: t.c.code2ProtocolConverter.asUri(t.doc.uri) });
    void vscode.window.showInformationMessage(`BYOP: saved the latest report of ${path.basename(t.doc.uri.fsPath)} as its baseline.`);
  } catch (e) {
    void vscode.window.showErrorMessage(`BYOP: could not save the baseline: ${errorText(e)}`);
  }
}

async function fetchReport(c: LanguageClient, doc: vscode.TextDocument): Promise<unknown> {
  return runCommand(c, "byop.exportReport", { uri: c.code2ProtocolConverter.asUri(doc.uri) });
}

/** `nda_review.ai.md` → `nda_review.byop-report.json` beside it. */
function defaultReportUri(doc: vscode.TextDocument): vscode.Uri {
  const base = path.basename(doc.uri.fsPath).replace(/(\.ai\.md|\.byop\.md|\.aiout)$/i, "");
  return vscode.Uri.file(path.join(path.dirname(doc.uri.fsPath), `${base}.byop-report.json`));
}

async function exportReport(context: vscode.ExtensionContext): Promise<void> {
  const t = await target(context);
  if (!t) return;
  let report: unknown;
  try {
    report = await fetchReport(t.c, t.doc);
  } catch (e) {
    void vscode.window.showErrorMessage(`BYOP: no report to export (${errorText(e)}). Run "BYOP: Full Evaluation" or "BYOP: Screening" first.`);
    return;
  }
  const dest = await vscode.window.showSaveDialog({
    defaultUri: defaultReportUri(t.doc),
    filters: { "BYOP report (JSON)": ["json"] },
    saveLabel: "Export BYOP Report",
  });
  if (!dest) return;
  await vscode.workspace.fs.writeFile(dest, Buffer.from(`${JSON.stringify(report, null, 2)}\n`, "utf8"));
  const open = await vscode.window.showInformationMessage(`BYOP: report written to ${dest.fsPath}`, "Open");
  if (open) await vscode.window.showTextDocument(dest);
}

async function fillReportPanel(c: LanguageClient, doc: vscode.TextDocument, panel: vscode.WebviewPanel): Promise<void> {
  const uri = c.code2ProtocolConverter.asUri(doc.uri);
  const title = path.basename(doc.uri.fsPath);
  try {
    const rendered = (await runCommand(c, "byop.renderHtml", { uri })) as { html?: unknown } | null;
    if (typeof rendered?.html === "string") {
      panel.webview.html = wrapServerHtml(rendered.html);
      return;
    }
  } catch (e) {
    output.appendLine(`byop.renderHtml unavailable (${errorText(e)}); rendering the report JSON`);
  }
  panel.webview.html = renderReportHtml(await fetchReport(c, doc), title);
}

async function showReport(context: vscode.ExtensionContext): Promise<void> {
  const t = await target(context);
  if (!t) return;
  const title = `BYOP Report: ${path.basename(t.doc.uri.fsPath)}`;
  if (!reportPanel) {
    const panel = vscode.window.createWebviewPanel("byop.report", title, vscode.ViewColumn.Beside, {
      enableScripts: false,
      localResourceRoots: [],
    });
    panel.onDidDispose(() => (reportPanel = undefined));
    reportPanel = { panel, uri: t.doc.uri.toString() };
  }
  reportPanel.uri = t.doc.uri.toString();
  reportPanel.panel.title = title;
  reportPanel.panel.reveal(undefined, true);
  try {
    await fillReportPanel(t.c, t.doc, reportPanel.panel);
  } catch (e) {
    void vscode.window.showErrorMessage(`BYOP: no report to show (${errorText(e)}). Run "BYOP: Full Evaluation" or "BYOP: Screening" first.`);
  }
}

/**
 * "BYOP: Counterfactual Audit": `byop.counterfactual` on the active document.
 * The server reports progress (cancellable from the notification); the result's HTML is
 * shown in its own webview, as the report is.
 */
async function counterfactualAudit(context: vscode.ExtensionContext, maxCalls?: number): Promise<void> {
  const t = await target(context);
  if (!t) return;
  const uri = t.c.code2ProtocolConverter.asUri(t.doc.uri);
  try {
    const args = maxCalls === undefined ? { uri } : { uri, maxCalls };
    const result = (await runCommand(t.c, "byop.counterfactual", args)) as { html?: unknown } | null;
    const html = result?.html;
    if (typeof html !== "string") throw new Error("the server returned no audit");
    const panel = vscode.window.createWebviewPanel(
      "byop.counterfactual",
      `BYOP Counterfactual Audit: ${path.basename(t.doc.uri.fsPath)}`,
      vscode.ViewColumn.Beside,
      { enableScripts: false, localResourceRoots: [] },
    );
    panel.webview.html = wrapServerHtml(html);
  } catch (e) {
    const message = errorText(e);
    // Over the call budget: say how many calls it needs and let the user raise it.
    const needed = /needs (\d+) evaluator call/.exec(message);
    if (needed && maxCalls === undefined) {
      const run = `Run ${needed[1]} calls`;
      const choice = await vscode.window.showWarningMessage(`BYOP: ${message}`, run);
      if (choice === run) await counterfactualAudit(context, Number(needed[1]));
      return;
    }
    void vscode.window.showErrorMessage(`BYOP: counterfactual audit failed: ${message}`);
  }
}

/** Tracing is paused around this request so a verbose trace never records the key. */
async function sendApiKey(c: LanguageClient, provider: string, key: string): Promise<void> {
  const trace = Trace.fromString(vscode.workspace.getConfiguration("byop").get<string>("trace.server") ?? "off");
  if (trace !== Trace.Off) await c.setTrace(Trace.Off);
  try {
    await runCommand(c, "byop.setApiKey", { provider, key });
  } finally {
    if (trace !== Trace.Off) await c.setTrace(trace);
  }
}

async function enterApiKey(context: vscode.ExtensionContext): Promise<void> {
  const configured = vscode.workspace.getConfiguration("byop").get<string>("provider") ?? "anthropic";
  const providers = [configured, ...["anthropic", "openai"].filter((p) => p !== configured)];
  const provider = await vscode.window.showQuickPick(providers, { title: "BYOP: evaluator provider for this key" });
  if (!provider) return;
  const key = await vscode.window.showInputBox({
    title: `BYOP: ${provider} API key`,
    prompt: "Held in memory for this session only; never written to settings, files or logs.",
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === "" ? "Enter a key, or press Escape to cancel." : undefined),
  });
  if (!key) return;
  const c = await ensureClient(context);
  if (!c) return;
  try {
    await sendApiKey(c, provider, key.trim());
    sessionKeys.set(provider, key.trim());
    void vscode.window.showInformationMessage(`BYOP: ${provider} API key set for this session.`);
  } catch (e) {
    // The error text comes from the server, which never echoes the key.
    void vscode.window.showErrorMessage(`BYOP: the server did not accept the key: ${errorText(e)}`);
  }
}
