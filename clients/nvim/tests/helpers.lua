-- What the tests share: waiting on conditions, the real CLI as a second client, and a record of
-- every vim.notify message. Nothing here answers a prompt for the user: prompts are typed at
-- (feedkeys here, or key by key into a real terminal: screen.lua).
--
-- Environment (set by Tests/OnTheMapEditorTests):
--   ONTHEMAP_SOCKET            a real onthemapd, logged out, in front of a real onthemap-server
--                              (for refused_spec: root's onthemapd, this Neovim run as nobody)
--   ONTHEMAP_TEST_EMAIL/PASSWORD   the demo account
--   ONTHEMAP_TEST_CLI          the `onthemap` binary
--   ONTHEMAP_TEST_DEAD_SOCKET  a socket file nobody listens on
--   ONTHEMAP_TEST_HUNG_SOCKET  a daemon stopped with SIGSTOP: it accepts and never answers
--   ONTHEMAP_TEST_CONTROL      a directory: writing "restart" there makes the test restart the daemon,
--                              "daemon-stop" and "daemon-start" stop and start it, "daemon-pause" and
--                              "daemon-resume" SIGSTOP and SIGCONT it, "server-stop" and
--                              "server-start" the server (M.control)
--   ONTHEMAP_TEST_FOREIGN_SOCKET   a socket file of another user (nobody); made only as root, for root_spec
local M = {}

M.env = setmetatable({}, {
  __index = function(_, key)
    local value = os.getenv(key)
    if not value or value == "" then
      error("the test needs $" .. key, 2)
    end
    return value
  end,
})

--- Every vim.notify message, in order: { message, level }.
M.notifications = {}
vim.notify = function(message, level)
  M.notifications[#M.notifications + 1] = { message = message, level = level }
end

function M.fail(message, level)
  error(message, (level or 1) + 1)
end

--- Waits (letting the event loop run) until `condition()` is true; fails after `ms`. `what` says
--- what was awaited: text, or a function giving it (to say what was seen at the end).
function M.wait(ms, condition, what)
  if not vim.wait(ms, condition, 20) then
    M.fail("gave up after " .. ms .. " ms waiting for " .. (type(what) == "function" and what() or what), 2)
  end
end

function M.eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    M.fail(("%s: expected %s, got %s"):format(what, vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

function M.ok(value, what)
  if not value then
    M.fail(what, 2)
  end
  return value
end

--- The first notification from index `from` on whose text contains `text`, waiting up to `ms`.
function M.notified(text, ms, from)
  local found
  M.wait(ms or 15000, function()
    for index = from or 1, #M.notifications do
      if M.notifications[index].message:find(text, 1, true) then
        found = M.notifications[index]
        return true
      end
    end
    return false
  end, function()
    return "a notification containing " .. vim.inspect(text) .. "; got " .. vim.inspect(M.notifications)
  end)
  return found
end

--- Fails unless `note` (a vim.notify message) is one line that fits the command line: a wider
--- message scrolls, and Neovim then waits for ENTER.
function M.fits(note)
  local room = vim.o.columns - 12
  M.ok(not note.message:find("\n", 1, true), "one line: " .. note.message)
  M.ok(vim.fn.strdisplaywidth(note.message) <= room, ("wider than %d columns: %s"):format(room, note.message))
end

--- Runs `f(width)` with `vim.o.columns` at each of `widths`, and puts the width back afterwards,
--- also when `f` fails (its error raised again): the next case sees the width it had.
function M.at_widths(widths, f)
  local columns = vim.o.columns
  local ok, err = pcall(function()
    for _, width in ipairs(widths) do
      vim.o.columns = width
      f(width)
    end
  end)
  vim.o.columns = columns
  if not ok then
    error(err, 0)
  end
end

--- Runs `body`, then `cleanup` whether `body` failed or not (its error raised again afterwards):
--- a spec that moves the pin or opens windows puts them back even when an early wait fails, so the
--- next spec starts where it expects.
function M.finally(body, cleanup)
  local ok, err = pcall(body)
  cleanup()
  if not ok then
    error(err, 0)
  end
end

--- Asks the Swift test, through the control directory, to do `ask` ("restart", "server-stop",
--- "server-start"), and waits until it says it did (`done`: "restarted", "server-stopped",
--- "server-started").
function M.control(ask, done)
  local dir = M.env.ONTHEMAP_TEST_CONTROL
  vim.fn.delete(dir .. "/" .. done)
  vim.fn.writefile({}, dir .. "/" .. ask)
  M.wait(60000, function()
    return vim.fn.filereadable(dir .. "/" .. done) == 1
  end, "the test bed to " .. ask)
end

--- Runs the real CLI (another client of the same daemon) and returns its stdout, failing on error.
--- The CLI's standard output alone: what it says on stderr (the place `--near` used) is not its data.
function M.cli(args)
  local errors = vim.fn.tempname()
  local argv = vim.list_extend({ M.env.ONTHEMAP_TEST_CLI }, args)
  local command = table.concat(vim.tbl_map(vim.fn.shellescape, argv), " ") .. " 2>" .. vim.fn.shellescape(errors)
  local output = vim.fn.system(command)
  local said = table.concat(vim.fn.readfile(errors), "\n")
  vim.fn.delete(errors)
  if vim.v.shell_error ~= 0 then
    M.fail("onthemap " .. table.concat(args, " ") .. " failed: " .. output .. said, 2)
  end
  return output
end

function M.cli_json(args)
  return vim.json.decode(M.cli(vim.list_extend(vim.deepcopy(args), { "--json" })), { luanil = { object = true, array = true } })
end

--- The pin of the account `key` among the items of `buf` (a map), and its line; nil when not there.
function M.pin_of(buf, key)
  for line, pin in pairs(require("onthemap.buffer").state[buf].items) do
    if pin.uniqueKey == key then
      return pin, line
    end
  end
end

function M.lines(buf)
  return vim.api.nvim_buf_get_lines(buf or 0, 0, -1, false)
end

--- The text of :checkhealth onthemap.
function M.health()
  vim.cmd("checkhealth onthemap")
  local text = table.concat(M.lines(0), "\n")
  vim.cmd("bwipeout!")
  return text
end

--- Types keys as a user would, and runs what they map to.
function M.feed(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), "x", false)
end

--- Ends the line a prompt answered here left on stdout (headless Neovim prints its prompts
--- there), so the next TAP line starts a line of its own.
function M.after_prompts()
  io.stdout:write("\n")
  io.stdout:flush()
end

--- Milliseconds `fn` takes to return.
function M.time(fn)
  local started = vim.loop.hrtime()
  fn()
  return (vim.loop.hrtime() - started) / 1e6
end

return M
