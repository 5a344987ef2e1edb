-- mofmu's language server in Neovim's built-in LSP client, for Neovim 0.7
-- (Debian's) and later, with nothing else installed (no nvim-lspconfig).
-- Load it from your init.lua (docs/editor.md says where that file is):
--
--   vim.g.mofmu_cmd = "/path/to/mofmu"   -- optional: else `mofmu` on PATH
--   dofile("/path/to/mofmu/editors/nvim/mofmu.lua")
--
-- What it does:
-- * `*.mo` files are Modelica (not Neovim's default `gdmo`), coloured by
--   syntax/modelica.vim beside this file, and by the server's semantic
--   tokens on Neovim 0.9 and later.
-- * Every Modelica buffer attaches to one `mofmu lsp` per workspace: the
--   nearest directory above the file that holds mofmu-lsp.toml (else the
--   file's own directory). A file that a running server's library holds
--   (a bundled library you reached with `gd`) attaches to that server, not
--   to a second one. A buffer saved under another name (`:saveas`) follows
--   its new path.
-- * Buffer-local mappings (unless vim.g.mofmu_no_mappings is set): `K`
--   hover, `gd` definition, `gr` references, `<leader>rn` rename,
--   `<leader>ca` code action, `[d` / `]d` previous / next diagnostic,
--   `<C-s>` in insert mode signature help; completion with `<C-x><C-o>`
--   (the buffer's 'omnifunc').
-- * `:MofmuInfo` shows the servers, their workspaces and files (as
--   nvim-lspconfig's `:LspInfo` would); `:MofmuExport [Model]` exports a
--   model (the one under the cursor's lens by default) into the workspace.

local here = debug.getinfo(1, "S").source:sub(2):match("(.*)/") or "."
vim.opt.runtimepath:append(here)

local api = vim.api
local lsp = vim.lsp

-- One client per workspace root, and the library files each server said
-- it loaded (the `mofmu/libraryFiles` notification).
local clients = {}
local owned = {}

local function get_clients()
  if lsp.get_clients then
    return lsp.get_clients({ name = "mofmu" })
  end
  local out = {}
  for _, c in ipairs(lsp.get_active_clients()) do
    if c.name == "mofmu" then
      table.insert(out, c)
    end
  end
  return out
end

local function root_of(file)
  local dir = vim.fn.fnamemodify(file, ":p:h")
  while dir and dir ~= "/" and dir ~= "" do
    if vim.fn.filereadable(dir .. "/mofmu-lsp.toml") == 1 then
      return dir
    end
    local up = vim.fn.fnamemodify(dir, ":h")
    if up == dir then
      break
    end
    dir = up
  end
  return vim.fn.fnamemodify(file, ":p:h")
end

-- The running server whose library holds `file`, if any.
local function owner_of(file)
  for id, files in pairs(owned) do
    if files[file] and lsp.get_client_by_id(id) then
      return id
    end
  end
  return nil
end

local function map(bufnr, mode, lhs, rhs, desc)
  local opts = { buffer = bufnr, silent = true, desc = desc }
  if vim.keymap and vim.keymap.set then
    vim.keymap.set(mode, lhs, rhs, opts)
  end
end

local function on_attach(_, bufnr)
  vim.bo[bufnr].omnifunc = "v:lua.vim.lsp.omnifunc"
  if vim.g.mofmu_no_mappings then
    return
  end
  map(bufnr, "n", "K", lsp.buf.hover, "mofmu: hover")
  map(bufnr, "n", "gd", lsp.buf.definition, "mofmu: go to definition")
  map(bufnr, "n", "gr", lsp.buf.references, "mofmu: references")
  map(bufnr, "n", "<leader>rn", lsp.buf.rename, "mofmu: rename")
  map(bufnr, "n", "<leader>ca", lsp.buf.code_action, "mofmu: code action")
  local jump = function(count)
    return function()
      if vim.diagnostic.jump then
        vim.diagnostic.jump({ count = count, float = true })
      elseif count < 0 then
        vim.diagnostic.goto_prev()
      else
        vim.diagnostic.goto_next()
      end
    end
  end
  map(bufnr, "n", "[d", jump(-1), "previous diagnostic")
  map(bufnr, "n", "]d", jump(1), "next diagnostic")
  map(bufnr, "i", "<C-s>", lsp.buf.signature_help, "mofmu: signature help")
end

local levels = { vim.log.levels.ERROR, vim.log.levels.WARN, vim.log.levels.INFO, vim.log.levels.DEBUG }

local handlers = {
  -- What the server must tell (a settings file it cannot read as written,
  -- an export's outcome) as a notification that stays in :messages.
  ["window/showMessage"] = function(_, result)
    vim.notify("mofmu: " .. result.message, levels[result.type] or vim.log.levels.INFO)
    return vim.NIL
  end,
  ["mofmu/libraryFiles"] = function(_, result, ctx)
    local files = {}
    for _, f in ipairs((result or {}).files or {}) do
      files[f] = true
    end
    owned[ctx.client_id] = files
  end,
}

-- Starts (or finds) the client of workspace `root` and attaches `bufnr`:
-- `vim.lsp.start` where there is one (0.8 and later; `start_client` is
-- deprecated there), `start_client` and `buf_attach_client` on 0.7.
local function start(root, bufnr)
  local config = {
    name = "mofmu",
    cmd = { vim.g.mofmu_cmd or "mofmu", "lsp" },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    handlers = handlers,
    on_attach = on_attach,
  }
  if lsp.start then
    return lsp.start(config, {
      bufnr = bufnr,
      reuse_client = function(client, conf)
        return client.name == "mofmu" and client.config.root_dir == conf.root_dir
      end,
    })
  end
  local id = lsp.start_client(config)
  if id then
    lsp.buf_attach_client(bufnr, id)
  end
  return id
end

local function attach(bufnr)
  local name = api.nvim_buf_get_name(bufnr)
  if name == "" then
    return
  end
  local file = vim.fn.fnamemodify(name, ":p")
  local id = owner_of(file)
  if id then
    if not lsp.buf_is_attached(bufnr, id) then
      lsp.buf_attach_client(bufnr, id)
    end
    return
  end
  local root = root_of(file)
  id = clients[root]
  if id and lsp.get_client_by_id(id) then
    if not lsp.buf_is_attached(bufnr, id) then
      lsp.buf_attach_client(bufnr, id)
    end
  else
    clients[root] = start(root, bufnr)
  end
end

local function detach(bufnr)
  for _, c in ipairs(get_clients()) do
    if lsp.buf_is_attached(bufnr, c.id) then
      lsp.buf_detach_client(bufnr, c.id)
    end
  end
end

local group = api.nvim_create_augroup("mofmu", { clear = true })
-- Neovim's own detection calls `*.mo` gdmo (GDMO) or leaves it unknown;
-- these set Modelica whichever runs first.
if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { mo = "modelica" } })
end
api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  group = group,
  pattern = "*.mo",
  callback = function(args)
    if vim.bo[args.buf].filetype ~= "modelica" then
      vim.bo[args.buf].filetype = "modelica"
    end
  end,
})
api.nvim_create_autocmd("FileType", {
  group = group,
  pattern = "gdmo",
  callback = function(args)
    if api.nvim_buf_get_name(args.buf):match("%.mo$") then
      vim.bo[args.buf].filetype = "modelica"
    end
  end,
})
api.nvim_create_autocmd("FileType", {
  group = group,
  pattern = "modelica",
  callback = function(args)
    attach(args.buf)
  end,
})
-- `:saveas` and `:file` rename the buffer: leave the old workspace's
-- server first (it closes the old name), then join the new path's.
api.nvim_create_autocmd("BufFilePre", {
  group = group,
  callback = function(args)
    if vim.bo[args.buf].filetype == "modelica" then
      detach(args.buf)
    end
  end,
})
api.nvim_create_autocmd("BufFilePost", {
  group = group,
  callback = function(args)
    if vim.bo[args.buf].filetype == "modelica" then
      attach(args.buf)
    end
  end,
})

api.nvim_create_user_command("MofmuInfo", function()
  local lines = {}
  local cs = get_clients()
  if #cs == 0 then
    table.insert(lines, "mofmu: no server is running (open a .mo file)")
  end
  for _, c in ipairs(cs) do
    local n = 0
    for _ in pairs(owned[c.id] or {}) do
      n = n + 1
    end
    local buffers = {}
    for b, _ in pairs(c.attached_buffers or {}) do
      table.insert(buffers, vim.fn.fnamemodify(api.nvim_buf_get_name(b), ":~:."))
    end
    table.insert(lines, string.format("mofmu client %d: workspace %s", c.id, c.config.root_dir or "?"))
    table.insert(lines, "  command: " .. table.concat(c.config.cmd or {}, " "))
    table.insert(lines, string.format("  library: %d file(s); open here: %s", n, table.concat(buffers, ", ")))
  end
  print(table.concat(lines, "\n"))
end, { desc = "mofmu: the language servers and their workspaces" })

api.nvim_create_user_command("MofmuExport", function(opts)
  local model = opts.args
  local bufnr = api.nvim_get_current_buf()
  if model == "" then
    -- The model whose lens is nearest above the cursor.
    local line = api.nvim_win_get_cursor(0)[1] - 1
    local answers = lsp.buf_request_sync(bufnr, "textDocument/codeLens",
      { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, 10000) or {}
    for _, answer in pairs(answers) do
      for _, lens in ipairs(answer.result or {}) do
        if lens.range.start.line <= line and lens.command then
          model = lens.command.arguments[1]
        end
      end
    end
  end
  if model == "" then
    vim.notify("mofmu: no model here; give one, :MofmuExport Package.Model", vim.log.levels.WARN)
    return
  end
  lsp.buf_request(bufnr, "workspace/executeCommand",
    { command = "mofmu.exportModel", arguments = { model } }, function() end)
end, { nargs = "?", desc = "mofmu: export a model as an FMU into the workspace" })
