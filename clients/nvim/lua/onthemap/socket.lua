-- Where the daemon's socket is: the same rule as the `onthemap` CLI (SocketPath.candidates), and
-- the same refusal of a socket that belongs to another user.
local config = require("onthemap.config")

local uv = vim.loop
local M = {}

--- The socket named by hand and by what: the `socket` option ("option"), else $ONTHEMAP_SOCKET
--- ("env"); nil when none is.
local function explicit()
  local option = config.options.socket
  if type(option) == "function" then
    option = option()
  end
  if type(option) == "string" and option ~= "" then
    return option, "option"
  end
  local env = os.getenv("ONTHEMAP_SOCKET")
  if env and env ~= "" then
    return env, "env"
  end
  return nil
end

--- The paths to try, in order. An explicit choice (the `socket` option, else $ONTHEMAP_SOCKET) is
--- the only one; otherwise $XDG_RUNTIME_DIR/onthemap/onthemapd.sock when that is set, then
--- /run/user/$UID/onthemap/onthemapd.sock, then /tmp/onthemap-$UID/onthemapd.sock.
function M.candidates()
  local named = explicit()
  if named then
    return { named }
  end
  local uid = uv.getuid()
  local paths = {}
  local runtime = os.getenv("XDG_RUNTIME_DIR")
  if runtime and runtime:sub(1, 1) == "/" then
    paths[1] = runtime .. "/onthemap/onthemapd.sock"
  end
  local systemd = "/run/user/" .. uid .. "/onthemap/onthemapd.sock"
  if paths[1] ~= systemd then
    paths[#paths + 1] = systemd
  end
  paths[#paths + 1] = "/tmp/onthemap-" .. uid .. "/onthemapd.sock"
  return paths
end

--- Where the paths come from: "option" (the `socket` option), "env" ($ONTHEMAP_SOCKET) or "default".
function M.chosen_by()
  local _, by = explicit()
  return by or "default"
end

--- How to reach your own daemon instead of another user's, by where its path came from (as the
--- CLI says "unset ONTHEMAP_SOCKET, or set it to your own daemon's socket").
function M.use_your_own()
  local by = M.chosen_by()
  if by == "option" then
    return "To use your own, set the `socket` option to your own daemon's socket, or leave it out."
  elseif by == "env" then
    return "To use your own, unset $ONTHEMAP_SOCKET, or set it (or the `socket` option) to your own daemon's socket."
  end
  return "To use your own, set the `socket` option or $ONTHEMAP_SOCKET to your own daemon's socket."
end

--- The uid the file at `path` belongs to, or nil when it cannot be looked at.
function M.owner(path)
  local stat = path and uv.fs_stat(path)
  return stat and stat.uid or nil
end

--- The uid of another user (root included) the socket at `path` belongs to, when connecting to
--- it failed with `err` for want of permission (EACCES, EPERM: its 0600 mode, as the daemon makes
--- it), else nil. That daemon is running; it is not yours, and not one to start.
function M.other_user(path, err)
  local name = tostring(err or "")
  if not (name:match("^EACCES") or name:match("^EPERM")) then
    return nil
  end
  local uid = M.owner(path)
  if uid and uid ~= uv.getuid() then
    return uid
  end
  return nil
end

--- The first candidate: where the daemon is expected (for messages and :checkhealth).
function M.path()
  return M.candidates()[1]
end

--- The uid owning the socket file at `path` when it is neither yours nor root's (then it is not
--- your daemon: another user may be impersonating it), else nil. The CLI asks the kernel who
--- serves the socket (SO_PEERCRED); an editor cannot, and the file's owner is who bound it.
function M.foreign_owner(path)
  local stat = uv.fs_stat(path)
  if stat and stat.uid ~= uv.getuid() and stat.uid ~= 0 then
    return stat.uid
  end
  return nil
end

-- What strerror says for the codes a connect gives, for Neovim 0.7's luv, whose connect callback
-- passes the code alone ("ECONNREFUSED").
local strerror = {
  ECONNREFUSED = "Connection refused",
  ENOENT = "No such file or directory",
  EACCES = "Permission denied",
  ENOTSOCK = "Socket operation on non-socket",
  ETIMEDOUT = "Connection timed out",
  ENOTDIR = "Not a directory",
}

--- "ECONNREFUSED: connection refused" or "ECONNREFUSED" (luv) → "Connection refused" (as strerror
--- says it).
function M.reason(err)
  local text = tostring(err)
  if strerror[text] then
    return strerror[text]
  end
  text = text:gsub("^E%u+: ", "")
  return (text:gsub("^%l", string.upper))
end

return M
