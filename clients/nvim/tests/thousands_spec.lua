-- Counts of thousands, grouped by three as the CLI writes them ("10,000"): against a server of
-- 10,001 students and a daemon caching 1,100 (Tests/OnTheMapEditorTests, EditorTestBed.thousands),
-- the statusline, :checkhealth, the lists' first lines and their notes. Run on its own (run.lua
-- leaves it out): ONTHEMAP_TEST_ONLY=thousands_spec, with ONTHEMAP_SOCKET naming that daemon.
local t = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "helpers.lua")
local onthemap = require("onthemap")

onthemap.setup({ timeout_ms = 60000, reconnect_ms = 200, opener = function() end })
-- Wide enough for a search's first line whole: at 80 columns its end is cut with "…".
vim.o.columns = 160

--- Waits until the first line of `buf` matches `pattern` (a Lua pattern, anchored by the caller).
local function first_line_matches(buf, pattern, what)
  t.wait(60000, function()
    return (t.lines(buf)[1] or ""):find(pattern) ~= nil
  end, function()
    return what .. ", got " .. vim.inspect(t.lines(buf)[1])
  end)
end

--- Runs `body` in the list `command` opens, then wipes it out.
local function in_list(command, body)
  vim.cmd(command)
  local buf = vim.api.nvim_get_current_buf()
  t.finally(function()
    body(buf)
  end, function()
    vim.cmd("bwipeout " .. buf)
  end)
end

return {
  {
    "the statusline and :checkhealth group the 1,100 cached by three",
    function()
      vim.fn.system({ t.env.ONTHEMAP_TEST_CLI, "login", "--username", t.env.ONTHEMAP_TEST_EMAIL, "--password-stdin" },
        t.env.ONTHEMAP_TEST_PASSWORD .. "\n")
      t.eq(vim.v.shell_error, 0, "the CLI's login")
      t.wait(60000, function()
        return onthemap.statusline():find("^📍 1,100") ~= nil
      end, function()
        return "📍 1,100 in the statusline, got " .. onthemap.statusline()
      end)
      local text = t.health()
      t.ok(text:find("; 1,100 students cached; ", 1, true), "the count cached:\n" .. text)
    end,
  },
  {
    "a list's first line groups its count and total; a search's note groups the newest 10,000",
    function()
      in_list("OnTheMap", function(buf)
        first_line_matches(buf, "^100 of 1,100 students, newest first · ", "the newest list")
      end)
      -- A search needs the whole list: the daemon asks the server for the newest 10,000 (of 10,001).
      in_list("OnTheMap search a", function(buf)
        first_line_matches(buf, '^[%d,]+ of %d?%d?%d,%d%d%d students %(only the newest 10,000 looked at%) matching "a"',
          "the search's note")
      end)
    end,
  },
  {
    "with the server out of reach, the note groups the 1,100 cached looked at",
    function()
      t.control("server-stop", "server-stopped")
      t.finally(function()
        in_list("OnTheMap search a", function(buf)
          first_line_matches(buf, '^[%d,]+ of [%d,]+ students %(server unreachable: only the 1,100 cached looked at%) matching "a"',
            "the search's note")
        end)
      end, function()
        t.control("server-start", "server-started")
      end)
    end,
  },
}
