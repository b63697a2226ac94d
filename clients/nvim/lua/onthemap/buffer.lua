-- The plugin's scratch buffers (students list, map): created or reused by name, read-only, with
-- <CR>, r, q and g? mapped, and the keys a buffer adds (a list's y, p, s, gn, m). What each line
-- stands for is kept here, per buffer.
local format = require("onthemap.format")

local M = {}

--- Per buffer: the keys mapped in it, in the order mapped, as { lhs, desc } (what g? lists).
M.keys = {}

--- Per buffer: { on_enter = function(item), reload = function(), items = { [line] = item },
--- created_window = bool, previous = bufnr, generation = number }.
M.state = {}

local function find(name)
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_valid(buf) and vim.api.nvim_buf_get_name(buf) == name then
      return buf
    end
  end
end

local function window_showing(buf)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(win) == buf then
      return win
    end
  end
end

--- Closes the buffer's window if the plugin opened it, else goes back to the previous buffer.
function M.close(buf)
  local state = M.state[buf] or {}
  local win = window_showing(buf)
  if win and state.created_window and #vim.api.nvim_tabpage_list_wins(0) > 1 then
    vim.api.nvim_win_close(win, true)
  elseif win and state.previous and vim.api.nvim_buf_is_valid(state.previous) then
    vim.api.nvim_win_set_buf(win, state.previous)
  end
  if vim.api.nvim_buf_is_valid(buf) then
    vim.api.nvim_buf_delete(buf, { force = true })
  end
end

--- The item (student, pin) shown on the cursor's line, if any.
function M.item_under_cursor(buf)
  local state = M.state[buf]
  if not state then
    return nil
  end
  return state.items[vim.api.nvim_win_get_cursor(0)[1]]
end

--- Shows the buffer called `name` (creating it if needed) and returns it. `handlers.reload()` is
--- bound to r, `handlers.on_enter(item)` to <CR>; `handlers.keys(buf)`, when given, maps the
--- buffer's own keys (with M.map), listed by g? after <CR>.
function M.show(name, handlers)
  local buf = find(name)
  local previous = vim.api.nvim_get_current_buf()
  local win = buf and window_showing(buf)
  local created_window = false
  if win then
    vim.api.nvim_set_current_win(win)
  else
    if not buf then
      buf = vim.api.nvim_create_buf(false, true)
      vim.api.nvim_buf_set_name(buf, name)
      vim.api.nvim_buf_set_option(buf, "buftype", "nofile")
      -- Kept while hidden, so <C-o> and :b# come back to it as it was; q wipes it.
      vim.api.nvim_buf_set_option(buf, "bufhidden", "hide")
      vim.api.nvim_buf_set_option(buf, "swapfile", false)
      vim.api.nvim_buf_set_option(buf, "modifiable", false)
      M.map_keys(buf, handlers.keys)
      vim.api.nvim_create_autocmd("BufWipeout", {
        buffer = buf,
        callback = function()
          M.state[buf] = nil
          M.keys[buf] = nil
        end,
      })
    end
    -- A buffer with unsaved changes stays on screen: the list opens in a split above it.
    if vim.bo.modified and not vim.o.hidden then
      vim.cmd("aboveleft split")
      created_window = true
    end
    vim.api.nvim_win_set_buf(0, buf)
    vim.cmd("setlocal nowrap cursorline nonumber norelativenumber nolist")
  end
  local state = M.state[buf] or { items = {}, generation = 0 }
  state.reload = handlers.reload
  state.on_enter = handlers.on_enter
  if previous ~= buf then
    state.previous = previous
    state.created_window = created_window
  end
  M.state[buf] = state
  vim.api.nvim_buf_set_option(buf, "filetype", "onthemap")
  return buf
end

--- Maps `lhs` (normal mode) in `buf` to `fn`; `desc` is what g? says of it. Mapped again, a key
--- keeps its place in g?'s list and takes the new description.
function M.map(buf, lhs, fn, desc)
  vim.keymap.set("n", lhs, fn, { buffer = buf, nowait = true, silent = true, desc = "OnTheMap: " .. desc })
  local keys = M.keys[buf] or {}
  M.keys[buf] = keys
  for _, key in ipairs(keys) do
    if key[1] == lhs then
      key[2] = desc
      return
    end
  end
  keys[#keys + 1] = { lhs, desc }
end

--- Maps <CR>, r, q and g? in `buf`; `more(buf)`, when given, maps the buffer's own keys after <CR>
--- (g? lists them in that order: what acts on the line first, closing and help last).
function M.map_keys(buf, more)
  M.map(buf, "<CR>", function()
    local state = M.state[buf]
    local item = M.item_under_cursor(buf)
    if state and item and state.on_enter then
      state.on_enter(item)
    elseif state and state.on_enter then
      require("onthemap.notify").show("OnTheMap: no student on this line", vim.log.levels.INFO)
    end
  end, "open the link on this line")
  if more then
    more(buf)
  end
  M.map(buf, "r", function()
    local state = M.state[buf]
    if state and state.reload then
      state.reload()
    end
  end, "fetch again (the daemon asks the API)")
  M.map(buf, "q", function()
    M.close(buf)
  end, "close this buffer")
  M.map(buf, "g?", function()
    require("onthemap.help").show(buf)
  end, "this list of keys")
end

--- `lines` as they may be shown: each made safe (format.clean; a no-op on text cleaned already,
--- so the byte columns of highlights computed on it hold).
local function safe(lines)
  local shown = {}
  for index, line in ipairs(lines) do
    shown[index] = format.clean(line)
  end
  return shown
end

--- Replaces the buffer's text. `items[line]` is what <CR> acts on for that line; `highlights` is a
--- list of {group, line, col_start, col_end} (0-based line, byte columns, -1 to the end).
function M.set(buf, lines, items, highlights, namespace)
  if not vim.api.nvim_buf_is_valid(buf) then
    return
  end
  lines = safe(lines)
  vim.api.nvim_buf_set_option(buf, "modifiable", true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.api.nvim_buf_set_option(buf, "modifiable", false)
  vim.api.nvim_buf_set_option(buf, "modified", false)
  local state = M.state[buf]
  if state then
    state.items = items or {}
    state.generation = state.generation + 1
  end
  vim.api.nvim_buf_clear_namespace(buf, namespace, 0, -1)
  for _, hl in ipairs(highlights or {}) do
    vim.api.nvim_buf_add_highlight(buf, namespace, hl[1], hl[2], hl[3], hl[4])
  end
end

--- What a student (a list's row, a map's pin) is known by from one drawing to the next: its pin's
--- id (a moved pin keeps it).
local function key_of(student)
  return type(student) == "table" and (student.objectId or student.uniqueKey) or nil
end

--- Where each window showing `buf` has its cursor, on which student: { win, key, line, view }
--- (a window whose cursor is on no student is left out).
function M.cursors(buf)
  local kept = {}
  local state = M.state[buf]
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    local line = vim.api.nvim_win_get_cursor(win)[1]
    local key = key_of(state and state.items[line])
    if key then
      kept[#kept + 1] = { win = win, key = key, line = line, view = vim.api.nvim_win_call(win, vim.fn.winsaveview) }
    end
  end
  return kept
end

--- Puts each cursor of `kept` (from `cursors`) back on its student, wherever the buffer has it
--- now, at the same height in its window; the current window stays the current one.
function M.restore_cursors(buf, kept)
  local state = M.state[buf]
  for _, cursor in ipairs(kept) do
    if vim.api.nvim_win_is_valid(cursor.win) and vim.api.nvim_win_get_buf(cursor.win) == buf then
      for line, item in pairs(state and state.items or {}) do
        if key_of(item) == cursor.key then
          local view = cursor.view
          view.topline = math.max(1, view.topline + line - cursor.line)
          view.lnum = line
          vim.api.nvim_win_call(cursor.win, function()
            vim.fn.winrestview(view)
          end)
          break
        end
      end
    end
  end
end

--- Shows `message` ("OnTheMap: …") in place of the buffer's text, broken at spaces to the
--- window's width, so that all of it is on screen (what to do, after the first words, included),
--- then a blank line and `keys` (what the keys do now). Nothing in it to open.
function M.set_problem(buf, message, keys, namespace)
  local lines = format.wrap(message, M.room(buf))
  local highlights = {}
  for index = 1, #lines do
    highlights[index] = { "ErrorMsg", index - 1, 0, -1 }
  end
  vim.list_extend(lines, { "", keys })
  M.set(buf, lines, {}, highlights, namespace)
end

--- Replaces one line (0-based) of the buffer's text, highlighted with `group`, when it differs:
--- the same text with a detail brought up to date, so what <CR> acts on and the generation stay.
function M.set_line(buf, line, text, group, namespace)
  text = format.clean(text)
  if not vim.api.nvim_buf_is_valid(buf) or vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1] == text then
    return
  end
  vim.api.nvim_buf_set_option(buf, "modifiable", true)
  vim.api.nvim_buf_set_lines(buf, line, line + 1, false, { text })
  vim.api.nvim_buf_set_option(buf, "modifiable", false)
  vim.api.nvim_buf_set_option(buf, "modified", false)
  vim.api.nvim_buf_clear_namespace(buf, namespace, line, line + 1)
  vim.api.nvim_buf_add_highlight(buf, namespace, group, line, 0, -1)
end

--- The display cells a line of `buf` has: the text width of the narrowest window showing it (the
--- editor's width while none does).
function M.room(buf)
  local room
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    local info = vim.fn.getwininfo(win)[1]
    local width = info.width - info.textoff
    room = room and math.min(room, width) or width
  end
  return room or vim.o.columns
end

--- How many times the buffer's text was set: tests wait for it to move.
function M.generation(buf)
  return M.state[buf] and M.state[buf].generation or 0
end

return M
