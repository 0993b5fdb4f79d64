#!/usr/bin/env bash
# Installs what the test suites need, skipping whatever is already there:
# Chromium (HTML report DOM test, VS Code end-to-end test), PostgreSQL (the team
# store's tests start their own server from its binaries), the browser test's npm
# packages, and the editor test dependencies (scripts/install-editor-deps.sh).
# Only package registries are contacted.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf '[install-test-deps] %s\n' "$*"; }

if ! command -v chromium >/dev/null 2>&1; then
  log "apt: installing chromium"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium
fi
# The server binaries (initdb, pg_ctl, postgres) live in /usr/lib/postgresql/N/bin.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  log "apt: installing postgresql"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql
fi
if [ ! -d "$ROOT/tests/browser/node_modules/playwright-core" ]; then
  log "npm: tests/browser"
  (cd "$ROOT/tests/browser" && npm ci --no-audit --no-fund --silent)
fi
if [ -f "$ROOT/scripts/install-editor-deps.sh" ]; then
  bash "$ROOT/scripts/install-editor-deps.sh"
fi
