-- `:OnTheMapPost`: where and which link, the geocoder's matches to choose from, and a question
-- before an existing pin is moved. Every step is asynchronous (vim.ui.input / vim.ui.select, so
-- a UI plugin such as dressing.nvim can take them over; see onthemap.ui for Neovim 0.7's input).
-- Every way out says what happened: nothing is left half done without a word.
local format = require("onthemap.format")
local notify = require("onthemap.notify")
local rpc = require("onthemap.rpc")
local ui = require("onthemap.ui")

local M = {}

local function info(message)
  notify.show("OnTheMap: " .. message, vim.log.levels.INFO)
end

-- Shorter words for the news's start, for a narrow command line: the place stays whole, the rest
-- gives way ("moved your pin to " → "pin moved to " → "moved to ").
local shorter = {
  ["moved your pin to "] = { "OnTheMap: pin moved to ", "OnTheMap: moved to ", "moved to " },
  ["posted your pin at "] = { "OnTheMap: pin posted at ", "OnTheMap: posted at ", "posted: " },
  ["your pin stays at "] = { "OnTheMap: pin stays at ", "OnTheMap: stays at ", "stays at " },
}

--- Tells "OnTheMap: " .. `before` .. `place` .. `after` ("moved your pin to " .. "Springfield,
--- Massachusetts, United States" .. " (https://…)"), in shorter words where that does not fit
--- the command line: without `after`, then with the place shorter ("Springfield, Massachusetts",
--- "Springfield"), then `fallback`, then with fewer words before the place ("pin moved to
--- Springfield"). Never pointing elsewhere (it is news), and the place is never cut: only a
--- place wider than the whole command line is. (Exposed for the tests: M.tell.)
local function tell(before, place, after, fallback)
  local summaries = {}
  for _, start in ipairs(vim.list_extend({ "OnTheMap: " .. before }, shorter[before] or {})) do
    for _, form in ipairs(format.place_forms(place)) do
      summaries[#summaries + 1] = start .. form
    end
    if fallback and #summaries == #format.place_forms(place) then
      summaries[#summaries + 1] = "OnTheMap: " .. fallback
    end
  end
  notify.show("OnTheMap: " .. before .. place .. (after or ""), vim.log.levels.INFO, summaries)
end
M.tell = tell

--- Says why the post ended with nothing sent (`why`) and what became of `current`, the user's
--- pin (or none): "no link given: your pin stays at Paris, France", with the place shorter where
--- a long one would not fit the command line, else "…: your pin is unchanged".
local function ended(why, current)
  if not current then
    info(why .. ": nothing was posted")
    return
  end
  tell(why .. ": your pin stays at ", format.clean(current.mapString), nil, why .. ": your pin is unchanged")
end

local ask_link

--- Sends the pin; on "you already have a pin" asks before moving it. The daemon checks the link
--- first (its WebLink rule, which no editor copies): a link it refuses (-32008) is asked for
--- again, with its reason, at the same place, before any "Move your pin?" (`again` = {place,
--- match, current, typed}).
local function send(params, again)
  rpc.request("postPin", params, function(err, result)
    if err and err.code == rpc.codes.invalid_url and again then
      -- Why, without the advice the message adds: the daemon's `data.reason` ("The link is not a
      -- web link (it is not an http:// or https:// address)").
      local why = err.data and err.data.reason or (err.message:gsub("[%s.]*$", ""))
      ask_link(again.place, again.match, again.current, why, again.typed)
    elseif err and err.code == rpc.codes.pin_exists and not params.overwrite then
      local pin = err.data and err.data.pin or {}
      local from = format.clean(pin.mapString or "its place")
      local to = format.clean(params.mapString)
      local question = from == to and ("Replace your pin at %s (new link)?"):format(from)
        or ("Move your pin from %s to %s?"):format(from, to)
      ui.select({ "Yes, move it", "No, keep it" }, { prompt = question }, function(choice)
        if choice == "Yes, move it" then
          params.overwrite = true
          send(params)
        else
          tell("your pin stays at ", from)
        end
      end)
    elseif err then
      rpc.report(err, "post")
    else
      local pin = result.pin or {}
      local done = result.created and "posted your pin at " or "moved your pin to "
      tell(done, format.clean(pin.mapString), " (" .. format.clean(pin.mediaURL) .. ")")
    end
  end)
end

--- Whether a pin named `place` at `match`'s coordinates with `link` is `current` as it is.
local function unchanged(current, place, match, link)
  return current ~= nil
    and place == current.mapString
    and match.latitude == current.latitude
    and match.longitude == current.longitude
    and link == current.mediaURL
end

--- Asks for the link (the pin's current one offered), then sends the pin at `match` (a geocoder
--- result, or the pin itself) named `place`. `current` is the user's pin, or nil. After a link the
--- daemon refused: `why` (its reason) starts the prompt, and what was typed (`typed`) is offered
--- to mend.
function ask_link(place, match, current, why, typed)
  -- Offered only as it would be shown: a default is typed into the prompt's line.
  local default_link = current and format.is_clean(current.mediaURL) and current.mediaURL or nil
  local offered = typed and format.is_clean(typed) and typed or default_link
  local prompt = ("Link for %s (http or https): "):format(format.clean(place))
  if why then
    prompt = format.clean(why) .. ". " .. prompt
  end
  ui.input({ prompt = prompt, default = offered }, function(input)
    local link = format.typed_link(input, default_link)
    if link and unchanged(current, place, match, link) then
      -- The same place and link: nothing to ask, nothing to post.
      ended("nothing changed", current)
    elseif link then
      send({ mapString = place, mediaURL = link, latitude = match.latitude, longitude = match.longitude },
        { place = place, match = match, current = current, typed = link })
    else
      ended("no link given", current)
    end
  end)
end

--- What a match's `precision` is, in words ("locality" is the geocoder's word).
local kinds = { locality = "town or city", region = "region", country = "country", continent = "continent", ocean = "ocean or sea" }

--- The choices a user sees for the geocoder's `matches`: "Springfield, Missouri, United States
--- (town or city)", each once (two matches that read the same are one choice: the first, the better).
function M.choices(matches)
  local choices, seen = {}, {}
  for _, match in ipairs(matches or {}) do
    local label = format.place(match)
    local kind = kinds[match.precision]
    local shown = kind and (label .. " (" .. kind .. ")") or label
    if label ~= "" and not seen[shown] then
      seen[shown] = true
      choices[#choices + 1] = { match = match, label = label, shown = shown }
    end
  end
  return choices
end

--- Offers the geocoder's matches for `place` with vim.ui.select; one match is taken as it is (the
--- link prompt names it).
local function choose_place(place, current)
  rpc.request("geocode", { query = place, limit = 5 }, function(err, result)
    if err then
      rpc.report(err, "post")
      return
    end
    local choices = M.choices(result and result.results)
    if #choices == 0 then
      ended(('no place matches "%s"'):format(format.clean(place)), current)
      return
    elseif #choices == 1 then
      ask_link(choices[1].label, choices[1].match, current)
      return
    end
    ui.select(choices, {
      prompt = "Which " .. format.clean(place) .. "?",
      format_item = function(choice)
        return choice.shown
      end,
    }, function(choice)
      if choice then
        -- The place as picked ("Springfield, Illinois, United States"), not as typed
        -- ("Springfield"): what others read on the map and in their lists.
        ask_link(choice.label, choice.match, current)
      else
        ended("no place picked", current)
      end
    end)
  end)
end

--- `:OnTheMapPost`: asks for the place, then which match, then the link.
function M.post()
  rpc.request("myPin", nil, function(err, result)
    if err then
      rpc.report(err, "post")
      return
    end
    local current = result and result.pin
    -- The current place is named in the prompt, not typed into it: Neovim's input() appends what
    -- is typed to a default, and "Lima, PeruCusco" still geocodes to Lima.
    local prompt = current and ("Place (empty keeps %s): "):format(format.clean(current.mapString)) or "Place: "
    ui.input({ prompt = prompt }, function(place)
      if place and place:match("%S") then
        choose_place(vim.trim(place), current)
      elseif place and current then
        -- Only the link changes: the pin stays where it is.
        ask_link(current.mapString, current, current)
      elseif place then
        info("no place given: nothing was posted")
      else
        ended("post cancelled", current)
      end
    end)
  end)
end

return M
