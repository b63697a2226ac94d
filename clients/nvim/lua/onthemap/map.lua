-- `:OnTheMap map`: the daemon draws the map (`map` method: rows, styles, pins, view); this module
-- only paints it, one highlight group per style code, under a line naming the place and zoom shown,
-- with the pins in view listed below it (the first of them on screen); keys zoom and pan. When the
-- daemon's list changes (onthemap.follow), the map is drawn again where it looks.
local buffer = require("onthemap.buffer")
local camera = require("onthemap.camera")
local follow = require("onthemap.follow")
local format = require("onthemap.format")
local notify = require("onthemap.notify")
local open = require("onthemap.open")
local place = require("onthemap.place")
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
  n = "OnTheMapLabel",
}

--- Defines the highlight groups as links to standard ones, unless the user set them.
function M.define_highlights()
  local links = {
    OnTheMapLand = "String",
    OnTheMapCoast = "Directory",
    OnTheMapPin = "WarningMsg",
    OnTheMapMyPin = "ErrorMsg",
    OnTheMapCluster = "Todo",
    OnTheMapLabel = "Comment",
  }
  for group, target in pairs(links) do
    vim.api.nvim_set_hl(0, group, { link = target, default = true })
  end
end

--- The message shown when the daemon has no `map` method yet (an onthemapd older than the map).
M.no_map_method = "this onthemapd cannot draw maps yet: update onthemapd, then try again."

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

-- The lines above the map's rows: the title.
local top = 1

-- Your own pin's mark in the legend, as the CLI marks it.
local you = " (you)"

--- How many legend lines a window `height` lines tall keeps on screen under the map.
function M.legend_room(height)
  return math.max(2, math.min(8, math.floor(height / 4)))
end

--- "3 pins", "1 pin".
local function pins_text(count)
  return count == 1 and "1 pin" or (format.grouped(count) .. " pins")
end

--- The title line: what the map shows and at which zoom, and `limited`, the `map` result's
--- `limitedTo`: a full cache, whose newest students alone are drawn while the server may have more.
function M.title(where, view, capped, limited)
  local text = "Map of " .. where
  if type(view) == "table" and type(view.zoom) == "number" then
    text = text .. " · zoom " .. camera.zoom_text(view.zoom)
  end
  if capped then
    text = text .. " (as close as the map goes)"
  end
  if type(limited) == "number" then
    text = text .. (" · only the newest %s students"):format(format.grouped(limited))
  end
  return text
end

-- The latitudes the world view keeps when it can, Tierra del Fuego to Greenland's north (the CLI's
-- MapViewBand, as the daemon's world view keeps them).
local band = { north = 79.5, south = -55.5 }

--- "71°N", "30°S".
local function degrees(latitude)
  return ("%d°%s"):format(math.floor(math.abs(latitude) + 0.5), latitude < 0 and "S" or "N")
end

--- What the map shows, for its title: `where`, except the world cut short by a low window with pins
--- left out, which says where it was cut ("the world cut at 71°N, 30°S", as `onthemap map -i`): the
--- pins south and north of it are not in "the world" shown.
function M.where(where, result)
  local view = type(result) == "table" and result.view
  if where ~= "the world" or type(view) ~= "table" or (tonumber(result.outside) or 0) == 0 then
    return where
  end
  if type(view.zoom) ~= "number" or view.zoom >= 1.5 or not (view.north < band.north or view.south > band.south) then
    return where
  end
  return ("the world cut at %s, %s"):format(degrees(view.north), degrees(view.south))
end

--- Paints a `map` result into `buf` under the title naming `where`: the rows, coloured by
--- `styles`, then the pins in view. `legend_room`: legend lines that fit on screen.
function M.render(buf, result, where, legend_room, capped)
  -- Cut to the window, as the hint line below is: a split narrows the map, and its title with it.
  local room = buffer.room(buf)
  local shown = M.where(where, result)
  local title = format.truncate(M.title(shown, result.view, capped, result.limitedTo), room)
  local lines, highlights, items = { title }, { { "Title", 0, 0, -1 } }, {}
  local rows, styles = result.rows or {}, result.styles or {}
  for index, row in ipairs(rows) do
    local text = format.clean(row)
    lines[#lines + 1] = text
    vim.list_extend(highlights, M.row_highlights(#lines - 1, text, styles[index] or ""))
  end
  local pins = result.pins or {}
  local summary = #pins == 0 and "No pin in view" or (pins_text(#pins) .. " in view")
  -- The pins a world cut short leaves out, as the CLI counts them ("90 pins in view, 10 outside
  -- it"); around a place, the rest of the world is outside as a matter of course.
  if shown ~= where then
    summary = summary .. (", %s outside it"):format(format.grouped(result.outside))
  end
  if legend_room and #pins > legend_room then
    summary = summary .. (" (%s more below)"):format(format.grouped(#pins - legend_room))
  end
  -- The hint gives way to the window, as Emacs's does: its middle first, then cut with "…" (the
  -- window's edge cut it bare).
  local hint = summary .. " · g? keys"
  local hints = { " · <CR> opens · +/- zoom · HJKL pan · g? keys", " · <CR> opens · g? keys" }
  for _, each in ipairs(hints) do
    if format.width(summary .. each) <= room then
      hint = summary .. each
      break
    end
  end
  lines[#lines + 1] = format.truncate(hint, room)
  highlights[#highlights + 1] = { "Comment", #lines - 1, 0, -1 }
  local legend = {}
  for _, pin in ipairs(pins) do
    legend[#legend + 1] = {
      tostring(pin.n or ""),
      format.name(pin) .. (pin.mine and you or ""),
      format.clean(pin.mapString),
      format.clean(pin.mediaURL),
    }
  end
  -- Laid out for the window, as the lists are: a cell cut to fit ends in "…" (<CR> still opens the
  -- whole link), and the pin's number stays whole, as does "(you)".
  local widths = format.fit(legend, buffer.room(buf), { 6, 30, 34, 60 }, { [1] = true })
  for index, pin in ipairs(pins) do
    if pin.mine then
      legend[index][2] = format.truncate_keeping(format.name(pin), you, widths[2])
    end
  end
  for index, line in ipairs(format.columns(legend, widths)) do
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

--- The pins in the cell under the cursor (0-based line of the buffer, display column), if on the map.
function M.pins_at(buf, line, col)
  local state = buffer.state[buf]
  local found = {}
  for _, pin in ipairs(state and state.pins or {}) do
    if pin.row + top == line and pin.col == col then
      found[#found + 1] = pin
    end
  end
  return found
end

--- Opens the link of the pin under the cursor: on a legend line, or on a pin's cell of the map.
local function enter(buf, legend_item)
  if legend_item then
    open.open(legend_item.mediaURL, format.name(legend_item), legend_item.mediaURLDropped)
    return
  end
  local cursor = vim.api.nvim_win_get_cursor(0)
  local line = vim.api.nvim_get_current_line()
  local col = vim.fn.strdisplaywidth(line:sub(1, cursor[2]))
  local pins = M.pins_at(buf, cursor[1] - 1, col)
  if #pins == 0 then
    notify.show("OnTheMap: no pin here: <CR> opens a pin's link on its line, or on its cell of the map", vim.log.levels.INFO, {
      "OnTheMap: no pin here: <CR> opens a pin on its line or cell",
      "OnTheMap: no pin here",
    })
  elseif #pins == 1 then
    open.open(pins[1].mediaURL, format.name(pins[1]), pins[1].mediaURLDropped)
  elseif #pins > 1 then
    require("onthemap.ui").select(pins, {
      prompt = "Which student?",
      format_item = function(pin)
        return format.name(pin) .. " — " .. format.clean(pin.mapString)
      end,
    }, function(pin)
      if pin then
        open.open(pin.mediaURL, format.name(pin), pin.mediaURLDropped)
      end
    end)
  end
end

--- Shows `message` in place of the map.
local function show_problem(buf, message)
  if buffer.state[buf] then
    buffer.state[buf].problem = true
  end
  buffer.set_problem(buf, "OnTheMap: " .. message, "r tries again, q closes, g? lists the keys.", M.namespace)
end

--- A window showing `buf`, on this tab page if one is here, else on any (-1: none). A map on
--- another tab page is still shown (redraw_quietly draws it on a change), and is measured by its
--- own window: drawn for the whole editor, it kept that drawing when its tab page came back.
local function window_of(buf)
  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    win = vim.fn.win_findbuf(buf)[1] or -1
  end
  return win
end

--- The cells the map gets in the window showing `buf`: { width, height, legend }.
local function size(buf)
  local win = window_of(buf)
  local width, height = vim.o.columns, vim.o.lines - 2
  if win ~= -1 then
    local info = vim.fn.getwininfo(win)[1]
    width, height = info.width - info.textoff, info.height
  end
  local legend = M.legend_room(height)
  return {
    width = math.max(10, math.min(1000, width - 1)),
    height = math.max(5, math.min(1000, height - top - 1 - legend)),
    legend = legend,
  }
end

--- Draws the map of `buf` again quietly at the view it shows (`M.load(buf, true)`), if a window
--- shows it; a hidden map is only marked, and drawn again when shown (follow_size): with no window
--- it would be drawn for the whole editor, and each change would cost a request.
function M.redraw_quietly(buf)
  if window_of(buf) == -1 then
    buffer.state[buf].changed_while_hidden = true
  else
    M.load(buf, true)
  end
end

--- Asks the daemon for the map of `state.view` sized to the window showing `buf`, and paints it
--- under the title naming `state.where`. A place's name is looked up first, so the title can say
--- which place it found ("Atlantis, Western Cape, South Africa"). `quiet` (the daemon's list
--- changed, nobody asked): drawn again at the centre and zoom shown, each cursor on a pin's line
--- kept on that pin, nothing said; a failure leaves the map as it is and says nothing (the status
--- subscription tells a logout, which empties the map, or a daemon gone, which draws it again).
--- Whatever is drawn from a request sent before the last change heard (a zoom asked for just
--- before a post elsewhere, answered from the old list) is drawn again quietly where it shows.
function M.load(buf, quiet)
  local state = buffer.state[buf]
  local drawn = state.camera
  local view = quiet and camera.params(drawn) or state.view or {}
  if type(view.near) == "string" and not place.coordinates(view.near) then
    rpc.request("geocode", { query = view.near, limit = 1 }, function(err, result)
      if not vim.api.nvim_buf_is_valid(buf) then
        return
      end
      local match = result and result.results and result.results[1]
      if err or not match then
        err = err or { message = ('No place matches "%s".'):format(view.near) }
        show_problem(buf, err.message)
        rpc.report(err, "map")
        return
      end
      state.view = { near = { latitude = match.latitude, longitude = match.longitude }, radiusKm = view.radiusKm }
      state.where = format.place(match)
      state.where_found = true
      M.load(buf)
    end)
    return
  end
  if type(view.near) == "string" then
    local point = place.coordinates(view.near)
    state.view = { near = point, radiusKm = view.radiusKm }
    state.where = state.where or view.near
    view = state.view
  end
  local cells = size(buf)
  local params = { width = cells.width, height = cells.height }
  for key, value in pairs(view) do
    params[key] = value
  end
  local heard = state.changes_heard or 0
  rpc.request("map", params, function(err, result)
    if not vim.api.nvim_buf_is_valid(buf) then
      return
    elseif quiet and (err or state.camera ~= drawn or state.problem) then
      -- Failed, or something else was drawn meanwhile (a key, a resize, a logout): that stays.
      if err and not rpc.needs_login(err) and err.kind ~= "daemon" then
        follow.waiting_for_daemon(buf)
      end
      return
    end
    if err then
      if err.code == rpc.codes.method_not_found then
        err = { message = M.no_map_method }
      elseif rpc.needs_login(err) then
        follow.waiting_for_login(buf)
      elseif err.kind ~= "daemon" then
        follow.waiting_for_daemon(buf)
      end
      show_problem(buf, err.message)
      rpc.report(err, "map")
      return
    end
    state.camera = camera.from_view(result.view)
    state.size = cells
    state.problem = nil
    if heard == (state.changes_heard or 0) then
      -- Drawn from the list as it is now (a login's reload while hidden): shown again, it need
      -- not be drawn again for a change it already shows.
      state.changed_while_hidden = nil
    end
    local shown = type(result.view) == "table" and result.view or {}
    -- Coordinates typed are named by the place the daemon names nearest them; a name looked up
    -- here keeps its own (Atlantis's centre is nearest a larger "Cape Town" on the daemon's map).
    -- A daemon that names the closest zoom it draws there is believed; otherwise a zoom asked for
    -- and not given is the daemon's cap.
    if view.near ~= nil and not state.where_found and type(shown.place) == "string" and shown.place ~= "" then
      state.where = shown.place
    end
    state.max_zoom = type(shown.maxZoom) == "number" and shown.maxZoom or nil
    local capped = state.camera ~= nil
      and ((view.zoom ~= nil and state.camera.zoom < view.zoom * 0.999) or (state.max_zoom ~= nil and state.camera.zoom >= state.max_zoom))
    if capped and not quiet then
      notify.show(("OnTheMap: zoom %s is as close as the map goes here"):format(camera.zoom_text(state.camera.zoom)), vim.log.levels.INFO)
    end
    local kept = quiet and buffer.cursors(buf)
    M.render(buf, result, state.where or "the world", cells.legend, capped)
    if kept then
      buffer.restore_cursors(buf, kept)
    end
    -- Drawn with pins before the subscription's first status (the first command of a session):
    -- the daemon's list is there, and that status need not draw the map again.
    local known = require("onthemap.status").status
    local refreshed = known and known.students and known.students.refreshedAt
    follow.filled(buf, refreshed or (not known and #(result.pins or {}) > 0 and "before the first status") or nil)
    if heard < (state.changes_heard or 0) then
      M.redraw_quietly(buf)
    end
  end)
end

-- A window resized (a split, a smaller terminal) gets its map drawn again for the new size once the
-- size has held a moment: a window dragged wider asks the daemon once, not at every column. Each
-- map buffer has its timer.
local resize_timers = {}
local resize_group

--- Whether the map drawn in `buf` was drawn for another size than its window has now.
local function size_changed(buf)
  local state = buffer.state[buf]
  if not state or not state.size or state.problem or window_of(buf) == -1 then
    return false
  end
  local now = size(buf)
  return now.width ~= state.size.width or now.height ~= state.size.height
end

local function follow_size(buf)
  resize_timers[buf] = resize_timers[buf] or vim.loop.new_timer()
  if resize_group then
    return
  end
  resize_group = vim.api.nvim_create_augroup("OnTheMapMapSize", { clear = true })
  vim.api.nvim_create_autocmd({ "WinScrolled", "VimResized" }, {
    group = resize_group,
    callback = function()
      for map_buf, timer in pairs(resize_timers) do
        if not vim.api.nvim_buf_is_valid(map_buf) then
          timer:close()
          resize_timers[map_buf] = nil
        elseif size_changed(map_buf) then
          timer:stop()
          timer:start(300, 0, vim.schedule_wrap(function()
            if vim.api.nvim_buf_is_valid(map_buf) and size_changed(map_buf) then
              M.load(map_buf)
            end
          end))
        end
      end
    end,
  })
  -- A map shown again (`:b`, <C-o>): drawn again for its window when a change was heard while it
  -- was hidden (`changed` skips hidden maps: with no window, it would be drawn for the whole
  -- editor), or when its window is not the size it was drawn for.
  vim.api.nvim_create_autocmd("BufWinEnter", {
    group = resize_group,
    callback = function(args)
      local map_buf = args.buf
      if not resize_timers[map_buf] then
        return
      end
      vim.schedule(function()
        local state = vim.api.nvim_buf_is_valid(map_buf) and buffer.state[map_buf]
        if not state or window_of(map_buf) == -1 then
          return
        end
        if state.changed_while_hidden and state.camera and not state.problem then
          state.changed_while_hidden = false
          M.load(map_buf, true)
        elseif size_changed(map_buf) then
          M.load(map_buf)
        end
      end)
    end,
  })
end

--- Moves the map of `buf` to `next_camera` (nil: the world) and draws it; `where` names the
--- place shown, when it is still the one named.
local function go(buf, next_camera, where)
  local state = buffer.state[buf]
  if next_camera then
    state.view = camera.params(next_camera)
  else
    state.view = {}
  end
  state.where = where
  M.load(buf)
end

--- Maps the map's own keys in `buf`: zoom, pan, the world, and <CR> on a pin's cell.
local function map_keys(buf)
  local function current()
    local state = buffer.state[buf]
    return state, state and state.camera
  end
  local function zoom(factor)
    local state, now = current()
    if not now then
      return
    end
    local next_camera = camera.zoom(now, factor)
    if state.max_zoom and next_camera.zoom > state.max_zoom then
      next_camera.zoom = math.max(now.zoom, state.max_zoom)
    end
    if next_camera.zoom == now.zoom then
      notify.show(factor > 1 and ("OnTheMap: zoom %s is as close as the map goes"):format(camera.zoom_text(now.zoom))
        or "OnTheMap: the whole world is in view", vim.log.levels.INFO)
      return
    end
    go(buf, next_camera, state.where)
  end
  local function pan(dx, dy)
    local state, now = current()
    if not now then
      return
    end
    local next_camera = camera.pan(now, dx, dy, state.size.width, state.size.height)
    go(buf, next_camera, camera.where(next_camera))
  end
  buffer.map(buf, "r", function()
    M.load(buf)
  end, "draw the map again")
  -- <CR> works on map cells too, which have no line item: mapped here instead of `on_enter`.
  buffer.map(buf, "<CR>", function()
    enter(buf, buffer.item_under_cursor(buf))
  end, "open the link of the pin on this line, or in this cell of the map")
  buffer.map(buf, "+", function()
    zoom(2)
  end, "zoom in")
  buffer.map(buf, "=", function()
    zoom(2)
  end, "zoom in")
  buffer.map(buf, "-", function()
    zoom(0.5)
  end, "zoom out")
  buffer.map(buf, "H", function()
    pan(-1, 0)
  end, "pan west (left)")
  buffer.map(buf, "J", function()
    pan(0, 1)
  end, "pan south (down)")
  buffer.map(buf, "K", function()
    pan(0, -1)
  end, "pan north (up)")
  buffer.map(buf, "L", function()
    pan(1, 0)
  end, "pan east (right)")
  buffer.map(buf, "0", function()
    go(buf, nil, "the world")
  end, "the whole world")
end

--- The map buffer, shown, with its keys: <CR> opens a pin's link, r redraws, q closes, + - H J K L 0
--- zoom and pan.
function M.buffer()
  M.define_highlights()
  local buf
  buf = buffer.show("onthemap://map", {
    reload = function()
      M.load(buf)
    end,
  })
  map_keys(buf)
  follow_size(buf)
  follow.add(buf, {
    reload = function()
      M.load(buf)
    end,
    clear = function()
      show_problem(buf, rpc.in_editor_words(rpc.codes.not_logged_in, ""))
    end,
    changed = function()
      -- Counted for the requests under way (M.load). Only a map that is shown is drawn again: a
      -- problem shown (a place not found) stays until r.
      local state = buffer.state[buf]
      if state then
        state.changes_heard = (state.changes_heard or 0) + 1
      end
      if state and state.camera and not state.problem then
        M.redraw_quietly(buf)
      end
    end,
  })
  return buf
end

--- What a view shows, in words, before the daemon answers: "the world", "all pins", a place.
local function where_of(view)
  if view.fit == "pins" then
    return "all pins"
  elseif type(view.near) == "string" then
    return view.near
  elseif type(view.near) == "table" and view.near.latitude and view.near.longitude then
    return camera.where(view.near)
  end
  return "the world"
end

--- `:OnTheMap map [pins | {place} [km]]`: the map sized to the window.
function M.show(view)
  view = view or {}
  local buf = M.buffer()
  local state = buffer.state[buf]
  state.view = vim.deepcopy(view)
  state.where_found = false
  state.where = (type(view.near) ~= "string" or place.coordinates(view.near)) and where_of(view) or nil
  buffer.set(buf, { "Drawing the map of " .. where_of(view) .. "…" }, {}, { { "Comment", 0, 0, -1 } }, M.namespace)
  M.load(buf)
  return buf
end

return M
