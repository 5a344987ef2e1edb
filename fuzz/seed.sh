#!/usr/bin/env bash
# Seeds fuzz/corpus/check with every .mo file of the repository and
# fuzz/corpus/compare with every reference CSV.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p fuzz/corpus/check
find examples test_data -name '*.mo' | while read -r f; do
  cp "$f" "fuzz/corpus/check/$(echo "$f" | tr '/' '_')"
done
echo "$(ls fuzz/corpus/check | wc -l) seeds in fuzz/corpus/check"
mkdir -p fuzz/corpus/compare
for f in fmu-tests/references/*.csv; do
  cp "$f" "fuzz/corpus/compare/$(basename "$f")"
done
echo "$(ls fuzz/corpus/compare | wc -l) seeds in fuzz/corpus/compare"
