-- Neovim as its users run it: a second, real Neovim with the plugin, in a terminal of a fixed size
-- (a :terminal of this headless one, in a floating window of exactly that size), typed at key by
-- key, read from its screen. Its real vim.ui.input (input()) and vim.ui.select (inputlist()) answer
-- what is typed; nothing is replaced. `lua()` asks it for what the screen cannot show (over its
-- --listen socket, msgpack-RPC).
local t = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "helpers.lua")

local M = {}
M.__index = M

local plugin = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h:h")

--- Starts the editor: `opts.columns`×`opts.lines` (80×24), after `require("onthemap").setup()` with
--- `opts.setup` (Lua source of a table; links opened are recorded in vim.g.opened).
function M.start(opts)
  opts = opts or {}
  local columns, lines = opts.columns or 80, opts.lines or 24
  -- Room for the terminal's window in this editor, given back by stop().
  local self = setmetatable({ columns = columns, rows = lines, outer = { vim.o.columns, vim.o.lines } }, M)
  vim.o.columns = math.max(vim.o.columns, columns + 2)
  vim.o.lines = math.max(vim.o.lines, lines + 4)
  self.address = vim.fn.tempname() .. ".sock"
  self.buf = vim.api.nvim_create_buf(false, true)
  self.win = vim.api.nvim_open_win(self.buf, true, { relative = "editor", row = 0, col = 0, width = columns, height = lines })
  local setup = "vim.tbl_extend('force', { timeout_ms = 60000, reconnect_ms = 200, cli = "
    .. vim.inspect(os.getenv("ONTHEMAP_TEST_CLI") or "onthemap")
    .. ", opener = function(url) vim.g.opened = url end }, "
    .. (opts.setup or "{}")
    .. ")"
  self.job = vim.fn.termopen({
    vim.v.progpath, "-u", "NONE", "-i", "NONE", "-n", "--listen", self.address,
    "--cmd", "set shortmess+=I noruler noshowcmd | lua vim.opt.runtimepath:prepend(" .. vim.inspect(plugin) .. ")",
    "-c", "runtime! plugin/**/*.lua",
    "-c", "lua require('onthemap').setup(" .. setup .. ")",
    -- Every key the editor took, for a failure's message: a key the test did not type (a
    -- terminal's reply cut in two on a busy machine reads as Esc) shows there.
    "-c", "lua _G.keys_taken = {}; vim.on_key(function(k) table.insert(_G.keys_taken, vim.fn.strtrans(k)) end)",
  })
  local ok, err = pcall(function()
    t.ok(self.job > 0, "the editor in a terminal started")
    -- The socket file appears when it is bound, a moment before it listens: connecting is
    -- tried until it is accepted.
    t.wait(10000, function()
      local connected, channel = pcall(vim.fn.sockconnect, "pipe", self.address, { rpc = true })
      self.channel = connected and channel or nil
      return self.channel ~= nil
    end, "the editor's --listen socket")
    -- Answered once it has started (the plugin loaded): requests wait for its main loop.
    t.eq(self:lua("return vim.g.loaded_onthemap"), 1, "the plugin loaded")
  end)
  if not ok then
    self:stop()
    error(err, 0)
  end
  return self
end

--- The screen: `rows` strings, without trailing blanks.
function M:lines()
  local all = vim.api.nvim_buf_get_lines(self.buf, 0, -1, false)
  local screen = {}
  for index = math.max(1, #all - self.rows + 1), #all do
    screen[#screen + 1] = (all[index]:gsub("%s+$", ""))
  end
  while #screen < self.rows do
    screen[#screen + 1] = ""
  end
  return screen
end

--- The screen as one text, for messages.
function M:text()
  return table.concat(self:lines(), "\n")
end

--- Types `keys` (a string of the bytes a terminal sends: "\r" Enter, "\27" Esc, "\15" Ctrl-O).
function M:type(keys)
  vim.fn.chansend(self.job, keys)
end

--- Types an Ex command and Enter.
function M:command(command)
  self:type(":" .. command .. "\r")
end

--- Waits until `condition(lines)` holds (up to `ms`, 30 s by default).
function M:wait(what, condition, ms)
  local ok = vim.wait(ms or 30000, function()
    return condition(self:lines())
  end, 20)
  if not ok then
    local taken_ok, taken = pcall(self.lua, self, "return table.concat(_G.keys_taken or {}, '')")
    -- Every message the editor showed, not only the last one left on the screen (an error from a
    -- callback is overwritten by what comes after it).
    local said_ok, said = pcall(self.lua, self, "return vim.fn.execute('messages')")
    -- The account's password, typed at a prompt, stays out of the test's output.
    local password = os.getenv("ONTHEMAP_TEST_PASSWORD")
    if password and password ~= "" then
      taken = taken_ok and taken:gsub(vim.pesc(password), "<password>") or taken
      said = said_ok and said:gsub(vim.pesc(password), "<password>") or said
    end
    t.fail(("gave up waiting for %s; the screen:\n%s\nthe keys the editor took: %s\nits messages:%s"):format(
      what, self:text(), taken_ok and taken or "(not known: " .. tostring(taken) .. ")",
      said_ok and said or " (not known: " .. tostring(said) .. ")"), 2)
  end
end

--- Waits until `text` (plain) is on the screen; returns the row (1-based) it is on.
function M:wait_for(text, ms)
  local row
  self:wait(vim.inspect(text), function(lines)
    for index, line in ipairs(lines) do
      if line:find(text, 1, true) then
        row = index
        return true
      end
    end
    return false
  end, ms)
  return row
end

--- Waits until `text` is on the screen, maybe wrapped onto the next lines (a long question).
function M:wait_for_wrapped(text, ms)
  self:wait(vim.inspect(text), function(lines)
    return table.concat(lines, ""):find(text, 1, true) ~= nil
  end, ms)
end

--- Waits until `text` is no longer on the screen.
function M:wait_gone(text, ms)
  self:wait("no " .. vim.inspect(text), function(lines)
    return not table.concat(lines, "\n"):find(text, 1, true)
  end, ms)
end

--- The row (1-based) holding `text`, or nil.
function M:row_of(text)
  for index, line in ipairs(self:lines()) do
    if line:find(text, 1, true) then
      return index
    end
  end
end

-- How many answers of `lua()` were asked for: each lands in a global variable of its own here.
local asked = 0

--- Runs Lua `code` in the editor (nvim_exec_lua) and returns what it returns. Asked with a
--- notification and answered by one (nvim_set_var on this side), not with rpcrequest: that would
--- stop this editor from reading the terminal meanwhile, and an editor whose screen output is not
--- read blocks writing it, and answers nothing.
function M:lua(code, ...)
  asked = asked + 1
  local name = "onthemap_screen_answer_" .. asked
  vim.rpcnotify(self.channel, "nvim_exec_lua", [[
    local name, code, args = ...
    local ok, result = pcall(loadstring(code), unpack(args))
    -- The test's connection: the one socket RPC channel.
    for _, channel in ipairs(vim.api.nvim_list_chans()) do
      if channel.mode == "rpc" and channel.stream == "socket" then
        vim.rpcnotify(channel.id, "nvim_set_var", name, { ok = ok, result = result == nil and vim.NIL or result })
      end
    end
  ]], { name, code, { ... } })
  t.wait(30000, function()
    return vim.g[name] ~= nil
  end, "the editor's answer to " .. code)
  local answer = vim.g[name]
  vim.g[name] = nil
  if not answer.ok then
    t.fail("in the editor: " .. tostring(answer.result), 2)
  end
  return answer.result ~= vim.NIL and answer.result or nil
end

--- Whether the editor waits for keys in normal mode (no prompt open).
function M:in_normal_mode()
  local mode = self:lua("return vim.api.nvim_get_mode()")
  return mode.mode == "n" and not mode.blocking
end

--- Waits until `condition()` holds, asking every 100 ms: for conditions that call `lua()`, which
--- waits itself, so cannot be a condition of `wait()` (vim.wait inside vim.wait).
function M:poll(what, condition, ms)
  local deadline = vim.loop.now() + (ms or 30000)
  while not condition() do
    if vim.loop.now() > deadline then
      t.fail(("gave up waiting for %s; the screen:\n%s"):format(what, self:text()), 2)
    end
    vim.wait(100)
  end
end

--- Waits until the editor is in normal mode with no prompt open.
function M:wait_normal_mode(ms)
  self:poll("normal mode", function()
    return self:in_normal_mode()
  end, ms)
end

--- Ends the editor and closes its terminal.
function M:stop()
  local pid = self.job > 0 and vim.fn.jobpid(self.job)
  if self.channel then
    pcall(vim.fn.chanclose, self.channel)
  end
  pcall(vim.fn.jobstop, self.job)
  -- An editor that does not end at SIGTERM (its signals wait for its main loop) is killed: none
  -- may outlive its test, reading keys meant for another.
  if pid and vim.fn.jobwait({ self.job }, 3000)[1] == -1 then
    vim.loop.kill(pid, "sigkill")
    vim.fn.jobwait({ self.job }, 3000)
  end
  if vim.api.nvim_win_is_valid(self.win) then
    vim.api.nvim_win_close(self.win, true)
  end
  pcall(vim.api.nvim_buf_delete, self.buf, { force = true })
  vim.o.columns, vim.o.lines = self.outer[1], self.outer[2]
end

--- Runs `fn(screen)` with an editor started with `opts`, and stops it whatever happens.
function M.with(opts, fn)
  local screen = M.start(opts)
  local ok, err = xpcall(fn, debug.traceback, screen)
  screen:stop()
  if not ok then
    error(err, 0)
  end
end

return M
