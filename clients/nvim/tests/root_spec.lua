-- What only root can set up: a socket file of another user (nobody). Not in run.lua's default list:
-- Tests/OnTheMapEditorTests runs it on its own (ONTHEMAP_TEST_ONLY=root_spec) in a Swift test enabled
-- only as root, which Swift Testing reports as skipped, with the reason, for anyone else.
local t = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "helpers.lua")
local onthemap = require("onthemap")

return {
  {
    "a socket file of another user is refused before anything is sent",
    function()
      local foreign = t.env.ONTHEMAP_TEST_FOREIGN_SOCKET
      onthemap.setup({ socket = foreign, timeout_ms = 10000, opener = function() end })
      local from = #t.notifications + 1
      vim.cmd("OnTheMapLogout")
      local note = t.notified("uid 65534", 3000, from)
      t.fits(note)
      t.ok(note.message:lower():find("nothing was sent", 1, true), note.message)
      local text = t.health()
      t.ok(text:find("refusing the socket " .. foreign .. ": it belongs to uid 65534", 1, true), text)
      -- Not a daemon that is away: refused, as another user's daemon is.
      t.wait(15000, function()
        return onthemap.statusline() == "📍 refused"
      end, function()
        return "📍 refused in the statusline, got " .. onthemap.statusline()
      end)
    end,
  },
}
