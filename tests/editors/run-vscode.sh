#!/usr/bin/env bash
# VS Code end-to-end test: packages editors/vscode as a .vsix, installs it into
# code-server 4.100.3 (VS Code 1.100.3), starts code-server on 127.0.0.1 with
# `byop lsp` evaluating through the fake LLM server, and drives Debian's
# chromium with playwright-core (tests/editors/vscode-e2e/e2e.mjs).
# With --capture, on success the screenshots go to docs/vscode.png and
# docs/vscode-report.png (else they stay in the temp dir).
# Prints "N passed, N failed"; exits non-zero on any failure.
# Environment: BYOP_BIN and FAKE_LLM_BIN (skip the cargo build), CHROMIUM
# (default /usr/bin/chromium), KEEP_TMP=1 (keep the temp dir and logs).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$ROOT/tests/editors/lib.sh"
E2E="$ROOT/tests/editors/vscode-e2e"
EXT="$ROOT/editors/vscode"
CODE_SERVER="$E2E/node_modules/.bin/code-server"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
CAPTURE=0
[ "${1:-}" = "--capture" ] && CAPTURE=1

fail_early() { log "$1"; echo "0 passed, 1 failed"; exit 1; }
[ -x "$CODE_SERVER" ] || fail_early "code-server missing: run scripts/install-editor-deps.sh"
[ -x "$CHROMIUM" ] || fail_early "chromium missing at $CHROMIUM: run scripts/install-editor-deps.sh"
[ -d "$EXT/node_modules/@vscode/vsce" ] || fail_early "extension dependencies missing: run scripts/install-editor-deps.sh"

WORK="$(mktemp -d -t byop-vscode-e2e.XXXXXX)"
CS_PID=""
cleanup() {
  if [ -n "$CS_PID" ]; then
    kill "$CS_PID" 2>/dev/null
    wait "$CS_PID" 2>/dev/null
  fi
  stop_fake_llm
  if [ "${KEEP_TMP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
# code-server and the extension host write nothing outside $WORK.
export XDG_CONFIG_HOME="$WORK/xdg/config" XDG_DATA_HOME="$WORK/xdg/data" \
  XDG_STATE_HOME="$WORK/xdg/state" XDG_CACHE_HOME="$WORK/xdg/cache"

t0=$(date +%s)
build_byop || fail_early "build failed"
log "type-check, compile and unit-test the extension"
(cd "$EXT" && npx --no-install tsc -p . --noEmit && npm run --silent compile) || fail_early "tsc failed"
(cd "$EXT" && node --test out/test/) >"$WORK/unit.log" 2>&1
unit_rc=$?
unit_passed="$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$WORK/unit.log")"
unit_failed="$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$WORK/unit.log")"
unit_passed="${unit_passed:-0}" unit_failed="${unit_failed:-0}"
[ "$unit_rc" -ne 0 ] && [ "$unit_failed" -eq 0 ] && unit_failed=1
[ "$unit_rc" -ne 0 ] && grep -E '^not ok|error' "$WORK/unit.log" >&2
log "extension unit tests: $unit_passed passed, $unit_failed failed"

log "package the extension"
(cd "$EXT" && npx --no-install vsce package --allow-missing-repository --out "$WORK/byop.vsix" >"$WORK/vsce.log" 2>&1) ||
  { cat "$WORK/vsce.log" >&2; fail_early "vsce package failed"; }
# The package must build clean: vsce warns about nothing (bundled, no stray files).
if grep -q "WARNING" "$WORK/vsce.log"; then
  cat "$WORK/vsce.log" >&2; fail_early "vsce package printed a warning"
fi

log "install the vsix into code-server"
mkdir -p "$WORK/extensions" "$WORK/user-data/User"
"$CODE_SERVER" --extensions-dir "$WORK/extensions" --user-data-dir "$WORK/user-data" \
  --install-extension "$WORK/byop.vsix" >"$WORK/install.log" 2>&1 ||
  { cat "$WORK/install.log" >&2; fail_early "code-server --install-extension failed"; }

start_fake_llm "$ROOT/tests/editors/fixtures/fake_llm_alert.json" || fail_early "fake LLM failed"
make_workspace
# A hostile repository: its workspace settings name an always-pass playbook it ships. The
# setting is user-only (machine scope), so VS Code ignores it and the built-in playbook
# judges the document (e2e.mjs checks the exported report's playbook).
mkdir -p "$WORK/ws/.vscode"
cat >"$WORK/ws/lenient.json" <<'JSON'
{"id": "lenient", "version": "1", "checks": [{"id": "anything", "severity": "low",
  "question": "Anything?", "detection_method": {"type": "deterministic", "instructions": "I"},
  "rules": {"kind": "pattern", "patterns": ["."], "match_means": "pass"}}]}
JSON
printf '{ "byop.playbook": "lenient.json" }\n' >"$WORK/ws/.vscode/settings.json"

cat >"$WORK/user-data/User/settings.json" <<JSON
{
  "byop.path": "$BYOP_BIN",
  "byop.onSave": "off",
  "byop.logLevel": "debug",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "security.workspace.trust.enabled": false,
  "extensions.ignoreRecommendations": true,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "chat.commandCenter.enabled": false,
  "workbench.colorTheme": "Default Dark Modern"
}
JSON
printf 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n' >"$WORK/code-server.yaml"

log "start code-server"
# The extension host inherits this environment, and byop lsp inherits it from there.
env -u OPENAI_API_KEY -u OPENAI_BASE_URL ANTHROPIC_BASE_URL="$FAKE_LLM_URL" ANTHROPIC_API_KEY="test-key-not-real" \
  "$CODE_SERVER" --config "$WORK/code-server.yaml" --auth none --bind-addr 127.0.0.1:0 \
  --user-data-dir "$WORK/user-data" --extensions-dir "$WORK/extensions" \
  --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  "$WORK/ws" >"$WORK/code-server.log" 2>&1 &
CS_PID=$!
CS_URL=""
for _ in $(seq 1 600); do
  CS_URL="$(sed -n 's/.*HTTP server listening on \(http:\/\/127\.0\.0\.1:[0-9]*\).*/\1/p' "$WORK/code-server.log" | head -n1)"
  [ -n "$CS_URL" ] && break
  kill -0 "$CS_PID" 2>/dev/null || break
  sleep 0.1
done
[ -n "$CS_URL" ] || { cat "$WORK/code-server.log" >&2; fail_early "code-server did not start"; }
for _ in $(seq 1 100); do
  curl -fsS "$CS_URL/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
log "code-server at $CS_URL (setup took $(($(date +%s) - t0)) s)"

mkdir -p "$WORK/shots"
t1=$(date +%s)
KEY_SCAN_DIRS="$WORK/ws:$WORK/user-data:$WORK/extensions:$WORK/xdg" \
CS_URL="$CS_URL" WS="$WORK/ws" CHROMIUM="$CHROMIUM" SCREENSHOT_DIR="$WORK/shots" PROFILE_DIR="$WORK/chromium-profile" \
  TIMEOUT_MS="${TIMEOUT_MS:-60000}" timeout 600 node "$E2E/e2e.mjs" | tee "$WORK/e2e.out"
rc=${PIPESTATUS[0]}
log "browser test exited $rc after $(($(date +%s) - t1)) s"

if [ "$rc" -eq 0 ] && [ "$CAPTURE" = 1 ]; then
  mkdir -p "$ROOT/docs"
  cp "$WORK/shots/vscode.png" "$ROOT/docs/vscode.png"
  [ -f "$WORK/shots/vscode-report.png" ] && cp "$WORK/shots/vscode-report.png" "$ROOT/docs/vscode-report.png"
  log "screenshots: docs/vscode.png docs/vscode-report.png"
elif [ "$rc" -ne 0 ]; then
  [ -f "$WORK/shots/vscode-failure.png" ] && log "failure screenshot: $WORK/shots/vscode-failure.png (KEEP_TMP=1 keeps it)"
  log "extension host logs:"
  find "$WORK/user-data/logs" -name '*BYOP*' -o -name 'exthost.log' 2>/dev/null | while read -r f; do
    log "--- $f"; tail -n 40 "$f" >&2
  done
fi
e2e_line="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$WORK/e2e.out" | tail -n 1)"
e2e_passed="$(echo "${e2e_line:-0 passed, 1 failed}" | awk '{print $1}')"
e2e_failed="$(echo "${e2e_line:-0 passed, 1 failed}" | awk '{print $3}')"
[ "$rc" -ne 0 ] && [ "$e2e_failed" -eq 0 ] && e2e_failed=1
log "total: extension unit tests + browser end-to-end"
echo "$((unit_passed + e2e_passed)) passed, $((unit_failed + e2e_failed)) failed"
[ "$rc" -eq 0 ] && [ "$unit_failed" -eq 0 ]
