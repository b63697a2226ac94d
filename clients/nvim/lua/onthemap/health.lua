-- `:checkhealth onthemap`: the socket, how links open, the last warnings and errors too wide for
-- the command line (in full), the daemon's version and the login.
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

-- How to start the daemon is in the error itself, in the `onthemap` CLI's words (onthemap.advice).
local elsewhere = "A daemon elsewhere: $ONTHEMAP_SOCKET, or require('onthemap').setup({ socket = PATH })"

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
  local cli = require("onthemap.config").options.cli or "onthemap"
  if vim.fn.executable(cli) == 1 then
    report.ok(("`%s` runs: when onthemapd cannot be reached, its advice for this machine is shown"):format(cli))
  else
    report.warn(("`%s` cannot be run: when onthemapd cannot be reached, only general advice is shown"):format(cli), {
      "Install OnTheMap's `onthemap` command, or set the `cli` option to its path",
    })
  end
  -- A notice on the command line was a summary that points here.
  for _, message in ipairs(notify.long) do
    report.info(("message at %s, in full: %s"):format(os.date("%H:%M:%S", message.time), format.clean(message.text)))
  end
  -- A health check may wait, briefly: bounded, and the event loop keeps running meanwhile.
  local done, failure, status = false, nil, nil
  rpc.request("status", nil, function(err, result)
    done, failure, status = true, err, result
  end, { timeout_ms = 3000 })
  vim.wait(5000, function()
    return done
  end, 20)
  if done and failure and failure.kind == "refused" then
    -- Running, but another user's: no advice to start one.
    report.error(format.clean(failure.message), { elsewhere })
    return
  end
  if not done or failure then
    report.error("onthemapd does not answer: " .. format.clean(failure and failure.message or "no answer"), { elsewhere })
    return
  end
  report.ok(("onthemapd %s answers; API %s"):format(format.clean(tostring(status.version)), format.clean(tostring(status.apiURL))))
  if status.loggedIn then
    local account = status.account or {}
    local students = status.students or {}
    -- Your pin's whole place: the statusline shows its name alone.
    local pin = status.myPin and status.myPin.mapString
    report.ok(("logged in as %s; %s students cached; %s"):format(
      format.name(account),
      format.grouped(students.count or 0),
      pin and ("your pin: " .. format.clean(pin)) or "no pin of yours"
    ))
    if students.stale then
      report.warn("the student list is stale: " .. format.clean(students.lastError or "not refreshed lately"))
    end
  else
    report.warn("not logged in", { "Run :OnTheMapLogin" })
  end
end

return M
