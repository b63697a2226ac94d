-- Opening a link when no browser is set up: xdg-open gives up (exit 3, "no method available", as it
-- does on a machine with no desktop), and the user is told, with the link to open themselves. The
-- xdg-open here is a script that fails that way, first on PATH: the real one's outcome depends on
-- the machine's desktop settings.
local t = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "helpers.lua")
local onthemap = require("onthemap")
local open = require("onthemap.open")

--- Opens `url` with an xdg-open that finds no browser, and returns the error it leads to.
local function open_without_browser(url)
  local bin = vim.fn.tempname()
  vim.fn.mkdir(bin, "p")
  vim.fn.writefile({
    "#!/bin/sh",
    "echo \"xdg-open: no method available for opening '$1'\" >&2",
    "exit 3",
  }, bin .. "/xdg-open")
  vim.fn.setfperm(bin .. "/xdg-open", "rwx------")
  local path = vim.env.PATH
  vim.env.PATH = bin .. ":" .. path
  onthemap.setup({ socket = t.env.ONTHEMAP_SOCKET, opener = nil })
  local from = #t.notifications + 1
  local ok, started = pcall(open.open, url)
  vim.env.PATH = path
  t.ok(ok and started, "xdg-open started: " .. tostring(started))
  local note = t.notified("no browser", 10000, from)
  t.eq(note.level, vim.log.levels.ERROR, "an error")
  t.fits(note)
  return note
end

return {
  {
    "a link xdg-open cannot open is reported, the link in sight",
    function()
      if vim.ui.open then
        return -- Neovim 0.10+ opens with vim.ui.open, which reports its own failures
      end
      -- The link whole on the command line, to open in a browser of one's own (as the CLI shows
      -- it), in a terminal of 80 columns as in a wide one, where xdg-open is named too.
      t.at_widths({ 80, 120 }, function(width)
        local note = open_without_browser("https://ada.example/open")
        t.ok(note.message:find("open https://ada.example/open yourself", 1, true), width .. " columns: " .. note.message)
        if width >= 120 then
          t.eq(note.message, "OnTheMap: xdg-open found no browser: open https://ada.example/open yourself (see :checkhealth onthemap)", "at 120 columns")
        end
      end)
      -- The whole message, with what to do, in :checkhealth.
      local text = t.health()
      t.ok(text:find("xdg-open could not open https://ada.example/open: no browser is set up for this session. Set one up, or the `opener` option", 1, true), text)
    end,
  },
  {
    "a link too long for the command line is cut there, whole in :checkhealth",
    function()
      if vim.ui.open then
        return
      end
      local url = "https://ada.example/" .. ("portfolio/"):rep(20) .. "end"
      t.at_widths({ 80, 120 }, function(width)
        local note = open_without_browser(url)
        t.ok(note.message:find("OnTheMap: no browser: open https://ada.example/portfolio/", 1, true), width .. " columns: " .. note.message)
        t.ok(note.message:find("… yourself", 1, true), width .. " columns, cut: " .. note.message)
        -- Where the whole is, when that leaves room for a good part of the link.
        t.eq(note.message:find("(see :checkhealth onthemap)", 1, true) ~= nil, width >= 120, width .. " columns, pointer: " .. note.message)
      end)
      t.ok(t.health():find("xdg-open could not open " .. url .. ": no browser is set up", 1, true), "the whole link in :checkhealth")
    end,
  },
}
