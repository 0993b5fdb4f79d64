import assert from "node:assert/strict";
import { test } from "node:test";
import { serverSettings } from "../settings";

const from = (values: Record<string, unknown>) => serverSettings((k) => values[k]);

test("defaults that mean 'server decides' are left out", () => {
  assert.deepEqual(
    from({ onSave: "auto", provider: "anthropic", model: "", baseUrl: "  ", runs: null, trustWorkspaceEvaluator: false, logLevel: "info", playbook: "" }),
    { provider: "anthropic", trustWorkspaceEvaluator: false, logLevel: "info" },
  );
});

test("every setting is passed under its protocol name", () => {
  assert.deepEqual(
    from({
      onSave: "full",
      provider: "openai",
      model: "llama3",
      baseUrl: "http://127.0.0.1:11434/v1",
      runs: 5,
      trustWorkspaceEvaluator: true,
      logLevel: "debug",
      playbook: "playbooks/custom.json",
      path: "/usr/bin/byop",
    }),
    {
      onSave: "full",
      provider: "openai",
      model: "llama3",
      baseUrl: "http://127.0.0.1:11434/v1",
      runs: 5,
      trustWorkspaceEvaluator: true,
      logLevel: "debug",
      playbook: "playbooks/custom.json",
    },
  );
});

test("the trust settings are passed only as the server reads them", () => {
  assert.deepEqual(from({ canary: false, locked: true, allowedPlaybooks: ["pb/a.json", " ", 3] }), {
    canary: false,
    locked: true,
    allowedPlaybooks: ["pb/a.json"],
  });
  assert.deepEqual(from({ canary: "no", locked: null, allowedPlaybooks: [] }), {});
});

test("invalid values are dropped rather than sent", () => {
  assert.deepEqual(from({ onSave: "sometimes", provider: "bard", runs: 0, logLevel: "loud", trustWorkspaceEvaluator: "yes" }), {});
  assert.deepEqual(from({ runs: 2.5 }), {});
});
