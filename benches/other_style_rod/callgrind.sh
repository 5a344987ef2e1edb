#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind, repeatable whatever the load) of one
# fmi2SetContinuousStates + fmi2GetDerivatives against the FMI-API limit (one memcpy and one
# call of the hand loop), per call, for both rods of run.sh. Run run.sh first (it exports the
# FMUs and builds the driver). Usage: benches/other_style_rod/callgrind.sh
# Note: valgrind counts glibc's `rep movsb` copy per byte moved, so memcpy's count (the same
# on both sides) is far above its share of the time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$here/../.." && pwd)/out/other-style-rod
n=10000
reps=$((2000000 / n + 1))
for name in other bundled; do
    style=$([ $name = other ] && echo 1 || echo 0)
    guid=$(grep -o 'guid="[^"]*"' "$out/$name/modelDescription.xml" | cut -d'"' -f2)
    so=$(ls "$out/$name"/binaries/linux64/*.so)
    valgrind --tool=callgrind --callgrind-out-file="$out/$name.callgrind" \
        "$out/limit" "$out/$name" "$so" "$guid" $style $n 1 >/dev/null 2>&1
    callgrind_annotate --inclusive=yes "$out/$name.callgrind" 2>/dev/null |
        awk -v name=$name -v reps=$reps '
            { gsub(",", "", $1) }
            /fmi2SetContinuousStates/ { set = $1 } /fmi2GetDerivatives/ { get = $1 }
            /_twin_derivatives/ { twin = $1 } /memcpy/ { copy = $1 }
            END {
                fmu = (set + get) / (reps + 1)
                limit = copy / (2 * reps + 1) + twin / (2 * reps + 1)
                printf "%s rod: FMU %.1fk instructions per call (set %.1fk, get %.1fk), " \
                       "limit %.1fk (copy %.1fk + loop %.1fk); FMU/limit %.3f\n", name,
                       fmu / 1e3, set / (reps + 1) / 1e3, get / (reps + 1) / 1e3, limit / 1e3,
                       copy / (2 * reps + 1) / 1e3, twin / (2 * reps + 1) / 1e3, fmu / limit
            }'
done
