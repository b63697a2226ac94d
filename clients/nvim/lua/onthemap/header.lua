-- A list's first lines (its summary and column titles) kept on screen while it scrolls. Neovim 0.7
-- has no 'winbar', so, as nvim-treesitter-context does there, a floating window without focus
-- covers the top of each window showing the list, once those lines have scrolled out, and shows
-- them again (following a horizontal scroll). Within the list window 'scrolloff' keeps the cursor
-- below it.
local M = {}

-- Per list buffer: how many of its first lines are the header (0: none now), and the namespace of
-- their highlights. Main loop only.
local counts = {}
local namespaces = {}
-- Per window showing a list: { float = window, buf = the float's buffer, of = the list buffer }.
local floats = {}
local group

local function close(win)
  local float = floats[win]
  floats[win] = nil
  if float and vim.api.nvim_win_is_valid(float.float) then
    vim.api.nvim_win_close(float.float, true)
  end
end

--- The float over `win` (a window showing `buf`) made current: opened, moved or closed as the
--- window's first line, width and horizontal scroll ask.
local function place(win, buf)
  local count = counts[buf] or 0
  local view = vim.api.nvim_win_call(win, vim.fn.winsaveview)
  local width = vim.api.nvim_win_get_width(win)
  if count == 0 or view.topline <= 1 or vim.api.nvim_win_get_height(win) <= count + 1 then
    close(win)
    return
  end
  local float = floats[win]
  if float and float.of ~= buf then
    close(win)
    float = nil
  end
  if not float then
    local header = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_option(header, "bufhidden", "wipe")
    local handle = vim.api.nvim_open_win(header, false, {
      relative = "win",
      win = win,
      row = 0,
      col = 0,
      width = width,
      height = count,
      focusable = false,
      style = "minimal",
      zindex = 40,
    })
    vim.api.nvim_win_set_option(handle, "winhighlight", "NormalFloat:Normal")
    vim.api.nvim_win_set_option(handle, "wrap", false)
    float = { float = handle, buf = header, of = buf }
    floats[win] = float
  else
    vim.api.nvim_win_set_config(float.float, { relative = "win", win = win, row = 0, col = 0, width = width, height = count })
  end
  -- The list's own lines and highlights, copied.
  local lines = vim.api.nvim_buf_get_lines(buf, 0, count, false)
  vim.api.nvim_buf_set_lines(float.buf, 0, -1, false, lines)
  vim.api.nvim_buf_clear_namespace(float.buf, -1, 0, -1)
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, namespaces[buf], { 0, 0 }, { count - 1, -1 }, { details = true })) do
    local details = mark[4]
    if details.hl_group then
      vim.api.nvim_buf_add_highlight(float.buf, -1, details.hl_group, mark[2], mark[3], details.end_col or -1)
    end
  end
  vim.api.nvim_win_call(float.float, function()
    vim.fn.winrestview({ topline = 1, lnum = 1, leftcol = view.leftcol })
  end)
end

--- Brings every float up to date: one per window of this tab showing a list scrolled down.
function M.refresh()
  for win in pairs(floats) do
    if not vim.api.nvim_win_is_valid(win) or not counts[vim.api.nvim_win_get_buf(win)] then
      close(win)
    end
  end
  for win, float in pairs(floats) do
    if vim.api.nvim_win_get_tabpage(win) ~= vim.api.nvim_get_current_tabpage() then
      close(win)
    elseif float.of ~= vim.api.nvim_win_get_buf(win) then
      close(win)
    end
  end
  -- The list is taken before any float is closed: a float it names may be gone by its turn (a
  -- logout empties a scrolled list, and placing its window closes the float over it).
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_is_valid(win) and vim.api.nvim_win_get_config(win).relative == "" then
      local buf = vim.api.nvim_win_get_buf(win)
      if counts[buf] then
        place(win, buf)
      end
    end
  end
end

local scheduled = false
local function refresh_soon()
  if not scheduled then
    scheduled = true
    vim.schedule(function()
      scheduled = false
      M.refresh()
    end)
  end
end

--- Keeps the first `count` lines of `buf` on screen from now on (0: none, as while it shows an
--- error), with their highlights of `namespace`. Sets 'scrolloff' where `buf` is shown.
function M.keep(buf, count, namespace)
  if not group then
    group = vim.api.nvim_create_augroup("OnTheMapHeader", { clear = true })
    vim.api.nvim_create_autocmd(
      { "WinScrolled", "CursorMoved", "BufWinEnter", "BufWinLeave", "WinClosed", "WinEnter", "TabEnter", "VimResized" },
      { group = group, callback = refresh_soon }
    )
  end
  if counts[buf] == nil then
    vim.api.nvim_create_autocmd("BufWipeout", {
      buffer = buf,
      once = true,
      callback = function()
        counts[buf], namespaces[buf] = nil, nil
        refresh_soon()
      end,
    })
  end
  counts[buf], namespaces[buf] = count, namespace
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    vim.api.nvim_win_call(win, function()
      vim.opt_local.scrolloff = count
    end)
  end
  refresh_soon()
end

--- The float showing the header over `win`, if any (for tests and :checkhealth-like looks).
function M.float_of(win)
  return floats[win] and floats[win].float
end

return M
