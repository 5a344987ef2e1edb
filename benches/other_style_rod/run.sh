#!/usr/bin/env bash
# fmi2GetDerivatives of the other-style rod and of the bundled rod at n = 10^4 against
# the FMI-API limit (limit.c). Usage: benches/other_style_rod/run.sh [MOFMU] [REPEATS]
# Its limit is bimodal between processes (see limit.c); for timings that can be compared,
# use benches/interleaved/run.sh --cases "rod_other rod". This one builds the driver that
# callgrind.sh counts.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mofmu=${1:-$root/target/release/mofmu}
repeats=${2:-3}
n=10000
out=$root/out/other-style-rod
rm -rf "$out" && mkdir -p "$out"
cd "$root"
"$mofmu" export examples/Base.mo examples/Thermal "$here/RodOtherStyle.mo" \
    --model RodOtherStyle.Heating --set rod.n=$n -o "$out/other.fmu" >/dev/null
"$mofmu" export examples/Base.mo examples/Thermal \
    --model Thermal.Examples.RodHeating --set rod.n=$n -o "$out/bundled.fmu" >/dev/null
# mofmu's own C flags (src/package/compile.rs), so the twins compile as the kernels do.
cc -std=c99 -O2 -ffp-contract=off -D_POSIX_C_SOURCE=200809L -o "$out/limit" "$here/limit.c" \
    "$root/benches/twins/rod_twin.c" "$root/benches/twins/rod_other_twin.c" -ldl -lm
for name in other bundled; do
    mkdir -p "$out/$name" && (cd "$out/$name" && unzip -q ../$name.fmu)
done
for _ in $(seq "$repeats"); do
    for name in other bundled; do
        style=$([ $name = other ] && echo 1 || echo 0)
        guid=$(grep -o 'guid="[^"]*"' "$out/$name/modelDescription.xml" | cut -d'"' -f2)
        "$out/limit" "$out/$name" "$(ls "$out/$name"/binaries/linux64/*.so)" "$guid" $style $n 21
    done
done
