-- Where the daemon's socket is: the same rule as the `onthemap` CLI (SocketPath.resolve).
local config = require("onthemap.config")

local M = {}

--- The socket path: the `socket` option, else $ONTHEMAP_SOCKET, else
--- $XDG_RUNTIME_DIR/onthemap/onthemapd.sock, else /tmp/onthemap-$UID/onthemapd.sock.
function M.path()
  local option = config.options.socket
  if type(option) == "function" then
    option = option()
  end
  if type(option) == "string" and option ~= "" then
    return option
  end
  local env = os.getenv("ONTHEMAP_SOCKET")
  if env and env ~= "" then
    return env
  end
  local runtime = os.getenv("XDG_RUNTIME_DIR")
  if runtime and runtime:sub(1, 1) == "/" then
    return runtime .. "/onthemap/onthemapd.sock"
  end
  return "/tmp/onthemap-" .. vim.loop.getuid() .. "/onthemapd.sock"
end

return M
