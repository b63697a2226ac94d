-- Questions to the user: vim.ui.input and vim.ui.select, so a UI plugin (dressing.nvim, …) can take
-- them over, with one exception. Neovim 0.7's own vim.ui.input passes nil both for Esc and for an
-- empty answer (Enter alone), so "empty keeps your pin's place" read as a cancel; Neovim 0.8 fixed
-- it (cancelreturn). While the 0.7 one is in place, the plugin asks with input() itself, as 0.8 does.
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

--- vim.ui.input's contract as Neovim 0.8+ keeps it: `on_confirm(text)`, "" for Enter on nothing,
--- nil for Esc (or Ctrl-C).
function M.input(opts, on_confirm)
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

--- vim.ui.select, unchanged.
function M.select(items, opts, on_choice)
  return vim.ui.select(items, opts, on_choice)
end

return M
