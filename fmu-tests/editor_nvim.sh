#!/usr/bin/env bash
# A real editor on mofmu's language server: headless Neovim, set up as
# docs/editor.md says (an init.lua that loads editors/nvim/mofmu.lua; the
# editor's own filetype detection on), opens a copy of a newcomer's plain
# model in a workspace whose settings file has a typo, and
# fmu-tests/editor_nvim.lua checks what a user sees: the settings problem
# shown, Modelica colouring and mappings, the code actions applied and
# saved, hover by `K`, `gd` into the bundled Base library answered by the
# same server with no diagnostics there, and a buffer saved under a new
# name following it. The saved file then passes `mofmu check` and
# exports. Needs nvim (Debian's neovim, 0.7; NVIM_BIN names another, such
# as a current one) and a release build (scripts/test-all builds it first).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
mofmu="${MOFMU:-$repo/target/release/mofmu}"
nvim="${NVIM_BIN:-nvim}"
# An absolute path: the commands below run in other directories.
[ -e "$mofmu" ] && mofmu="$(cd "$(dirname "$mofmu")" && pwd)/$(basename "$mofmu")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ws" "$work/elsewhere" "$work/xdg"
cp "$repo/test_data/newcomer/RCCircuit.mo" "$work/ws/RCCircuit.mo"
# `model` for `models`: the server says so, and still reads `load`.
printf 'load = ["%s", "RCCircuit.mo"]\nmodel = ["RCCircuit"]\n' "$repo/examples/Base.mo" > "$work/ws/mofmu-lsp.toml"
# The user's init.lua, as docs/editor.md writes it, after a line that
# records what Neovim shows the user (vim.notify) for the test to read.
cat > "$work/init.lua" <<EOF
_G.shown = {}
local notify = vim.notify
vim.notify = function(message, level, opts)
  table.insert(_G.shown, message)
  return notify(message, level, opts)
end
vim.g.mofmu_cmd = "$mofmu"
dofile("$repo/editors/nvim/mofmu.lua")
EOF
cd "$work/ws"
"$nvim" --version | head -1
XDG_CONFIG_HOME="$work/xdg" XDG_DATA_HOME="$work/xdg" XDG_STATE_HOME="$work/xdg" \
  MOFMU_TEST_ELSEWHERE="$work/elsewhere" MOFMU_TEST_BASE="$repo/examples/Base.mo" \
  timeout 120 "$nvim" --headless -u "$work/init.lua" -i NONE \
  -c "edit RCCircuit.mo" \
  -c "luafile $repo/fmu-tests/editor_nvim.lua"
echo
if cmp -s "$work/ws/RCCircuit.mo" "$repo/test_data/newcomer/RCCircuit.mo"; then
  echo "FAIL: the saved file is unchanged"; exit 1
fi
"$mofmu" check "$repo/examples/Base.mo" RCCircuit.mo
MOFMU_CACHE_DIR="$work/cache" "$mofmu" export "$repo/examples/Base.mo" RCCircuit.mo --model RCCircuit -o RCCircuit.fmu
test -s RCCircuit.fmu
echo "editor: Neovim as shipped fixed, navigated and renamed the newcomer's model through mofmu lsp; it checks and exports"
