-- Questions to the user: vim.ui.input and vim.ui.select, so a UI plugin (dressing.nvim, …) can take
-- them over, with one exception. Neovim 0.7's own vim.ui.input passes nil both for Esc and for an
-- empty answer (Enter alone), so "empty keeps your pin's place" read as a cancel; Neovim 0.8 fixed
-- it (cancelreturn). While the 0.7 one is in place, the plugin asks with input() itself, as 0.8 does.
--
-- Neovim's own prompts (input(), inputlist()) leave their text on the screen after the answer, and
-- a message shown next would go under it and wait for ENTER; a later key, meant for the prompt
-- that looks open, would go to the buffer. The screen is redrawn before the answer is acted on.
local M = {}

-- input()'s answer for Esc: no text a user can type (it starts with a control character).
local cancelled = "\1onthemap: cancelled"

--- Whether vim.ui.input is Neovim 0.7's own, which cannot tell Enter on nothing from Esc.
function M.input_loses_empty()
  if vim.fn.has("nvim-0.8") == 1 then
    return false
  end
  local info = debug.getinfo(vim.ui.input, "S")
  return info ~= nil and info.source:match("[/\\]lua[/\\]vim[/\\]ui%.lua$") ~= nil
end

--- `fn` called with the answer once the prompt is off the screen.
local function after_redraw(fn)
  return function(...)
    pcall(vim.cmd, "redraw")
    return fn(...)
  end
end

--- vim.ui.input's contract as Neovim 0.8+ keeps it: `on_confirm(text)`, "" for Enter on nothing,
--- nil for Esc (or Ctrl-C). A replacement of vim.ui.input may still pass nil for an empty answer:
--- callers treat nil and "" alike where nothing was given.
function M.input(opts, on_confirm)
  on_confirm = after_redraw(on_confirm)
  if not M.input_loses_empty() then
    return vim.ui.input(opts, on_confirm)
  end
  local ok, text = pcall(vim.fn.input, vim.tbl_extend("force", opts or {}, { cancelreturn = cancelled }))
  if not ok or text == cancelled then
    on_confirm(nil)
  else
    on_confirm(text)
  end
end

--- vim.ui.select, its answer acted on once the list is off the screen.
function M.select(items, opts, on_choice)
  local info = debug.getinfo(vim.ui.select, "S")
  if info ~= nil and info.source:match("[/\\]lua[/\\]vim[/\\]ui%.lua$") then
    -- Neovim's own, with inputlist(): wide messages would scroll for a while (onthemap.notify).
    local choose = on_choice
    on_choice = function(...)
      require("onthemap.notify").after_inputlist()
      return choose(...)
    end
  end
  return vim.ui.select(items, opts, after_redraw(on_choice))
end

return M
