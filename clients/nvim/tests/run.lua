-- Runs the plugin's tests in `nvim --headless` and exits 0 (all passed) or 1, printing one TAP
-- line per test on stdout. The environment names the real daemon and friends (see helpers.lua);
-- Tests/OnTheMapEditorTests starts them and runs this file:
--   nvim --headless -u NONE -i NONE -c "luafile clients/nvim/tests/run.lua"
-- ONTHEMAP_TEST_ONLY=format_spec runs one spec file (and ONTHEMAP_TEST_CASE=words, its cases
-- whose name holds those words). There is no skipping: a case that needs what not every run has
-- (root_spec, refused_spec: root; hostile_spec: a daemon of a hostile upstream; thousands_spec: a server of
-- 10,001 students and a daemon caching 1,100) lives in a spec of its own, run
-- only so, by a Swift test of its own, enabled when it can pass: Swift Testing reports it as
-- skipped, with the reason, when it is not.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)")
vim.opt.runtimepath:prepend(vim.fn.fnamemodify(here .. "..", ":p"))
vim.cmd("runtime! plugin/**/*.lua")

local specs = { "format_spec", "age_spec", "live_spec", "ui_spec", "unreachable_spec", "open_spec" }
local only = os.getenv("ONTHEMAP_TEST_ONLY")
-- While working on one case: ONTHEMAP_TEST_CASE=text runs the cases whose name contains it.
local case_filter = os.getenv("ONTHEMAP_TEST_CASE")
if case_filter == "" then
  case_filter = nil
end
if only and only ~= "" then
  specs = { only }
end
local passed, failed = 0, 0

local function out(line)
  io.stdout:write(line .. "\n")
  io.stdout:flush()
end

for _, name in ipairs(specs) do
  local ok, spec = pcall(dofile, here .. name .. ".lua")
  if not ok then
    failed = failed + 1
    out("not ok - " .. name .. " does not load: " .. tostring(spec))
  else
    for _, case in ipairs(spec) do
      if case_filter and not case[1]:find(case_filter, 1, true) then
        goto next_case
      end
      local started = vim.loop.hrtime()
      local success, err = xpcall(case[2], debug.traceback)
      local ms = math.floor((vim.loop.hrtime() - started) / 1e6)
      if success then
        passed = passed + 1
        out(("ok - %s: %s (%d ms)"):format(name, case[1], ms))
      else
        failed = failed + 1
        out(("not ok - %s: %s\n%s"):format(name, case[1], tostring(err)))
      end
      ::next_case::
    end
  end
end

out(("# nvim %s: %d passed, %d failed"):format(tostring(vim.version and vim.version().minor and ("0." .. vim.version().minor .. "." .. vim.version().patch)), passed, failed))
if failed > 0 or passed == 0 then
  vim.cmd("cquit 1")
else
  vim.cmd("qall!")
end
