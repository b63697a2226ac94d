-- `:checkhealth onthemap`: the socket, how links open, the last messages too wide for the command
-- line (in full), the daemon's version and the login.
local format = require("onthemap.format")
local notify = require("onthemap.notify")
local rpc = require("onthemap.rpc")
local socket = require("onthemap.socket")

local M = {}

-- Neovim 0.7 has require("health").report_*; 0.9+ has vim.health.start/ok/warn/error/info.
local function reporter()
  local health = vim.health or require("health")
  return {
    start = health.start or health.report_start,
    ok = health.ok or health.report_ok,
    info = health.info or health.report_info,
    warn = health.warn or health.report_warn,
    error = health.error or health.report_error,
  }
end

local start_daemon = {
  "Start it: systemctl --user start onthemapd.socket (or run onthemapd)",
  "Or point the plugin elsewhere: $ONTHEMAP_SOCKET, or require('onthemap').setup({ socket = PATH })",
}

function M.check()
  local report = reporter()
  report.start("onthemap.nvim")
  if vim.fn.has("nvim-0.7") == 1 then
    local v = vim.version()
    report.ok(("Neovim %d.%d.%d"):format(v.major, v.minor, v.patch))
  else
    report.error("onthemap.nvim needs Neovim 0.7 or newer")
  end
  local candidates = socket.candidates()
  if #candidates == 1 then
    report.info("socket: " .. candidates[1])
  else
    report.info("sockets, tried in this order: " .. table.concat(candidates, ", "))
  end
  if require("onthemap.config").options.opener then
    report.ok("links open with your `opener` option")
  elseif vim.ui.open then
    report.ok("links open with vim.ui.open()")
  elseif vim.fn.executable("xdg-open") == 0 then
    report.warn("no xdg-open: links cannot be opened", { "Install xdg-utils, or set the `opener` option" })
  else
    -- Whether xdg-open finds a browser depends on the desktop; when it does not, <CR> says so.
    report.info("links open with xdg-open, which needs a browser set up for this session")
  end
  -- A notice on the command line was a summary that points here.
  for _, message in ipairs(notify.long) do
    report.info(("message at %s, in full: %s"):format(os.date("%H:%M:%S", message.time), message.text))
  end
  -- A health check may wait, briefly: bounded, and the event loop keeps running meanwhile.
  local done, failure, status = false, nil, nil
  rpc.request("status", nil, function(err, result)
    done, failure, status = true, err, result
  end, { timeout_ms = 3000 })
  vim.wait(5000, function()
    return done
  end, 20)
  if not done or failure then
    local advice = start_daemon
    if #candidates == 1 then
      -- A socket named by hand: the systemd socket unit does not listen there.
      advice = { ("Start one there: onthemapd --socket %s"):format(format.shell_quote(candidates[1])), start_daemon[2] }
    end
    report.error("onthemapd does not answer: " .. (failure and failure.message or "no answer"), advice)
    return
  end
  report.ok(("onthemapd %s answers; API %s"):format(tostring(status.version), tostring(status.apiURL)))
  if status.loggedIn then
    local account = status.account or {}
    local students = status.students or {}
    report.ok(("logged in as %s %s; %d students cached"):format(
      tostring(account.firstName or ""),
      tostring(account.lastName or ""),
      students.count or 0
    ))
    if students.stale then
      report.warn("the student list is stale: " .. tostring(students.lastError or "not refreshed lately"))
    end
  else
    report.warn("not logged in", { "Run :OnTheMapLogin" })
  end
end

return M
