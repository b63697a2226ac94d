import Glibc
import OnTheMapBuildInfo
import OnTheMapDaemon
import OnTheMapSupport
import OnTheMapSystemd

// First thing, before any thread exists: sd_listen_fds calls unsetenv, which is unsafe later.
let activatedSocket = SocketActivation.takeListeningSocket()

// Two malloc arenas, not one per thread: see MemoryTrimmer.
MemoryTrimmer.tuneAllocator()

// Swift concurrency on the NIO event loops, not libdispatch's pool, whose once-a-second monitor
// would wake the idle daemon: see EventLoopConcurrency. Before the first task is created; said in
// the log once logging is set up.
let concurrencyOnEventLoops = EventLoopConcurrency.install()

// A thousand clients need a thousand descriptors: use all the hard limit allows.
var descriptorLimit = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &descriptorLimit) == 0, descriptorLimit.rlim_cur < descriptorLimit.rlim_max {
    descriptorLimit.rlim_cur = descriptorLimit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &descriptorLimit)
}

// `--help` and `--version` to a full disk: an error, not a success with nothing written.
BufferedOutput.checkAtExit(program: "onthemapd")

if BuildDependencies.isVerboseVersionRequest(CommandLine.arguments) {
    print(BuildDependencies.verboseVersion(program: "onthemapd", version: Daemon.version))
    exit(0)
}

await DaemonCommand.main(activatedSocket: activatedSocket, concurrencyOnEventLoops: concurrencyOnEventLoops)
