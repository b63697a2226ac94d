-- JSON-RPC 2.0 with onthemapd over its Unix socket, asynchronous: every call returns at once and
-- its callback runs later on the main loop. Newline-delimited JSON (docs/PROTOCOL.md), one short
-- connection per request, so a daemon restart between two requests goes unnoticed.
local config = require("onthemap.config")
local format = require("onthemap.format")
local notify = require("onthemap.notify")
local socket = require("onthemap.socket")

local uv = vim.loop
local M = {}

--- Decodes one JSON text; JSON null becomes nil (Neovim 0.7 supports `luanil` too).
function M.decode(text)
  return vim.json.decode(text, { luanil = { object = true, array = true } })
end

--- A JSON object for `params`, `{}` included (an empty Lua table would encode as `[]`).
function M.object(tbl)
  if tbl == nil or next(tbl) == nil then
    return vim.empty_dict()
  end
  return tbl
end

--- Splits a byte stream into lines: feed(chunk) calls on_line(line) for each complete line.
function M.line_splitter(on_line)
  local pending = {}
  return function(chunk)
    local start = 1
    while true do
      local newline = chunk:find("\n", start, true)
      if not newline then
        break
      end
      pending[#pending + 1] = chunk:sub(start, newline - 1)
      local line = table.concat(pending)
      pending = {}
      on_line(line)
      start = newline + 1
    end
    if start <= #chunk then
      pending[#pending + 1] = chunk:sub(start)
    end
  end
end

--- The error when nothing answered at any path tried: what to do first, then the paths tried (as
--- the CLI says it). Its advice is the CLI's (onthemap.advice, filled in by M.request); this text,
--- without it, stays only when the CLI cannot be run. One path tried is one named by hand (the
--- defaults are at least two). `summaries`: shorter forms for the command line.
function M.unreachable(attempts)
  for _, attempt in ipairs(attempts) do
    if attempt.other_user then
      return M.refused(attempt.path, attempt.other_user)
    end
  end
  local tried = {}
  for _, attempt in ipairs(attempts) do
    tried[#tried + 1] = ("%s (%s)"):format(attempt.path, attempt.reason)
  end
  tried = "Tried " .. table.concat(tried, "; ") .. "."
  if #attempts == 1 then
    local path, reason = attempts[1].path, attempts[1].reason
    return {
      kind = "unreachable",
      attempts = attempts,
      message = ("cannot reach onthemapd. Start one with `onthemapd --socket %s`. %s"):format(format.shell_quote(path), tried),
      summaries = { ("cannot reach onthemapd at %s (%s)"):format(path, reason), "cannot reach onthemapd" },
    }
  end
  return {
    kind = "unreachable",
    attempts = attempts,
    message = "cannot reach onthemapd. Start onthemapd: onthemapd(1) says how. " .. tried,
    summaries = { "cannot reach onthemapd: is it running?", "cannot reach onthemapd" },
  }
end

--- The error for a daemon that is running at `path` but is another user's (uid `uid`, nil when
--- not known), so not yours: its socket could not be opened (EACCES, EPERM), or it answered
--- -32010 and ended the connection. No advice to start one: how to use your own instead (the `socket` option or
--- $ONTHEMAP_SOCKET). The statusline shows it as "refused".
function M.refused(path, uid)
  local whose = uid and ("another user (uid %d)"):format(uid) or "another user"
  return {
    kind = "refused",
    refused = true,
    path = path,
    uid = uid,
    message = ("the onthemapd at %s belongs to %s, so it is not yours. %s"):format(path, whose, socket.use_your_own()),
    summaries = {
      ("the onthemapd at %s belongs to %s: not yours"):format(path, whose),
      ("onthemapd here belongs to %s"):format(whose),
      "onthemapd here is another user's",
    },
  }
end

--- `err` (nothing answered: M.unreachable) with the CLI's advice in place of the plugin's own,
--- when the CLI can say it; then `done(err)`, on the main loop. May be called from a luv callback.
--- The CLI's words without the paths tried (what to do comes first) are the first shorter form.
function M.with_advice(err, done)
  if err.kind ~= "unreachable" or not err.attempts then
    done(err)
    return
  end
  vim.schedule(function()
    require("onthemap.advice").ask(function(text)
      if text then
        local summaries = vim.deepcopy(err.summaries or {})
        local advice = text:match("^(.-)%s+Tried ")
        if advice then
          table.insert(summaries, 1, advice)
        end
        err = vim.tbl_extend("force", err, { message = text, summaries = summaries })
      end
      done(err)
    end)
  end)
end

--- Connects a pipe to the first socket where a daemon listens (socket.candidates()), as the CLI
--- does; on_connected(pipe, path) or on_error(err) runs in a luv callback. A socket file that
--- belongs to another user stops the search: nothing is sent to it.
function M.connect(on_connected, on_error)
  local paths = socket.candidates()
  local attempts = {}
  local function try(index)
    local path = paths[index]
    if not path then
      on_error(M.unreachable(attempts))
      return
    end
    local owner = socket.foreign_owner(path)
    if owner then
      on_error({
        kind = "unreachable",
        refused = true,
        message = ("refusing the socket %s: it belongs to uid %d, not to you or root, so it is not your onthemapd (another user may be impersonating it). Nothing was sent. Remove it, and use a private directory (XDG_RUNTIME_DIR)."):format(
          path,
          owner
        ),
        summaries = {
          ("refusing the socket %s of uid %d: nothing was sent"):format(path, owner),
          ("refusing a socket of uid %d: nothing was sent"):format(owner),
        },
      })
      return
    end
    local pipe = uv.new_pipe(false)
    local function failed(reason)
      if not pipe:is_closing() then
        pipe:close()
      end
      attempts[#attempts + 1] = { path = path, reason = socket.reason(reason), other_user = socket.other_user(path, reason) }
      try(index + 1)
    end
    local ok, started = pcall(pipe.connect, pipe, path, function(err)
      if err then
        failed(err)
      else
        on_connected(pipe, path)
      end
    end)
    if not ok or not started then
      failed(started)
    end
  end
  try(1)
end

-- The plugin checks what is typed before sending it, so a request onthemapd cannot read means the
-- two do not match.
local mismatch = "this plugin and onthemapd may be of different versions: update both (`onthemapd --version` names its own)"

--- What a request is about, in the user's words, for messages ("postPin" is the protocol's name).
M.about = {
  students = "the list",
  geocode = "the place lookup",
  login = "the login",
  logout = "the logout",
  myPin = "the pin lookup",
  postPin = "the post",
  map = "the map",
  status = "the status check",
  refresh = "the refresh",
}

local function about(method)
  return M.about[method] or method
end

--- Calls `method` with `params` (a table or nil). `callback(err, result)` runs exactly once, on the
--- main loop: err is nil on success, else `{kind, message, summaries?, code?, data?}` where kind is
--- "daemon" (the daemon answered with an error: code and message are its own), "unreachable",
--- "refused" (the daemon there is another user's: M.refused), "timeout" or "closed", and summaries are shorter forms of the message, for the command line.
function M.request(method, params, callback, opts)
  opts = opts or {}
  local timeout = opts.timeout_ms or config.options.timeout_ms
  local pipe, connected_path
  local timer = uv.new_timer()
  local finished = false

  local function finish(err, result)
    if finished then
      return
    end
    finished = true
    timer:stop()
    timer:close()
    if pipe and not pipe:is_closing() then
      pipe:close()
    end
    vim.schedule(function()
      callback(err, result)
    end)
  end

  timer:start(timeout, 0, function()
    local what = ("onthemapd did not answer %s within %g s"):format(about(method), timeout / 1000)
    finish({
      kind = "timeout",
      message = ("%s (%s)"):format(what, connected_path or socket.path()),
      summaries = { what },
    })
  end)

  local request = { jsonrpc = "2.0", id = 1, method = method }
  if params ~= nil then
    request.params = M.object(params)
  end
  local line = vim.json.encode(request) .. "\n"
  request = nil -- nothing keeps the params (a password, for login) once they are encoded

  M.connect(function(connected, path)
    pipe, connected_path = connected, path
    if finished then
      pipe:close()
      return
    end
    local feed = M.line_splitter(function(text)
      local ok, message = pcall(M.decode, text)
      if not ok or type(message) ~= "table" then
        finish({ kind = "closed", message = "onthemapd sent an answer this plugin cannot read: " .. mismatch })
      elseif message.method ~= nil then
        return -- a notification; this connection did not subscribe, so none is expected
      elseif message.error and message.error.code == M.codes.refused then
        -- Another user's daemon (id null), which ends the connection after saying so.
        finish(M.refused(path, socket.owner(path)))
      elseif message.error then
        finish({
          kind = "daemon",
          code = message.error.code,
          message = M.in_editor_words(message.error.code, message.error.message or "onthemapd reported an error"),
          data = message.error.data,
        })
      else
        finish(nil, message.result)
      end
    end)
    pipe:write(line)
    line = nil
    pipe:read_start(function(err, chunk)
      if err then
        finish({ kind = "closed", message = "the connection to onthemapd failed: " .. err })
      elseif chunk == nil then
        finish({ kind = "closed", message = "onthemapd closed the connection before answering " .. about(method) })
      else
        feed(chunk)
      end
    end)
  end, function(err)
    -- Nothing listens: the advice on starting it is the CLI's (the request's timeout still holds).
    M.with_advice(err, finish)
  end)
end

--- What happened, without why or what to do: a message's words up to its first ":", " (" or ". "
--- ("The link is not a web link (its scheme …): give …" → "The link is not a web link"); nil when
--- that is the whole message.
function M.what_happened(message)
  local cut
  for _, mark in ipairs({ ": ", " (", ". " }) do
    local at = message:find(mark, 1, true)
    if at and (not cut or at < cut) then
      cut = at
    end
  end
  return cut and cut > 1 and message:sub(1, cut - 1) or nil
end

--- Shows an error with vim.notify: the daemon's own message, or why it could not be reached; as
--- one line that fits the command line (onthemap.notify), the whole of it in :checkhealth. Too
--- wide, what happened is shown whole rather than the message cut mid-word ("OnTheMap: post: The
--- link is not a web l…"), with the command's name if there is room.
function M.report(err, doing)
  local prefix = doing and ("OnTheMap: " .. doing .. ": ") or "OnTheMap: "
  local summaries = {}
  for index, summary in ipairs(err.summaries or {}) do
    summaries[index] = prefix .. summary
  end
  local what = M.what_happened(err.message)
  if what then
    summaries[#summaries + 1] = prefix .. what
    summaries[#summaries + 1] = "OnTheMap: " .. what
  end
  notify.show(prefix .. err.message, vim.log.levels.ERROR, summaries)
end

-- JSON-RPC error codes of onthemapd (docs/PROTOCOL.md) that the plugin acts on.
M.codes = {
  parse_error = -32700,
  invalid_request = -32600,
  method_not_found = -32601,
  invalid_params = -32602,
  internal_error = -32603,
  not_logged_in = -32001,
  invalid_credentials = -32002,
  place_not_found = -32005,
  pin_exists = -32006,
  session_over = -32007,
  invalid_url = -32008,
  -- The daemon is another user's: it serves only its own (id null), then ends the connection.
  refused = -32010,
}

--- Whether `err` means there is no session (never had one, or it expired): a login fixes it.
function M.needs_login(err)
  return err ~= nil and (err.code == M.codes.not_logged_in or err.code == M.codes.session_over)
end

--- The daemon's message for `code`, in this editor's words: where it tells a CLI user what to type
--- ("run `onthemap login`" → ":OnTheMapLogin"), and where it names the protocol ("Invalid params:
--- query is required.") instead of what happened; any other message as it is.
function M.in_editor_words(code, message)
  message = message or ""
  if code == M.codes.not_logged_in then
    return "Not logged in: run :OnTheMapLogin first."
  elseif code == M.codes.session_over then
    return (message:gsub("[%s.]*$", "")) .. " with :OnTheMapLogin."
  elseif code == M.codes.invalid_credentials and message:find("^Account not found or invalid credentials") then
    -- The CLI's advice (CLIFailure), with this editor's command.
    return (message:gsub("[%s.]*$", "")) .. ": check the email and password, then run :OnTheMapLogin again."
  elseif code == M.codes.invalid_params then
    return "onthemapd did not accept what the plugin sent: " .. mismatch
  elseif code == M.codes.parse_error or code == M.codes.invalid_request or code == M.codes.method_not_found then
    return "onthemapd did not understand what the plugin sent: " .. mismatch
  elseif code == M.codes.internal_error then
    return "onthemapd failed (" .. (message:gsub("^Internal error:%s*", ""):gsub("[%s.]*$", "")) .. "); its log says more"
  end
  return message
end

return M
