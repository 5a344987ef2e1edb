#!/usr/bin/env bash
# Runs README.md's first-model commands exactly as written (the ```sh block of "Your first
# model", taken from the README, so this breaks when the README drifts), from the root of a
# fresh clone of the repository, with the release binary on PATH as `mofmu`. The first check
# must refuse the plain model (its comment says so); every other command must succeed, and the
# test fixture the copy came from must be unchanged.
#
#   bash fmu-tests/readme_first_model.sh [path/to/mofmu]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
mofmu=${1:-$target_dir/release/mofmu}
# An absolute path: the commands below run in other directories.
[ -e "$mofmu" ] && mofmu="$(cd "$(dirname "$mofmu")" && pwd)/$(basename "$mofmu")"
[ -x "$mofmu" ] || { echo "no mofmu binary at $mofmu (cargo build --release)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone --quiet "$root" "$work/clone"
mkdir -p "$work/bin"
ln -s "$mofmu" "$work/bin/mofmu"
export PATH="$work/bin:$PATH"

# The fenced ```sh block after the "## Your first model" heading, up to its closing fence.
commands=$(awk '
    /^## Your first model/ { section = 1; next }
    section && /^## / { exit }
    section && !inside && /^```sh$/ { inside = 1; next }
    inside && /^```$/ { exit }
    inside { print }
' "$work/clone/README.md")
[ -n "$commands" ] || { echo "README.md: no \`\`\`sh block under \"## Your first model\"" >&2; exit 1; }

cd "$work/clone"
fixture_before=$(sha256sum test_data/newcomer/RCCircuit.mo)
n=0
while IFS= read -r line; do
    [ -n "$line" ] || continue
    n=$((n + 1))
    echo "\$ $line"
    if bash -c "$line" >"$work/out" 2>&1; then status=0; else status=$?; fi
    if [[ $line == *"# refused"* ]]; then
        if [ "$status" -eq 0 ]; then
            cat "$work/out"
            echo "FAILED: expected a refusal" >&2
            exit 1
        fi
    elif [ "$status" -ne 0 ]; then
        cat "$work/out"
        echo "FAILED (exit $status)" >&2
        exit 1
    fi
done <<<"$commands"
[ "$(sha256sum test_data/newcomer/RCCircuit.mo)" = "$fixture_before" ] \
    || { echo "FAILED: the walkthrough changed the test fixture" >&2; exit 1; }
[ -s scratch/RC.csv ] && [ -s scratch/RC.svg ] || { echo "FAILED: no scratch/RC.csv or RC.svg" >&2; exit 1; }
echo "README first model: $n commands ran as written ($(($(wc -l <scratch/RC.csv) - 1)) rows in scratch/RC.csv)"
