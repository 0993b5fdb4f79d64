# Shared by run-nvim.sh and run-vscode.sh (sourced, not run).
# Builds byop and the fake LLM server, starts the fake LLM, prepares a
# temporary workspace with the example document. Callers set ROOT and WORK.

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }

# The example document: the lead's examples/nda_review.ai.md once it exists.
example_document() {
  if [ -f "$ROOT/examples/nda_review.ai.md" ]; then
    echo "$ROOT/examples/nda_review.ai.md"
  else
    echo "$ROOT/tests/editors/fixtures/nda_review.ai.md"
  fi
}

# Sets BYOP_BIN and FAKE_LLM_BIN unless given; builds with cargo (debug, as CI does).
build_byop() {
  if [ -n "${BYOP_BIN:-}" ] && [ -n "${FAKE_LLM_BIN:-}" ]; then
    return 0
  fi
  log "cargo build --bin byop --example fake_llm"
  (cd "$ROOT" && cargo build --quiet --bin byop --example fake_llm) || return 1
  BYOP_BIN="${BYOP_BIN:-$ROOT/target/debug/byop}"
  FAKE_LLM_BIN="${FAKE_LLM_BIN:-$ROOT/target/debug/examples/fake_llm}"
}

# Starts the fake LLM with a script; sets FAKE_LLM_URL and FAKE_LLM_PID.
start_fake_llm() {
  local script="$1"
  local fifo_out="$WORK/fake_llm.out"
  "$FAKE_LLM_BIN" --port 0 --script "$script" >"$fifo_out" 2>"$WORK/fake_llm.err" &
  FAKE_LLM_PID=$!
  local i
  for i in $(seq 1 300); do
    FAKE_LLM_URL="$(sed -n '1s/^listening \(http:\/\/127\.0\.0\.1:[0-9]*\).*/\1/p' "$fifo_out" 2>/dev/null)"
    [ -n "$FAKE_LLM_URL" ] && return 0
    kill -0 "$FAKE_LLM_PID" 2>/dev/null || break
    sleep 0.1
  done
  log "fake LLM did not start:"; cat "$WORK/fake_llm.err" >&2
  return 1
}

stop_fake_llm() {
  if [ -n "${FAKE_LLM_PID:-}" ]; then
    kill "$FAKE_LLM_PID" 2>/dev/null
    wait "$FAKE_LLM_PID" 2>/dev/null
    FAKE_LLM_PID=""
  fi
}

# A workspace with the example document, the companions its front matter
# names (source, prompt), and a plain markdown file beside it.
make_workspace() {
  local doc dir companion
  doc="$(example_document)"
  dir="$(dirname "$doc")"
  mkdir -p "$WORK/ws"
  cp "$doc" "$WORK/ws/nda_review.ai.md"
  for companion in $(sed -n 's/^[[:space:]]*\(source\|prompt\):[[:space:]]*\([^[:space:]#]*\).*/\2/p' "$doc"); do
    [ -f "$dir/$companion" ] && cp "$dir/$companion" "$WORK/ws/$companion"
  done
  printf '# Notes\n\nNot an AI-output document.\n' >"$WORK/ws/notes.md"
}
