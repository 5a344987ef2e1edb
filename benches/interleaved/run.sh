#!/usr/bin/env bash
# fmi2SetContinuousStates + fmi2GetDerivatives of FMUs exported by one or more contenders,
# against each model's hand-written C twin and the limit, in one process per model and size,
# in interleaved rounds (ab.c says what is timed). Usage:
#
#   benches/interleaved/run.sh [--rounds R] [--cases "rod rod_other chain cooling ..."] [CONTENDER...]
#
# A CONTENDER is LABEL:BINARY:FLAGS. BINARY is the mofmu that exports (empty: $MOFMU, else
# target/release/mofmu); FLAGS are extra `mofmu export` flags, split at spaces. So the same
# model can run as two contenders of one binary and beside an older release:
#
#   run.sh compiled::"--schedule compiled" interpreted::"--schedule interpreted" \
#          base:/work/base-mofmu:
#
# Without contenders: one, `mofmu::`. Cases and sizes: the bundled rod (RodHeating, rod.n = 10^4),
# the other-style rod (RodOtherStyle.Heating, rod.n = 10^4), Acc4's chain (n = 10^4 and 10^5),
# the CoolingLoop (n = 10^4 radiator cells, 10^4 + 6 states), issue 60's ladder (Ladder.Ladder,
# n = 10^4 rungs, 2 10^4 + 3 states), the same ladder with an inner world of parameters
# (ladder_inner, LadderInner.Ladder), the ladder with a parameter per chain's conductors
# (ladder_split, Ladder.LadderSplit) and the grid (Grid.Grid, 100 x 100 cells); all of them
# by default. FMUs and the program go to out/interleaved/. Rounds default to 8 (at least 6 are
# needed for a median worth quoting).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=8
cases="rod rod_other chain cooling ladder ladder_inner ladder_split grid"
contenders=()
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    -h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) contenders+=("$1"); shift ;;
    esac
done
[ ${#contenders[@]} -gt 0 ] || contenders=("mofmu::")
if [ "$rounds" -lt 6 ]; then
    echo "run.sh: at least 6 rounds" >&2
    exit 2
fi
default_mofmu=${MOFMU:-$root/target/release/mofmu}
out=$root/out/interleaved
mkdir -p "$out"
cd "$root"

# mofmu's own C flags (src/package/compile.rs), so the twins and the limit compile as the
# kernels do; the twins are linked in, not copied.
cc -std=c99 -O2 -ffp-contract=off -o "$out/ab" "$here/ab.c" "$root/benches/twins/rod_twin.c" \
    "$root/benches/twins/rod_other_twin.c" "$root/benches/twins/chain_twin.c" \
    "$root/benches/twins/cooling_twin.c" "$root/benches/twins/ladder_twin.c" \
    "$root/benches/twins/grid_twin.c" -ldl -lm

# The `mofmu export` arguments of a case at size n.
export_args() {
    local case=$1 n=$2
    case "$case" in
    rod) echo "examples/Base.mo examples/Thermal --model Thermal.Examples.RodHeating --set rod.n=$n" ;;
    rod_other)
        echo "examples/Base.mo examples/Thermal benches/other_style_rod/RodOtherStyle.mo" \
            "--model RodOtherStyle.Heating --set rod.n=$n" ;;
    chain)
        echo "examples/Base.mo examples/Thermal test_data/language/Acc4.mo --model Acc4.Chain" \
            "--set n=$n" ;;
    cooling)
        echo "examples/Base.mo examples/Signals.mo examples/Thermal examples/ThermoFluidStream" \
            "--model ThermoFluidStream.Examples.CoolingLoop --set n=$n" ;;
    ladder)
        echo "examples/Base.mo examples/Thermal test_data/ladder/Ladder.mo --model Ladder.Ladder" \
            "--set n=$n" ;;
    ladder_inner)
        echo "examples/Base.mo examples/Thermal test_data/ladder/LadderInner.mo" \
            "--model LadderInner.Ladder --set n=$n" ;;
    ladder_split)
        echo "examples/Base.mo examples/Thermal test_data/ladder/Ladder.mo" \
            "--model Ladder.LadderSplit --set n=$n" ;;
    grid) echo "examples/Base.mo examples/Thermal test_data/ladder/Grid.mo --model Grid.Grid --set n=$n" ;;
    esac
}

# The sizes of a case, and its number of states at size n.
sizes() { case "$1" in chain) echo "10000 100000" ;; grid) echo 100 ;; *) echo 10000 ;; esac; }
states() {
    case "$1" in
    cooling) echo $(($2 + 6)) ;;
    ladder | ladder_inner | ladder_split) echo $((2 * $2 + 3)) ;;
    grid) echo $(($2 * $2)) ;;
    *) echo "$2" ;;
    esac
}

echo "benches/interleaved/run.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit" \
    "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(uname -m)," \
    "$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //')"
for contender in "${contenders[@]}"; do
    IFS=: read -r label binary flags <<<"$contender"
    echo "contender $label: ${binary:-$default_mofmu} export ${flags:-(no extra flags)}"
done
echo
for case in $cases; do
    for n in $(sizes "$case"); do
        dirs=()
        for contender in "${contenders[@]}"; do
            IFS=: read -r label binary flags <<<"$contender"
            fmu=$out/${case}_${n}_$label
            # Word splitting of the argument list and the extra flags is intended.
            # shellcheck disable=SC2046,SC2086
            if ! "${binary:-$default_mofmu}" export $(export_args "$case" "$n") $flags \
                -o "$fmu.fmu" >"$fmu.export.txt" 2>&1; then
                echo "$label cannot export $case at n = $n (left out; $fmu.export.txt says why)"
                continue
            fi
            rm -rf "$fmu" && mkdir -p "$fmu" && (cd "$fmu" && unzip -q "../$(basename "$fmu").fmu")
            dirs+=("$label=$fmu")
        done
        [ ${#dirs[@]} -gt 0 ] || continue
        "$out/ab" "$case" "$(states "$case" "$n")" "$rounds" "${dirs[@]}"
        echo
    done
done
