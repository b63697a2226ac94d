-- Opening a student's link in the browser.
local config = require("onthemap.config")
local format = require("onthemap.format")
local notify = require("onthemap.notify")

local M = {}

--- What to show when xdg-open found no browser (exit 3), most telling first, for notify.show: the
--- link, which the user now opens themselves (the CLI says "open it in a browser yourself"), whole
--- in each; only a link too long for all of them on the command line is cut, with "…", and then
--- points to :checkhealth when that leaves room for a useful part of it (the whole is there, and in
--- :messages).
function M.no_browser_forms(url)
  local short = "OnTheMap: no browser: open %s yourself"
  local forms = { ("OnTheMap: xdg-open found no browser: open %s yourself"):format(url), short:format(url) }
  local room = notify.room()
  if format.width(forms[2]) > room then
    local cut = room - format.width(short:format(""))
    -- notify.shorten puts the pointer after a form that leaves room for it.
    if cut - format.width(notify.pointer) >= 30 then
      cut = cut - format.width(notify.pointer)
    end
    forms[3] = short:format(format.truncate(url, cut))
  end
  return forms
end

--- Whether `url` may be opened: an http(s) link with nothing that is not shown as it is (no
--- space, no control character, no bidi override). The link is someone else's text: a NUL cuts it
--- short for the opener while the screen shows all of it, and an override hides what it says.
function M.openable(url)
  return type(url) == "string" and url:match("^https?://[^%s]+$") ~= nil and format.is_clean(url)
end

--- Opens `url` with the `opener` option, else vim.ui.open (Neovim 0.10+), else xdg-open started
--- in the background, and says which link it opens. `who`, the student's name, says whose link
--- it refused. Returns whether it handed the link on.
function M.open(url, who)
  if type(url) ~= "string" or url == "" then
    notify.show(("OnTheMap: %s has no web link to open"):format(who and format.clean(who) or "this student"), vim.log.levels.WARN)
    return false
  end
  if not M.openable(url) then
    -- Hidden: control characters or bidi controls, which the screen shows as a space, as U+FFFD
    -- or not at all (format.clean).
    local why = url:match("^https?://") and "it has hidden characters" or "it is not a web link"
    notify.show(
      ("OnTheMap: %s's link is not opened: %s"):format(who and format.clean(who) or "this student", why),
      vim.log.levels.WARN,
      { "OnTheMap: this link is not opened: " .. why }
    )
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
          local short = ({ [4] = "xdg-open: the browser failed" })[code] or ("xdg-open exited with %d"):format(code)
          notify.show(
            ("OnTheMap: xdg-open could not open %s: %s. Set one up, or the `opener` option (:help onthemap-options)"):format(url, why),
            vim.log.levels.ERROR,
            code == 3 and M.no_browser_forms(url)
              or { ("OnTheMap: xdg-open could not open %s: %s"):format(url, why), "OnTheMap: " .. short }
          )
        end
      end,
    })
    if not ok or job <= 0 then
      notify.show("OnTheMap: cannot run xdg-open to open " .. url, vim.log.levels.ERROR, { "OnTheMap: cannot run xdg-open" })
      return false
    end
  end
  -- Something visible happens at once, even when the browser takes a while (or opens elsewhere).
  notify.show("OnTheMap: opening " .. url, vim.log.levels.INFO, { "OnTheMap: opening " .. format.truncate(url, math.max(10, notify.room() - 20)) })
  return true
end

return M
