-- Pure parts: text helpers and map painting from a result of the documented shape.
local t = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "helpers.lua")
local format = require("onthemap.format")
local map = require("onthemap.map")
local buffer = require("onthemap.buffer")

return {
  {
    "columns align by display width, wide characters included",
    function()
      local lines = format.columns({ { "NAME", "PLACE", "LINK" }, { "Ada", "東京", "https://a" }, { "Grace Hopper", "Köln", "x" } })
      local link_column = vim.fn.strdisplaywidth(lines[1]:sub(1, lines[1]:find("LINK") - 1))
      t.eq(vim.fn.strdisplaywidth(lines[2]:sub(1, lines[2]:find("https") - 1)), link_column, "row 2's link column")
      t.eq(vim.fn.strdisplaywidth(lines[3]:sub(1, lines[3]:find(" x$"))), link_column, "row 3's link column")
      t.eq(format.truncate("abcdefghij", 5), "abcd…", "truncated")
      t.eq(format.clean("a\nb\tc\27[31m"), "a b c [31m", "control characters")
    end,
  },
  {
    "the link prompt: a link pasted after the default replaces it; no scheme gets https://",
    function()
      t.eq(format.typed_link("https://old.example/ahttps://new.example/b", "https://old.example/a"), "https://new.example/b", "pasted after the default")
      t.eq(format.typed_link("https://old.example/a HTTPS://New.example/b", "https://old.example/a"), "HTTPS://New.example/b", "pasted after a space, in capitals")
      t.eq(format.typed_link("https://old.example/a/more", "https://old.example/a"), "https://old.example/a/more", "the default edited")
      t.eq(format.typed_link("  example.com/x ", nil), "https://example.com/x", "no scheme")
      t.eq(format.typed_link("http://example.com", nil), "http://example.com", "http kept")
      t.eq(format.typed_link("https://a.example/?u=https://b.example", nil), "https://a.example/?u=https://b.example", "a link inside a link")
      t.eq(format.typed_link("", "https://old.example"), nil, "nothing typed")
      t.eq(format.typed_link(nil, nil), nil, "cancelled")
    end,
  },
  {
    "ages",
    function()
      local now = format.parse_time("2026-11-22T12:00:00.000Z")
      t.eq(format.age("2026-11-22T11:59:30.000Z", now), "just now", "30 s")
      t.eq(format.age("2026-11-22T11:55:00.000Z", now), "5 min ago", "5 min")
      t.eq(format.age("2026-11-21T09:00:00.000Z", now), "1 d ago", "27 h")
      t.eq(format.age("garbage", now), "—", "unreadable")
      t.eq(format.parse_time("1970-01-02T00:00:00Z"), 86400, "epoch + 1 day")
    end,
  },
  {
    "a near list shows the daemon's distanceKm, never one of its own",
    function()
      local list = require("onthemap.list")
      -- Distances no sphere gives for these coordinates: only the daemon's value can show them.
      local result = {
        students = {
          { firstName = "Ada", lastName = "L", mapString = "Berlin", mediaURL = "https://a.example", latitude = 52.52, longitude = 13.405, distanceKm = 1234.4 },
          { firstName = "Alan", lastName = "T", mapString = "Paris", mediaURL = "https://b.example", latitude = 48.8566, longitude = 2.3522, distanceKm = 7.6 },
          { firstName = "Kim", lastName = "H", mapString = "Hamburg", mediaURL = "https://c.example", latitude = 53.55, longitude = 9.99, distanceKm = 252.5 },
          { firstName = "Old", lastName = "Daemon", mapString = "Oslo", mediaURL = "https://d.example", latitude = 59.91, longitude = 10.75 },
        },
        total = 4,
      }
      local buf = vim.api.nvim_create_buf(false, true)
      list.render(buf, result, { latitude = 52.52, longitude = 13.405, label = "Berlin", km = 2000 })
      local lines = t.lines(buf)
      -- Wiped before checking: a list left behind would keep the header timer for the next specs.
      vim.api.nvim_buf_delete(buf, { force = true })
      t.ok(lines[2]:find("^NAME%s+PLACE%s+KM%s+LINK%s+UPDATED$"), "header: " .. lines[2])
      t.ok(lines[3]:find("Berlin%s+1234%s+https://a%.example"), "the daemon's 1234.4 km: " .. lines[3])
      t.ok(lines[4]:find("Paris%s+8%s+https://b%.example"), "the daemon's 7.6 km: " .. lines[4])
      t.ok(lines[5]:find("Hamburg%s+253%s+https://c%.example"), "the daemon's 252.5 km, rounded as the CLI does: " .. lines[5])
      t.ok(lines[6]:find("Oslo%s+https://d%.example"), "no distanceKm, no distance: " .. lines[6])
    end,
  },
  {
    "a map result is painted with one highlight group per style code",
    function()
      -- The shape of the daemon's `map` result: rows and styles of equal cells, pins, view.
      local result = {
        rows = { "⠀⣿⣿⠀2⠀", "⠀⣿⠁⠀⠀⠀" },
        styles = { " llbc ", " lm   " },
        pins = {
          { n = 1, row = 0, col = 4, firstName = "Ada", lastName = "L", mapString = "Munich", mediaURL = "https://a.example", mine = false },
          { n = 2, row = 0, col = 4, firstName = "Alan", lastName = "T", mapString = "Munich", mediaURL = "https://b.example", mine = false },
          { n = 3, row = 1, col = 2, firstName = "Me", lastName = "Myself", mapString = "Köln", mediaURL = "https://me.example", mine = true },
        },
        view = { west = -180, south = -85, east = 180, north = 85, zoom = 1 },
      }
      local buf = map.buffer()
      map.render(buf, result)
      local lines = t.lines(buf)
      t.eq(lines[1], result.rows[1], "row 1")
      t.eq(lines[2], result.rows[2], "row 2")
      t.ok(lines[4]:find("3 pins in view", 1, true), "the legend's title: " .. lines[4])
      t.ok(lines[7]:find("Me Myself (you)", 1, true) and lines[7]:find("https://me.example", 1, true), "your pin in the legend: " .. lines[7])
      local marks = vim.api.nvim_buf_get_extmarks(buf, map.namespace, 0, -1, { details = true })
      local painted = {}
      for _, mark in ipairs(marks) do
        local row, col, details = mark[2], mark[3], mark[4]
        if row < 2 then
          painted[#painted + 1] = { row, col, details.end_col, details.hl_group }
        end
      end
      -- Braille cells are 3 bytes each; "2" is 1 byte.
      t.eq(painted, {
        { 0, 3, 9, "OnTheMapLand" },
        { 0, 9, 12, "OnTheMapCoast" },
        { 0, 12, 13, "OnTheMapCluster" },
        { 1, 3, 6, "OnTheMapLand" },
        { 1, 6, 9, "OnTheMapMyPin" },
      }, "highlights of the map rows")
      -- <CR> on a legend line opens that pin; on a map cell with two pins it asks which.
      local opened = {}
      require("onthemap").setup({ opener = function(url) opened[#opened + 1] = url end })
      vim.api.nvim_win_set_cursor(0, { 7, 0 })
      t.feed("<CR>")
      t.eq(opened, { "https://me.example" }, "opened from the legend")
      t.answer({ function(items) return items[2] end })
      vim.api.nvim_win_set_cursor(0, { 1, 12 })
      t.feed("<CR>")
      t.wait(2000, function() return #opened == 2 end, "the chosen pin's link")
      t.eq(opened[2], "https://b.example", "opened from the map cell")
      require("onthemap").setup({})
      buffer.close(buf)
      t.ok(not vim.api.nvim_buf_is_valid(buf), "q closes the buffer")
    end,
  },
  {
    "the socket is found as the CLI finds it",
    function()
      local socket = require("onthemap.socket")
      local saved = { vim.env.ONTHEMAP_SOCKET, vim.env.XDG_RUNTIME_DIR }
      local uid = vim.loop.getuid()
      vim.env.ONTHEMAP_SOCKET = nil
      vim.env.XDG_RUNTIME_DIR = "/run/user/4242"
      t.eq(socket.candidates(), {
        "/run/user/4242/onthemap/onthemapd.sock",
        "/run/user/" .. uid .. "/onthemap/onthemapd.sock",
        "/tmp/onthemap-" .. uid .. "/onthemapd.sock",
      }, "with XDG_RUNTIME_DIR")
      vim.env.XDG_RUNTIME_DIR = nil
      t.eq(socket.candidates(), { "/run/user/" .. uid .. "/onthemap/onthemapd.sock", "/tmp/onthemap-" .. uid .. "/onthemapd.sock" }, "without")
      vim.env.ONTHEMAP_SOCKET = "/somewhere/d.sock"
      t.eq(socket.candidates(), { "/somewhere/d.sock" }, "$ONTHEMAP_SOCKET alone")
      require("onthemap").setup({ socket = "/option/d.sock" })
      t.eq(socket.candidates(), { "/option/d.sock" }, "the option first")
      require("onthemap").setup({})
      vim.env.ONTHEMAP_SOCKET, vim.env.XDG_RUNTIME_DIR = saved[1], saved[2]
      t.eq(socket.reason("ECONNREFUSED: connection refused"), "Connection refused", "luv's error as strerror says it")
      t.eq(socket.reason("ECONNREFUSED"), "Connection refused", "0.7's connect callback: the code alone")
      t.eq(socket.reason("ENOENT"), "No such file or directory", "no socket file")
    end,
  },
  {
    "a message too wide for the command line is shortened to one line that points to the whole",
    function()
      local notify = require("onthemap.notify")
      local long = "OnTheMap: " .. string.rep("word ", 30)
      t.eq(notify.shorten("OnTheMap: short", { "unused" }, 68), "OnTheMap: short", "a message that fits is left alone")
      t.eq(notify.shorten(long, { "OnTheMap: " .. string.rep("x", 60), "OnTheMap: summary" }, 68), "OnTheMap: summary (see :checkhealth onthemap)", "the first summary that fits with the pointer")
      t.eq(notify.shorten(long, { "OnTheMap: " .. string.rep("x", 50) }, 68), "OnTheMap: " .. string.rep("x", 50), "else a summary that fits alone")
      local cut = notify.shorten("OnTheMap: " .. string.rep("東京 ", 40), nil, 68)
      t.ok(vim.fn.strdisplaywidth(cut) <= 68 and vim.endswith(cut, "… (see :checkhealth onthemap)"), "else the text cut, wide characters counted: " .. cut)
    end,
  },
  {
    ":OnTheMap with unknown arguments says how to use it",
    function()
      local from = #t.notifications + 1
      vim.cmd("OnTheMap frobnicate")
      t.notified("usage: :OnTheMap", 1000, from)
    end,
  },
}
