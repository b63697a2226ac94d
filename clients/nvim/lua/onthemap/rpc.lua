-- JSON-RPC 2.0 with onthemapd over its Unix socket, asynchronous: every call returns at once and
-- its callback runs later on the main loop. Newline-delimited JSON (docs/PROTOCOL.md), one short
-- connection per request, so a daemon restart between two requests goes unnoticed.
local config = require("onthemap.config")
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

--- Connects a new pipe to the daemon; on_connected(pipe) or on_error(err) runs in a luv callback.
function M.connect(path, on_connected, on_error)
  local pipe = uv.new_pipe(false)
  local ok, started = pcall(pipe.connect, pipe, path, function(err)
    if err then
      pipe:close()
      on_error(M.unreachable(path, err))
    else
      on_connected(pipe)
    end
  end)
  if not ok or not started then
    if not pipe:is_closing() then
      pipe:close()
    end
    on_error(M.unreachable(path, tostring(started)))
  end
end

--- The error for a daemon that cannot be reached, worded as the CLI words it.
function M.unreachable(path, reason)
  return {
    kind = "unreachable",
    message = ("cannot reach onthemapd at %s (%s). Start it with `systemctl --user start onthemapd.socket`, or run `onthemapd`."):format(
      path,
      reason
    ),
  }
end

--- Calls `method` with `params` (a table or nil). `callback(err, result)` runs exactly once, on the
--- main loop: err is nil on success, else `{kind, message, code?, data?}` where kind is "daemon"
--- (the daemon answered with an error: code and message are its own), "unreachable", "timeout" or
--- "closed".
function M.request(method, params, callback, opts)
  opts = opts or {}
  local path = socket.path()
  local timeout = opts.timeout_ms or config.options.timeout_ms
  local pipe
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
    finish({
      kind = "timeout",
      message = ("onthemapd did not answer %s within %g s (%s)"):format(method, timeout / 1000, path),
    })
  end)

  local request = { jsonrpc = "2.0", id = 1, method = method }
  if params ~= nil then
    request.params = M.object(params)
  end
  local line = vim.json.encode(request) .. "\n"
  request = nil -- nothing keeps the params (a password, for login) once they are encoded

  M.connect(path, function(connected)
    pipe = connected
    if finished then
      pipe:close()
      return
    end
    local feed = M.line_splitter(function(text)
      local ok, message = pcall(M.decode, text)
      if not ok or type(message) ~= "table" then
        finish({ kind = "closed", message = "onthemapd sent something that is not JSON" })
      elseif message.method ~= nil then
        return -- a notification; this connection did not subscribe, so none is expected
      elseif message.error then
        finish({
          kind = "daemon",
          code = message.error.code,
          message = message.error.message or "onthemapd reported an error",
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
        finish({ kind = "closed", message = "onthemapd closed the connection before answering " .. method })
      else
        feed(chunk)
      end
    end)
  end, function(err)
    finish(err)
  end)
end

--- Shows an error with vim.notify: the daemon's own message, or why it could not be reached.
function M.report(err, doing)
  local prefix = doing and ("OnTheMap: " .. doing .. ": ") or "OnTheMap: "
  vim.notify(prefix .. err.message, vim.log.levels.ERROR, { title = "OnTheMap" })
end

-- JSON-RPC error codes of onthemapd (docs/PROTOCOL.md) that the plugin acts on.
M.codes = {
  method_not_found = -32601,
  not_logged_in = -32001,
  invalid_credentials = -32002,
  place_not_found = -32005,
  pin_exists = -32006,
}

return M
