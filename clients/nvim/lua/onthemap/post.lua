-- `:OnTheMapPost`: where and which link, the geocoder's matches to choose from, and a question
-- before an existing pin is moved. Every step is asynchronous (vim.ui.input / vim.ui.select, so
-- a UI plugin such as dressing.nvim can take them over; see onthemap.ui for Neovim 0.7's input).
local format = require("onthemap.format")
local notify = require("onthemap.notify")
local rpc = require("onthemap.rpc")
local ui = require("onthemap.ui")

local M = {}

local function info(message)
  notify.show("OnTheMap: " .. message, vim.log.levels.INFO)
end

--- Sends the pin; on "you already have a pin" asks before moving it.
local function send(params)
  rpc.request("postPin", params, function(err, result)
    if err and err.code == rpc.codes.pin_exists and not params.overwrite then
      local pin = err.data and err.data.pin or {}
      local from = format.clean(pin.mapString or "its place")
      local question = from == params.mapString and ("Replace your pin at %s (new link)?"):format(from)
        or ("Move your pin from %s to %s?"):format(from, params.mapString)
      ui.select({ "Yes, move it", "No, keep it" }, { prompt = question }, function(choice)
        if choice == "Yes, move it" then
          params.overwrite = true
          send(params)
        else
          info("your pin stays at " .. format.clean(pin.mapString or "its place"))
        end
      end)
    elseif err then
      rpc.report(err, "post")
    else
      local pin = result.pin or {}
      info(("%s %s (%s)"):format(result.created and "posted your pin at" or "moved your pin to", format.clean(pin.mapString), format.clean(pin.mediaURL)))
    end
  end)
end

--- Asks for the link (the pin's current one offered), then sends the pin at `match` (a geocoder
--- result, or the pin itself) named `place`.
local function ask_link(place, match, default_link)
  ui.input({ prompt = "Link (http or https): ", default = default_link }, function(input)
    local link = format.typed_link(input, default_link)
    if link then
      send({ mapString = place, mediaURL = link, latitude = match.latitude, longitude = match.longitude })
    end
  end)
end

--- Offers the geocoder's matches for `place` with vim.ui.select.
local function choose_place(place, default_link)
  rpc.request("geocode", { query = place, limit = 5 }, function(err, result)
    if err then
      rpc.report(err, "post")
      return
    end
    local matches = result.results or {}
    ui.select(matches, {
      prompt = "Which " .. place .. "?",
      format_item = function(match)
        return format.place(match) .. " (" .. (match.precision or "place") .. ")"
      end,
    }, function(match)
      if match then
        -- The place as picked ("Springfield, Illinois, United States"), not as typed
        -- ("Springfield"): what others read on the map and in their lists.
        ask_link(format.place(match), match, default_link)
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
        choose_place(vim.trim(place), current and current.mediaURL or nil)
      elseif place and current then
        -- Only the link changes: the pin stays where it is.
        ask_link(current.mapString, current, current.mediaURL)
      end
    end)
  end)
end

return M
