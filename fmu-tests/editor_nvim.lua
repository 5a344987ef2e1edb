-- Driven by fmu-tests/editor_nvim.sh, in the buffer of a newcomer's model
-- opened through the shipped editors/nvim/mofmu.lua: checks what a user
-- sees, step by step, and exits 0 when every step passes, 1 at the first
-- that does not.

local bufnr = vim.api.nvim_get_current_buf()
local function say(text) io.stdout:write(text .. "\n") end
local function fail(text) say("FAIL: " .. text); vim.cmd("cquit 1") end

local function mofmu_clients()
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  local out = {}
  for _, c in ipairs(all) do
    if c.name == "mofmu" then table.insert(out, c) end
  end
  return out
end

local function client_of(buf)
  for _, c in ipairs(mofmu_clients()) do
    if vim.lsp.buf_is_attached(buf, c.id) then return c end
  end
  return nil
end

local function wait_diagnostics(want_any)
  return vim.wait(20000, function()
    local n = #vim.diagnostic.get(bufnr)
    if want_any then return n > 0 end
    return n == 0
  end, 50)
end

-- Where a text is in the buffer: (row from 1, column from 0).
local function find(buf, text)
  for row, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local col = line:find(text, 1, true)
    if col then return row, col - 1 end
  end
  fail("no `" .. text .. "` in " .. vim.api.nvim_buf_get_name(buf))
end

-- 1. The buffer is Modelica, coloured, attached, with the mappings.
if not vim.wait(20000, function() return client_of(bufnr) ~= nil end, 50) then
  fail("no mofmu client attached (filetype " .. vim.bo[bufnr].filetype .. ")")
end
if vim.bo[bufnr].filetype ~= "modelica" then fail("filetype is " .. vim.bo[bufnr].filetype) end
if vim.b[bufnr].current_syntax ~= "modelica" then fail("no Modelica syntax colouring") end
if vim.bo[bufnr].omnifunc ~= "v:lua.vim.lsp.omnifunc" then fail("omnifunc is " .. vim.bo[bufnr].omnifunc) end
for _, lhs in ipairs({ "K", "gd", "gr" }) do
  local m = vim.fn.maparg(lhs, "n", false, true)
  if type(m) ~= "table" or m.buffer ~= 1 then fail("no buffer-local mapping of " .. lhs) end
end
say("modelica buffer: syntax, omnifunc and the K, gd, gr mappings")

-- 2. The settings typo is shown, not only logged.
if not vim.wait(20000, function()
  for _, m in ipairs(_G.shown) do
    if m:find("unknown key `model`: did you mean `models`?", 1, true) then return true end
  end
  return false
end, 50) then
  fail("the settings typo was not shown: " .. vim.inspect(_G.shown))
end
say("shown: settings typo")

-- 3. The newcomer's model: its diagnostics, fixed by code actions.
if not wait_diagnostics(true) then fail("no diagnostics for the plain model") end
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  say(string.format("diagnostic %s at line %d: %s", d.code or "?", d.lnum + 1, d.message:match("[^\n]*")))
end
local applied = 0
for _ = 1, 6 do
  local diags = vim.diagnostic.get(bufnr)
  if #diags == 0 then break end
  local params = vim.lsp.util.make_range_params(0, "utf-16")
  params.range = { start = { line = 0, character = 0 }, ["end"] = { line = vim.api.nvim_buf_line_count(bufnr), character = 0 } }
  params.context = { diagnostics = {} }
  local answers = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 20000) or {}
  local chosen
  for _, answer in pairs(answers) do
    for _, action in ipairs(answer.result or {}) do
      if action.kind == "quickfix" and action.isPreferred and not chosen then chosen = action end
    end
    for _, action in ipairs(answer.result or {}) do
      if action.kind == "source.fixAll" then chosen = action end
    end
  end
  if not chosen then fail("no code action for the diagnostics") end
  say("applying: " .. chosen.title)
  vim.lsp.util.apply_workspace_edit(chosen.edit, "utf-16")
  applied = applied + 1
  -- The edit is sent as a change; wait for the check of the new text.
  vim.wait(3000, function() return #vim.diagnostic.get(bufnr) == 0 end, 50)
end
if not wait_diagnostics(false) then fail("diagnostics left after " .. applied .. " code action(s)") end
vim.cmd("write")
say(string.format("clean after %d code action(s); saved", applied))

-- 4. Hover by `K` on the state in `der(v)`: a window with what the check
-- knows of it.
local row, col = find(bufnr, "der(v)")
vim.api.nvim_win_set_cursor(0, { row, col + 4 })
vim.cmd("normal K")
local hover_text
if not vim.wait(20000, function()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= "" then
      local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false)
      hover_text = table.concat(lines, "\n")
      if hover_text:find("state: yes", 1, true) then return true end
    end
  end
  return false
end, 50) then
  fail("no hover window after K: " .. tostring(hover_text))
end
say("hover by K: " .. hover_text:match("[^\n]*"))
for _, win in ipairs(vim.api.nvim_list_wins()) do
  if vim.api.nvim_win_get_config(win).relative ~= "" then vim.api.nvim_win_close(win, true) end
end

-- 5. `gd` on `ContinuousState` goes into the bundled Base library, which
-- the workspace's own server answers: no second server, no diagnostics.
local first = client_of(bufnr)
row, col = find(bufnr, "ContinuousState")
vim.api.nvim_win_set_cursor(0, { row, col + 2 })
vim.cmd("normal gd")
local base = os.getenv("MOFMU_TEST_BASE")
if not vim.wait(20000, function()
  return vim.api.nvim_buf_get_name(0) == base
end, 50) then
  fail("gd did not reach " .. base .. " (at " .. vim.api.nvim_buf_get_name(0) .. ")")
end
local base_buf = vim.api.nvim_get_current_buf()
local line = vim.api.nvim_get_current_line()
if not line:find("ContinuousState", 1, true) then fail("gd landed on: " .. line) end
if not vim.wait(20000, function() return client_of(base_buf) ~= nil end, 50) then
  fail("Base.mo is not attached to a mofmu server")
end
-- A request after the open is answered once the server has checked it.
vim.lsp.buf_request_sync(base_buf, "textDocument/documentSymbol",
  { textDocument = { uri = vim.uri_from_bufnr(base_buf) } }, 20000)
vim.wait(500, function() return false end, 50)
if #mofmu_clients() ~= 1 then fail(#mofmu_clients() .. " mofmu servers run after gd") end
if client_of(base_buf).id ~= first.id then fail("Base.mo went to another server") end
local everywhere = vim.diagnostic.get()
if #everywhere ~= 0 then
  fail("diagnostics after gd: " .. vim.inspect(everywhere[1].message))
end
say("gd: " .. vim.fn.fnamemodify(base, ":t") .. ":" .. vim.api.nvim_win_get_cursor(0)[1] .. " by the same server, no diagnostics")
local info = vim.api.nvim_exec("MofmuInfo", true)
if not info:find("workspace", 1, true) then fail(":MofmuInfo says " .. info) end

-- 6. The model saved under a name outside the workspace follows its new
-- path: the workspace's server lets it go, the new directory's takes it.
vim.cmd("buffer " .. bufnr)
local elsewhere = os.getenv("MOFMU_TEST_ELSEWHERE")
vim.cmd("saveas " .. elsewhere .. "/RCCopy.mo")
if not vim.wait(20000, function()
  local c = client_of(bufnr)
  return c ~= nil and c.id ~= first.id
end, 50) then
  fail("the renamed buffer stayed with its old server")
end
if vim.lsp.buf_is_attached(bufnr, first.id) then fail("the old server still has the renamed buffer") end
say("saveas: the buffer follows its new path to " .. client_of(bufnr).config.root_dir)
vim.cmd("qall!")
