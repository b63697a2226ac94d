-- `:OnTheMap map`: the daemon draws the map (`map` method: rows, styles, pins, view); this module
-- only paints it, one highlight group per style code, and lists the pins in view under it.
local buffer = require("onthemap.buffer")
local format = require("onthemap.format")
local open = require("onthemap.open")
local rpc = require("onthemap.rpc")

local M = {}

M.namespace = vim.api.nvim_create_namespace("onthemap_map")

--- Style code (one per cell in `styles`) → highlight group. Water gets none: it is the background.
M.groups = {
  l = "OnTheMapLand",
  b = "OnTheMapCoast",
  p = "OnTheMapPin",
  m = "OnTheMapMyPin",
  c = "OnTheMapCluster",
}

--- Defines the highlight groups as links to standard ones, unless the user set them.
function M.define_highlights()
  local links = {
    OnTheMapLand = "String",
    OnTheMapCoast = "Directory",
    OnTheMapPin = "WarningMsg",
    OnTheMapMyPin = "ErrorMsg",
    OnTheMapCluster = "Todo",
  }
  for group, target in pairs(links) do
    vim.api.nvim_set_hl(0, group, { link = target, default = true })
  end
end

--- The message shown when the daemon has no `map` method yet (an onthemapd older than the map).
M.no_map_method = "this onthemapd cannot draw maps yet (it has no `map` method): update onthemapd, then try again."

--- Highlights for one map row: runs of equal style codes merged, in byte columns of `row`.
function M.row_highlights(line, row, styles)
  local highlights = {}
  local byte, cell = 0, 0
  local run_group, run_start
  for char in row:gmatch("[%z\1-\127\194-\244][\128-\191]*") do
    cell = cell + 1
    local group = M.groups[styles:sub(cell, cell)]
    if group ~= run_group then
      if run_group then
        highlights[#highlights + 1] = { run_group, line, run_start, byte }
      end
      run_group, run_start = group, byte
    end
    byte = byte + #char
  end
  if run_group then
    highlights[#highlights + 1] = { run_group, line, run_start, byte }
  end
  return highlights
end

--- Paints a `map` result into `buf`: the rows, coloured by `styles`, then the pins in view.
function M.render(buf, result)
  local lines, highlights, items = {}, {}, {}
  local rows, styles = result.rows or {}, result.styles or {}
  for index, row in ipairs(rows) do
    local text = format.clean(row)
    lines[index] = text
    vim.list_extend(highlights, M.row_highlights(index - 1, text, styles[index] or ""))
  end
  local pins = result.pins or {}
  lines[#lines + 1] = ""
  lines[#lines + 1] = #pins == 0 and "No pin in view." or (#pins .. " pins in view (<CR> on a pin or its line opens its link)")
  highlights[#highlights + 1] = { "Comment", #lines - 1, 0, -1 }
  local legend = {}
  for _, pin in ipairs(pins) do
    legend[#legend + 1] = {
      tostring(pin.n or ""),
      format.name(pin) .. (pin.mine and " (you)" or ""),
      format.clean(pin.mapString),
      format.clean(pin.mediaURL),
    }
  end
  for index, line in ipairs(format.columns(legend, { 6, 30, 34, 60 })) do
    lines[#lines + 1] = line
    items[#lines] = pins[index]
    if pins[index].mine then
      highlights[#highlights + 1] = { "OnTheMapMyPin", #lines - 1, 0, #tostring(pins[index].n or "") }
    end
  end
  buffer.set(buf, lines, items, highlights, M.namespace)
  local state = buffer.state[buf]
  if state then
    state.pins = pins
  end
end

--- The pins in the cell under the cursor (0-based row and display column), if on the map.
function M.pins_at(buf, row, col)
  local state = buffer.state[buf]
  local found = {}
  for _, pin in ipairs(state and state.pins or {}) do
    if pin.row == row and pin.col == col then
      found[#found + 1] = pin
    end
  end
  return found
end

--- Opens the link of the pin under the cursor: on a legend line, or on a pin's cell of the map.
local function enter(buf, legend_item)
  if legend_item then
    open.open(legend_item.mediaURL)
    return
  end
  local cursor = vim.api.nvim_win_get_cursor(0)
  local line = vim.api.nvim_get_current_line()
  local col = vim.fn.strdisplaywidth(line:sub(1, cursor[2]))
  local pins = M.pins_at(buf, cursor[1] - 1, col)
  if #pins == 1 then
    open.open(pins[1].mediaURL)
  elseif #pins > 1 then
    vim.ui.select(pins, {
      prompt = "Which student?",
      format_item = function(pin)
        return format.name(pin) .. " — " .. format.clean(pin.mapString)
      end,
    }, function(pin)
      if pin then
        open.open(pin.mediaURL)
      end
    end)
  end
end

--- Asks the daemon for the map sized to the window showing `buf`, with `view` params, and paints it.
function M.load(buf, view)
  local win = vim.fn.bufwinid(buf)
  local width = win ~= -1 and vim.api.nvim_win_get_width(win) or vim.o.columns
  local height = win ~= -1 and vim.api.nvim_win_get_height(win) or vim.o.lines
  local params = { width = math.max(10, math.min(1000, width - 1)), height = math.max(5, math.min(1000, height - 2)) }
  for key, value in pairs(view or {}) do
    params[key] = value
  end
  rpc.request("map", params, function(err, result)
    if not vim.api.nvim_buf_is_valid(buf) then
      return
    end
    if err then
      if err.code == rpc.codes.method_not_found then
        err = { message = M.no_map_method }
      end
      buffer.set(buf, { "OnTheMap: " .. err.message, "", "r tries again, q closes." }, {}, { { "ErrorMsg", 0, 0, -1 } }, M.namespace)
      rpc.report(err, "map")
    else
      M.render(buf, result)
    end
  end)
end

--- The map buffer, shown, with its keys: <CR> opens a pin's link, r redraws, q closes.
function M.buffer(view)
  M.define_highlights()
  local buf
  buf = buffer.show("onthemap://map", {
    reload = function()
      M.load(buf, view)
    end,
  })
  -- <CR> works on map cells too, which have no line item: mapped here instead of `on_enter`.
  vim.keymap.set("n", "<CR>", function()
    enter(buf, buffer.item_under_cursor(buf))
  end, { buffer = buf, nowait = true, silent = true, desc = "OnTheMap: open the pin's link" })
  return buf
end

--- `:OnTheMap map [pins | {place} [km]]`: the map sized to the window.
function M.show(view)
  local buf = M.buffer(view)
  if buffer.generation(buf) == 0 then
    buffer.set(buf, { "Drawing the map…" }, {}, { { "Comment", 0, 0, -1 } }, M.namespace)
  end
  M.load(buf, view)
  return buf
end

return M
