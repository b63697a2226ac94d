-- g? in the plugin's buffers: the keys of the buffer, each with what it does, in a floating window
-- over it (as nvim-tree and other plugin buffers answer g?). q, <Esc> or g? closes it, and so does
-- leaving it.
local buffer = require("onthemap.buffer")
local format = require("onthemap.format")

local M = {}

--- The help's lines for `buf`: a title, then one line per key.
function M.lines(buf)
  local keys = buffer.keys[buf] or {}
  local width = 0
  for _, key in ipairs(keys) do
    width = math.max(width, format.width(key[1]))
  end
  local lines = { "Keys in " .. vim.api.nvim_buf_get_name(buf) .. " (q closes)" }
  for _, key in ipairs(keys) do
    lines[#lines + 1] = format.pad(key[1], width) .. "  " .. key[2]
  end
  return lines
end

--- Shows the keys of `buf` in a floating window over the current one; returns the window.
function M.show(buf)
  local lines = M.lines(buf)
  local width = 0
  for _, line in ipairs(lines) do
    width = math.max(width, format.width(line))
  end
  local columns, rows = vim.api.nvim_win_get_width(0), vim.api.nvim_win_get_height(0)
  width = math.min(width, math.max(10, columns - 4))
  local height = math.min(#lines, math.max(1, rows - 2))
  local help = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(help, 0, -1, false, lines)
  vim.api.nvim_buf_set_option(help, "modifiable", false)
  vim.api.nvim_buf_set_option(help, "bufhidden", "wipe")
  vim.api.nvim_buf_add_highlight(help, -1, "Title", 0, 0, -1)
  local win = vim.api.nvim_open_win(help, true, {
    relative = "win",
    row = math.max(0, math.floor((rows - height) / 2) - 1),
    col = math.max(0, math.floor((columns - width) / 2) - 1),
    width = width,
    height = height,
    style = "minimal",
    border = "rounded",
  })
  local function close()
    if vim.api.nvim_win_is_valid(win) then
      vim.api.nvim_win_close(win, true)
    end
  end
  for _, lhs in ipairs({ "q", "<Esc>", "g?" }) do
    vim.keymap.set("n", lhs, close, { buffer = help, nowait = true, silent = true, desc = "OnTheMap: close this help" })
  end
  vim.api.nvim_create_autocmd("WinLeave", { buffer = help, once = true, callback = close })
  return win
end

return M
