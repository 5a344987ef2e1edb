-- Driven by fmu-tests/editor_nvim.sh: in the buffer of a newcomer's model,
-- wait for mofmu's diagnostics, apply its code actions (the quick fixes,
-- then "Fix all in file") until none are left, save and quit. Exit status
-- 0 when the buffer ends clean, 1 otherwise.

local bufnr = vim.api.nvim_get_current_buf()
local function say(text) io.stdout:write(text .. "\n") end
local function fail(text) say("FAIL: " .. text); vim.cmd("cquit 1") end

local function client()
  return vim.lsp.get_active_clients()[1]
end

local function wait_diagnostics(want_any)
  return vim.wait(20000, function()
    local n = #vim.diagnostic.get(bufnr)
    if want_any then return n > 0 end
    return n == 0
  end, 50)
end

if not vim.wait(20000, function() return client() ~= nil end, 50) then
  fail("no mofmu client attached")
end
if not wait_diagnostics(true) then fail("no diagnostics for the plain model") end
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  say(string.format("diagnostic %s at line %d: %s", d.code or "?", d.lnum + 1, d.message:match("[^\n]*")))
end

local applied = 0
for round = 1, 6 do
  local diags = vim.diagnostic.get(bufnr)
  if #diags == 0 then break end
  local params = vim.lsp.util.make_range_params()
  params.range = { start = { line = 0, character = 0 }, ["end"] = { line = vim.api.nvim_buf_line_count(bufnr), character = 0 } }
  params.context = { diagnostics = {} }
  local answers = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 20000) or {}
  local chosen
  for _, answer in pairs(answers) do
    for _, action in ipairs(answer.result or {}) do
      if action.kind == "quickfix" and not chosen then chosen = action end
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
vim.cmd("qall!")
