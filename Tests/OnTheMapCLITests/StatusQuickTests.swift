import ArgumentParser
import Foundation
import OnTheMapTestSupport
import Testing

@testable import OnTheMapCLI

/// `status` as bars run it is read without ArgumentParser (`StatusCommand.quick`): the two readings
/// must take the same options and give the same command, and whatever the quick one does not read
/// is left to ArgumentParser.
@Suite("status read without ArgumentParser", .ownThreads)
struct StatusQuickTests {
    @Test(arguments: [
        ["status"], ["status", "--json"], ["status", "--format", "waybar"], ["status", "--format=polybar"],
        ["status", "--format", "i3blocks"], ["status", "--format", "json"], ["status", "--socket", "/run/a b.sock"],
        ["status", "--socket=/tmp/x.sock", "--format", "json"], ["status", "--json", "--socket", "/s"],
    ])
    func readsAsArgumentParserDoes(arguments: [String]) throws {
        let quick = try #require(StatusCommand.quick(arguments), "not read: \(arguments)")
        let parsed = try #require(try OnTheMapCommand.parseAsRoot(arguments) as? StatusCommand)
        #expect(quick == parsed.options, "\(arguments)")
    }

    /// Help, mistakes and anything unusual are ArgumentParser's to read and explain.
    @Test(arguments: [
        ["status", "--help"], ["status", "-h"], ["status", "--format", "nope"], ["status", "--json", "--json"],
        ["status", "--socket"], ["status", "--socket", "--json"], ["status", "--jsn"], ["status", "--json=1"],
        ["status", "--format="], ["status", "extra"], ["students"], [], ["status", "--json", "--format", "waybar"],
    ])
    func leavesTheRestToArgumentParser(arguments: [String]) {
        #expect(StatusCommand.quick(arguments) == nil, "\(arguments)")
    }

    /// Every option `status` takes, as the program lists them (`--experimental-dump-help`), is one
    /// the quick reading knows: an option added to StatusCommand fails here until it is read there.
    @Test func knowsEveryOptionStatusTakes() throws {
        let dump = try runCommand(BuiltProducts.path("onthemap"), ["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let root = try #require(tool["command"] as? [String: Any])
        let status = try #require(
            (root["subcommands"] as? [[String: Any]])?.first { $0["commandName"] as? String == "status" })
        var declared: Set<String> = []
        for argument in status["arguments"] as? [[String: Any]] ?? [] {
            for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                // --help and --version are every command's, and ArgumentParser's to answer.
                if let spelled = name["name"] as? String, !["help", "version"].contains(spelled) { declared.insert("--" + spelled) }
            }
        }
        #expect(declared == StatusCommand.quickOptions)
    }
}
