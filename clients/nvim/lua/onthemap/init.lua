-- onthemap.nvim: the students of OnTheMap in Neovim, through the onthemapd daemon. Every command
-- is asynchronous: a slow or missing daemon never freezes the editor. See :help onthemap.
local config = require("onthemap.config")
local notify = require("onthemap.notify")
local status = require("onthemap.status")

local M = {}

--- Sets options (see :help onthemap-options); restarts the status subscription (the statusline's,
--- which open lists follow too) with them.
function M.setup(opts)
  config.setup(opts)
  if status.running then
    status.stop()
    status.start()
  end
end

--- `:OnTheMap`: the newest students in a buffer.
function M.students()
  return require("onthemap.list").students()
end

--- `:OnTheMap search {words}`: the students whose name or place match the words.
function M.search(words)
  return require("onthemap.list").students(words)
end

--- `:OnTheMap near {place} [km]`: students nearest to a place (a name or "lat,lon").
function M.near(place, km)
  return require("onthemap.list").near(place, km)
end

--- `:OnTheMap map`: the map drawn by the daemon. `view` is passed to its `map` method, e.g.
--- { fit = "pins" } or { near = "Paris", radiusKm = 500 }.
function M.map(view)
  return require("onthemap.map").show(view)
end

--- `:OnTheMapPost`: post or move your pin.
function M.post()
  require("onthemap.post").post()
end

--- `:OnTheMapLogin [email]`.
function M.login(username)
  require("onthemap.session").login(username)
end

--- `:OnTheMapLogout`.
function M.logout()
  require("onthemap.session").logout()
end

--- A short status for the statusline, kept current by a subscription: "📍 100 · Munich",
--- "📍 logged out", "📍 offline", "📍 refused" (the daemon at the socket is another user's). As it is for `%{…}` in 'statusline', whose result is shown
--- literally; with `{ escape = true }`, "%" doubled, for what reads the text as 'statusline'
--- format (lualine): a place is anyone's text, and "%{…}" there would be evaluated.
function M.statusline(opts)
  local text = status.text()
  if opts and opts.escape then
    text = text:gsub("%%", "%%%%")
  end
  return text
end

-- A usage error says where the usage is, :help :OnTheMap, at every width (the shortest form fits
-- the narrowest command line, 20 cells); never :checkhealth, which has nothing on it.
local help = " (see :help :OnTheMap)"
local usage = "usage: :OnTheMap | :OnTheMap search {words} | :OnTheMap near {place} [km] | :OnTheMap map [pins | {place} [km]]" .. help
local usage_short = {
  "OnTheMap: usage: :OnTheMap [search|near|map] …" .. help,
  "OnTheMap: usage: see :help :OnTheMap",
  "OnTheMap: see :help :OnTheMap",
  "see :help :OnTheMap",
}

-- What a subcommand given nothing needs, in full and in shorter forms (as Emacs asks "no place given").
local needs = {
  search = { "OnTheMap: search needs words: :OnTheMap search {words}", "OnTheMap: search needs words" .. help, "OnTheMap: search needs words", "search needs words" },
  near = { "OnTheMap: near needs a place: :OnTheMap near {place} [km]", "OnTheMap: near needs a place" .. help, "OnTheMap: near needs a place", "near needs a place" },
}

--- `:OnTheMap {args}`.
function M.command(args)
  local sub = args[1]
  local rest = { unpack(args, 2) }
  if sub == nil then
    return M.students()
  elseif sub == "search" and #rest > 0 then
    return M.search(table.concat(rest, " "))
  elseif sub == "map" and #rest == 0 then
    return M.map()
  elseif sub == "map" and rest[1] == "pins" and #rest == 1 then
    return M.map({ fit = "pins" })
  elseif (sub == "near" or sub == "map") and #rest > 0 then
    local where, why = require("onthemap.place").read(rest)
    if not where then
      notify.show("OnTheMap: " .. why, vim.log.levels.ERROR)
    elseif sub == "near" then
      return M.near(where.text, where.km)
    else
      return M.map({ near = where.text, radiusKm = where.km })
    end
    return
  end
  if needs[sub] and #rest == 0 then
    return notify.show(needs[sub][1], vim.log.levels.ERROR, vim.list_slice(needs[sub], 2), { in_help = true })
  end
  notify.show("OnTheMap: " .. usage, vim.log.levels.ERROR, usage_short, { in_help = true })
end

return M
