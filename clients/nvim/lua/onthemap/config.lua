-- Options of onthemap.nvim, set with require("onthemap").setup({...}).
local M = {}

M.defaults = {
  -- The daemon's socket: a path, or a function returning one. nil follows the CLI's rule:
  -- $ONTHEMAP_SOCKET, then $XDG_RUNTIME_DIR/onthemap/onthemapd.sock, then /tmp/onthemap-$UID/onthemapd.sock.
  socket = nil,
  -- A request with no answer after this many milliseconds fails with a message (the editor never
  -- waits for it: every request is asynchronous).
  timeout_ms = 20000,
  -- How many students the list shows.
  limit = 100,
  -- The list's first line says how long ago the daemon refreshed it ("refreshed 3 min ago"): one
  -- timer brings that up to date this often while a list is open. 0 or false: never.
  header_update_ms = 30000,
  -- Opens a link: a function(url). nil uses vim.ui.open (Neovim 0.10+), else xdg-open.
  opener = nil,
  -- The `onthemap` CLI: when the daemon cannot be reached, `onthemap status` says how to start it
  -- on this machine, and that is the advice shown.
  cli = "onthemap",
  -- The default account for :OnTheMapLogin (it still asks, with this filled in).
  username = nil,
  -- The statusline subscription waits this long before reconnecting, doubling up to 30 s.
  reconnect_ms = 1000,
  -- Prefix of require("onthemap").statusline().
  icon = "📍",
}

M.options = vim.deepcopy(M.defaults)

--- Merges `opts` over the defaults.
function M.setup(opts)
  M.options = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), opts or {})
end

return M
