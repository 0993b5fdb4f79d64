import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { findByop } from "../binary";

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "byop-bin-"));
}
function executable(dir: string, name = "byop"): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, "#!/bin/sh\n");
  fs.chmodSync(file, 0o755);
  return file;
}

test("the setting wins over bundled and PATH", () => {
  const ext = tempDir();
  fs.mkdirSync(path.join(ext, "bin"));
  executable(path.join(ext, "bin"));
  const custom = executable(tempDir(), "my-byop");
  const onPath = tempDir();
  executable(onPath);
  const r = findByop({ configuredPath: custom, extensionPath: ext, envPath: onPath, platform: "linux" });
  assert.deepEqual(r, { ok: true, path: custom, source: "setting" });
});

test("a setting pointing nowhere is an error naming the setting, not a silent fallback", () => {
  const onPath = tempDir();
  executable(onPath);
  const missing = path.join(tempDir(), "nope");
  const r = findByop({ configuredPath: missing, extensionPath: tempDir(), envPath: onPath, platform: "linux" });
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.fixIsSetting, true);
    assert.match(r.message, /byop\.path/);
    assert.ok(r.message.includes(missing));
  }
});

test("a relative setting is rejected", () => {
  const r = findByop({ configuredPath: "bin/byop", extensionPath: tempDir(), envPath: "", platform: "linux" });
  assert.equal(r.ok, false);
});

test("bundled binary before PATH", () => {
  const ext = tempDir();
  fs.mkdirSync(path.join(ext, "bin"));
  const bundled = executable(path.join(ext, "bin"));
  const onPath = tempDir();
  executable(onPath);
  const r = findByop({ configuredPath: "", extensionPath: ext, envPath: onPath, platform: "linux" });
  assert.deepEqual(r, { ok: true, path: bundled, source: "bundled" });
});

test("PATH is searched in order and skips non-executable files", () => {
  const first = tempDir();
  fs.writeFileSync(path.join(first, "byop"), "not executable");
  fs.chmodSync(path.join(first, "byop"), 0o644);
  const second = tempDir();
  const found = executable(second);
  const r = findByop({ configuredPath: " ", extensionPath: tempDir(), envPath: `${first}::${second}`, platform: "linux" });
  assert.deepEqual(r, { ok: true, path: found, source: "PATH" });
});

test("nothing found gives the install fix", () => {
  const r = findByop({ configuredPath: "", extensionPath: tempDir(), envPath: tempDir(), platform: "linux" });
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.fixIsSetting, false);
    assert.match(r.message, /cargo install/);
    assert.match(r.message, /byop\.path/);
  }
});
