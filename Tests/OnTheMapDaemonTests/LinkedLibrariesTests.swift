import Foundation
import OnTheMapTestSupport
import Testing

/// The daemon and the client link FoundationEssentials, not the whole of Foundation with its ICU
/// (32 MiB of each program that did): checked on the programs as built, through the dynamic
/// loader's own list of what they need.
@Suite("What the daemon and the client link", .ownThreads)
struct LinkedLibrariesTests {
    @Test(arguments: ["onthemapd", "onthemap"])
    func noFoundationAndNoICU(program: String) throws {
        let result = try runCommand("/usr/bin/ldd", [BuiltProducts.path(program)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("libFoundationEssentials"), "\(result.stdout)")
        for library in ["libFoundation.so", "libFoundationInternationalization", "lib_FoundationICU", "libicu"] {
            #expect(!result.stdout.contains(library), "\(program) links \(library):\n\(result.stdout)")
        }
    }
}
