-- What other people write never reaches the screen as it is: against a daemon whose upstream
-- stores escape sequences, NUL, BEL, C1 controls, bidi overrides and "Zalgo" marks in names, places and links
-- (Tests/OnTheMapEditorTests/HostileUpstream.swift), every buffer line, message and statusline is
-- free of them, and no link with a control character is opened. Run on its own (run.lua leaves it
-- out): ONTHEMAP_TEST_ONLY=hostile_spec, with ONTHEMAP_SOCKET naming that daemon.
local t = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "helpers.lua")
local onthemap = require("onthemap")
local buffer = require("onthemap.buffer")
local format = require("onthemap.format")

local opened = {}
onthemap.setup({
  timeout_ms = 60000,
  reconnect_ms = 200,
  cli = t.env.ONTHEMAP_TEST_CLI,
  opener = function(url)
    opened[#opened + 1] = url
  end,
})

--- The first character of `text` that must not reach a screen (C0, DEL, C1, U+2028/2029, bidi
--- embeddings, overrides, isolates and marks), or nil. Written apart from the plugin's own check.
local function unsafe(text)
  for _, pattern in ipairs({ "[%z\1-\31\127]", "\194[\128-\159]", "\226\128[\168-\174]", "\226\129[\166-\169]", "\226\128[\142\143]", "\216\156" }) do
    local at = text:find(pattern)
    if at then
      return at
    end
  end
end

local function all_safe(lines, where)
  for index, line in ipairs(lines) do
    t.ok(not unsafe(line), ("%s, line %d, shows %s"):format(where, index, vim.inspect(line)))
  end
end

local function notifications_safe()
  for _, note in ipairs(t.notifications) do
    t.ok(not unsafe(note.message), "a message shows " .. vim.inspect(note.message))
  end
end

--- The line of `buf` whose item (a student, a pin) has the objectId `id`: the upstream's
--- records are o0 (escapes), o1 (NUL, C1, an override in the link), o2 (yours), o3 (plain).
local function line_of(buf, id)
  for line, item in pairs(buffer.state[buf].items) do
    if item.objectId == id then
      return line
    end
  end
end

return {
  {
    "logged in: the account's name is shown cleaned",
    function()
      local from = #t.notifications + 1
      vim.api.nvim_feedkeys(t.env.ONTHEMAP_TEST_PASSWORD .. "\r", "t", false)
      vim.cmd("OnTheMapLogin " .. t.env.ONTHEMAP_TEST_EMAIL)
      local note = t.notified("logged in as Ada", 60000, from)
      t.after_prompts()
      t.ok(not unsafe(note.message), "the login message: " .. vim.inspect(note.message))
      -- The escape as U+FFFD, the override in "Love\u{202E}lace" dropped.
      t.ok(note.message:find("logged in as Ada\239\191\189[31m Lovelace", 1, true), "the escape shown as U+FFFD, the override dropped: " .. note.message)
    end,
  },
  {
    "every name, place and link is shown as the CLI shows it (its --tsv, DisplayText)",
    function()
      local records = t.cli_json({ "students" })
      local rows = vim.split(vim.trim(t.cli({ "students", "--tsv" })), "\n", { plain = true })
      local columns = vim.split(table.remove(rows, 1), "\t", { plain = true })
      t.eq(#rows, #records, "as many rows as records: " .. vim.inspect(rows))
      t.ok(#records >= 3, "the upstream's records: " .. vim.inspect(records))
      local hostile = 0
      for index, record in ipairs(records) do
        local shown = {}
        for column, value in ipairs(vim.split(rows[index], "\t", { plain = true })) do
          shown[columns[column]] = value
        end
        t.eq(shown.objectId, record.objectId, "the same order")
        for _, field in ipairs({ "firstName", "lastName", "mapString", "mediaURL" }) do
          -- The CLI's, with what shows as nothing dropped (format.clean's one step more).
          t.eq(format.clean(record[field]), format.without_invisible(shown[field]), ("%s's %s (%s)"):format(record.objectId, field, vim.inspect(record[field])))
          if format.clean(record[field]) ~= record[field] then
            hostile = hostile + 1
          end
        end
      end
      t.ok(hostile >= 6, "the upstream's fields with controls, overrides and line breaks were compared: " .. hostile)
    end,
  },
  {
    "the list shows every name, place and link cleaned; the titles' float too",
    function()
      local buf = onthemap.students()
      t.wait(60000, function()
        return buffer.generation(buf) >= 1 and (t.lines(buf)[1] or ""):find("^%d+ of %d+ students") ~= nil
      end, "the list: " .. vim.inspect(t.lines(buf)))
      local lines = t.lines(buf)
      t.eq(#lines, 2 + 4, "four students: " .. vim.inspect(lines))
      all_safe(lines, "the list")
      local text = table.concat(lines, "\n")
      t.ok(text:find("Eve\239\191\189[2J", 1, true), "the ESC is shown as U+FFFD: " .. text)
      t.ok(text:find("Eve\239\191\189[2J\239\191\189[1;31m gnp", 1, true), "the override before \"gnp.exe\" is dropped: " .. text)
      t.ok(text:find("Lima  Peru\239\191\189", 1, true), "CR and LF shown as spaces, BEL as U+FFFD: " .. text)
      t.ok(text:find("Plain Person", 1, true), "a plain name as it is, its U+200B dropped")
      -- Zero-width characters are dropped, not drawn "<200b>", "<200d>" (audit6 item 7): the ZWJ
      -- family is its three emoji, and nothing on a line is one Neovim cannot draw.
      t.ok(text:find("Tokyo \240\159\145\169\240\159\145\169\240\159\145\167, Japan", 1, true), "the family's joiners dropped: " .. text)
      for index, line in ipairs(lines) do
        t.eq(vim.fn.strtrans(line), line, "line " .. index .. " drawn as it is")
      end
      -- "Zalgo": of the twelve marks on the Z, four are shown, as by the CLI.
      local z = "Z" .. ("\204\182"):rep(4)
      t.ok(text:find(z, 1, true) and not text:find(z .. "\204\182", 1, true), "four marks on the Z: " .. text)
      -- Your own row, as the daemon marks it (`mine`): with the list, not once the status comes.
      t.ok((t.lines(buf)[line_of(buf, "o2")] or ""):find("(you)", 1, true), "your row marked: " .. vim.inspect(t.lines(buf)))
      -- Scrolled, the summary and titles are copied into a float: from the cleaned lines.
      -- (Headless, nothing is drawn, so the float is brought up to date by hand.)
      vim.cmd("split | resize 4")
      vim.cmd("normal! G")
      require("onthemap.header").refresh()
      local float = t.ok(require("onthemap.header").float_of(vim.api.nvim_get_current_win()), "the titles' float")
      all_safe(t.lines(vim.api.nvim_win_get_buf(float)), "the titles' float")
      t.ok(t.lines(vim.api.nvim_win_get_buf(float))[2]:find("^NAME"), "the titles in the float")
      vim.cmd("close")
    end,
  },
  {
    "<CR> opens no link the daemon dropped, and says why as the CLI's open does; it opens a plain one",
    function()
      local buf = vim.api.nvim_get_current_buf()
      local columns = vim.o.columns
      -- Wide enough for the whole sentence on the command line (narrower, it is shortened).
      vim.o.columns = 200
      local z = "Z" .. ("\204\182"):rep(4) -- U+0336 four times: the other eight dropped
      for id, sentence in pairs({
        o0 = "OnTheMap: not opening Eve\239\191\189[2J\239\191\189[1;31m gnp.exe's link: it holds a hidden character (U+001B)",
        o1 = "OnTheMap: not opening Nul\239\191\189Byte C1\239\191\18931m " .. z .. "'s link: it holds a hidden character (U+202E)",
      }) do
        local from = #t.notifications + 1
        vim.api.nvim_win_set_cursor(0, { line_of(buf, id), 0 })
        t.feed("<CR>")
        t.eq(t.notified("OnTheMap:", 5000, from).message, sentence, "the message of " .. id)
      end
      vim.o.columns = columns
      t.eq(opened, {}, "no link handed to the opener")
      vim.api.nvim_win_set_cursor(0, { line_of(buf, "o3"), 0 })
      t.feed("<CR>")
      t.eq(opened, { "https://plain.example/" }, "the plain link opened")
      notifications_safe()
      t.feed("q")
    end,
  },
  {
    "the statusline shows your pin's place cleaned, and escapes % for statusline formats",
    function()
      t.wait(30000, function()
        return onthemap.statusline():find("Home", 1, true) ~= nil
      end, "your pin in the statusline, got " .. onthemap.statusline())
      local text = onthemap.statusline()
      t.ok(not unsafe(text), "the statusline: " .. vim.inspect(text))
      t.ok(text:find("%{luaeval('0')}", 1, true), "literal for %{…}: " .. text)
      local escaped = onthemap.statusline({ escape = true })
      t.ok(escaped:find("%%{luaeval('0')}", 1, true) and not escaped:gsub("%%%%", ""):find("%", 1, true), "every % doubled: " .. escaped)
      -- Drawn by Neovim as a statusline, it shows the text and evaluates nothing.
      local drawn = vim.api.nvim_eval_statusline("%{v:lua.require'onthemap'.statusline()}", {}).str
      t.ok(drawn:find("%{luaeval('0')}", 1, true), "drawn as it is: " .. drawn)
      drawn = vim.api.nvim_eval_statusline(onthemap.statusline({ escape = true }), {}).str
      t.ok(drawn:find("%{luaeval('0')}", 1, true), "the escaped text drawn as a format: " .. drawn)
    end,
  },
  {
    "the map's legend and its <CR> follow the same rules",
    function()
      vim.cmd("OnTheMap map pins")
      local buf = vim.api.nvim_get_current_buf()
      t.wait(60000, function()
        return vim.tbl_count(buffer.state[buf].items or {}) == 4
      end, "the map's legend: " .. vim.inspect(t.lines(buf)))
      all_safe(t.lines(buf), "the map")
      vim.api.nvim_win_set_cursor(0, { line_of(buf, "o1"), 0 })
      t.feed("<CR>")
      t.eq(opened, { "https://plain.example/" }, "no other link handed to the opener")
      t.feed("q")
    end,
  },
  {
    "a search and :checkhealth show the same text cleaned; no message ever showed a control",
    function()
      vim.cmd("OnTheMap search eve")
      local buf = vim.api.nvim_get_current_buf()
      t.wait(60000, function()
        return (t.lines(buf)[1] or ""):find('matching "eve"', 1, true) ~= nil
      end, "the search: " .. vim.inspect(t.lines(buf)))
      all_safe(t.lines(buf), "the search")
      t.feed("q")
      local health = t.health()
      t.ok(health:find("logged in as Ada", 1, true), health)
      all_safe(vim.split(health, "\n"), ":checkhealth")
      notifications_safe()
    end,
  },
}
