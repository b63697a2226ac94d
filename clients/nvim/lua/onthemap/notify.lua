-- What the plugin tells the user, with vim.notify, always as one line that fits the command line:
-- a wider message scrolls, and Neovim then stops at "Press ENTER or type command to continue" after
-- every command. A longer text is shown as a summary and kept whole for :checkhealth onthemap, where
-- the notice says to look. (Not :messages: Neovim 0.7 adds to that history only what it shows, and
-- `:silent echomsg` adds nothing.)
local format = require("onthemap.format")

local M = {}

--- The last texts too wide to show whole, oldest first, for :checkhealth: { text, level, time }.
--- Written only on the main loop (every caller runs there).
M.long = {}

-- Enough to find the one a notice pointed to after a few more messages.
local kept = 5

local pointer = " (see :checkhealth onthemap)"

--- The widest message shown: 'columns' less a margin, clear of 'showcmd' at the end of the command
--- line (a message that reaches the last column scrolls).
function M.room()
  return math.max(20, vim.o.columns - 12)
end

--- What to show of `text` within `room` cells: `text` itself when it fits, else the first of
--- `summaries` (shorter forms, most telling first) that fits with the pointer to :checkhealth, else
--- without it, else `text` cut to fit.
function M.shorten(text, summaries, room)
  if format.width(text) <= room then
    return text
  end
  summaries = summaries or {}
  for _, summary in ipairs(summaries) do
    if format.width(summary) + format.width(pointer) <= room then
      return summary .. pointer
    end
  end
  for _, summary in ipairs(summaries) do
    if format.width(summary) <= room then
      return summary
    end
  end
  if room - format.width(pointer) >= 20 then
    return format.truncate(text, room - format.width(pointer)) .. pointer
  end
  return format.truncate(text, room)
end

--- Shows `text` ("OnTheMap: …") with vim.notify at `level` (vim.log.levels), shortened to one line
--- with `summaries` when it is too wide (see M.shorten); the whole of it is then kept for :checkhealth.
--- What it quotes (a name, a place, the daemon's words) is made safe to show (format.clean).
function M.show(text, level, summaries)
  text = format.clean(text)
  local safe = {}
  for index, summary in ipairs(summaries or {}) do
    safe[index] = format.clean(summary)
  end
  local shown = M.shorten(text, safe, M.room())
  if shown ~= text then
    M.long[#M.long + 1] = { text = text, level = level, time = os.time() }
    if #M.long > kept then
      table.remove(M.long, 1)
    end
  end
  vim.notify(shown, level, { title = "OnTheMap" })
end

return M
