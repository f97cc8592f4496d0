-- cici for Neovim: the filetype and the language server `cici lsp`.
-- Copy this file to ~/.config/nvim/plugin/cici.lua (or `dofile` it from
-- init.lua). Works on Neovim 0.7 and later. The filetype is registered in
-- any case; the language server needs `cici` on PATH (`cargo install
-- --path .` in the cici repository puts it in ~/.cargo/bin).

-- The filetype. `vim.filetype.add` only takes effect from 0.8 (0.7 needs
-- `do_filetype_lua`), so an autocommand covers the older versions too.
if vim.fn.has("nvim-0.8") == 1 then
  vim.filetype.add({ extension = { cici = "cici" } })
else
  vim.cmd([[autocmd BufRead,BufNewFile *.cici setfiletype cici]])
end

if vim.fn.executable("cici") ~= 1 then
  vim.api.nvim_create_autocmd("FileType", {
    pattern = "cici",
    callback = function(args)
      vim.bo[args.buf].commentstring = "# %s"
    end,
  })
  vim.schedule(function()
    vim.notify("cici: `cici` is not on PATH, so no language server; install it with `cargo install --path .`", vim.log.levels.WARN)
  end)
  return
end

-- 0.7 to 0.10: one client, attached to every cici buffer.
local client_id
local function attach(buf)
  local config = { name = "cici", cmd = { "cici", "lsp" }, root_dir = vim.fn.getcwd() }
  if vim.lsp.start then -- 0.8+
    vim.lsp.start(config, { bufnr = buf })
    return
  end
  if not client_id or vim.lsp.client_is_stopped(client_id) then
    client_id = vim.lsp.start_client(config)
  end
  if client_id then
    vim.lsp.buf_attach_client(buf, client_id)
  end
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = "cici",
  callback = function(args)
    vim.bo[args.buf].commentstring = "# %s"
    if not (vim.lsp.config and vim.lsp.enable) then
      attach(args.buf)
    end
  end,
})

-- 0.11+: the built-in configuration.
if vim.lsp.config and vim.lsp.enable then
  vim.lsp.config("cici", { cmd = { "cici", "lsp" }, filetypes = { "cici" } })
  vim.lsp.enable("cici")
end
