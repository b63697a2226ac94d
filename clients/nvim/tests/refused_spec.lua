-- Another user's daemon at $ONTHEMAP_SOCKET: root's onthemapd, with this Neovim run as nobody. Not in
-- run.lua's default list: Tests/OnTheMapEditorTests/EditorRefusedTests runs it (ONTHEMAP_TEST_ONLY=
-- refused_spec) as root, against a daemon started as root, twice: its socket as the daemon made it
-- (0600: connecting is not permitted) and opened up (0666: the daemon answers -32010 and closes).
-- Either way the daemon is running and not ours: "📍 refused", and a command says whose it is and how
-- to use your own, never how to start one.
local t = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "helpers.lua")
local onthemap = require("onthemap")
local rpc = require("onthemap.rpc")

local path = t.env.ONTHEMAP_SOCKET
local whose = "the onthemapd at " .. path .. " belongs to another user (uid 0), so it is not yours. "
  .. "To use your own, unset $ONTHEMAP_SOCKET, or set it (or the `socket` option) to your own daemon's socket."

--- No advice to start a daemon, nor "cannot reach", in `text`.
local function no_start_advice(text)
  for _, word in ipairs({ "Start", "start one", "onthemapd --socket", "cannot reach", "not running" }) do
    t.ok(not text:find(word, 1, true), ("%q in: %s"):format(word, text))
  end
end

return {
  {
    "another user's daemon: the statusline says refused, commands and :checkhealth say whose it is",
    function()
      -- Room for the whole sentence on the command line (its shorter forms are for narrow ones).
      vim.o.columns = 400
      onthemap.setup({ timeout_ms = 10000, reconnect_ms = 100, cli = t.env.ONTHEMAP_TEST_CLI, opener = function() end })
      t.wait(15000, function()
        return onthemap.statusline() == "📍 refused"
      end, function()
        return "📍 refused in the statusline, got " .. onthemap.statusline()
      end)

      local from = #t.notifications + 1
      vim.cmd("OnTheMapLogout")
      local note = t.notified("belongs to another user", 15000, from)
      t.eq(note.message, "OnTheMap: logout: " .. whose, "the logout's message")
      no_start_advice(note.message)

      from = #t.notifications + 1
      vim.cmd("OnTheMap")
      local buf = vim.api.nvim_get_current_buf()
      t.wait(15000, function()
        return table.concat(t.lines(buf), " "):find("belongs to another user (uid 0)", 1, true) ~= nil
      end, function()
        return "the list to say whose the daemon is, got " .. table.concat(t.lines(buf), " | ")
      end)
      local shown = table.concat(t.lines(buf), " ")
      t.ok(shown:find("OnTheMap: " .. whose, 1, true), shown)
      no_start_advice(shown)
      note = t.notified("belongs to another user", 15000, from)
      t.eq(note.message, "OnTheMap: " .. whose, "the list's message")
      vim.cmd("bwipeout!")

      local health = t.health()
      t.ok(health:find(whose, 1, true), health)
      no_start_advice(health:gsub("`onthemap` runs: when onthemapd cannot be reached", ""))

      -- It goes on asking (a daemon of yours may be started on that path later), quietly: the
      -- statusline stays refused and nothing more is said.
      local asked, connect = 0, rpc.connect
      rpc.connect = function(...)
        asked = asked + 1
        return connect(...)
      end
      local said = #t.notifications
      t.finally(function()
        t.wait(20000, function()
          return asked >= 3
        end, function()
          return "three more attempts, got " .. asked
        end)
      end, function()
        rpc.connect = connect
      end)
      t.eq(onthemap.statusline(), "📍 refused", "the statusline after more attempts")
      t.eq(#t.notifications, said, "messages while it asks again")
    end,
  },
}
