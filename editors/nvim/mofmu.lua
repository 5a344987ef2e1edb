-- mofmu's language server in Neovim's built-in LSP client (Neovim 0.7 or
-- later). Load it from your init.lua:
--
--   dofile("/path/to/mofmu/editors/nvim/mofmu.lua")
--
-- Every `*.mo` buffer is attached to one `mofmu lsp` per workspace: the
-- nearest directory above the file that holds mofmu-lsp.toml (else the
-- file's own directory). Set vim.g.mofmu_cmd to run another binary.

vim.filetype = vim.filetype or {}
vim.cmd([[autocmd BufRead,BufNewFile *.mo setlocal filetype=modelica]])

local clients = {}

local function root_of(file)
  local dir = vim.fn.fnamemodify(file, ":p:h")
  while dir and dir ~= "/" do
    if vim.fn.filereadable(dir .. "/mofmu-lsp.toml") == 1 then
      return dir
    end
    dir = vim.fn.fnamemodify(dir, ":h")
  end
  return vim.fn.fnamemodify(file, ":p:h")
end

local function attach(bufnr)
  local root = root_of(vim.api.nvim_buf_get_name(bufnr))
  local id = clients[root]
  if not id then
    id = vim.lsp.start_client({
      name = "mofmu",
      cmd = { vim.g.mofmu_cmd or "mofmu", "lsp" },
      root_dir = root,
      workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    })
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = "modelica",
  callback = function(args) attach(args.buf) end,
})
