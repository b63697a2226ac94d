import Foundation
import OnTheMapModels
import OnTheMapTestSupport
import Testing

/// `scripts/install.sh` (what `make install` and `make deb` run) on the built programs, into a
/// staging directory: everything lands where systemd, man and the shells look, and uninstall removes
/// it all. The release build itself is exercised by CI's `make deb` and `scripts/check-deb.sh`.
@Suite("make install / uninstall", .ownThreads)
struct InstallScriptTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
    static let programs = ["onthemap", "onthemapd", "onthemap-server"]

    private func install(_ action: String, into destination: String, prefix: String = "/usr/local") throws -> CommandResult {
        try runCommand(
            "/bin/bash", [Self.root + "/scripts/install.sh", action],
            environment: [
                "PREFIX": prefix, "DESTDIR": destination, "STRIP": "",
                "ONTHEMAP_BIN": BuiltProducts.path("onthemap"), "ONTHEMAPD_BIN": BuiltProducts.path("onthemapd"),
                "ONTHEMAP_SERVER_BIN": BuiltProducts.path("onthemap-server"),
            ])
    }

    @Test func installsEverythingAndUninstallsIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let stage = directory.file("stage")
        let installed = try install("install", into: stage)
        #expect(installed.status == 0, "\(installed.stderr)")
        let prefix = stage + "/usr/local"
        let files = Set(FileManager.default.subpaths(atPath: prefix) ?? [])
        for expected in [
            "bin/onthemap", "bin/onthemapd", "bin/onthemap-server",
            "lib/systemd/user/onthemapd.service", "lib/systemd/user/onthemapd.socket", "lib/systemd/system/onthemap-server.service",
            "share/man/man1/onthemap.1", "share/man/man1/onthemapd.1", "share/man/man1/onthemap-server.1",
            "share/bash-completion/completions/onthemap", "share/zsh/site-functions/_onthemapd",
            "share/fish/vendor_completions.d/onthemap-server.fish",
            "share/onthemap/README.md", "share/onthemap/waybar/config.jsonc", "share/onthemap/shell/onthemap-socat.sh",
            "share/doc/onthemap/PROTOCOL.md", "share/doc/onthemap/NOTICE",
            // Every document the README links to that a user of an installed copy needs.
            "share/doc/onthemap/OPERATIONS.md", "share/doc/onthemap/DEPLOY.md", "share/doc/onthemap/EDITORS.md",
            "share/doc/onthemap/MAP.md", "share/doc/onthemap/GEOCODING.md", "share/doc/onthemap/API.md",
            "share/doc/onthemap/deploy/nginx-onthemap.conf",
            "share/onthemap/nvim/lua/onthemap/init.lua", "share/onthemap/emacs/onthemap.el",
        ] {
            #expect(files.contains(expected), "missing \(expected)")
        }
        // The editors' own tests run from the source tree, not from an installation.
        let tests = files.filter { $0.hasPrefix("share/onthemap/nvim/tests") || $0.hasSuffix("-tests.el") }
        #expect(tests.isEmpty, "installed test files: \(tests.sorted())")
        #expect(FileManager.default.isExecutableFile(atPath: prefix + "/share/onthemap/shell/onthemap-socat.sh"))
        // Completions are the programs' own.
        let bash = try String(contentsOfFile: prefix + "/share/bash-completion/completions/onthemap", encoding: .utf8)
        #expect(bash.contains("-F _onthemap onthemap") && bash.contains("_onthemap_students()"))
        let fish = try String(contentsOfFile: prefix + "/share/fish/vendor_completions.d/onthemap-server.fish", encoding: .utf8)
        #expect(fish.contains("access-log"))
        // Units run the installed programs, and verify.
        let service = try String(contentsOfFile: prefix + "/lib/systemd/user/onthemapd.service", encoding: .utf8)
        #expect(service.contains("ExecStart=/usr/local/bin/onthemapd\n"))
        let server = try String(contentsOfFile: prefix + "/lib/systemd/system/onthemap-server.service", encoding: .utf8)
        #expect(server.contains("ExecStart=/usr/local/bin/onthemap-server serve "))
        // Documentation= names the docs where this install put them, not where the package does.
        for unit in ["user/onthemapd.service", "user/onthemapd.socket"] {
            let text = try String(contentsOfFile: prefix + "/lib/systemd/" + unit, encoding: .utf8)
            #expect(text.contains("Documentation=file:///usr/local/share/doc/onthemap/PROTOCOL.md\n"), "\(unit)")
            #expect(!text.contains("/usr/share/doc/"), "\(unit)")
        }
        try verifyUnits(in: prefix, directory: directory)

        let removed = try install("uninstall", into: stage)
        #expect(removed.status == 0, "\(removed.stderr)")
        let left = (FileManager.default.subpaths(atPath: prefix) ?? []).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: prefix + "/" + $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        #expect(left.isEmpty, "left behind: \(left)")
        #expect(!FileManager.default.fileExists(atPath: prefix + "/share/onthemap"))
    }

    /// The Debian packages' layout: each package's docs in its own folder, which its units name.
    @Test func aPackageStagingNamesItsOwnDocFolder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let stage = directory.file("stage")
        let installed = try runCommand(
            "/bin/bash", [Self.root + "/scripts/install.sh", "install"],
            environment: [
                "PREFIX": "/usr", "DESTDIR": stage, "STRIP": "", "DOCDIR": "/usr/share/doc/onthemap-server",
                "ONTHEMAP_COMPONENTS": "server", "ONTHEMAP_SERVER_BIN": BuiltProducts.path("onthemap-server"),
            ])
        #expect(installed.status == 0, "\(installed.stderr)")
        for doc in ["API.md", "OPERATIONS.md", "DEPLOY.md", "deploy/nginx-onthemap.conf"] {
            #expect(FileManager.default.fileExists(atPath: stage + "/usr/share/doc/onthemap-server/" + doc), "missing \(doc)")
        }
        #expect(!FileManager.default.fileExists(atPath: stage + "/usr/share/doc/onthemap-server/PROTOCOL.md"))
        let unit = try String(contentsOfFile: stage + "/usr/lib/systemd/system/onthemap-server.service", encoding: .utf8)
        #expect(
            unit.contains("Documentation=man:onthemap-server(1) file:///usr/share/doc/onthemap-server/OPERATIONS.md\n"),
            "\(unit)")
    }

    @Test func aHomeInstallPutsUserUnitsWhereTheUserManagerLooks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        let listed = try install("list", into: directory.file("stage"), prefix: home + "/.local")
        #expect(listed.stdout.contains(home + "/.local/share/systemd/user/onthemapd.socket\n"), "\(listed.stdout)")
    }

    @Test func everyProgramPrintsTheOneVersion() throws {
        let script = try runCommand("/bin/bash", [Self.root + "/scripts/version.sh"])
        #expect(script.stdout == OnTheMapVersion.string + "\n")
        for program in Self.programs {
            let printed = try runCommand(BuiltProducts.path(program), ["--version"])
            #expect(printed.status == 0)
            #expect(printed.stdout == OnTheMapVersion.string + "\n", "\(program): \(printed.stdout)")
        }
    }

    /// The installed units pass `systemd-analyze verify`: the user units in user mode, the system
    /// unit in system mode. Staged, the programs they run are under the staging directory, so the
    /// copies verified name them there (`--root` does not combine with `--user`).
    private func verifyUnits(in prefix: String, directory: TemporaryDirectory) throws {
        let units = directory.file("verify")
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        for unit in ["user/onthemapd.socket", "user/onthemapd.service", "system/onthemap-server.service"] {
            let text = try String(contentsOfFile: prefix + "/lib/systemd/" + unit, encoding: .utf8)
            try text.replacingOccurrences(of: "ExecStart=/usr/local/bin/", with: "ExecStart=\(prefix)/bin/")
                .write(toFile: units + "/" + unit.split(separator: "/")[1], atomically: true, encoding: .utf8)
        }
        let runtime = directory.file("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let user = try runCommand(
            "/usr/bin/systemd-analyze", ["--user", "verify", units + "/onthemapd.socket", units + "/onthemapd.service"],
            environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(user.status == 0 && user.stderr.isEmpty, "\(user.stderr)")
        let system = try SystemdAnalyze.run(["verify", "--man=no", units + "/onthemap-server.service"], scratch: directory)
        #expect(system.status == 0 && system.stderr.isEmpty, "\(system.stderr)")
    }
}
