#!/usr/bin/env bash
# Run each fuzz target for SECONDS (default 300), one at a time, one process each (the
# machine is shared). Crashes are copied into regressions/<target>/ for tests/fuzz_regressions.rs.
set -u
cd "$(dirname "$0")"
SECONDS_EACH=${1:-300}
shift || true
TARGETS=${*:-front_matter playbook_json locator suppressions positions incremental_edits verdict byop_toml hostile_config grounding}
for t in $TARGETS; do
  mkdir -p corpus/$t regressions/$t logs
  echo "== $t (${SECONDS_EACH}s)"
  cargo +nightly fuzz run "$t" -s none corpus/$t -- \
    -max_total_time="$SECONDS_EACH" -max_len=65536 -timeout=10 -rss_limit_mb=1536 \
    -print_final_stats=1 > "logs/$t.log" 2>&1
  grep -E "^(stat::number_of_executed_units|stat::new_units_added|stat::peak_rss|Done|==[0-9]+== ERROR|.*panicked|SUMMARY|Test unit written)" "logs/$t.log"
  for a in artifacts/$t/*; do
    [ -f "$a" ] && cp "$a" regressions/$t/ && echo "   kept $(basename "$a")"
  done
done
