-- Text helpers: making other people's text safe to show, display widths, ages, shell quoting.
local M = {}

-- U+FFFD, what stands in for a character that must not reach the screen.
M.replacement = "\239\191\189"

--- The most combining marks kept in a row, as DisplayText.maxMarksInARow: as many as a written
--- language stacks on a letter (pointed Hebrew with cantillation, four).
M.max_marks = 4

local marks = require("onthemap.marks")

--- Whether the code point `cp` is a combining mark (Unicode's Mn and Me, as
--- DisplayText.isCombiningMark): a binary search of marks.lua's ranges.
function M.is_combining_mark(cp)
  if cp < 0x300 then
    return false
  end
  local low, high = 1, #marks / 2
  while low <= high do
    local middle = math.floor((low + high) / 2)
    if cp < marks[2 * middle - 1] then
      high = middle - 1
    elseif cp > marks[2 * middle] then
      low = middle + 1
    else
      return true
    end
  end
  return false
end

--- The UTF-8 sequence at byte `i` of `text`: its code point (nil for a byte that starts none) and
--- its length in bytes.
local function scalar_at(text, i)
  local byte = text:byte(i)
  local length, value
  if byte >= 0xC2 and byte <= 0xDF then
    length, value = 2, byte - 0xC0
  elseif byte >= 0xE0 and byte <= 0xEF then
    length, value = 3, byte - 0xE0
  elseif byte >= 0xF0 and byte <= 0xF4 then
    length, value = 4, byte - 0xF0
  else
    return byte < 0x80 and byte or nil, 1
  end
  for k = i + 1, i + length - 1 do
    local continuation = text:byte(k)
    if not continuation or continuation < 0x80 or continuation > 0xBF then
      return nil, 1
    end
    value = value * 64 + continuation - 0x80
  end
  return value, length
end

--- `text` without the combining marks past M.max_marks in a row, counted as DisplayText counts
--- them: over the text as it came, so any other character (a control, a bidi control dropped
--- later) ends a run. Text with no byte that starts a mark (U+0300 and up) is answered at once.
local function without_marks_past_max(text)
  if not text:find("[\204-\244]") then
    return text
  end
  local kept, from, run, i = {}, 1, 0, 1
  while i <= #text do
    local cp, length = scalar_at(text, i)
    if cp and M.is_combining_mark(cp) then
      run = run + 1
      if run > M.max_marks then
        kept[#kept + 1] = text:sub(from, i - 1)
        from = i + length
      end
    else
      run = 0
    end
    i = i + length
  end
  if from == 1 then
    return text
  end
  kept[#kept + 1] = text:sub(from)
  return table.concat(kept)
end

-- The bidi embeddings, overrides, isolates and marks (Unicode's Bidi_Control), as DisplayText drops
-- them: U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C.
local bidi = { "\226\128[\170-\174]", "\226\129[\166-\169]", "\226\128[\142\143]", "\216\156" }

-- The format characters that show as nothing (Unicode's Cf, but the soft hyphen and the Arabic
-- number signs, which are drawn: the CLI's DisplayWidth counts these zero columns), which Neovim
-- draws as "<200b>" (six cells) or counts a cell where the terminal draws none; and the Mongolian
-- variation selectors it draws as "<180b>" too. In UTF-8, by ranges:
local invisible = {
  "\225\160[\139-\143]", -- U+180B–U+180F: Mongolian variation selectors, vowel separator
  "\226\128[\139-\143]", -- U+200B–U+200F: zero-width space, non-joiner, joiner (and LRM, RLM)
  "\226\129[\160-\175]", -- U+2060–U+206F: word joiner, invisible operators (and the isolates)
  "\239\187\191", -- U+FEFF: zero-width no-break space (byte order mark)
  "\239\191[\185-\187]", -- U+FFF9–U+FFFB: interlinear annotation
  "\240\147\144[\176-\191]", -- U+13430–U+1343F: Egyptian hieroglyph format controls
  "\240\155\178[\160-\163]", -- U+1BCA0–U+1BCA3: shorthand format controls
  "\240\157\133[\179-\186]", -- U+1D173–U+1D17A: musical symbol format controls
  "\243\160\128[\129\160-\191]", -- U+E0001, U+E0020–U+E003F: tags (a subdivision flag's)
  "\243\160\129[\128-\191]", -- U+E0040–U+E007F: tags
}

--- `text` without any character of `patterns`, dropped until none is left: bytes that are not
--- UTF-8 on either side of one would otherwise join into another once it is gone ("\194" ..
--- U+202E .. "\155" is U+009B). Text with no byte that starts one (U+0600 and up) is answered at once.
local function dropping(text, patterns)
  if not text:find("[\216\225-\243]") then
    return text
  end
  local dropped
  repeat
    dropped = 0
    for _, pattern in ipairs(patterns) do
      local count
      text, count = text:gsub(pattern, "")
      dropped = dropped + count
    end
  until dropped == 0
  return text
end

local hidden = vim.list_extend(vim.deepcopy(bidi), invisible)

--- `text` without the format characters that show as nothing (U+200B, the joiners U+200C and
--- U+200D, U+2060, U+FEFF, tags…), which M.clean drops and the daemon's DisplayText keeps: what
--- M.clean shows for text the fixture's rule shows as `text`.
function M.without_invisible(text)
  return dropping(text, invisible)
end

--- Text from another person (a name, a place, a link, a message quoting them) made safe to show in
--- a buffer, the command line or the statusline, by the rule of the CLI, the bars and the web page
--- (the daemon's DisplayText.clean): tab, line feed, carriage return and the line and paragraph
--- separators U+2028 and U+2029 become a space (a name stays on one line); every other C0 control,
--- DEL and C1 control (an escape sequence, a NUL) becomes U+FFFD, so what was there stays visible
--- and does nothing; the bidi embeddings, overrides, isolates and marks (U+202A–U+202E,
--- U+2066–U+2069, U+200E, U+200F, U+061C), which reorder the text around them ("…/\u{202e}gnp.exe"
--- reads "…/exe.png"), are dropped; and so are combining marks past the fourth in a row ("Zalgo"
--- text, drawn over the lines around it; M.max_marks). Not a string: "". The one place this is
--- decided, for the buffers, messages and statusline alike; Tests/Fixtures/display-text.json holds
--- it to the daemon's (format_spec.lua).
---
--- One step more than the daemon's rule, as Emacs takes it too: the format characters that show as
--- nothing (`invisible`: the zero-width space and joiners, U+2060–U+206F, U+FEFF, tags) are
--- dropped, as Neovim would draw them "<200b>" ("Ad<200b>min", "👩<200d>👩"). The CLI shows them
--- as nothing and counts them no column; so do these buffers, and widths agree: a ZWJ family is its emoji side by side (two cells each), as the CLI counts it.
--- The data stays exact: only what is shown loses them.
function M.clean(text)
  if type(text) ~= "string" then
    return ""
  end
  -- Dropped before marks are counted, as DisplayText drops the bidi controls: the marks either
  -- side of one are one run (a mark, U+200D, a mark, … would stack a dozen on a letter).
  text = dropping(text, hidden)
  text = without_marks_past_max(text)
  return (
    text
      -- A space: tab, line feed, carriage return, U+2028, U+2029.
      :gsub("[\t\n\r]", " ")
      :gsub("\226\128[\168\169]", " ")
      -- U+FFFD: every other C0 control, DEL, and C1 (U+0080–U+009F: 0xC2 0x80–0x9F in UTF-8).
      :gsub("[%z\1-\31\127]", M.replacement)
      :gsub("\194[\128-\159]", M.replacement)
  )
end

--- Whether `text` is shown as it is: nothing in it that M.clean replaces or drops (a link offered
--- as a prompt's default is typed into its line, so only one shown as it is).
function M.is_clean(text)
  return type(text) == "string" and M.clean(text) == text
end

--- Whether `link` starts with a scheme and its colon ("https:", "mailto:", "javascript:"), by the
--- CLI's rule (its PostCommand.typedLink): a letter, then letters, digits, "+", "." or "-", then
--- ":" not followed by a digit ("example.com:8080/me" is a host and its port, not a scheme).
function M.names_scheme(link)
  local rest = link:match("^%a[%w+.-]*:(.*)$")
  return rest ~= nil and not rest:match("^%d")
end

--- The link as the user meant it, from what the link prompt returned: a full http(s) link typed or
--- pasted after the prompt's default (Neovim's input() keeps the default and appends) replaces it,
--- and a link that names no scheme at all gets https:// ("example.com/me"). One that names another
--- scheme ("mailto:me@example.com", "javascript:alert(1)") stays as typed, for the daemon to refuse
--- with its reason, as the CLI's post does. Nil for nothing typed.
function M.typed_link(input, default)
  local link = vim.trim(input or "")
  if default and default ~= "" and link:sub(1, #default) == default then
    local pasted = vim.trim(link:sub(#default + 1))
    if pasted:lower():match("^https?://") then
      link = pasted
    end
  end
  if link == "" then
    return nil
  end
  if not M.names_scheme(link) then
    link = "https://" .. link
  end
  return link
end

--- `text` as one word for a POSIX shell, to paste into a command: bare when made only of
--- [A-Za-z0-9_./-], else in single quotes (a quote inside becomes '\'').
function M.shell_quote(text)
  if text:match("^[A-Za-z0-9_./-]+$") then
    return text
  end
  return "'" .. text:gsub("'", [['\'']]) .. "'"
end

--- A count for a person, grouped by three as the CLI writes it (its CountText.grouped):
--- "10,000", "1,234", "950". Row and pin numbers, which a person types back, stay bare.
function M.grouped(count)
  -- %d, not tostring: a float of 1e15 and more would be written in exponent form.
  local sign, digits = ("%d"):format(math.floor(count)):match("^(-?)(%d+)$")
  local grouped = digits:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "")
  return sign .. grouped
end

--- The display width of `text` (wide and combining characters counted as Neovim draws them).
function M.width(text)
  return vim.fn.strdisplaywidth(text)
end

--- `text` cut to at most `width` display cells, ending in "…" when cut. A cut keeps whole
--- characters, as the CLI and Emacs cut (docs/EDITORS.md, "Text width"): strcharpart counts a
--- combining accent as a character of its own in 0.7, but the longest prefix that fits is taken,
--- and an accent takes no cell, so it always goes with its letter.
function M.truncate(text, width)
  if M.width(text) <= width then
    return text
  end
  local chars = vim.fn.strchars(text)
  local cut = text
  while chars > 0 and M.width(cut) > width - 1 do
    chars = chars - 1
    cut = vim.fn.strcharpart(text, 0, chars)
  end
  return cut .. "…"
end

--- `text` and then `suffix` within `width` display cells: `text` is cut (ending in "…") so that
--- `suffix` stays whole ("Ada Lovel… (you)"), unless that leaves it fewer than 4 cells.
function M.truncate_keeping(text, suffix, width)
  local room = width - M.width(suffix)
  if M.width(text) <= room or room < 4 then
    return M.truncate(text .. suffix, width)
  end
  return M.truncate(text, room) .. suffix
end

--- The words of `text` for M.wrap: a command in backquotes, with what is glued to its end ("`onthemapd
--- --socket /run/x.sock &`."), is one word when it fits `width`, so that it is on one line to copy.
local function words(text, width)
  local found, position = {}, 1
  while true do
    local start, stop = text:find("%S+", position)
    if not start then
      return found
    end
    if text:sub(start, start) == "`" then
      local close = text:find("`", start + 1, true)
      local last = close and (text:find("%s", close) or #text + 1) - 1
      if last and M.width(text:sub(start, last)) <= width then
        stop = last
      end
    end
    found[#found + 1] = text:sub(start, stop)
    position = stop + 1
  end
end

--- `text` broken at spaces into lines of at most `width` display cells, as a list; a word wider
--- than that has a line of its own, and a command in backquotes that fits is kept on one line.
function M.wrap(text, width)
  local lines, line = {}, nil
  for _, word in ipairs(words(text, width)) do
    if line and M.width(line) + 1 + M.width(word) <= width then
      line = line .. " " .. word
    else
      lines[#lines + 1] = line
      line = word
    end
  end
  lines[#lines + 1] = line or ""
  return lines
end

--- `text` padded with spaces to `width` display cells.
function M.pad(text, width)
  return text .. string.rep(" ", math.max(0, width - M.width(text)))
end

--- Column widths that fit `room` display cells: each column as wide as its widest cell (at most
--- `limits[i]`, when given); when that is too wide, the columns not in `fixed` give up width, the
--- widest first, down to `minimum` cells each (`opts.need[i]` for column i: a name with its
--- "(you)"). When even that is too wide, the columns of `opts.drop` are left out, one at a time
--- in that order (width 0: M.columns shows nothing of them), so that the rest fits. Two spaces
--- between columns; the last column is not padded. With `opts.spare`, the limits hold only while
--- the window is short of room: the cells left over go to the columns the limits cut, the least
--- cut first, as the CLI's table gives them (a place of 36 cells whole at 200 columns).
function M.fit(rows, room, limits, fixed, minimum, opts)
  fixed, minimum, opts = fixed or {}, minimum or 6, opts or {}
  local natural, whole = {}, {}
  for _, row in ipairs(rows) do
    for column, cell in ipairs(row) do
      local width = M.width(cell)
      whole[column] = math.max(whole[column] or 0, width)
      if limits and limits[column] then
        width = math.min(width, limits[column])
      end
      natural[column] = math.max(natural[column] or 0, width)
    end
  end
  local count = #natural
  if not room or count == 0 then
    return natural
  end
  local need = opts.need or {}
  local dropped = {}
  local function layout()
    local visible, budget, flexible, total = 0, room, {}, 0
    for column = 1, count do
      if not dropped[column] then
        visible = visible + 1
        if fixed[column] then
          budget = budget - natural[column]
        else
          flexible[#flexible + 1] = column
          total = total + natural[column]
        end
      end
    end
    budget = budget - 2 * (visible - 1)
    local widths = vim.deepcopy(natural)
    for column in pairs(dropped) do
      widths[column] = 0
    end
    if total <= budget then
      return widths, true
    end
    -- The widest cap c with the flexible columns, each cut to at most c, within the budget.
    table.sort(flexible, function(a, b)
      return natural[a] < natural[b]
    end)
    local left = budget
    for index, column in ipairs(flexible) do
      local share = math.floor(left / (#flexible - index + 1))
      local least = need[column] and math.min(need[column], natural[column]) or minimum
      local width = math.max(least, math.min(natural[column], share))
      widths[column] = width
      left = left - width
    end
    return widths, left >= 0
  end
  local widths, fits = layout()
  for _, column in ipairs(opts.drop or {}) do
    if fits then
      break
    end
    dropped[column] = true
    widths, fits = layout()
  end
  if fits and opts.spare then
    local used, visible, cut = 0, 0, {}
    for column = 1, count do
      if widths[column] > 0 then
        used, visible = used + widths[column], visible + 1
        if widths[column] < whole[column] then
          cut[#cut + 1] = column
        end
      end
    end
    local left = room - used - 2 * (visible - 1)
    -- The least cut first, each given an even share of what is left (what it does not need goes
    -- to the next).
    table.sort(cut, function(a, b)
      return whole[a] - widths[a] < whole[b] - widths[b]
    end)
    for index, column in ipairs(cut) do
      local more = math.min(whole[column] - widths[column], math.floor(math.max(0, left) / (#cut - index + 1)))
      widths[column] = widths[column] + more
      left = left - more
    end
  end
  return widths
end

--- Aligned columns: `rows` is a list of lists of cells; each column is cut to `widths[i]` cells
--- (nil: as wide as its widest cell; 0: left out). Returns the lines, with two spaces between columns and no
--- trailing blanks.
function M.columns(rows, widths)
  widths = widths or M.fit(rows)
  local lines = {}
  for _, row in ipairs(rows) do
    local cells = {}
    for column, cell in ipairs(row) do
      if widths[column] ~= 0 then
        local text = widths[column] and M.truncate(cell, widths[column]) or cell
        cells[#cells + 1] = column < #row and M.pad(text, widths[column]) or text
      end
    end
    lines[#lines + 1] = (table.concat(cells, "  "):gsub("%s+$", ""))
  end
  return lines
end

-- Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm): the timestamps are UTC and
-- os.time() would read them as local time.
local function days_from_civil(y, m, d)
  y = m <= 2 and y - 1 or y
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local doy = math.floor((153 * (m > 2 and m - 3 or m + 9) + 2) / 5) + d - 1
  local doe = yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
end

--- Seconds since the epoch of a wire timestamp such as "2026-11-22T02:46:15.341Z"; nil if unreadable.
function M.parse_time(timestamp)
  if type(timestamp) ~= "string" then
    return nil
  end
  local y, mo, d, h, mi, s = timestamp:match("^(%d%d%d%d)-(%d%d)-(%d%d)T(%d%d):(%d%d):(%d%d)")
  if not y then
    return nil
  end
  return days_from_civil(tonumber(y), tonumber(mo), tonumber(d)) * 86400 + tonumber(h) * 3600 + tonumber(mi) * 60 + tonumber(s)
end

--- "just now", "5 min ago", "3 h ago", "12 d ago", "2 y ago" (as the CLI says it); "—" if unknown.
function M.age(timestamp, now)
  local time = M.parse_time(timestamp)
  if not time then
    return "—"
  end
  local seconds = (now or os.time()) - time
  if seconds < 60 then
    return "just now"
  elseif seconds < 3600 then
    return math.floor(seconds / 60) .. " min ago"
  elseif seconds < 86400 then
    return math.floor(seconds / 3600) .. " h ago"
  elseif seconds < 365 * 86400 then
    return math.floor(seconds / 86400) .. " d ago"
  end
  return math.floor(seconds / (365 * 86400)) .. " y ago"
end

--- A student's full name.
function M.name(student)
  local parts = {}
  for _, part in ipairs({ student.firstName, student.lastName }) do
    if type(part) == "string" and part ~= "" then
      parts[#parts + 1] = part
    end
  end
  return M.clean(table.concat(parts, " "))
end

--- A geocoder match as one line, as the daemon names it (its `label`: "Köln, North
--- Rhine-Westphalia, Germany"): one rule names a place everywhere (docs/GEOCODING.md).
function M.place(match)
  return M.clean(type(match.label) == "string" and match.label or "")
end

--- `place` and its shorter forms, most telling first, for a message too wide with the whole place:
--- "Springfield, Massachusetts, United States", "Springfield, Massachusetts", "Springfield" (its
--- last part dropped, one at a time, while what stays names a place: "48.85, 2.35" stays whole).
function M.place_forms(place)
  local forms = { place }
  local shorter = place:match("^(.*),[^,]*$")
  while shorter and shorter:match("[^%d%s%p]") do
    shorter = vim.trim(shorter)
    forms[#forms + 1] = shorter
    shorter = shorter:match("^(.*),[^,]*$")
  end
  return forms
end

return M
