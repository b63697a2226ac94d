import Foundation
import OnTheMapTestSupport
import Testing

/// clients/nvim in the real `nvim --headless`, against the real daemon and server: the Lua tests
/// in clients/nvim/tests (one TAP line each), run by clients/nvim/tests/run.lua.
@Suite("Neovim plugin", .ownThreads, .serialized)
struct NeovimPluginTests {
    static let nvim = Executables.find("nvim")

    @Test(.enabled(if: nvim != nil, "nvim is not installed (Debian: apt-get install neovim): the Neovim plugin is not tested"))
    func pluginInHeadlessNeovim() async throws {
        try await runSpecs()
    }

    /// root_spec.lua, which run.lua leaves out of its default list: the one place that decides
    /// whether it runs is this test's trait.
    @Test(
        .enabled(if: nvim != nil, "nvim is not installed (Debian: apt-get install neovim): the Neovim plugin is not tested"),
        .enabled(if: EditorTestBed.canMakeForeignSocket, EditorTestBed.foreignSocketNeedsRoot))
    func pluginRefusesAnotherUsersSocket() async throws {
        try await runSpecs(only: "root_spec")
    }

    /// thousands_spec.lua, which run.lua leaves out of its default list, against a bed of thousands
    /// (EditorTestBed.thousands): the counts a person reads are grouped by three ("1,100").
    @Test(.enabled(if: nvim != nil, "nvim is not installed (Debian: apt-get install neovim): the Neovim plugin is not tested"))
    func pluginInHeadlessNeovimGroupsThousands() async throws {
        try await runSpecs(only: "thousands_spec", bed: EditorTestBed.thousands)
    }

    /// hostile_spec.lua, which run.lua leaves out of its default list, against a daemon whose
    /// upstream stores control characters and bidi overrides in names, places and links.
    @Test(.enabled(if: nvim != nil, "nvim is not installed (Debian: apt-get install neovim): the Neovim plugin is not tested"))
    func pluginShowsHostileTextSafely() async throws {
        let result = try await HostileUpstream.runEditor(
            Self.nvim!, Self.arguments, environment: ["ONTHEMAP_TEST_ONLY": "hostile_spec"])
        Self.expectAllPassed(result, label: "hostile_spec")
    }

    /// The headless Neovim that runs the specs.
    static let arguments = ["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile \(EditorTestBed.root)/clients/nvim/tests/run.lua"]

    /// Expects a run.lua run to have passed every case; prints its summary line.
    static func expectAllPassed(_ result: CommandResult, label: String?) {
        #expect(result.status == 0, transcript(result))
        #expect(!result.stdout.contains("not ok"), transcript(result))
        let summary = result.stdout.split(separator: "\n").last { $0.hasPrefix("# nvim") }
        #expect(summary?.contains(" 0 failed") == true, transcript(result))
        print((label.map { "\($0): " } ?? "") + (summary.map(String.init) ?? "no summary line from nvim"))
    }

    /// Runs run.lua (all of its default specs, or `only` one) against a test bed of its own (made
    /// by `bed`) and expects every case to pass.
    private func runSpecs(only: String? = nil, bed makeBed: @escaping @Sendable () throws -> EditorTestBed = { try EditorTestBed() })
        async throws
    {
        // A thread of its own for the whole run: blocking one of the two cooperative threads for a
        // minute would starve the rest of the test run.
        let result = try await onOwnThread {
            let bed = try makeBed()
            defer { bed.tearDown() }
            return try bed.runEditor(Self.nvim!, Self.arguments, environment: only.map { ["ONTHEMAP_TEST_ONLY": $0] } ?? [:])
        }
        Self.expectAllPassed(result, label: only)
    }
}
