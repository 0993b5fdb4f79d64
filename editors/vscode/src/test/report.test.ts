import assert from "node:assert/strict";
import { test } from "node:test";
import { CSP, DISCLAIMERS, renderReportHtml, wrapServerHtml } from "../report";
import { VARIANCE_NOTE } from "../status";

const escaped = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const envelope = {
  byop_report: {
    playbook_id: "ai_plugin_observability_v1",
    playbook_version: "1.1.0",
    execution_mode: "full",
    timestamp: "2026-11-22T05:00:00Z",
    summary: { overall_status: "ALERT", key_risks: ["Unstated assumptions"], recommended_next_steps: ["Add an assumptions section"] },
    check_results: [
      {
        check_id: "assumption_disclosure",
        severity: "high",
        result: "fail",
        per_check_confidence: 0.9,
        per_check_consistency: 1,
        notes: "Assumes <script>alert(1)</script> Delaware law",
        evidence_citations: [{ span: "The NDA can be signed", location: "line 20", located: "exact" }],
      },
    ],
    variance_summary: { num_runs: 3, consistency_score: 0.83, divergent_findings: [] },
    integrity: { playbook_logic_hash: "sha256:ab", inputs_fingerprint: "sha256:cd", runner_fingerprint: "byop-runner-rust-v0.1.0" },
    presentation_rules: { disclaimers: [...DISCLAIMERS] },
  },
};

test("the JSON rendering shows status, checks and every disclaimer, with the report escaped", () => {
  const html = renderReportHtml(envelope, "nda_review.ai.md");
  assert.match(html, /id="byop-overall-status">ALERT</);
  assert.ok(html.includes("assumption_disclosure"));
  assert.ok(html.includes("The NDA can be signed"));
  for (const d of [...DISCLAIMERS, VARIANCE_NOTE]) assert.ok(html.includes(escaped(d)), d);
  assert.ok(!html.includes("<script>"), "report text must be escaped");
  assert.ok(html.includes(CSP));
  assert.ok(html.indexOf("byop-disclaimer-banner") < html.indexOf("<h1>"), "banner comes first");
});

test("a report with missing fields still renders", () => {
  const html = renderReportHtml({}, "empty");
  assert.match(html, /id="byop-overall-status">NONE</);
  assert.ok(html.includes("byop-disclaimer-banner"));
});

test("server HTML gets our CSP and the banner right after <body>", () => {
  const html = wrapServerHtml('<html><head><title>r</title></head><body class="x"><h1>Report</h1></body></html>');
  assert.ok(html.indexOf("Content-Security-Policy") > html.indexOf("<head>"));
  assert.ok(html.indexOf("byop-disclaimer-banner") > html.indexOf('<body class="x">'));
  assert.ok(html.indexOf("byop-disclaimer-banner") < html.indexOf("<h1>Report"));
});

test("server HTML fragments without head/body still get banner and CSP", () => {
  const html = wrapServerHtml("<h1>Report</h1>");
  assert.ok(html.includes("Content-Security-Policy"));
  assert.ok(html.indexOf("byop-disclaimer-banner") < html.indexOf("<h1>Report"));
});
