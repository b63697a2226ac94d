-- A daemon that is not there, and one that accepts connections but never answers (stopped with
-- SIGSTOP): no command may freeze the editor, every one ends with a clear message.
local t = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "helpers.lua")
local onthemap = require("onthemap")

-- A command "returns at once" if it returns well before the request timeout: a blocking call
-- would take the whole timeout (10 s here) or forever.
local timeout_ms = 10000
local quick_ms = 3000

local function use(socket)
  onthemap.setup({ socket = socket, timeout_ms = timeout_ms, reconnect_ms = 200, opener = function() end })
end

--- Proves the event loop runs while a request is pending: a timer set now fires.
local function loop_is_running()
  local fired = false
  vim.defer_fn(function()
    fired = true
  end, 10)
  t.wait(quick_ms, function()
    return fired
  end, "a timer to fire while the request is pending")
end

return {
  {
    "no daemon: :OnTheMap returns at once and says how to start it",
    function()
      local dead = t.env.ONTHEMAP_TEST_DEAD_SOCKET
      use(dead)
      local from = #t.notifications + 1
      local ms = t.time(function()
        vim.cmd("OnTheMap")
      end)
      t.ok(ms < quick_ms, ":OnTheMap took " .. ms .. " ms")
      local note = t.notified("cannot reach onthemapd at " .. dead, quick_ms, from)
      t.ok(note.message:find("onthemapd --socket " .. dead, 1, true), note.message)
      t.ok(note.message:find("systemctl --user start onthemapd.socket", 1, true), note.message)
      t.ok(t.lines(0)[1]:find("cannot reach onthemapd", 1, true), "the buffer says so: " .. t.lines(0)[1])
      t.feed("q")
    end,
  },
  {
    "no daemon: the statusline says offline; checkhealth says no daemon",
    function()
      t.wait(quick_ms, function()
        return onthemap.statusline() == "📍 offline"
      end, "📍 offline, got " .. onthemap.statusline())
      vim.cmd("checkhealth onthemap")
      local text = table.concat(t.lines(0), "\n")
      vim.cmd("bwipeout!")
      t.ok(text:find("onthemapd does not answer: cannot reach onthemapd", 1, true), text)
    end,
  },
  {
    "no daemon: post, login, logout and near each end with the reason",
    function()
      local from = #t.notifications + 1
      t.answer({})
      vim.cmd("OnTheMapPost")
      t.notified("post: cannot reach onthemapd", quick_ms, from)
      from = #t.notifications + 1
      vim.cmd("OnTheMapLogout")
      t.notified("logout: cannot reach onthemapd", quick_ms, from)
      from = #t.notifications + 1
      vim.api.nvim_feedkeys("secret-not-sent\r", "t", false)
      vim.cmd("OnTheMapLogin someone@example.com")
      t.notified("login: cannot reach onthemapd", quick_ms, from)
      from = #t.notifications + 1
      vim.cmd("OnTheMap near Paris")
      t.notified("cannot reach onthemapd", quick_ms, from)
      t.feed("q")
    end,
  },
  {
    "a socket file of another user is refused before anything is sent",
    function()
      local foreign = os.getenv("ONTHEMAP_TEST_FOREIGN_SOCKET")
      if not foreign or foreign == "" then
        io.stdout:write("# skipped: no socket of another user (the test runs as root to make one)\n")
        return
      end
      use(foreign)
      local from = #t.notifications + 1
      vim.cmd("OnTheMapLogout")
      local note = t.notified("refusing the socket " .. foreign .. ": it belongs to uid 65534", quick_ms, from)
      t.ok(note.message:find("Nothing was sent", 1, true), note.message)
    end,
  },
  {
    "a daemon that never answers: :OnTheMap returns at once, the editor keeps running, then a timeout",
    function()
      use(t.env.ONTHEMAP_TEST_HUNG_SOCKET)
      local from = #t.notifications + 1
      local ms = t.time(function()
        vim.cmd("OnTheMap")
      end)
      t.ok(ms < quick_ms, ":OnTheMap took " .. ms .. " ms")
      t.ok(t.lines(0)[1]:find("Loading students", 1, true), "loading: " .. t.lines(0)[1])
      loop_is_running()
      local note = t.notified("onthemapd did not answer students within 10 s", timeout_ms + 20000, from)
      t.eq(note.level, vim.log.levels.ERROR, "an error")
      t.feed("q")
    end,
  },
  {
    "a daemon that never answers: login returns at once and the password goes nowhere",
    function()
      local from = #t.notifications + 1
      vim.api.nvim_feedkeys("hung-secret\r", "t", false)
      local ms = t.time(function()
        vim.cmd("OnTheMapLogin someone@example.com")
      end)
      t.ok(ms < quick_ms, ":OnTheMapLogin took " .. ms .. " ms")
      loop_is_running()
      t.notified("onthemapd did not answer login", timeout_ms + 20000, from)
      t.ok(not vim.fn.execute("messages"):find("hung-secret", 1, true), "the password is in :messages")
      t.ok(not vim.fn.histget("input", -1):find("hung-secret", 1, true), "the password is in the input history")
    end,
  },
  {
    "a daemon that never answers: the statusline gives up waiting and says offline",
    function()
      t.wait(timeout_ms + 20000, function()
        return onthemap.statusline() == "📍 offline"
      end, "📍 offline, got " .. onthemap.statusline())
      onthemap.setup({})
    end,
  },
}
