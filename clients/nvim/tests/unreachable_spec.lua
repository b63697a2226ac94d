-- A daemon that is not there, and one that accepts connections but never answers (stopped with
-- SIGSTOP): no command may freeze the editor, every one ends with a clear message.
local t = dofile(debug.getinfo(1, "S").source:sub(2):match("(.*/)") .. "helpers.lua")
local onthemap = require("onthemap")

-- A command "returns at once" if it returns well before the request timeout: a blocking call
-- would take the whole timeout (10 s here) or forever.
local timeout_ms = 10000
local quick_ms = 3000

local function use(socket, cli)
  onthemap.setup({
    socket = socket,
    timeout_ms = timeout_ms,
    reconnect_ms = 200,
    opener = function() end,
    cli = cli or t.env.ONTHEMAP_TEST_CLI,
  })
end

--- What `onthemap --socket PATH status` says on stderr when nothing answers there, without its
--- "onthemap: " prefix: the advice the plugin must show, as the CLI computes it.
local function cli_says(path)
  local errors = vim.fn.tempname()
  vim.fn.system(table.concat(vim.tbl_map(vim.fn.shellescape, { t.env.ONTHEMAP_TEST_CLI, "status", "--socket", path }), " ")
    .. " 2>" .. vim.fn.shellescape(errors))
  t.ok(vim.v.shell_error ~= 0, "onthemap status fails with nothing at " .. path)
  local lines = vim.fn.readfile(errors)
  vim.fn.delete(errors)
  local line = lines[#lines] or ""
  t.ok(vim.startswith(line, "onthemap: "), "the CLI's line: " .. line)
  return line:sub(#"onthemap: " + 1)
end

--- A hand-named socket nobody listens on, in a directory whose name needs quoting in a shell.
local function awkward_socket()
  return vim.fn.fnamemodify(t.env.ONTHEMAP_TEST_DEAD_SOCKET, ":h") .. "/it's a dir/onthemapd.sock"
end

--- The third word of `command` as a POSIX shell reads it: what a user pasting it would run.
local function shell_argument_3(command)
  local output = vim.fn.system({ "sh", "-c", "set -- " .. command .. '; printf %s "$3"' })
  t.eq(vim.v.shell_error, 0, "sh ran: " .. command .. " → " .. output)
  return output
end

--- The error a `status` request ends with, where nothing answers.
local function status_error()
  local err
  require("onthemap.rpc").request("status", nil, function(e)
    err = e
  end)
  t.wait(quick_ms, function()
    return err ~= nil
  end, "the request to fail")
  return err
end

--- Proves the event loop runs while a request is pending: a timer set now fires.
local function loop_is_running()
  local fired = false
  vim.defer_fn(function()
    fired = true
  end, 10)
  t.wait(quick_ms, function()
    return fired
  end, "a timer to fire while the request is pending")
end

return {
  {
    "no daemon: :OnTheMap returns at once and says how to start it, in the CLI's words",
    function()
      local dead = t.env.ONTHEMAP_TEST_DEAD_SOCKET
      use(dead)
      local from = #t.notifications + 1
      local ms = t.time(function()
        vim.cmd("OnTheMap")
      end)
      t.ok(ms < quick_ms, ":OnTheMap took " .. ms .. " ms")
      local note = t.notified("cannot reach onthemapd", quick_ms, from)
      t.fits(note)
      t.eq(note.level, vim.log.levels.ERROR, "an error")
      -- The whole of it, how to start a daemon there included, is in the buffer: what `onthemap
      -- status` says, which knows this machine (a user manager or none, the demo's way). What to
      -- do comes first, then the path tried; broken at spaces to the window's width, all of it is
      -- on screen.
      local said = cli_says(dead)
      t.ok(vim.startswith(said, "cannot reach onthemapd. Start "), "what to do first: " .. said)
      t.ok(vim.endswith(said, " Tried " .. dead .. " (Connection refused)."), "then the path tried: " .. said)
      local problem = {}
      for _, line in ipairs(t.lines(0)) do
        if line == "" then
          break
        end
        problem[#problem + 1] = line
      end
      t.eq(table.concat(problem, " "), "OnTheMap: " .. said, "the buffer says what the CLI says")
      t.ok(#problem > 1 and vim.startswith(problem[1], "OnTheMap: cannot reach onthemapd. Start "), vim.inspect(problem))
      for _, line in ipairs(problem) do
        t.ok(vim.fn.strdisplaywidth(line) <= vim.api.nvim_win_get_width(0), "fits the window: " .. line)
      end
      -- The command on one line, to copy.
      local command = "`onthemapd --socket " .. dead .. " &`"
      t.ok(#vim.tbl_filter(function(line)
        return line:find(command, 1, true) ~= nil
      end, problem) == 1, "the command whole on a line: " .. vim.inspect(problem))
      t.feed("q")
    end,
  },
  {
    "no daemon: the statusline says offline; checkhealth says no daemon",
    function()
      t.wait(quick_ms, function()
        return onthemap.statusline() == "📍 offline"
      end, "📍 offline, got " .. onthemap.statusline())
      local text = t.health()
      t.ok(text:find("onthemapd does not answer: cannot reach onthemapd", 1, true), text)
      -- The last message too wide for the command line, in full.
      local dead = t.env.ONTHEMAP_TEST_DEAD_SOCKET
      t.ok(text:find("in full: OnTheMap: " .. cli_says(dead), 1, true), text)
    end,
  },
  {
    "without the CLI, the plugin's own advice: a socket with a space and a quote is quoted for the shell, as the socat script does",
    function()
      local path = awkward_socket()
      use(path, "/nonexistent/onthemap")
      local err = status_error()
      local command = err.message:match("`(onthemapd %-%-socket [^`]*)`")
      t.ok(command, "the advice: " .. err.message)
      t.eq(command, "onthemapd --socket '" .. path:gsub("'", "'\\''") .. "'", "quoted the POSIX way")
      t.eq(shell_argument_3(command), path, "what a shell reads")
      t.ok(vim.startswith(err.message, "cannot reach onthemapd. Start one with `onthemapd --socket "), err.message)
      t.ok(vim.endswith(err.message, " Tried " .. path .. " (No such file or directory)."), err.message)
      t.ok(not err.message:find("systemctl", 1, true), "no user manager is assumed: " .. err.message)
      -- :checkhealth gives the same advice, and says the CLI cannot be run.
      local text = t.health()
      t.ok(text:find(command, 1, true), text)
      t.ok(text:find("`/nonexistent/onthemap` cannot be run", 1, true), text)
      -- The socat script, a client made of shell, says the same.
      local script = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h:h:h") .. "/shell/onthemap-socat.sh"
      local output = vim.fn.system({ "env", "ONTHEMAP_SOCKET=" .. path, "bash", script, "status" })
      t.eq(vim.v.shell_error, 2, "the script's exit status: " .. output)
      t.ok(output:find("`" .. command .. "`", 1, true), "the script's advice: " .. output)
      t.eq(require("onthemap.format").shell_quote("/run/user/1000/onthemap/onthemapd.sock"), "/run/user/1000/onthemap/onthemapd.sock", "bare")
      t.eq(require("onthemap.format").shell_quote("~/$HOME;x"), "'~/$HOME;x'", "quoted")
      t.eq(require("onthemap.format").shell_quote(""), "''", "empty")
      use(path)
    end,
  },
  {
    "a hand-named socket with a space and a quote: the advice is the CLI's, for that socket",
    function()
      local path = awkward_socket()
      use(path)
      local err = status_error()
      t.eq(err.message, cli_says(path), "what `onthemap --socket PATH status` says")
      t.ok(vim.fn.strdisplaywidth(err.summaries[1]) < vim.fn.strdisplaywidth(err.message), "a shorter form for the command line")
    end,
  },
  {
    "no daemon, in a real terminal: each error is one line on the command line, no hit-enter prompt",
    function()
      -- Another Neovim in a :terminal of 80 columns, as a user runs it: a message wider than the
      -- command line scrolls, and Neovim then shows "Press ENTER or type command to continue".
      local plugin = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h:h")
      local path = awkward_socket()
      vim.cmd("tabnew")
      local buf = vim.api.nvim_get_current_buf()
      local job = vim.fn.termopen({
        vim.v.progpath, "-u", "NONE", "-i", "NONE", "-n",
        "--cmd", "set shortmess+=I | lua vim.opt.runtimepath:prepend(" .. vim.inspect(plugin) .. ")",
        "-c", "runtime! plugin/**/*.lua",
        "-c", "lua require('onthemap').setup({ socket = " .. vim.inspect(path) .. ", cli = " .. vim.inspect(t.env.ONTHEMAP_TEST_CLI) .. " })",
      })
      t.ok(job > 0, "the terminal started")
      local function screen()
        return t.lines(buf)
      end
      local function last_line()
        local lines = screen()
        for index = #lines, 1, -1 do
          if lines[index] ~= "" then
            return lines[index]
          end
        end
        return ""
      end
      local ok, err = pcall(function()
        t.eq(vim.api.nvim_win_get_width(0), 80, "the terminal's width")
        t.wait(quick_ms, function()
          return last_line():find("All", 1, true) ~= nil
        end, "the editor in the terminal to start: " .. vim.inspect(screen()))
        for _, case in ipairs({
          { "OnTheMapLogout", "OnTheMap: logout: cannot reach onthemapd" },
          { "OnTheMap", "OnTheMap: cannot reach onthemapd" },
        }) do
          local command, notice = case[1], case[2]
          vim.fn.chansend(job, ":" .. command .. "\r")
          t.wait(quick_ms, function()
            return vim.startswith(last_line(), notice) or table.concat(screen(), "\n"):find("Press ENTER", 1, true) ~= nil
          end, "the error after :" .. command .. ": " .. vim.inspect(screen()))
          vim.wait(300) -- a prompt would come with the message; give it time to show
          local text = table.concat(screen(), "\n")
          t.ok(not text:find("Press ENTER", 1, true), ":" .. command .. " waits for ENTER:\n" .. text)
          t.ok(vim.startswith(last_line(), notice), "the notice: " .. last_line())
        end
      end)
      vim.fn.jobstop(job)
      vim.cmd("bwipeout!")
      if not ok then
        error(err, 0)
      end
    end,
  },
  {
    "no daemon: post, login, logout and near each end with the reason",
    function()
      local from = #t.notifications + 1
      -- Asks nothing: the pin is looked up first, and that fails.
      vim.cmd("OnTheMapPost")
      t.notified("post: cannot reach onthemapd", quick_ms, from)
      from = #t.notifications + 1
      vim.cmd("OnTheMapLogout")
      t.notified("logout: cannot reach onthemapd", quick_ms, from)
      from = #t.notifications + 1
      vim.api.nvim_feedkeys("secret-not-sent\r", "t", false)
      vim.cmd("OnTheMapLogin someone@example.com")
      t.notified("login: cannot reach onthemapd", quick_ms, from)
      from = #t.notifications + 1
      vim.cmd("OnTheMap near Paris")
      t.notified("cannot reach onthemapd", quick_ms, from)
      t.feed("q")
    end,
  },
  {
    "a daemon that never answers: :OnTheMap returns at once, the editor keeps running, then a timeout",
    function()
      use(t.env.ONTHEMAP_TEST_HUNG_SOCKET)
      local from = #t.notifications + 1
      local ms = t.time(function()
        vim.cmd("OnTheMap")
      end)
      t.ok(ms < quick_ms, ":OnTheMap took " .. ms .. " ms")
      t.ok(t.lines(0)[1]:find("Loading students", 1, true), "loading: " .. t.lines(0)[1])
      loop_is_running()
      local note = t.notified("onthemapd did not answer the list within 10 s", timeout_ms + 20000, from)
      t.eq(note.level, vim.log.levels.ERROR, "an error")
      t.fits(note)
      t.feed("q")
    end,
  },
  {
    "a daemon that never answers: login returns at once and the password goes nowhere",
    function()
      local from = #t.notifications + 1
      vim.api.nvim_feedkeys("hung-secret\r", "t", false)
      local ms = t.time(function()
        vim.cmd("OnTheMapLogin someone@example.com")
      end)
      t.ok(ms < quick_ms, ":OnTheMapLogin took " .. ms .. " ms")
      loop_is_running()
      t.notified("onthemapd did not answer the login", timeout_ms + 20000, from)
      t.ok(not vim.fn.execute("messages"):find("hung-secret", 1, true), "the password is in :messages")
      t.ok(not vim.fn.histget("input", -1):find("hung-secret", 1, true), "the password is in the input history")
    end,
  },
  {
    "a daemon that never answers: the statusline gives up waiting and says offline",
    function()
      t.wait(timeout_ms + 20000, function()
        return onthemap.statusline() == "📍 offline"
      end, "📍 offline, got " .. onthemap.statusline())
      onthemap.setup({})
    end,
  },
}
