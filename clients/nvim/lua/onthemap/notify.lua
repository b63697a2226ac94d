-- What the plugin tells the user, with vim.notify, always as one line that fits the command line:
-- a wider message scrolls, and Neovim then stops at "Press ENTER or type command to continue" after
-- every command. A longer text is shown as the first of its shorter forms that fits (each message
-- gives its own: "moved your pin to Springfield, Massachusetts" for a place too long whole). A
-- warning or an error too long for any form is kept whole for :checkhealth onthemap, and the notice
-- says to look there; news of something done never points there: it is told in full in its own
-- shorter words. A usage error points to :help :OnTheMap, where the usage is, at every width.
-- Whatever is shown shorter is also put whole in :messages, after what was shown (M.remember).
local format = require("onthemap.format")

local M = {}

--- The last warnings and errors too wide to show whole, oldest first, for :checkhealth: { text,
--- level, time }.
--- Written only on the main loop (every caller runs there).
M.long = {}

-- Enough to find the one a notice pointed to after a few more messages.
local kept = 5

--- What a notice shown shorter says after its words, where the whole of it is.
M.pointer = " (see :checkhealth onthemap)"
local pointer = M.pointer

--- The widest message shown: 'columns' less a margin, clear of 'showcmd' at the end of the command
--- line (a message that reaches the last column scrolls).
function M.room()
  return math.max(20, vim.o.columns - 12)
end

--- What to show of `text` within `room` cells: `text` itself when it fits, else the first of
--- `summaries` (shorter forms, most telling first) that fits, else `text` cut to fit. With `points`
--- (a warning or an error, kept whole for :checkhealth), a summary or a cut is first tried with the
--- pointer to :checkhealth after it.
function M.shorten(text, summaries, room, points)
  if format.width(text) <= room then
    return text
  end
  summaries = summaries or {}
  if points then
    for _, summary in ipairs(summaries) do
      if format.width(summary) + format.width(pointer) <= room then
        return summary .. pointer
      end
    end
  end
  for _, summary in ipairs(summaries) do
    if format.width(summary) <= room then
      return summary
    end
  end
  if points and room - format.width(pointer) >= 20 then
    return format.truncate(text, room - format.width(pointer)) .. pointer
  end
  return format.truncate(text, room)
end

-- What came while the command line was open, oldest first: shown once it is left. Main loop only.
local waiting = {}

--- Runs `show` now, or once the command line is left when a question is open there (the password's
--- inputsecret(), an input(), a `:` command being typed). Neovim 0.7's vim.notify writes an error
--- with nvim_err_writeln, which ends the input() or inputsecret() under way as if it had failed: an
--- answer to a request sent before the question (a list's "Not logged in") cancelled a login whose
--- password had been typed in full. A message in the middle of a question hides it, too.
local function when_command_line_is_free(show)
  if vim.api.nvim_get_mode().mode:sub(1, 1) ~= "c" then
    return show()
  end
  waiting[#waiting + 1] = show
  if #waiting == 1 then
    vim.api.nvim_create_autocmd("CmdlineLeave", {
      once = true,
      callback = function()
        -- After the question has returned its answer; another question asked at once waits
        -- the same way.
        vim.schedule(function()
          local shows = waiting
          waiting = {}
          for _, each in ipairs(shows) do
            when_command_line_is_free(each)
          end
        end)
      end,
    })
  end
end

-- Messages put off to the main loop's own time (M.remember) and not yet shown. Main loop only.
local pending = 0

--- Runs `show` on the main loop's own time (vim.schedule), counted in `pending`.
local function later(show)
  pending = pending + 1
  vim.schedule(function()
    pending = pending - 1
    show()
  end)
end

-- The highlight vim.notify gives each level on Neovim's command line.
local groups = { [vim.log.levels.ERROR] = "ErrorMsg", [vim.log.levels.WARN] = "WarningMsg" }

--- Puts `text` whole in the message history (:messages), and shows `shown` in its place on the
--- command line (nothing, for a vim.notify of the user's, which showed it already), with no
--- prompt. Neovim 0.7 keeps in the history only what it shows (`:silent echomsg` keeps nothing),
--- but `:echomsg` keeps the whole of a message it cuts to fit the command line (with 'shortmess'
--- T: "OnTheMap: cannot...directory)."), which `shown` then replaces. Only on the main loop's own
--- time: while a command runs, or after an error, a wide message scrolls and asks for ENTER.
function M.remember(text, shown, level)
  later(function()
    when_command_line_is_free(function()
      if M.scrolled then
        -- Not now (M.after_inputlist): shown shorter, as it fits.
        if shown then
          vim.notify(shown, level, { title = "OnTheMap" })
        end
        return
      end
      local shortmess = vim.o.shortmess
      vim.opt.shortmess:append("T")
      local group = groups[level] or "None"
      pcall(vim.cmd, ("echohl %s | echomsg %s | echohl None"):format(group, vim.fn.string(text)))
      vim.o.shortmess = shortmess
      vim.api.nvim_echo({ { shown or "", group } }, false, {})
    end)
  end)
end

--- Whether a message would scroll rather than be cut: Neovim 0.7's inputlist() leaves its messages
--- "below the command line" (msg_scroll) until the next `:` command typed ends, and a wide
--- `:echomsg` then runs over two lines and asks for ENTER. Meanwhile nothing is put whole in
--- :messages. Main loop only.
M.scrolled = false

--- Records that inputlist() was answered (onthemap.ui): see M.scrolled.
function M.after_inputlist()
  M.scrolled = true
  if not M.scrolled_group then
    M.scrolled_group = vim.api.nvim_create_augroup("OnTheMapScrolled", { clear = true })
    vim.api.nvim_create_autocmd("CmdlineLeave", {
      group = M.scrolled_group,
      pattern = ":",
      callback = function()
        -- The command typed ends with messages on the command line again.
        M.scrolled = false
      end,
    })
  end
end

--- Whether vim.notify is Neovim's own (it writes on the command line), not a UI plugin's.
local function notify_is_neovims()
  local info = debug.getinfo(vim.notify, "S")
  return info ~= nil and (info.source or ""):match("vim[/\\]_editor%.lua$") ~= nil
end

--- Shows `text` ("OnTheMap: …") with vim.notify at `level` (vim.log.levels), shortened to one line
--- with `summaries` when it is too wide (see M.shorten): a warning or an error then points to
--- :checkhealth, which keeps the whole of it; news (INFO) is told by its shorter forms alone, and so
--- is an error whose whole is in :help (`opts.in_help`: a usage error, whose forms say where).
--- What it quotes (a name, a place, the daemon's words) is made safe to show (format.clean). Never
--- while a question is open on the command line: then once it is answered. Shown shorter, the
--- whole is in :messages too (M.remember).
function M.show(text, level, summaries, opts)
  text = format.clean(text)
  local safe = {}
  for index, summary in ipairs(summaries or {}) do
    safe[index] = format.clean(summary)
  end
  local points = (level or vim.log.levels.INFO) >= vim.log.levels.WARN and not (opts and opts.in_help)
  local shown = M.shorten(text, safe, M.room(), points)
  if points and shown ~= text then
    M.long[#M.long + 1] = { text = text, level = level, time = os.time() }
    if #M.long > kept then
      table.remove(M.long, 1)
    end
  end
  local function say()
    if shown == text or M.scrolled then
      vim.notify(shown, level, { title = "OnTheMap" })
    elseif notify_is_neovims() then
      M.remember(text, shown, level)
    else
      vim.notify(shown, level, { title = "OnTheMap" })
      M.remember(text, nil, level)
    end
  end
  when_command_line_is_free(function()
    -- After a message put off (a shortened one, M.remember), one said in the same turn waits its
    -- turn too: shown at once, it was overwritten by the earlier one's short form, and came
    -- before it in :messages.
    if pending > 0 then
      later(say)
    else
      say()
    end
  end)
end

return M
