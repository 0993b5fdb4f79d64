#!/usr/bin/env bash
# The test command (README): every suite CI runs, after installing whatever
# test dependency is missing. Ends with one line "N passed, N failed".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export CARGO_TERM_COLOR=never

if ! bash scripts/install-test-deps.sh; then
  echo "installing the test dependencies failed"
  echo "0 passed, 1 failed"
  exit 1
fi

logs="$(mktemp -d)"
passed=0
failed=0
broken=()

# Adds a suite's counts; a suite that exits non-zero without counting a failure counts as one.
tally() { # name rc passed failed
  passed=$((passed + $3))
  failed=$((failed + $4))
  if [ "$2" -ne 0 ]; then
    broken+=("$1")
    [ "$4" -gt 0 ] || failed=$((failed + 1))
  fi
}

# 1. Rust: unit, integration, LSP end-to-end, CLI end-to-end, the HTML report in Chromium,
#    and the store on a PostgreSQL server the tests start.
BYOP_REQUIRE_BROWSER=1 BYOP_REQUIRE_POSTGRES=1 cargo test --locked 2>&1 | tee "$logs/cargo.log"
rc=${PIPESTATUS[0]}
read -r p f < <(awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } } END { print p + 0, f + 0 }' "$logs/cargo.log")
tally "cargo test" "$rc" "$p" "$f"

# 2. Editors, in the real editors, against the real `byop lsp` (built above).
for suite in tests/editors/run-nvim.sh tests/editors/run-vscode.sh; do
  [ -f "$suite" ] || continue
  bash "$suite" 2>&1 | tee "$logs/suite.log"
  rc=${PIPESTATUS[0]}
  line="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/suite.log" | tail -n 1)"
  p="$(echo "$line" | awk '{print $1 + 0}')"
  f="$(echo "$line" | awk '{print $3 + 0}')"
  tally "$suite" "$rc" "${p:-0}" "${f:-0}"
done

if [ "${#broken[@]}" -gt 0 ]; then
  echo "failing suites: ${broken[*]}"
fi
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
