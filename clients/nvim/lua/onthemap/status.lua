-- The statusline's source: one persistent connection subscribed to `statusChanged`, so the text is
-- always current without polling. It hears `studentsChanged` too, for the open lists
-- (onthemap.follow). When the daemon goes away the text says "offline" and the connection is tried
-- again, every `reconnect_ms` doubling up to 30 s, until the daemon is back; a daemon of another
-- user at the socket (not permitted to connect, or it answers -32010 and ends the connection) is "refused",
-- tried again the same way (your own may be started on that path later);
-- meanwhile each socket path is looked at once a second, so a daemon that starts (and binds its
-- socket) is seen at once, not at the end of a long wait.
local config = require("onthemap.config")
local format = require("onthemap.format")
local rpc = require("onthemap.rpc")
local socket = require("onthemap.socket")

local uv = vim.loop
local M = {}

--- "idle" (not started), "connecting", "online", "offline" or "refused" (the daemon at the socket
--- is another user's).
M.state = "idle"
--- The daemon's last `status` result (docs/PROTOCOL.md), or nil.
M.status = nil

local pipe, retry_timer, answer_timer, quiet_timer
-- The connection whose first status was handled (nil before the first): the open lists and maps
-- were told to fetch again then, on a reconnection (see `receive`). Kept by M.stop: what is open
-- may have missed a change while stopped.
local caught_up
local delay
-- After `M.quiet_ms` without a word, the daemon is asked for its status: a stopped or stuck daemon
-- sends no news, and the statusline stayed green while `onthemap status` said offline (`onthemap
-- watch` asks too). A field so tests can shorten it.
M.quiet_ms = 30000
-- A connection is being made (by the timer or the watch): one at a time.
local connecting = false
-- uv.fs_poll handles on the socket paths, while offline.
local polls = {}
-- The attempt under way followed a new socket file: if it fails (the daemon has bound its socket
-- but does not listen yet), the next comes soon, not after the delay.
local soon = false

-- Touched from luv callbacks: redraws and the User autocommand wait for the main loop.
local function changed()
  vim.schedule(function()
    pcall(vim.cmd, "redrawstatus!")
    pcall(vim.api.nvim_exec_autocmds, "User", { pattern = "OnTheMapStatus", modeline = false })
  end)
end

-- The open lists and maps fetch again (onthemap.follow), on the main loop.
local function students_changed()
  vim.schedule(function()
    pcall(vim.api.nvim_exec_autocmds, "User", { pattern = "OnTheMapStudents", modeline = false })
  end)
end

local function stop_timer(timer)
  if timer and not timer:is_closing() then
    timer:stop()
    timer:close()
  end
end

local connect, drop

local function unwatch()
  for _, poll in ipairs(polls) do
    if not poll:is_closing() then
      poll:stop()
      poll:close()
    end
  end
  polls = {}
  soon = false
end

-- Looks at each socket path once a second while offline: when the file appears or is replaced, a
-- daemon has just bound it, so connect now and start the delays over. A stat a second (uv.fs_poll),
-- not an inotify watch on the directory: the directory may not exist until the first daemon makes
-- it. Kept across failed attempts, so a change during one is not missed.
local function watch_sockets()
  if #polls > 0 then
    return
  end
  for _, path in ipairs(socket.candidates()) do
    local poll = uv.new_fs_poll()
    -- Called when the file's stat changes; with an error while it does not exist.
    local ok = poll:start(path, 1000, function(err)
      if err or not M.running or pipe then
        return
      end
      delay = config.options.reconnect_ms
      soon = true
      if not connecting then
        stop_timer(retry_timer)
        retry_timer = nil
        connect()
      end
    end)
    if ok then
      polls[#polls + 1] = poll
    else
      poll:close()
    end
  end
end

--- Expects the status asked for on `connected` within timeout_ms; none, the daemon counts as
--- offline (`drop`), and the connection is made again.
local function expect_answer(connected)
  stop_timer(answer_timer)
  answer_timer = uv.new_timer()
  answer_timer:start(config.options.timeout_ms, 0, function()
    if pipe == connected then
      drop()
    end
  end)
end

--- A word from the daemon on `connected`: it is asked again after a quiet `M.quiet_ms`.
local function heard(connected)
  stop_timer(quiet_timer)
  quiet_timer = uv.new_timer()
  quiet_timer:start(M.quiet_ms, 0, function()
    if pipe == connected and not connected:is_closing() then
      connected:write('{"jsonrpc":"2.0","id":2,"method":"status"}\n')
      expect_answer(connected)
    end
  end)
end

--- Closes the connection, and the timers that wait on it.
local function close()
  if pipe and not pipe:is_closing() then
    pipe:close()
  end
  pipe = nil
  stop_timer(answer_timer)
  answer_timer = nil
  stop_timer(quiet_timer)
  quiet_timer = nil
end

--- Closes the connection and tries again later; the text says `state` meanwhile: "offline" (the
--- default), or "refused" (the daemon there is another user's).
drop = function(state)
  state = state or "offline"
  close()
  if not M.running then
    return
  end
  local was = M.state
  M.state, M.status = state, nil
  if was ~= state then
    changed()
  end
  stop_timer(retry_timer)
  retry_timer = uv.new_timer()
  retry_timer:start(soon and 250 or delay, 0, function()
    connect()
  end)
  soon = false
  delay = math.min(delay * 2, 30000)
  watch_sockets()
end

local function receive(line)
  local ok, message = pcall(rpc.decode, line)
  if not ok or type(message) ~= "table" then
    return
  end
  heard(pipe)
  if message.id == 2 and message.result then
    stop_timer(answer_timer)
    answer_timer = nil
    delay = config.options.reconnect_ms
    M.state, M.status = "online", message.result
    changed()
    if caught_up ~= pipe then
      -- A connection's first status after another's: while none was open (a daemon restarted),
      -- the list may have changed with nobody subscribed to hear it, and this status's
      -- refreshedAt would say "refreshed just now" over the rows shown. The open lists and maps
      -- fetch again, quietly, as on `studentsChanged`, once the status is handled. Not on the
      -- first connection of all: it is made by the first command, whose own request is under
      -- way, and a map opened first was asked for (and drawn) twice.
      local reconnected = caught_up ~= nil
      caught_up = pipe
      if reconnected then
        students_changed()
      end
    end
  elseif message.method == "statusChanged" and message.params then
    M.state, M.status = "online", message.params
    changed()
  elseif message.method == "studentsChanged" then
    students_changed()
  elseif message.error and message.error.code == rpc.codes.refused then
    drop("refused") -- another user's daemon, which ends the connection after saying so
  elseif message.error then
    drop() -- a daemon too old to subscribe: treated as absent
  end
end

connect = function()
  if not M.running or connecting or pipe then
    return
  end
  connecting = true
  rpc.connect(function(connected)
    connecting = false
    if not M.running then
      connected:close()
      return
    end
    pipe = connected
    unwatch()
    -- A daemon that accepts but never answers (stopped, hung) counts as offline.
    expect_answer(connected)
    local feed = rpc.line_splitter(receive)
    connected:write(
      '{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"events":["status","students"]}}\n'
        .. '{"jsonrpc":"2.0","id":2,"method":"status"}\n'
    )
    connected:read_start(function(err, chunk)
      if pipe ~= connected then
        return
      end
      if err or not chunk then
        drop()
      else
        feed(chunk)
      end
    end)
  end, function(err)
    connecting = false
    drop(err and err.refused and "refused" or "offline")
  end)
end

--- Starts the subscription (once; later calls do nothing).
function M.start()
  if M.running then
    return
  end
  M.running = true
  delay = config.options.reconnect_ms
  M.state = "connecting"
  -- Not from inside a statusline evaluation: the connection starts on the next loop turn.
  vim.schedule(connect)
end

--- Closes the subscription; the statusline then starts it again when next drawn.
function M.stop()
  M.running = false
  unwatch()
  stop_timer(retry_timer)
  retry_timer = nil
  close()
  M.state, M.status = "idle", nil
end

--- The most characters of your pin's place the statusline shows, as the CLI's bars
--- (`onthemap status --format waybar`): "Llanfairpwllgwyngyll" fits.
M.place_length = 24

--- Your pin's place as the CLI's bars show it: its name before the region and country
--- ("Springfield" of "Springfield, Ohio, United States"), cut to `M.place_length` characters with
--- "…" when it has no comma early enough. A character is one with its combining marks, as the CLI
--- counts them.
function M.short_place(place)
  local name = place:match("^[^,]*")
  if vim.fn.strchars(name, 1) <= M.place_length then
    return name
  end
  local characters = vim.fn.split(name, "\\zs")
  return table.concat(characters, "", 1, M.place_length - 1) .. "…"
end

--- The statusline text, by the rule of the CLI's bars: "📍 100 · Munich", "📍 100 · Munich !"
--- (stale: the daemon could not refresh the list lately), "📍 …" (connecting, or logged in and the
--- list not fetched yet), "📍 logged out", "📍 offline", "📍 refused" (the daemon at the socket is
--- another user's: a command says whose, and how to use your own).
function M.text()
  M.start()
  local icon = config.options.icon
  if M.state == "offline" then
    return icon .. " offline"
  elseif M.state == "refused" then
    return icon .. " refused"
  end
  local status = M.status
  if not status then
    return icon .. " …"
  end
  if not status.loggedIn then
    return icon .. " logged out"
  end
  local students = status.students or {}
  -- Just logged in: no count yet, rather than a "0" that is not one.
  if students.refreshedAt == nil and students.lastError == nil then
    return icon .. " …"
  end
  local text = icon .. " " .. format.grouped(students.count or 0)
  if status.myPin and status.myPin.mapString then
    text = text .. " · " .. M.short_place(format.clean(status.myPin.mapString))
  end
  if students.stale then
    text = text .. " !"
  end
  return text
end

return M
