-- Open lists and maps follow the session: a logout (here, in the CLI or by expiry) empties them at
-- once, and a login fills them again, with no key pressed. The session is learnt from the status
-- subscription (onthemap.status, which the statusline uses too): it pushes every change. Open lists
-- and maps follow the daemon's list too: when it says the students changed (`studentsChanged`: a
-- post or a refresh, here or in the CLI), they are fetched again from its cache.
local status = require("onthemap.status")

local M = {}

-- Per buffer: { reload = function(), clear = function(), changed = function() or nil,
-- needs_login = bool, needs_daemon = bool }.
-- Main loop only.
local followers = {}
-- The session last seen: nil (not known yet), false (logged out) or the account's key.
local session

--- The session a status result describes.
local function session_of(result)
  if not result.loggedIn then
    return false
  end
  return (result.account or {}).key or true
end

--- Acts on a status: empties what shows students once logged out; after a login (or another
--- account's), or when a buffer was waiting for one, fetches again.
function M.on_status(result)
  if not result then
    return -- offline or connecting: nothing to conclude about the session
  end
  local now, before = session_of(result), session
  session = now
  for buf, follower in pairs(followers) do
    if not vim.api.nvim_buf_is_valid(buf) then
      followers[buf] = nil
    elseif now == false then
      if not follower.needs_login then
        follower.needs_login = true
        follower.clear()
      end
    elseif follower.needs_login or follower.needs_daemon or (before ~= nil and before ~= now) then
      follower.needs_login, follower.needs_daemon = false, false
      follower.reload()
    elseif follower.unfilled and result.students and result.students.refreshedAt then
      -- Filled while the daemon's list was still empty (its first status after a login comes
      -- before the list it fetches): once that list is there, fill again.
      follower.unfilled = false
      follower.reload()
    end
  end
end

--- Acts on `studentsChanged`: each list showing students and each map shown (not waiting for a
--- login or the daemon) is fetched again, quietly (`changed`). A logout's change is left to the
--- status that follows it, which empties them.
function M.on_students()
  if session == false then
    return
  end
  for buf, follower in pairs(followers) do
    if not vim.api.nvim_buf_is_valid(buf) then
      followers[buf] = nil
    elseif follower.changed and not follower.needs_login and not follower.needs_daemon then
      follower.changed()
    end
  end
end

--- From now on `buf` follows the session: `handlers.clear()` when logged out, `handlers.reload()`
--- when logged in again, and `handlers.changed()` (if given) when the daemon's list changed.
--- Starts the status subscription.
function M.add(buf, handlers)
  local follower = followers[buf] or {}
  follower.reload, follower.clear, follower.changed = handlers.reload, handlers.clear, handlers.changed
  followers[buf] = follower
  if not M.group then
    M.group = vim.api.nvim_create_augroup("OnTheMapFollow", { clear = true })
    vim.api.nvim_create_autocmd("User", {
      group = M.group,
      pattern = "OnTheMapStatus",
      callback = function()
        M.on_status(status.status)
      end,
    })
    vim.api.nvim_create_autocmd("User", {
      group = M.group,
      pattern = "OnTheMapStudents",
      callback = function()
        M.on_students()
      end,
    })
  end
  status.start()
end

--- Records that `buf` could not be filled for want of a session: the next login fills it.
function M.waiting_for_login(buf)
  if followers[buf] then
    followers[buf].needs_login = true
  end
end

--- Records that `buf` could not be filled because onthemapd did not answer (not running, hung, gone
--- mid-request): once the status subscription hears from it again, `buf` is filled again, as
--- `onthemap map -i` draws its map again ("onthemapd is back").
function M.waiting_for_daemon(buf)
  if followers[buf] then
    followers[buf].needs_daemon = true
  end
end

--- Records that `buf` shows what the current session may see, from the daemon's list as
--- refreshed at `refreshed_at` (nil: never yet, so the list will fill again once it is).
function M.filled(buf, refreshed_at)
  if followers[buf] then
    followers[buf].needs_login, followers[buf].needs_daemon = false, false
    followers[buf].unfilled = refreshed_at == nil
  end
end

return M
