import OnTheMapSystemd

// First thing, before any thread exists: sd_listen_fds calls unsetenv, which is unsafe later.
let activatedSocket = SocketActivation.takeListeningSocket()

await DaemonCommand.main(activatedSocket: activatedSocket)
