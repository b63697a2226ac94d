import Foundation
import OnTheMapTestSupport
import Testing

/// The static client keeps its own command line (Sources/CClientStart/argv.c) so that the Swift
/// runtime's start-up scan of /proc/self/maps is not linked in: it was a fifth of what
/// `onthemap status` executed. If a toolchain change brought the runtime's version back, every other
/// test would still pass and only start-up would get slower; if the replacement lost the arguments,
/// every command would break. These check both on `scripts/build-client.sh`'s build, the one that
/// is installed (stripped then: `nm` needs the symbols).
@Suite(
    "The static client starts without the runtime's /proc/self/maps scan", .ownThreads,
    .enabled(if: BuiltProducts.releaseClient != nil, BuiltProducts.releaseClientMissing))
struct ClientStartTests {
    @Test func theRuntimesArgumentScanIsNotLinked() throws {
        let symbols = try runCommand("/usr/bin/env", ["nm", BuiltProducts.path("onthemap")])
        #expect(symbols.status == 0, "\(symbols.stderr)")
        // The runtime's constructor and its state (libswiftCore.a's CommandLine.cpp.o).
        #expect(!symbols.stdout.contains("_GLOBAL__sub_I_CommandLine.cpp"))
        #expect(!symbols.stdout.contains("argvGrabber"))
        #expect(symbols.stdout.contains(" keepCommandLine\n"))
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"),
            "needs strace to see what the client opens (apt-get install strace)"))
    func theClientSeesItsArgumentsAndOpensNoMaps() throws {
        let scratch = try TemporaryDirectory(prefix: "onthemap-start")
        defer { scratch.remove() }
        let trace = scratch.path + "/trace"
        // A socket path with a space and a non-ASCII letter comes back whole in the error.
        let socket = scratch.path + "/a b/ü.sock"
        let result = try runCommand(
            "/usr/bin/strace",
            [
                "-f", "-e", "trace=open,openat", "-o", trace,
                BuiltProducts.path("onthemap"), "status", "--socket", socket,
            ])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("cannot reach onthemapd at \(socket)"), "\(result.stderr)")
        let opened = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(opened.contains("openat"), "an empty trace checks nothing: \(opened)")
        #expect(!opened.contains("/proc/self/maps"), "\(opened)")
    }
}
