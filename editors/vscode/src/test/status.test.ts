import assert from "node:assert/strict";
import { test } from "node:test";
import { VARIANCE_NOTE, parseStatusParams, presentStatus } from "../status";

test("ALERT is red with score, mode and the variance note in the tooltip", () => {
  const p = parseStatusParams({ uri: "file:///a.ai.md", status: "ALERT", consistency_score: 0.6666, mode: "full" });
  assert.ok(p);
  const look = presentStatus(p);
  assert.match(look.text, /BYOP: ALERT$/);
  assert.equal(look.background, "statusBarItem.errorBackground");
  assert.match(look.tooltip, /Consistency score: 0\.67/);
  assert.match(look.tooltip, /Mode: full/);
  assert.ok(look.tooltip.includes(VARIANCE_NOTE));
});

test("backgrounds by status", () => {
  const bg = (status: string) => presentStatus(parseStatusParams({ uri: "u", status })).background;
  assert.equal(bg("REVIEW"), "statusBarItem.warningBackground");
  assert.equal(bg("OBSERVE"), "statusBarItem.prominentBackground");
  assert.equal(bg("STABLE"), undefined);
  assert.equal(bg("RUNNING"), undefined);
});

test("RUNNING spins", () => {
  assert.equal(presentStatus(parseStatusParams({ uri: "u", status: "RUNNING" })).text, "$(sync~spin) BYOP: RUNNING");
});

test("no status yet reads NONE", () => {
  assert.match(presentStatus(undefined).text, /BYOP: NONE$/);
});

test("malformed notifications are rejected", () => {
  assert.equal(parseStatusParams(null), undefined);
  assert.equal(parseStatusParams({ uri: "u" }), undefined);
  assert.equal(parseStatusParams({ uri: "u", status: "PANIC" }), undefined);
  assert.equal(parseStatusParams({ uri: 3, status: "ALERT" }), undefined);
  assert.equal(parseStatusParams({ uri: "u", status: "ALERT", consistency_score: "high" })?.consistency_score, undefined);
});
