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
local function read_password(username, why)
  local ok, password = pcall(vim.fn.inputsecret, (why or "") .. "Password for " .. username .. ": ")
  vim.cmd("redraw")
  if not ok then
    return nil
  end
  return password
end

--- Logs in as `username` (asked for when nil). An empty answer (or Esc) sends nothing and says so:
--- Neovim 0.7's own vim.ui.input passes nil for both, and the prompt's text would stay on the
--- command line, looking like a question still open.
function M.login(username)
  local function with_username(name)
    if not name or not name:match("%S") then
      info("no email given: login cancelled")
      return
    end
    name = vim.trim(name)
    -- A password the server refuses is asked again once, saying why, as gh asks again; a second
    -- refusal says what to do, as `onthemap login` says it.
    local function attempt(why)
      local password = read_password(name, why)
      if not password or password == "" then
        info("no password given: login cancelled")
        return
      end
      rpc.request("login", { username = name, password = password }, function(err, account)
        if err and err.code == rpc.codes.invalid_credentials and not why then
          local what = rpc.what_happened(err.message) or (err.message:gsub("[%s.]*$", ""))
          attempt(what .. ". ")
        elseif err then
          rpc.report(err, "login")
        else
          notify.show("OnTheMap: logged in as " .. format.name(account), vim.log.levels.INFO, { "OnTheMap: logged in" })
        end
      end)
      password = nil
    end
    attempt(nil)
  end
  local function ask()
    if username and username ~= "" then
      with_username(username)
    else
      require("onthemap.ui").input({ prompt = "Email: ", default = config.options.username }, with_username)
    end
  end
  -- Logged in already, as the statusline's subscription last heard: asked first, as `onthemap
  -- login` asks ("Log in again? [y/N]"); a login replaced the session without a word. Not known
  -- (no subscription yet, the daemon away): no question, and the login itself says what it finds.
  local known = require("onthemap.status").status
  if type(known) ~= "table" or not known.loggedIn then
    return ask()
  end
  local who = format.name(known.account or {})
  who = who ~= "" and who or "this account"
  require("onthemap.ui").select({ "Yes, log in again", "No, stay logged in" }, {
    prompt = ("Already logged in as %s. Log in again?"):format(who),
  }, function(choice)
    if choice == "Yes, log in again" then
      ask()
    else
      info("still logged in as " .. who)
    end
  end)
end

--- What a logout did, from the daemon's `upstream`: "ended", "already ended", "no session", or
--- why the server did not end the session (no answer, or an error: then it may stay valid there
--- until it expires).
function M.logout_sentence(upstream)
  if upstream == "ended" then
    return "logged out"
  elseif upstream == "already ended" then
    return "logged out (the server had already ended the session)"
  elseif upstream == "no session" then
    return "not logged in"
  end
  local why = type(upstream) == "string" and upstream:match("^not reached %((.*)%)") or nil
  return ("logged out here; the server did not end the session%s, so it stays valid there until it expires"):format(
    why and (" (" .. why .. ")") or ""
  )
end

--- Logs out (the daemon forgets the session even when the API is unreachable).
function M.logout()
  rpc.request("logout", nil, function(err, result)
    if err then
      rpc.report(err, "logout")
    else
      local upstream = result and result.upstream
      if upstream == "ended" or upstream == "already ended" or upstream == "no session" then
        info(M.logout_sentence(upstream))
      else
        -- Not news only: the session may still be used there.
        notify.show("OnTheMap: " .. M.logout_sentence(upstream), vim.log.levels.WARN, {
          "OnTheMap: logged out here; the server did not end the session",
          "OnTheMap: logged out here, not on the server",
        })
      end
    end
  end)
end

return M
