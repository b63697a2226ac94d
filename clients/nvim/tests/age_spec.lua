-- The students buffer's first line says how fresh the list is ("refreshed 3 min ago"): it is brought
-- up to date by one timer while a list buffer lives, not only when the list is fetched again.
local t = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "helpers.lua")
local onthemap = require("onthemap")
local buffer = require("onthemap.buffer")
local list = require("onthemap.list")

--- A wire timestamp `seconds` ago.
local function ago(seconds)
  return os.date("!%Y-%m-%dT%H:%M:%S.000Z", os.time() - seconds)
end

return {
  {
    "the list's first line keeps its age current; the timer runs while a list lives",
    function()
      onthemap.setup({ header_update_ms = 50 })
      local buf = buffer.show("onthemap://students", {})
      -- A `students` result of the documented shape, as the daemon sent it a moment ago.
      local result = { students = {}, total = 0, refreshedAt = ago(0) }
      list.render(buf, result)
      t.ok(t.lines(buf)[1]:find("0 of 0 students, newest first · refreshed just now", 1, true), t.lines(buf)[1])
      t.ok(list.header_timer, "a timer runs while the list lives")
      local generation = buffer.generation(buf)
      -- Time passes: the cache this list shows was refreshed three minutes ago.
      result.refreshedAt = ago(180)
      t.wait(5000, function()
        return t.lines(buf)[1]:find("refreshed 3 min ago", 1, true) ~= nil
      end, "the first line to say 3 min ago, got " .. vim.inspect(t.lines(buf)[1]))
      t.eq(buffer.generation(buf), generation, "the same list: only its age changed")
      t.eq(vim.api.nvim_buf_get_option(buf, "modified"), false, "not modified")
      -- A list that failed to load keeps its message.
      buffer.set(buf, { "OnTheMap: cannot reach onthemapd" }, {}, {}, list.namespace)
      vim.wait(200)
      t.eq(t.lines(buf)[1], "OnTheMap: cannot reach onthemapd", "the error stays")
      buffer.close(buf)
      t.wait(5000, function()
        return list.header_timer == nil
      end, "the timer to stop with the last list")
      onthemap.setup({})
    end,
  },
}
