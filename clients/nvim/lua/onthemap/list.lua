-- The students buffer: `:OnTheMap` (newest first), `:OnTheMap search {words}` (those matching, newest
-- first) and `:OnTheMap near {place} [km]` (nearest first).
local buffer = require("onthemap.buffer")
local config = require("onthemap.config")
local follow = require("onthemap.follow")
local format = require("onthemap.format")
local header = require("onthemap.header")
local notify = require("onthemap.notify")
local open = require("onthemap.open")
local place = require("onthemap.place")
local rpc = require("onthemap.rpc")
local ui = require("onthemap.ui")

local M = {}

M.namespace = vim.api.nvim_create_namespace("onthemap_list")

-- Widths beyond which a column is cut with "…" while the window is short of room (the whole link
-- is still what <CR> opens): the cells a wide window has left over go to the columns they cut
-- (format.fit's spare). A narrower window cuts NAME, PLACE and LINK further, never KM or UPDATED,
-- and a window too narrow for them all leaves LINK out, then PLACE.
local limits = { 30, 34, 56, 12 }
local near_limits = { 30, 34, 8, 56, 12 }

--- The first line for a `students` result: how many, of how many, which, and how long ago it was
--- refreshed; cut with "…" to `room` cells (a window's edge cut it bare: "…Westphalia, German").
local function summary(result, near, search, room)
  local students = result.students or {}
  local count = ("%s of %s students"):format(format.grouped(#students), format.grouped(result.total or #students))
  -- Fewer looked at than the server has: said right after the count it qualifies, where a narrow
  -- window's edge does not cut it, so no list is silently short (the CLI's notes).
  if result.limitedTo == 0 and result.source == "cache" then
    count = count .. " (server unreachable, and nothing cached yet)"
  elseif result.limitedTo then
    count = count .. (result.source == "cache"
      and " (server unreachable: only the %s cached looked at)"
      or " (only the newest %s looked at)"):format(format.grouped(result.limitedTo))
  end
  local text
  if search then
    text = ('%s matching "%s", newest first'):format(count, search)
  elseif near then
    text = ("%s nearest to %s%s"):format(count, near.label, near.km and (" (within %g km)"):format(near.km) or "")
  else
    text = count .. ", newest first"
  end
  text = text .. " · refreshed " .. format.age(result.refreshedAt) .. (result.stale and " (stale: the daemon could not refresh)" or "")
  return room and format.truncate(text, room) or text
end

-- The first line's age changes with time, not with the list: one timer, running while a list is
-- shown, writes it again. Per list buffer, what its first line sums up: { result, near, search,
-- generation } (the buffer's generation then; another text since, such as an error, is left alone).
-- Touched only on the main loop (the timer's callback is scheduled).
local shown = {}

--- The timer that brings the lists' first lines up to date, while a list buffer lives; else nil.
M.header_timer = nil

local function stop_header_timer()
  if M.header_timer then
    M.header_timer:stop()
    M.header_timer:close()
    M.header_timer = nil
  end
end

--- Forgets `buf`'s first line; stops the timer when no list is left.
local function forget(buf)
  shown[buf] = nil
  if next(shown) == nil then
    stop_header_timer()
  end
end

--- Writes each list's first line again, with its age as of now.
local function update_headers()
  for buf, what in pairs(shown) do
    if not vim.api.nvim_buf_is_valid(buf) then
      forget(buf)
    elseif buffer.generation(buf) == what.generation then
      buffer.set_line(buf, 0, summary(what.result, what.near, what.search, what.room), "Comment", M.namespace)
    end
  end
  header.refresh()
end

--- Takes the daemon's `status` (pushed by the subscription): each list's first line says how
--- long ago the daemon's list was refreshed, as it says now. A refresh that found nothing new (a
--- 304) replaces no list, so nothing else would move its "refreshed 2 min ago".
function M.follow_status(status)
  local students = status and status.loggedIn and status.students
  if not (students and students.refreshedAt) then
    return
  end
  local moved = false
  for buf, what in pairs(shown) do
    local result = what.result
    if vim.api.nvim_buf_is_valid(buf) and buffer.generation(buf) == what.generation
      and (result.refreshedAt ~= students.refreshedAt or (result.stale or false) ~= (students.stale or false)) then
      result.refreshedAt, result.stale = students.refreshedAt, students.stale
      if M.room(buf) ~= what.room then
        -- Its window changed width since: laid out again, first line and all.
        M.render(buf, result, what.near, what.search)
      else
        buffer.set_line(buf, 0, summary(result, what.near, what.search, what.room), "Comment", M.namespace)
      end
      moved = true
    end
  end
  if moved then
    header.refresh()
  end
end

--- Remembers what `buf` shows, and starts the timer if it is not running.
local function keep_header_current(buf, result, near, search)
  if not shown[buf] then
    vim.api.nvim_create_autocmd("BufWipeout", {
      buffer = buf,
      once = true,
      callback = function()
        forget(buf)
      end,
    })
  end
  shown[buf] = { result = result, near = near, search = search, generation = buffer.generation(buf), room = M.room(buf) }
  local every = config.options.header_update_ms
  if not M.header_timer and every and every > 0 then
    M.header_timer = vim.loop.new_timer()
    M.header_timer:start(every, every, vim.schedule_wrap(update_headers))
  end
end

--- The display cells a line of `buf` has (buffer.room).
M.room = buffer.room

--- Your own row's mark, after the name, as the CLI marks it.
local you = " (you)"

--- Defines the highlight group of your own row's name, unless the user set it.
function M.define_highlights()
  vim.api.nvim_set_hl(0, "OnTheMapYou", { link = "Special", default = true })
end

--- The buffer's lines for a `students` result; `near` = {latitude, longitude, label, km} or nil
--- (the students then carry the daemon's `distanceKm`); `search` the words searched for, or nil.
--- The columns fit the window: UPDATED stays on screen at 80 columns. Your own row is marked
--- "(you)" (the daemon's `mine`: whose the list is was known when it answered), kept whole when the
--- name is cut.
function M.render(buf, result, near, search)
  M.define_highlights()
  local students = result.students or {}
  local titles = { "NAME", "PLACE", "LINK", "UPDATED" }
  if near then
    table.insert(titles, 3, "KM")
  end
  local rows = { titles }
  local mine = {}
  for index, student in ipairs(students) do
    mine[index] = student.mine == true
    local name = format.name(student) .. (mine[index] and you or "")
    local row = { name, format.clean(student.mapString), format.clean(student.mediaURL), format.age(student.updatedAt) }
    if near then
      -- The daemon's distanceKm: one distance (one Earth radius) in every client. Its one decimal
      -- makes halves common: they round up, as in the CLI and Emacs ("%.0f" rounds them to even
      -- where Lua formats with C's printf, as PUC Lua does).
      local km = student.distanceKm
      table.insert(row, 3, type(km) == "number" and tostring(math.floor(km + 0.5)) or "")
    end
    rows[#rows + 1] = row
  end
  local fixed = near and { [3] = true, [5] = true } or { [4] = true }
  -- Down to 30 columns, a name keeps its "(you)" whole ("Ada L… (you)": 12 cells) and UPDATED
  -- stays whole: LINK, then PLACE, are left out when even their least width would not fit.
  local widths = format.fit(rows, M.room(buf), near and near_limits or limits, fixed, nil,
    { need = { [1] = 12 }, drop = near and { 4, 2 } or { 3, 2 }, spare = true })
  local highlights = { { "Comment", 0, 0, -1 }, { "Title", 1, 0, -1 } }
  for index, student in ipairs(students) do
    if mine[index] then
      local row = rows[index + 1]
      row[1] = format.truncate_keeping(format.name(student), you, widths[1])
      highlights[#highlights + 1] = { "OnTheMapYou", index + 1, 0, #format.truncate(row[1], widths[1]) }
    end
  end
  local lines = { summary(result, near, search, M.room(buf)) }
  vim.list_extend(lines, format.columns(rows, widths))
  if #students == 0 then
    lines[#lines + 1] = search and ('No student matches "%s".'):format(search)
      or near and "No student there: try a larger radius."
      or "No students yet."
  end
  local items = {}
  for index, student in ipairs(students) do
    items[index + 2] = student
  end
  local kept = buffer.cursors(buf)
  buffer.set(buf, lines, items, highlights, M.namespace)
  buffer.restore_cursors(buf, kept)
  keep_header_current(buf, result, near, search)
  header.keep(buf, 2, M.namespace)
  follow.filled(buf, result.refreshedAt)
end

-- Per list buffer, how many `students` requests were sent for it (`sent`) and the number of the
-- newest whose answer it shows or which it has outlived (`floor`): an answer numbered at or below
-- `floor` is older than what the list shows, or than a logout that emptied it, and is dropped.
-- Main loop only.
local sent, floor = {}, {}

--- Shows `message` (and what the keys do) in place of the list: nothing in it to open. An answer
--- to a request sent before this (a quiet re-fetch answered before a logout but handled after it)
--- no longer paints students over it.
local function show_problem(buf, message)
  forget(buf)
  floor[buf] = sent[buf]
  buffer.set_problem(buf, "OnTheMap: " .. message, "r tries again, q closes, g? lists the keys.", M.namespace)
  header.keep(buf, 0, M.namespace)
end

--- Shows why the list could not be loaded, in the buffer and with vim.notify.
local function failed(buf, err)
  show_problem(buf, err.message)
  if rpc.needs_login(err) then
    follow.waiting_for_login(buf)
  elseif err.kind ~= "daemon" then
    follow.waiting_for_daemon(buf)
  end
  rpc.report(err)
end

local function loading(buf, text)
  if buffer.generation(buf) == 0 then
    buffer.set(buf, { text }, {}, { { "Comment", 0, 0, -1 } }, M.namespace)
  end
end

-- While a list's request is on its way, the list shown stays and its first line ends in
-- "· fetching…" (virtual text, as telescope and octo.nvim say they are at work); `fetching[buf]`
-- counts the requests out.
local fetching_namespace = vim.api.nvim_create_namespace("onthemap_fetching")
local fetching = {}

local function fetching_changed(buf, by)
  fetching[buf] = math.max(0, (fetching[buf] or 0) + by)
  vim.api.nvim_buf_clear_namespace(buf, fetching_namespace, 0, -1)
  if fetching[buf] > 0 and buffer.generation(buf) > 0 then
    vim.api.nvim_buf_set_extmark(buf, fetching_namespace, 0, 0, { virt_text = { { " · fetching…", "Comment" } } })
  end
end

--- Fetches students with `params` and renders them into `buf`. `quiet` (the daemon's list changed,
--- nobody asked): the first line does not say "fetching…", a failure leaves the list as it is and
--- says nothing; the status subscription tells a logout (which empties the list) or a daemon gone
--- (which fills it again once back). An answer older than what the list shows, or than a logout
--- that emptied it since, is dropped: the requests and the subscription's events come on
--- different connections, in no order between them.
local function fetch(buf, params, near, search, quiet)
  if not quiet then
    fetching_changed(buf, 1)
  end
  sent[buf] = (sent[buf] or 0) + 1
  local number = sent[buf]
  rpc.request("students", params, function(err, result)
    if not vim.api.nvim_buf_is_valid(buf) then
      fetching[buf], sent[buf], floor[buf] = nil, nil, nil
      return
    end
    if not quiet then
      fetching_changed(buf, -1)
    end
    if err and quiet then
      if not rpc.needs_login(err) and err.kind ~= "daemon" then
        follow.waiting_for_daemon(buf)
      end
    elseif err then
      failed(buf, err)
    elseif number > (floor[buf] or 0) then
      floor[buf] = number
      M.render(buf, result, near, search)
    end
  end)
end

-- A window narrower or wider than the one a list was laid out for lays it out again, from the
-- result it shows: nothing is fetched.
local layout_group
local function follow_layout()
  if layout_group then
    return
  end
  layout_group = vim.api.nvim_create_augroup("OnTheMapListLayout", { clear = true })
  vim.api.nvim_create_autocmd("User", {
    group = layout_group,
    pattern = "OnTheMapStatus",
    callback = function()
      M.follow_status(require("onthemap.status").status)
    end,
  })
  vim.api.nvim_create_autocmd({ "WinScrolled", "VimResized", "BufWinEnter" }, {
    group = layout_group,
    callback = vim.schedule_wrap(function()
      for buf, what in pairs(shown) do
        if vim.api.nvim_buf_is_valid(buf) and buffer.generation(buf) == what.generation and M.room(buf) ~= what.room then
          M.render(buf, what.result, what.near, what.search)
        end
      end
    end),
  })
end

--- r: the daemon fetches anew (`refresh`), then the list is fetched. A refresh that fails says so
--- on the command line, with the daemon's reason and what to do (the CLI's `onthemap refresh`
--- words: "Cannot reach the OnTheMap API at …: the connection was refused. Check the network and
--- the API URL, then retry."), as magit says a failed fetch; the list then shows the cache, stale.
--- A daemon gone or a login needed is the list's to say, as for any fetch.
local function refresh_then_fetch(buf, params, near, search)
  fetching_changed(buf, 1)
  rpc.request("refresh", nil, function(err)
    if not vim.api.nvim_buf_is_valid(buf) then
      return
    end
    fetching_changed(buf, -1)
    if err and err.kind == "daemon" and not rpc.needs_login(err) then
      rpc.report(err, "refresh")
    end
    local rest = {}
    for key, value in pairs(params) do
      if key ~= "refresh" then
        rest[key] = value
      end
    end
    fetch(buf, rest, near, search)
  end)
end

--- `y` in a list: copies `student`'s link to the unnamed register, and to + where Neovim has a
--- clipboard, and says so. Over ssh there is no browser: the link is pasted elsewhere. A link the
--- daemon dropped is not copied, and the message says why, as <CR> does.
function M.yank(student)
  if not student then
    notify.show("OnTheMap: no student on this line", vim.log.levels.INFO)
    return false
  end
  local who, link, dropped = format.name(student), student.mediaURL, student.mediaURLDropped
  if type(link) ~= "string" or link == "" then
    if type(dropped) == "string" and format.clean(dropped) ~= "" then
      local why = format.truncate(format.clean(dropped), 100)
      notify.show(("OnTheMap: not copying %s's link: %s"):format(who, why), vim.log.levels.WARN, { "OnTheMap: not copying this link: " .. why })
    else
      notify.show(("OnTheMap: %s has no web link to copy"):format(who), vim.log.levels.WARN)
    end
    return false
  end
  vim.fn.setreg('"', link)
  local clipboard = vim.fn.has("clipboard") == 1 and pcall(vim.fn.setreg, "+", link)
  local where = clipboard and 'the " and + registers' or 'the " register'
  local shown = format.clean(link)
  notify.show(("OnTheMap: copied %s's link, %s, to %s"):format(who, shown, where), vim.log.levels.INFO, {
    ("OnTheMap: copied %s to %s"):format(shown, where),
    ("OnTheMap: copied %s"):format(shown),
    ("OnTheMap: copied %s"):format(format.truncate(shown, math.max(10, notify.room() - 20))),
  })
  return true
end

--- `s` in a list: asks for words, then shows the search list (`:OnTheMap search {words}`).
local function ask_search()
  ui.input({ prompt = "Search students (name or place): " }, function(words)
    if words == nil then
      return
    elseif not words:match("%S") then
      notify.show("OnTheMap: no words given: nothing searched (type a name or a place)", vim.log.levels.INFO)
      return
    end
    require("onthemap").search(vim.trim(words))
  end)
end

--- `gn` in a list: asks for a place (the place of `student`, the line's, offered) and a radius
--- after it if wanted, then shows the students near it (`:OnTheMap near {place} [km]`).
local function ask_near(student)
  local here = student and format.is_clean(student.mapString) and student.mapString or nil
  ui.input({ prompt = "Near (place or lat,lon, then km): ", default = here }, function(text)
    if text == nil then
      return
    elseif not text:match("%S") then
      notify.show("OnTheMap: no place given: nothing listed (type a place, or lat,lon)", vim.log.levels.INFO)
      return
    end
    -- The line's place taken as offered is a place, whole: "Paris 75001" is no radius of 75,001 km.
    if here and vim.trim(text) == vim.trim(here) then
      require("onthemap").near(here, nil)
      return
    end
    local where, why = place.read(vim.split(vim.trim(text), "%s+"))
    if not where then
      notify.show("OnTheMap: " .. why, vim.log.levels.ERROR)
      return
    end
    require("onthemap").near(where.text, where.km)
  end)
end

--- The keys of a list besides <CR>, r, q and g?: what else it reaches, as octo.nvim's g? lists
--- every action of its buffer. n and N stay Vim's search, so near is gn.
local function list_keys(buf)
  buffer.map(buf, "y", function()
    M.yank(buffer.item_under_cursor(buf))
  end, 'copy the link on this line (to the " register, and + where there is a clipboard)')
  buffer.map(buf, "p", function()
    require("onthemap").post()
  end, "post or move your pin (:OnTheMapPost)")
  buffer.map(buf, "s", ask_search, "search the students by name or place (:OnTheMap search)")
  buffer.map(buf, "gn", function()
    ask_near(buffer.item_under_cursor(buf))
  end, "the students near a place, this line's offered (:OnTheMap near)")
  buffer.map(buf, "m", function()
    require("onthemap").map()
  end, "the map of the students (:OnTheMap map)")
end

--- The list buffer `name`, shown, with its keys and `load(refresh, quiet)` behind r, a login and
--- a change of the daemon's list.
local function list_buffer(name, load)
  local buf = buffer.show(name, {
    keys = list_keys,
    reload = function()
      load(true)
    end,
    on_enter = function(student)
      open.open(student.mediaURL, format.name(student), student.mediaURLDropped)
    end,
  })
  follow.add(buf, {
    reload = function()
      load(false)
    end,
    clear = function()
      show_problem(buf, rpc.in_editor_words(rpc.codes.not_logged_in, ""))
    end,
    changed = function()
      -- Only a list that shows students: a problem shown (a place not found) stays until r.
      if shown[buf] and buffer.generation(buf) == shown[buf].generation then
        load(false, true)
      end
    end,
  })
  follow_layout()
  return buf
end

--- `:OnTheMap`: the newest students; with `search`, those whose name or place match its words (case
--- and accents ignored, as the CLI's --search).
function M.students(search)
  local buf
  buf = list_buffer(search and "onthemap://search" or "onthemap://students", function(refresh, quiet)
    (refresh and refresh_then_fetch or fetch)(buf, { limit = config.options.limit, search = search }, nil, search, quiet)
  end)
  loading(buf, "Loading students…")
  fetch(buf, { limit = config.options.limit, search = search }, nil, search)
  return buf
end

--- `:OnTheMap near {place} [km]`: `text` is a place name (geocoded by the daemon) or "lat,lon". A
--- lookup that failed is tried again by r (and by a login).
function M.near(text, km)
  local buf
  local near
  local function look_up()
    buffer.set(buf, { "Looking up " .. text .. "…" }, {}, { { "Comment", 0, 0, -1 } }, M.namespace)
    header.keep(buf, 0, M.namespace)
    local point, why = place.coordinates(text)
    if why then
      failed(buf, { message = why })
      return
    end
    if point then
      near = { latitude = point.latitude, longitude = point.longitude, label = text, km = km }
      fetch(buf, { limit = config.options.limit, near = { latitude = near.latitude, longitude = near.longitude, radiusKm = km } }, near)
      return
    end
    rpc.request("geocode", { query = text, limit = 1 }, function(err, result)
      if not vim.api.nvim_buf_is_valid(buf) then
        return
      end
      local match = result and result.results and result.results[1]
      if err or not match then
        failed(buf, err or { message = ('No place matches "%s".'):format(text) })
        return
      end
      near = { latitude = match.latitude, longitude = match.longitude, label = format.place(match), km = km }
      fetch(buf, { limit = config.options.limit, near = { latitude = near.latitude, longitude = near.longitude, radiusKm = km } }, near)
    end)
  end
  buf = list_buffer("onthemap://near", function(refresh, quiet)
    if not near then
      look_up()
    else
      local params = { limit = config.options.limit }
      params.near = { latitude = near.latitude, longitude = near.longitude, radiusKm = near.km }
      ;(refresh and refresh_then_fetch or fetch)(buf, params, near, nil, quiet)
    end
  end)
  look_up()
  return buf
end

return M
