-- A login + post + put mix, in turns, over BENCH_ACCOUNTS accounts (bench0@example.com … with the
-- password bench-password) and their pins, whose objectIds are in the file BENCH_PINS (one a line,
-- in account order). The server runs with --open-writes so a write needs no session round trip.
-- BENCH_ONLY picks one kind of request (below).
dofile(os.getenv("BENCH_DIR") .. "/report.lua")

local accounts = tonumber(os.getenv("BENCH_ACCOUNTS"))
local pins = {}
for line in io.lines(os.getenv("BENCH_PINS")) do pins[#pins + 1] = line end
local turn = 0
local json = { ["Content-Type"] = "application/json" }

local function pin(n, place)
  return string.format(
    '{"uniqueKey":"bench-key-%d","firstName":"Bench","lastName":"Mark %d","mapString":"%s","mediaURL":"https://example.com/%d","latitude":%.4f,"longitude":%.4f}',
    n, n, place, n, (n % 170) - 85 + 0.5, (n % 350) - 175 + 0.5)
end

-- BENCH_ONLY=0, 1 or 2: logins, POSTs or PUTs alone (what each costs).
local only = tonumber(os.getenv("BENCH_ONLY") or "")

request = function()
  turn = turn + 1
  local n = math.random(0, accounts - 1)
  local kind = only or turn % 3
  if kind == 0 then
    return wrk.format("POST", "/v1/session", json,
      string.format('{"udacity":{"username":"bench%d@example.com","password":"bench-password"}}', n))
  elseif kind == 1 then
    return wrk.format("POST", "/v1/StudentLocation", json, pin(n, "Posted " .. turn))
  else
    return wrk.format("PUT", "/v1/StudentLocation/" .. pins[n + 1], json, pin(n, "Moved " .. turn))
  end
end
