#!/usr/bin/env bash
# Seeds fuzz/corpus/check with every .mo file of the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p fuzz/corpus/check
find examples test_data -name '*.mo' | while read -r f; do
  cp "$f" "fuzz/corpus/check/$(echo "$f" | tr '/' '_')"
done
echo "$(ls fuzz/corpus/check | wc -l) seeds in fuzz/corpus/check"
