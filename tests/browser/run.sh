#!/usr/bin/env sh
# Browser DOM check of the HTML report in headless Chromium.
# Needs node + npm and Debian's chromium (apt-get install -y chromium).
# Usage: tests/browser/run.sh [--screenshot]   (from anywhere)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
(cd "$root/tests/browser" && npm ci --no-audit --no-fund --silent)
if [ "${1:-}" = "--screenshot" ]; then
  export BYOP_SCREENSHOT=docs/html-report.png
fi
cd "$root"
BYOP_REQUIRE_BROWSER=1 cargo test --test reports html_report_dom_in_headless_chromium -- --nocapture
