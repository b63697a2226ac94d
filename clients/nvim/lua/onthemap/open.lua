-- Opening a student's link in the browser.
local config = require("onthemap.config")
local notify = require("onthemap.notify")

local M = {}

--- Opens `url` with the `opener` option, else vim.ui.open (Neovim 0.10+), else xdg-open started
--- in the background. Only http(s) links are opened: the link is someone else's text.
function M.open(url)
  if type(url) ~= "string" or not (url:match("^https?://[^%s]+$")) then
    notify.show("OnTheMap: this student has no http(s) link to open", vim.log.levels.WARN)
    return false
  end
  if config.options.opener then
    config.options.opener(url)
  elseif vim.ui.open then
    vim.ui.open(url)
  else
    -- xdg-open gives up at once when no browser is set up (exit 3): say so instead of nothing
    -- happening. Its exit status only: a pipe on its stderr would be inherited by the browser it
    -- starts, which dies of SIGPIPE writing to it once xdg-open has exited.
    local ok, job = pcall(vim.fn.jobstart, { "xdg-open", url }, {
      detach = true,
      on_exit = function(_, code)
        if code ~= 0 then
          local why = ({ [3] = "no browser is set up for this session", [4] = "the browser failed" })[code]
            or ("it exited with %d"):format(code)
          local short = ({ [3] = "xdg-open found no browser", [4] = "xdg-open: the browser failed" })[code]
            or ("xdg-open exited with %d"):format(code)
          notify.show(
            ("OnTheMap: xdg-open could not open %s: %s. Set one up, or the `opener` option (:help onthemap-options)"):format(url, why),
            vim.log.levels.ERROR,
            { ("OnTheMap: xdg-open could not open %s: %s"):format(url, why), "OnTheMap: " .. short }
          )
        end
      end,
    })
    if not ok or job <= 0 then
      notify.show("OnTheMap: cannot run xdg-open to open " .. url, vim.log.levels.ERROR, { "OnTheMap: cannot run xdg-open" })
      return false
    end
  end
  return true
end

return M
