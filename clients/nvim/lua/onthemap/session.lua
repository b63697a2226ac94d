-- `:OnTheMapLogin` and `:OnTheMapLogout`.
local config = require("onthemap.config")
local format = require("onthemap.format")
local notify = require("onthemap.notify")
local rpc = require("onthemap.rpc")

local M = {}

local function info(message)
  notify.show("OnTheMap: " .. message, vim.log.levels.INFO)
end

--- Reads the password with inputsecret(): typed characters show as stars, and the answer goes to
--- no history. The prompt is cleared after, so nothing of it stays on the screen.
local function read_password(username)
  local ok, password = pcall(vim.fn.inputsecret, "Password for " .. username .. ": ")
  vim.cmd("redraw")
  if not ok then
    return nil
  end
  return password
end

--- Logs in as `username` (asked for when nil).
function M.login(username)
  local function with_username(name)
    if not name or not name:match("%S") then
      return
    end
    name = vim.trim(name)
    local password = read_password(name)
    if not password or password == "" then
      info("login cancelled")
      return
    end
    rpc.request("login", { username = name, password = password }, function(err, account)
      if err then
        rpc.report(err, "login")
      else
        info("logged in as " .. format.name(account))
      end
    end)
    password = nil
  end
  if username and username ~= "" then
    with_username(username)
  else
    require("onthemap.ui").input({ prompt = "Udacity email: ", default = config.options.username }, with_username)
  end
end

--- Logs out (the daemon forgets the session even when the API is unreachable).
function M.logout()
  rpc.request("logout", nil, function(err, result)
    if err then
      rpc.report(err, "logout")
    elseif result.upstream == "ended" or result.upstream == "already ended" then
      info("logged out")
    elseif result.upstream == "no session" then
      info("not logged in")
    else
      info("logged out; upstream: " .. tostring(result.upstream))
    end
  end)
end

return M
