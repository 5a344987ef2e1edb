#!/usr/bin/env bash
# A real editor on mofmu's language server: headless Neovim, configured by
# editors/nvim/mofmu.lua, opens a copy of a newcomer's plain model, waits
# for the diagnostics, applies the code actions and saves; the saved file
# then passes `mofmu check` and exports. Needs nvim (Debian's neovim) and a
# release build (scripts/test-all builds it first).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
mofmu="${MOFMU:-$repo/target/release/mofmu}"
# An absolute path: the commands below run in other directories.
[ -e "$mofmu" ] && mofmu="$(cd "$(dirname "$mofmu")" && pwd)/$(basename "$mofmu")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$repo/test_data/newcomer/RCCircuit.mo" "$work/RCCircuit.mo"
printf 'load = ["%s", "RCCircuit.mo"]\n' "$repo/examples/Base.mo" > "$work/mofmu-lsp.toml"
cd "$work"
timeout 60 nvim --headless -u NONE -i NONE \
  -c "let g:mofmu_cmd = '$mofmu'" \
  -c "luafile $repo/editors/nvim/mofmu.lua" \
  -c "edit RCCircuit.mo" \
  -c "luafile $repo/fmu-tests/editor_nvim.lua"
echo
if cmp -s "$work/RCCircuit.mo" "$repo/test_data/newcomer/RCCircuit.mo"; then
  echo "FAIL: the saved file is unchanged"; exit 1
fi
"$mofmu" check "$repo/examples/Base.mo" RCCircuit.mo
MOFMU_CACHE_DIR="$work/cache" "$mofmu" export "$repo/examples/Base.mo" RCCircuit.mo --model RCCircuit -o RCCircuit.fmu
test -s RCCircuit.fmu
echo "editor: Neovim fixed the newcomer's model through mofmu lsp; it checks and exports"
