-- Opening a link when no browser is set up: xdg-open gives up (exit 3, "no method available", as it
-- does on a machine with no desktop), and the user is told. The xdg-open here is a script that fails
-- that way, first on PATH: the real one's outcome depends on the machine's desktop settings.
local t = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "helpers.lua")
local onthemap = require("onthemap")
local open = require("onthemap.open")

return {
  {
    "a link xdg-open cannot open is reported",
    function()
      if vim.ui.open then
        return -- Neovim 0.10+ opens with vim.ui.open, which reports its own failures
      end
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
      local ok, started = pcall(open.open, "https://ada.example/open")
      vim.env.PATH = path
      t.ok(ok and started, "xdg-open started: " .. tostring(started))
      local note = t.notified("xdg-open found no browser", 10000, from)
      t.eq(note.level, vim.log.levels.ERROR, "an error")
      t.ok(vim.fn.strdisplaywidth(note.message) <= vim.o.columns - 12, "one line on the command line: " .. note.message)
      -- The whole message, with what to do, in :checkhealth.
      vim.cmd("checkhealth onthemap")
      local text = table.concat(t.lines(0), "\n")
      vim.cmd("bwipeout!")
      t.ok(text:find("xdg-open could not open https://ada.example/open: no browser is set up for this session. Set one up, or the `opener` option", 1, true), text)
    end,
  },
}
