-- g? in the plugin's buffers: the keys of the buffer, each with what it does, in a floating window
-- over it (as nvim-tree and other plugin buffers answer g?). q, <Esc> or g? closes it, and so does
-- leaving it.
local buffer = require("onthemap.buffer")
local format = require("onthemap.format")

local M = {}

--- The help's lines for `buf`, at most `room` cells wide (none: as wide as they are): a title,
--- then one line per key, its description broken at spaces under itself where it is wider. With
--- `height` (the rows the help has), a title that says to scroll when the keys need more.
function M.lines(buf, room, height)
  local keys = buffer.keys[buf] or {}
  local width = 0
  for _, key in ipairs(keys) do
    width = math.max(width, format.width(key[1]))
  end
  local lines = {}
  for _, key in ipairs(keys) do
    local text = room and format.wrap(key[2], math.max(10, room - width - 2)) or { key[2] }
    for index, part in ipairs(text) do
      lines[#lines + 1] = format.pad(index == 1 and key[1] or "", width) .. "  " .. part
    end
  end
  local name = vim.api.nvim_buf_get_name(buf)
  local scrolls = height and #lines + 1 > height
  local titles = scrolls
      and { "Keys in " .. name .. " (j scrolls for more, q closes)", "Keys (j scrolls for more, q closes)", "Keys (j: more, q: close)" }
    or { "Keys in " .. name .. " (q closes)", "Keys (q closes)" }
  local title = titles[#titles]
  for _, each in ipairs(titles) do
    if not room or format.width(each) <= room then
      title = each
      break
    end
  end
  table.insert(lines, 1, title)
  return lines
end

--- Shows the keys of `buf` in a floating window over the current one; returns the window.
function M.show(buf)
  local columns, rows = vim.api.nvim_win_get_width(0), vim.api.nvim_win_get_height(0)
  local room, height = math.max(10, columns - 4), math.max(1, rows - 2)
  local lines = M.lines(buf, room, height)
  local width = 0
  for _, line in ipairs(lines) do
    width = math.max(width, format.width(line))
  end
  width = math.min(width, room)
  height = math.min(#lines, height)
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
  -- Lines are broken at spaces to fit; one still wider (a narrow window) breaks there too.
  vim.api.nvim_win_set_option(win, "linebreak", true)
  local function close()
    if vim.api.nvim_win_is_valid(win) then
      vim.api.nvim_win_close(win, true)
    end
  end
  -- j and k scroll the keys (the title says so when they do not all fit).
  vim.keymap.set("n", "j", "<C-e>", { buffer = help, nowait = true, silent = true, desc = "OnTheMap: scroll down" })
  vim.keymap.set("n", "k", "<C-y>", { buffer = help, nowait = true, silent = true, desc = "OnTheMap: scroll up" })
  for _, lhs in ipairs({ "q", "<Esc>", "g?" }) do
    vim.keymap.set("n", lhs, close, { buffer = help, nowait = true, silent = true, desc = "OnTheMap: close this help" })
  end
  vim.api.nvim_create_autocmd("WinLeave", { buffer = help, once = true, callback = close })
  return win
end

return M
