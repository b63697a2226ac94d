-- One text width in the CLI, Neovim and Emacs (issue 40): names with combining accents, East
-- Asian wide characters and emoji, posted by the Swift test (TextWidthTests) through the real
-- server, line up in the list and are cut whole. Run only by that test, which posts them first and
-- compares the "CUT" lines printed here with the CLI's and Emacs's (Tests/OnTheMapCLITests/Golden/
-- text-cuts.txt).
local t = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "helpers.lua")
local onthemap = require("onthemap")
local buffer = require("onthemap.buffer")
local format = require("onthemap.format")

--- The names the Swift test posted, as the server has them, in its order.
local function posted()
  local names = vim.split(t.env.ONTHEMAP_TEST_NAMES, "\t")
  local found = {}
  for _, student in ipairs(t.cli_json({ "students", "--limit", "200" })) do
    local name = student.firstName .. " " .. student.lastName
    if vim.tbl_contains(names, name) then
      found[name] = true
    end
  end
  for _, name in ipairs(names) do
    t.ok(found[name], "the server has " .. name)
  end
  return names
end

--- The display column where `needle` starts on `line`.
local function column_of(line, needle)
  local start = line:find(needle, 1, true)
  return start and vim.fn.strdisplaywidth(line:sub(1, start - 1))
end

return {
  {
    "names are cut whole, as the CLI and Emacs cut them",
    function()
      for _, name in ipairs(posted()) do
        for width = 2, 11 do
          io.stdout:write(("CUT\t%s\t%d\t%s\n"):format(name, width, format.truncate(name, width)))
        end
      end
    end,
  },
  {
    "the list lines up with such names in a narrow window",
    function()
      onthemap.setup({ socket = t.env.ONTHEMAP_SOCKET, timeout_ms = 60000 })
      vim.o.columns = 44
      local buf = onthemap.students()
      t.wait(30000, function()
        return buffer.generation(buf) >= 1 and #t.lines(buf) > 3
      end, "the students")
      local lines = t.lines(buf)
      local link = column_of(lines[2], "LINK")
      local place = column_of(lines[2], "PLACE")
      local names = posted()
      for _, name in ipairs(names) do
        local first = vim.split(name, " ")[1]
        local row
        for _, line in ipairs(lines) do
          if line:find(vim.fn.strcharpart(first, 0, 1), 1, true) == 1 and line:find("https://", 1, true) then
            -- The row of this name: its cell (up to the two spaces after it) is a cut of it. (The
            -- links, https://width.example/N, are cut to "https://…" at this width.)
            local kept = vim.trim(line:match("^(.-)  ") or ""):gsub("…$", "")
            if name:sub(1, #kept) == kept then
              row = { line = line, kept = kept }
            end
          end
        end
        t.ok(row, "a row for " .. name .. " in\n" .. table.concat(lines, "\n"))
        -- A cut keeps the accent with its letter: U+0301 (bytes CC 81) never follows it.
        t.ok(name:sub(#row.kept + 1, #row.kept + 2) ~= "\204\129", "cut between a letter and its accent: " .. row.line)
        t.eq(column_of(row.line, "https://"), link, "the link column of " .. name .. ": " .. row.line)
        t.ok(place and place < link, "the place column")
      end
    end,
  },
}
