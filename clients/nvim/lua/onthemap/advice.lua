-- What to do when the daemon cannot be reached, in the words of the `onthemap` CLI, which knows this
-- machine (a systemd user manager or none, the demo's SOCKET.how-to-start, the --api-url in use):
-- `onthemap status` says it on stderr, one line, `onthemap: <what happened>. <advice>`. One advice
-- for the CLI, both editors and the bars; the plugin's own words only when the CLI cannot be run.
local config = require("onthemap.config")
local format = require("onthemap.format")

local uv = vim.loop
local M = {}

-- The CLI answers at once when nothing listens; one that does not is given up on after this long.
local limit_ms = 5000

--- The `onthemap status` command line: the socket named by the `socket` option passed on as
--- `--socket` ($ONTHEMAP_SOCKET reaches the CLI through the environment).
function M.command()
  local argv = { config.options.cli or "onthemap", "status" }
  local option = config.options.socket
  if type(option) == "function" then
    option = option()
  end
  if type(option) == "string" and option ~= "" then
    vim.list_extend(argv, { "--socket", option })
  end
  return argv
end

--- The CLI's line of `stderr` (a list of lines) without its "onthemap: " prefix, or nil.
function M.line(stderr)
  for index = #stderr, 1, -1 do
    local text = stderr[index]:match("^onthemap: (.+)$")
    if text and text:match("%S") then
      return format.clean(vim.trim(text))
    end
  end
  return nil
end

--- Runs `onthemap status` and calls `done(text)` on the main loop: what the CLI says when it
--- cannot reach the daemon either (exit status not 0), else nil (no CLI, it reached a daemon
--- that has just started, or it said nothing of use).
function M.ask(done)
  local stderr, finished, timer = {}, false, nil
  local function finish(text)
    if finished then
      return
    end
    finished = true
    if timer and not timer:is_closing() then
      timer:stop()
      timer:close()
    end
    vim.schedule(function()
      done(text)
    end)
  end
  local ok, job = pcall(vim.fn.jobstart, M.command(), {
    -- The line is read, not shown: no colour in it.
    env = { NO_COLOR = "1" },
    stdout_buffered = true,
    stderr_buffered = true,
    on_stderr = function(_, data)
      stderr = data or {}
    end,
    on_exit = function(_, code)
      finish(code ~= 0 and M.line(stderr) or nil)
    end,
  })
  if not ok or job <= 0 then
    finish(nil)
    return
  end
  timer = uv.new_timer()
  timer:start(limit_ms, 0, function()
    vim.schedule(function()
      pcall(vim.fn.jobstop, job)
    end)
    finish(nil)
  end)
end

return M
