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

--- Opens `url` with the `opener` option, else vim.ui.open (Neovim 0.10+), else xdg-open started
--- in the background, and says which link it opens. `url` is a student's link as the daemon passes
--- it on: the daemon decides which links may be opened (its WebLink rule: http or https, a host, a
--- port a connection can use, no space, control, bidi or other invisible character), and empties
--- any other, saying why in `dropped` (the student's mediaURLDropped). `who`, the student's name,
--- says whose link it refused, in the CLI's words ("not opening Eve's link: it holds a hidden
--- character (U+202E)"). Returns whether it handed the link on.
function M.open(url, who, dropped)
  local whose = who and format.clean(who) or ""
  if type(url) ~= "string" or url == "" then
    if type(dropped) == "string" and format.clean(dropped) ~= "" then
      local why = format.truncate(format.clean(dropped), 100)
      notify.show(
        ("OnTheMap: not opening %s: %s"):format(whose ~= "" and (whose .. "'s link") or "the link", why),
        vim.log.levels.WARN,
        { "OnTheMap: not opening this link: " .. why }
      )
    else
      notify.show(("OnTheMap: %s has no web link to open"):format(whose ~= "" and whose or "this student"), vim.log.levels.WARN)
    end
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
