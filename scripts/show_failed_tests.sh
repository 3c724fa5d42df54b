#!/usr/bin/env bash
# Prints again, last, the output of each test that failed in a build tree's latest ctest run. CI keeps only the end
# of a long log, and ctest's --output-on-failure prints a failure where it happened, thousands of lines earlier.
# Usage: show_failed_tests.sh BUILD_DIR
set -uo pipefail
temporary="$1/Testing/Temporary"
[ -s "$temporary/LastTestsFailed.log" ] || exit 0
while IFS=: read -r _ name; do
  echo "==================== output of the failed test $name (its last 120 lines) ===================="
  awk -v name="$name" '
    $0 ~ /^[0-9]+\/[0-9]+ Test: / && $3 == name { inside = 1 }
    inside { print }
    inside && index($0, "\"" name "\" end time:") == 1 { inside = 0 }
  ' "$temporary/LastTest.log" | tail -n 120
done < "$temporary/LastTestsFailed.log"
