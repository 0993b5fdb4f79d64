#!/usr/bin/env bash
# Neovim end-to-end test: editors/nvim with the built-in LSP client against the
# real `byop lsp`, evaluating through the fake LLM server (nothing leaves the
# machine). Prints "N passed, N failed"; exits non-zero on any failure.
#   tests/editors/run-nvim.sh              # builds byop + fake_llm with cargo
#   tests/editors/run-nvim.sh --capture    # also writes docs/nvim.txt and docs/nvim.png (tmux screen)
# Environment: NVIM (default .cache/editors/venv/bin/nvim), BYOP_BIN and
# FAKE_LLM_BIN (skip the build), KEEP_TMP=1 (keep the temp dir).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$ROOT/tests/editors/lib.sh"
CAPTURE=0
[ "${1:-}" = "--capture" ] && CAPTURE=1

NVIM="${NVIM:-$ROOT/.cache/editors/venv/bin/nvim}"
if ! [ -x "$NVIM" ]; then
  log "nvim not found at $NVIM: run scripts/install-editor-deps.sh (or set NVIM)"
  echo "0 passed, 1 failed"
  exit 1
fi

WORK="$(mktemp -d -t byop-nvim-e2e.XXXXXX)"
cleanup() {
  stop_fake_llm
  if [ -n "${TMUX_SOCKET:-}" ]; then tmux -S "$TMUX_SOCKET" kill-server 2>/dev/null; fi
  if [ "${KEEP_TMP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

fail_early() { log "$1"; echo "0 passed, 1 failed"; exit 1; }

build_byop || fail_early "build failed"
start_fake_llm "$ROOT/tests/editors/fixtures/fake_llm_alert.json" || fail_early "fake LLM failed"
make_workspace

export XDG_CONFIG_HOME="$WORK/xdg/config" XDG_DATA_HOME="$WORK/xdg/data" \
  XDG_STATE_HOME="$WORK/xdg/state" XDG_CACHE_HOME="$WORK/xdg/cache"
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_STATE_HOME" "$XDG_CACHE_HOME"
# Only the fake evaluator is reachable; the key is a dummy.
unset OPENAI_API_KEY OPENAI_BASE_URL
export ANTHROPIC_BASE_URL="$FAKE_LLM_URL" ANTHROPIC_API_KEY="test-key-not-real"
export BYOP_PLUGIN_DIR="$ROOT/editors/nvim" BYOP_BIN BYOP_DOC="$WORK/ws/nda_review.ai.md" \
  BYOP_PLAIN_DOC="$WORK/ws/notes.md" BYOP_EXPORT="$WORK/ws/exported.byop-report.json"
export BYOP_TIMEOUT_MS="${BYOP_TIMEOUT_MS:-60000}"

log "nvim: $("$NVIM" --version | head -n1); byop: $BYOP_BIN; fake LLM: $FAKE_LLM_URL"
start=$(date +%s)
(cd "$WORK/ws" && timeout 600 "$NVIM" --headless -u NONE -i NONE -c "luafile $ROOT/tests/editors/nvim_e2e.lua") \
  >"$WORK/nvim.out" 2>"$WORK/nvim.err"
rc=$?
cat "$WORK/nvim.out"
log "nvim exited $rc after $(($(date +%s) - start)) s"
if [ "$rc" -ne 0 ]; then
  [ -s "$WORK/nvim.err" ] && { log "nvim stderr:"; tail -n 30 "$WORK/nvim.err" >&2; }
  LSPLOG="$XDG_STATE_HOME/nvim/lsp.log"
  [ -f "$LSPLOG" ] && { log "tail of $LSPLOG:"; tail -n 40 "$LSPLOG" >&2; }
fi
if ! grep -qE '^[0-9]+ passed, [0-9]+ failed$' "$WORK/nvim.out"; then
  echo "0 passed, 1 failed"
  exit 1
fi

if [ "$CAPTURE" = 1 ] && [ "$rc" -eq 0 ]; then
  # What a person sees: nvim in a 120x34 tmux pane after :ByopFull, as text
  # (docs/nvim.txt) and, via ansi2html.py + headless chromium, as docs/nvim.png.
  TMUX_SOCKET="$WORK/tmux.sock"
  rm -rf "$WORK/ws" && make_workspace
  cat >"$WORK/init.lua" <<LUA
vim.opt.rtp:prepend("$ROOT/editors/nvim")
vim.o.termguicolors = true
require("byop").setup({ cmd = { "$BYOP_BIN", "lsp" }, settings = { onSave = "off" }, report_view = "buffer" })
vim.o.statusline = "%f %m%=%{%v:lua.require'byop'.statusline_component()%}  %l:%c "
vim.o.laststatus = 2
vim.o.number = true
vim.diagnostic.config({ virtual_text = true, signs = true })
LUA
  tmux -S "$TMUX_SOCKET" -f /dev/null new-session -d -x 120 -y 34 -c "$WORK/ws" \
    "env TERM=xterm-256color ANTHROPIC_BASE_URL=$FAKE_LLM_URL ANTHROPIC_API_KEY=test-key-not-real $NVIM -u $WORK/init.lua -i NONE nda_review.ai.md"
  sleep 3
  tmux -S "$TMUX_SOCKET" send-keys ':ByopFull' Enter
  for _ in $(seq 1 60); do
    tmux -S "$TMUX_SOCKET" capture-pane -p | grep -q 'BYOP: ALERT' && break
    sleep 0.5
  done
  # Cursor onto the first error and open its diagnostic float.
  tmux -S "$TMUX_SOCKET" send-keys ':lua vim.diagnostic.jump({count=1, severity=vim.diagnostic.severity.ERROR, float={border="rounded"}})' Enter
  sleep 1
  mkdir -p "$ROOT/docs"
  tmux -S "$TMUX_SOCKET" capture-pane -p >"$ROOT/docs/nvim.txt"
  tmux -S "$TMUX_SOCKET" capture-pane -e -p >"$WORK/screen.ansi"
  python3 "$ROOT/tests/editors/ansi2html.py" --title "byop in Neovim" <"$WORK/screen.ansi" >"$WORK/screen.html"
  if [ -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
    "${CHROMIUM:-/usr/bin/chromium}" --headless --no-sandbox --disable-gpu --no-first-run \
      --user-data-dir="$WORK/chromium" --hide-scrollbars --window-size=1040,630 \
      --screenshot="$ROOT/docs/nvim.png" "file://$WORK/screen.html" >/dev/null 2>&1 &&
      log "wrote docs/nvim.png"
  fi
  log "wrote docs/nvim.txt"
fi
exit "$rc"
