-- Commands of onthemap.nvim; the code loads on first use (lua/onthemap/).
if vim.g.loaded_onthemap then
  return
end
vim.g.loaded_onthemap = 1

if vim.fn.has("nvim-0.7") == 0 then
  vim.api.nvim_err_writeln("onthemap.nvim needs Neovim 0.7 or newer")
  return
end

vim.api.nvim_create_user_command("OnTheMap", function(opts)
  require("onthemap").command(opts.fargs)
end, {
  nargs = "*",
  desc = "OnTheMap: students, a search, near a place, or the map",
  complete = function(lead, line)
    if line:match("^%s*%S+%s+%S*$") then
      return vim.tbl_filter(function(word)
        return word:find(lead, 1, true) == 1
      end, { "search", "near", "map" })
    end
    return {}
  end,
})

vim.api.nvim_create_user_command("OnTheMapPost", function()
  require("onthemap").post()
end, { nargs = 0, desc = "OnTheMap: post or move your pin" })

vim.api.nvim_create_user_command("OnTheMapLogin", function(opts)
  require("onthemap").login(opts.args ~= "" and opts.args or nil)
end, { nargs = "?", desc = "OnTheMap: log in (the password is read hidden)" })

vim.api.nvim_create_user_command("OnTheMapLogout", function()
  require("onthemap").logout()
end, { nargs = 0, desc = "OnTheMap: log out" })
