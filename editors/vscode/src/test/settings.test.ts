import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
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

// A repository's `.vscode/settings.json` is workspace settings. VS Code ignores a
// `machine`- or `application`-scoped setting there, so each setting that chooses the rules a
// document is judged by, weakens a check, or decides where code runs and data goes must
// carry one of those scopes.
test("a workspace's settings cannot set what a repository may not choose", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
  const properties: Record<string, { scope?: string }> = manifest.contributes.configuration.properties;
  const userOnly = [
    "path",
    "baseUrl",
    "trustWorkspaceEvaluator",
    "playbook",
    "allowedPlaybooks",
    "canary",
    "locked",
    "runs",
    "maxRuns",
  ];
  for (const key of userOnly) {
    const scope = properties[`byop.${key}`]?.scope;
    assert.ok(scope === "machine" || scope === "application", `byop.${key} has scope ${scope}`);
  }
  // Every setting the server reads is either user-only or one a repository may choose.
  const repositoryMay = ["onSave", "provider", "model", "logLevel"];
  const sent = Object.keys(
    serverSettings(
      (k) =>
        ({
          onSave: "full",
          provider: "openai",
          model: "m",
          baseUrl: "http://127.0.0.1:1/v1",
          runs: 3,
          maxRuns: 5,
          trustWorkspaceEvaluator: true,
          logLevel: "debug",
          playbook: "p.json",
          canary: true,
          locked: true,
          allowedPlaybooks: ["a.json"],
        })[k],
    ),
  );
  for (const key of sent) {
    assert.ok(userOnly.includes(key) || repositoryMay.includes(key), `byop.${key} is not classified`);
  }
});
