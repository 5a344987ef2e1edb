#!/usr/bin/env bash
# Seeds fuzz/corpus/check with every .mo file of the repository and
# fuzz/corpus/compare with every reference CSV. The language snippets
# (test_data/language/Acc*.mo), the function/resolve fixtures and the clocked
# forms (test_data/clocked_fix: the clocked built-ins, periodic `when`s;
# test_data/clocked: partitions read through subSample/superSample, counters
# that name no clock) are also
# seeded as two-file inputs: a prelude (examples/Base.mo and the Thermal
# package folded into one file) before the NUL byte, the snippet after it,
# so that they check clean and reach `export` whole.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p fuzz/corpus/check
find examples test_data -name '*.mo' | while read -r f; do
  cp "$f" "fuzz/corpus/check/$(echo "$f" | tr '/' '_')"
done
prelude=$(mktemp)
{
  cat examples/Base.mo
  printf '\nencapsulated package Thermal\n  import B = Base;\n  import SI = Base.Units;\n'
  for p in $(cat examples/Thermal/package.order); do
    grep -v '^within ' "examples/Thermal/$p.mo"
  done
  printf 'end Thermal;\n'
} > "$prelude"
for f in test_data/language/*.mo test_data/functions/*.mo test_data/resolve/*.mo test_data/clocked_fix/*.mo test_data/clocked/*.mo; do
  { cat "$prelude"; printf '\0'; cat "$f"; } > "fuzz/corpus/check/prelude_$(echo "$f" | tr '/' '_')"
done
rm -f "$prelude"
echo "$(ls fuzz/corpus/check | wc -l) seeds in fuzz/corpus/check"
mkdir -p fuzz/corpus/compare
for f in fmu-tests/references/*.csv; do
  cp "$f" "fuzz/corpus/compare/$(basename "$f")"
done
echo "$(ls fuzz/corpus/compare | wc -l) seeds in fuzz/corpus/compare"
