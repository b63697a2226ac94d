-- What the words after `:OnTheMap near` and `:OnTheMap map` mean: a place's name or "lat,lon"
-- (read as the daemon reads them: two numbers around a comma), then maybe a radius in km.
local M = {}

local number = "[-+]?%d*%.?%d+"

--- The coordinates in `text` ("48.85, 2.35", "-33.9,151.2"), or nil when it is not two numbers
--- around a comma. A second value is the error when they are out of range (a typo, not a place).
function M.coordinates(text)
  local latitude, longitude = text:match("^%s*(" .. number .. ")%s*,%s*(" .. number .. ")%s*$")
  if not latitude then
    return nil
  end
  local lat, lon = tonumber(latitude), tonumber(longitude)
  if lat < -90 or lat > 90 then
    return nil, ("latitude %s is out of range: it goes from -90 to 90"):format(latitude)
  elseif lon < -180 or lon > 180 then
    return nil, ("longitude %s is out of range: it goes from -180 to 180"):format(longitude)
  end
  return { latitude = lat, longitude = lon }
end

--- Reads the command's words: returns { text, km, latitude?, longitude? }, or nil and why. A
--- trailing number is a radius in km, unless it is the second half of coordinates ("48.85, 2.35").
function M.read(words)
  local text = vim.trim(table.concat(words, " "))
  if text == "" then
    return nil, "name a place, or lat,lon"
  end
  local km
  local point, err = M.coordinates(text)
  if not point and not err then
    local rest, last = text:match("^(.-)%s+(" .. number .. ")$")
    if rest and rest ~= "" and not rest:match(",$") then
      text, km = rest, tonumber(last)
      point, err = M.coordinates(text)
    end
  end
  if err then
    return nil, err
  end
  if km and km <= 0 then
    return nil, ("the radius must be more than 0 km, not %s"):format(km)
  end
  local place = { text = text, km = km }
  if point then
    place.latitude, place.longitude = point.latitude, point.longitude
  end
  return place
end

return M
