// HTML for the "BYOP: Show Report" webview: the server's HTML report when it
// offers one (`byop.renderHtml`), else a plain rendering of the report JSON.
// Either way the disclaimer banner is ours, at the top, with no way to close
// it, and the page runs no script. No vscode import: unit-tested under node.
import { VARIANCE_NOTE } from "./status";

export const DISCLAIMERS = [
  "This is an observability report, not legal advice.",
  "Pass ≠ safe. Fail ≠ wrong. Indeterminate is expected.",
  "Report describes behavior under this playbook and inputs.",
] as const;

/** No scripts, no remote loads: styles inline, images only as data URIs. */
export const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:;";

export function escapeHtml(s: unknown): string {
  return String(s ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

export function bannerHtml(): string {
  const items = [...DISCLAIMERS, VARIANCE_NOTE].map((d) => `<li>${escapeHtml(d)}</li>`).join("");
  return (
    `<div id="byop-disclaimer-banner" role="note" aria-label="BYOP disclaimers" ` +
    `style="position:sticky;top:0;z-index:1000;margin:0 0 12px 0;padding:8px 12px;` +
    `border:2px solid #b58900;background:#fff8dc;color:#3b2f00;font-family:sans-serif;font-size:13px">` +
    `<ul style="margin:0;padding-left:18px">${items}</ul></div>`
  );
}

/** Puts our CSP and banner into the server's HTML report. */
export function wrapServerHtml(html: string): string {
  const csp = `<meta http-equiv="Content-Security-Policy" content="${CSP}">`;
  let out = /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => `${m}${csp}`) : `${csp}${html}`;
  out = /<body[^>]*>/i.test(out) ? out.replace(/<body[^>]*>/i, (m) => `${m}${bannerHtml()}`) : `${bannerHtml()}${out}`;
  return out;
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {};
}
function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
function num(v: unknown): string {
  return typeof v === "number" ? v.toFixed(2) : "–";
}
function list(items: unknown[]): string {
  return items.length === 0 ? "<p>None.</p>" : `<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join("")}</ul>`;
}

function citationsHtml(citations: unknown[]): string {
  if (citations.length === 0) return "–";
  return citations
    .map((c) => {
      const cit = obj(c);
      const where = [cit.location, cit.located].filter((x) => typeof x === "string" && x !== "").join(", ");
      return `<blockquote>${escapeHtml(cit.span)}<br><small>${escapeHtml(where)}</small></blockquote>`;
    })
    .join("");
}

/** Plain rendering of `{"byop_report": {...}}` (or a bare report object). */
export function renderReportHtml(envelope: unknown, title: string): string {
  const report = obj(obj(envelope).byop_report ?? envelope);
  const summary = obj(report.summary);
  const variance = obj(report.variance_summary);
  const integrity = obj(report.integrity);
  const evaluator = obj(report.evaluator);
  const status = escapeHtml(summary.overall_status ?? "NONE");

  const rows = arr(report.check_results)
    .map((c) => {
      const r = obj(c);
      return (
        `<tr><td><code>${escapeHtml(r.check_id)}</code></td><td>${escapeHtml(r.severity)}</td>` +
        `<td class="r-${escapeHtml(r.result)}">${escapeHtml(r.result)}</td>` +
        `<td>${num(r.per_check_confidence)}</td><td>${num(r.per_check_consistency)}</td>` +
        `<td>${escapeHtml(r.notes)}</td><td>${citationsHtml(arr(r.evidence_citations))}</td></tr>`
      );
    })
    .join("");

  const extras: string[] = [];
  if (arr(report.notices).length) extras.push(`<h2>Notices</h2>${list(arr(report.notices))}`);
  const injections = arr(report.untrusted_input_warnings).map((w) => `${obj(w).reason ?? ""}: “${obj(w).span ?? ""}”`);
  if (injections.length) extras.push(`<h2>Text addressing the evaluator</h2>${list(injections)}`);
  const suppressed = arr(report.suppressed).map((s) => `${obj(s).check_id ?? ""} (${obj(s).scope ?? ""}): “${obj(s).span ?? ""}”`);
  if (suppressed.length) extras.push(`<h2>Suppressed findings</h2>${list(suppressed)}`);

  const evaluatorText = evaluator.provider ? `${escapeHtml(evaluator.provider)} / ${escapeHtml(evaluator.model)}` : "none (no evaluator call)";

  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:var(--vscode-font-family,sans-serif);font-size:13px;padding:0 16px 16px;color:var(--vscode-foreground);}
table{border-collapse:collapse;width:100%;table-layout:auto}td,th{border:1px solid #8884;padding:4px 6px;vertical-align:top;text-align:left;overflow-wrap:anywhere}
blockquote{margin:2px 0;padding-left:6px;border-left:3px solid #8888}
.status{display:inline-block;padding:2px 8px;font-weight:bold;border:1px solid currentColor}
.r-fail{color:#d33}.r-indeterminate{color:#c80}.r-pass{color:#3a3}
dt{font-weight:bold}dd{margin:0 0 4px 0;font-family:monospace;word-break:break-all}
</style></head>
<body>${bannerHtml()}
<h1>BYOP report — ${escapeHtml(title)}</h1>
<p>Overall status: <span class="status" id="byop-overall-status">${status}</span>
 · mode ${escapeHtml(report.execution_mode)} · consistency ${num(variance.consistency_score)} over ${escapeHtml(variance.num_runs ?? "–")} run(s)</p>
<p>Playbook <code>${escapeHtml(report.playbook_id)}</code> ${escapeHtml(report.playbook_version)} · evaluator ${evaluatorText} · ${escapeHtml(report.timestamp)}</p>
<h2>Key risks</h2>${list(arr(summary.key_risks))}
<h2>Recommended next steps</h2>${list(arr(summary.recommended_next_steps))}
<h2>Checks</h2>
<table><thead><tr><th>Check</th><th>Severity</th><th>Result</th><th>Confidence</th><th>Consistency</th><th>Notes</th><th>Evidence</th></tr></thead>
<tbody>${rows}</tbody></table>
<h2>Divergent findings</h2>${list(arr(variance.divergent_findings))}
${extras.join("\n")}
<h2>Integrity</h2><dl>
<dt>playbook_logic_hash</dt><dd>${escapeHtml(integrity.playbook_logic_hash)}</dd>
<dt>inputs_fingerprint</dt><dd>${escapeHtml(integrity.inputs_fingerprint)}</dd>
<dt>runner_fingerprint</dt><dd>${escapeHtml(integrity.runner_fingerprint)}</dd></dl>
<details><summary>Report JSON</summary><pre>${escapeHtml(JSON.stringify(envelope, null, 2))}</pre></details>
</body></html>`;
}
