import Foundation
import OnTheMapRPC
import OnTheMapTestSupport
import Testing

/// Where the daemon's socket is, decided once in Swift (`SocketPath.candidates`) and written again in
/// Lua (the Neovim plugin), Emacs Lisp and shell (clients/shell/onthemap-socat.sh): the same
/// environment gives the same paths, in the same order, in all four.
@Suite("One socket-path rule in four languages", .ownThreads)
struct SocketPathRuleTests {
    static let root = EditorTestBed.root
    static let uid = getuid()

    /// The environments to compare under: an explicit socket, a runtime folder (absolute, relative,
    /// systemd's own, none), and an explicit socket that is empty.
    static let environments: [[String: String]] = [
        ["ONTHEMAP_SOCKET": "/srv/sockets/my daemon.sock"],
        ["XDG_RUNTIME_DIR": "/run/custom"],
        ["XDG_RUNTIME_DIR": "relative/run"],
        ["XDG_RUNTIME_DIR": "/run/user/\(uid)"],
        [:],
        ["ONTHEMAP_SOCKET": "", "XDG_RUNTIME_DIR": "/run/custom"],
    ]

    /// A clean environment with `variables` added: PATH and HOME only, so nothing of the test
    /// runner's leaks in.
    private func environment(_ variables: [String: String]) -> [String: String] {
        var environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        for (name, value) in variables { environment[name] = value }
        return environment
    }

    private func run(_ arguments: [String], _ variables: [String: String]) throws -> [String] {
        let result = try runCommand("/usr/bin/env", ["-i"] + environment(variables).map { "\($0)=\($1)" } + arguments)
        #expect(result.status == 0, "\(arguments.first ?? ""): \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test(arguments: environments)
    func everyClientLooksWhereTheDaemonBinds(variables: [String: String]) throws {
        let swift = SocketPath.candidates(flag: nil, environment: { variables[$0] }, uid: Self.uid)
        let shell = try run(["/bin/bash", Self.root + "/clients/shell/onthemap-socat.sh", "candidates"], variables)
        #expect(shell == swift, "shell")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/nvim") {
            let lua = try run(
                ["/usr/bin/nvim", "--headless", "-u", "NONE", "--cmd", "set rtp^=\(Self.root)/clients/nvim",
                 "-c", "lua io.write(table.concat(require('onthemap.socket').candidates(), '\\n') .. '\\n')", "-c", "qa!"],
                variables)
            #expect(lua == swift, "Lua")
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/emacs") {
            let elisp = try run(
                ["/usr/bin/emacs", "--batch", "-Q", "-l", Self.root + "/clients/emacs/onthemap.el",
                 "--eval", "(princ (mapconcat #'identity (onthemap-socket-candidates) \"\\n\"))", "--eval", "(princ \"\\n\")"],
                variables)
            #expect(elisp == swift, "Emacs Lisp")
        }
    }
}
