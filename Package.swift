// swift-tools-version:6.1
import PackageDescription

/// The Swift runtime's concurrency hooks object, linked into a release onthemapd built with the static
/// runtime, so SwiftNIO's take-over finds the hook with dlsym (scripts/swift-build-static.sh sets it,
/// and says why). Unset for builds with the shared runtime.
let concurrencyHooksObject = Context.environment["ONTHEMAP_CONCURRENCY_HOOKS_OBJECT"].flatMap { $0.isEmpty ? nil : $0 }

let package = Package(
    name: "OnTheMap",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "onthemap-server", targets: ["onthemap-server"]),
        .executable(name: "onthemapd", targets: ["onthemapd"]),
        .executable(name: "onthemap", targets: ["onthemap"]),
        .library(name: "OnTheMapModels", targets: ["OnTheMapModels"]),
        .library(name: "OnTheMapAPI", targets: ["OnTheMapAPI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.25.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.25.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
    ],
    targets: [
        // MARK: Wire models (no NIO, no HTTP): shared by every other module.
        .target(name: "OnTheMapModels"),
        .testTarget(
            name: "OnTheMapModelsTests",
            dependencies: [
                "OnTheMapModels",
                "OnTheMapSupport",
                "OnTheMapTestSupport",
            ],
            resources: [.copy("Fixtures")]
        ),

        // MARK: What every program shares that is not the wire: settings files, XDG folders, Dispatch work.
        .target(
            name: "OnTheMapSupport",
            dependencies: [
                "OnTheMapModels",
                // NumberRange's usage error; every program that links this module parses options with it.
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // FilePath: the XDG folders, and the paths the daemon and the CLI join.
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // MARK: What each program was built with (`--version --verbose`), recorded at build time.
        .target(name: "OnTheMapBuildInfo", plugins: ["DependencyVersions"]),
        .plugin(name: "DependencyVersions", capability: .buildTool()),

        // MARK: The web API client (AsyncHTTPClient).
        .target(
            name: "OnTheMapAPI",
            dependencies: [
                "OnTheMapModels",
                "OnTheMapSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "OnTheMapAPITests",
            dependencies: [
                "OnTheMapAPI",
                "OnTheMapTestSupport",
                "onthemap-server",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                "OnTheMapModels",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),

        // MARK: The self-hostable server (Hummingbird + GRDB).
        .target(
            name: "OnTheMapServer",
            dependencies: [
                "CMemory",
                "OnTheMapSupport",
                "OnTheMapModels",
                "OnTheMapSystemd",
                // The web page draws the export's world (OnTheMapMap); /v1/geocode is the gazetteer.
                "OnTheMapMap",
                "OnTheMapGeocoder",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "onthemap-server",
            dependencies: [
                "OnTheMapBuildInfo",
                "OnTheMapSupport",
                "OnTheMapModels",
                "OnTheMapServer",
                "OnTheMapSystemd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "OnTheMapServerTests",
            dependencies: [
                "OnTheMapServer",
                "OnTheMapGeocoder",
                "OnTheMapMap",
                "OnTheMapTestSupport",
                "onthemap-server",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                "OnTheMapModels",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // Only to make the pool's own error, whose name the server relies on (PostgresErrorsTests).
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
            ],
            exclude: ["Golden", "Parse"]
        ),

        // MARK: JSON-RPC messages, each method's params and result, and the socket path (no NIO):
        // shared by daemon and clients.
        .target(
            name: "OnTheMapRPC",
            dependencies: [
                "OnTheMapModels"
            ]
        ),
        .testTarget(
            name: "OnTheMapRPCTests",
            dependencies: [
                "OnTheMapModels",
                "OnTheMapRPC",
                "OnTheMapTestSupport",
            ]
        ),

        // MARK: systemd: sd_notify, socket activation, peer credentials.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(
            name: "OnTheMapSystemd",
            dependencies: [
                "CSystemd"
            ]
        ),

        // MARK: Folding for search and geocoding: the gazetteer's fold table, embedded alone (22 KB).
        .target(
            name: "CFolding",
            exclude: ["folding.tsv"],
            // The compiler finds folding.tsv for `#embed` through this search path.
            cSettings: [.headerSearchPath(".")]
        ),
        .target(
            name: "OnTheMapFolding",
            dependencies: ["CFolding"],
            // The gazetteer folds its 400,000 names through this on its first query (see OnTheMapGeocoder).
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),

        // MARK: Forward geocoding: the embedded GeoNames gazetteer (no NIO).
        .target(
            name: "CGazetteer",
            exclude: ["gazetteer.tsv"],
            // The compiler finds gazetteer.tsv for `#embed` through this search path.
            cSettings: [.headerSearchPath(".")]
        ),
        .target(
            name: "OnTheMapGeocoder",
            dependencies: [
                "OnTheMapSupport",
                "OnTheMapFolding",
                "CGazetteer",
                "OnTheMapModels",
            ],
            // Indexing 400,000 names takes 0.5 s optimised and 4 s unoptimised; every debug daemon in
            // the tests pays it on its first geocode, so this one module is optimised in debug too.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),

        .testTarget(
            name: "OnTheMapGeocoderTests",
            dependencies: [
                "GeocoderQuerySet",
                "OnTheMapGeocoder",
                "OnTheMapFolding",
                "OnTheMapModels",
                "OnTheMapTestSupport",
            ]
        ),
        // MARK: The world map: Natural Earth outlines embedded, and drawing (no I/O, no NIO).
        .target(
            name: "CWorldMap",
            exclude: ["world.bin", "labels.bin"],
            // The compiler finds world.bin and labels.bin for `#embed` through this search path.
            cSettings: [.headerSearchPath(".")]
        ),
        // The web page's files (web/: HTML, CSS, ES modules), embedded with #embed: the server's page
        // and the exported map (OnTheMapMap) share them.
        .target(
            name: "CWebPage",
            exclude: ["web"],
            // The compiler finds web/… for `#embed` through this search path.
            cSettings: [.headerSearchPath(".")]
        ),
        .target(
            name: "OnTheMapMap",
            dependencies: [
                "CWebPage",
                "CWorldMap",
                "OnTheMapModels",
            ],
            // Debug daemons in the tests draw maps too; optimised, a drawing takes a tenth of the time.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        .testTarget(
            name: "OnTheMapMapTests",
            dependencies: [
                "OnTheMapMap",
                "OnTheMapModels",
                "OnTheMapTestSupport",
            ]
        ),
        .executableTarget(
            name: "nio-canned-server",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Benchmarks/NIOCannedServer"
        ),
        // The hand-made query set and how an answer is judged: the accuracy test's and the benchmark's.
        .target(
            name: "GeocoderQuerySet",
            dependencies: ["OnTheMapModels"],
            path: "Benchmarks/GeocoderQuerySet"
        ),
        .executableTarget(
            name: "geocoder-bench",
            dependencies: [
                "GeocoderQuerySet",
                "OnTheMapGeocoder",
                "OnTheMapModels",
            ],
            path: "Benchmarks/GeocoderBench"
        ),

        .executableTarget(
            name: "map-bench",
            dependencies: [
                "OnTheMapMap",
                "OnTheMapModels",
            ],
            path: "Benchmarks/MapBench"
        ),

        // MARK: The daemon.
        .target(name: "CMemory"),
        .target(
            name: "OnTheMapDaemon",
            dependencies: [
                "OnTheMapSupport",
                "OnTheMapFolding",
                "CMemory",
                "CSystemd",
                "OnTheMapAPI",
                "OnTheMapGeocoder",
                "OnTheMapMap",
                "OnTheMapModels",
                "OnTheMapRPC",
                "OnTheMapSystemd",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(
            name: "onthemapd",
            dependencies: [
                "OnTheMapBuildInfo",
                "OnTheMapDaemon",
                "OnTheMapRPC",
                "OnTheMapSupport",
                "OnTheMapSystemd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            linkerSettings: concurrencyHooksObject.map { [.unsafeFlags([$0])] } ?? []
        ),
        .testTarget(
            name: "OnTheMapDaemonTests",
            dependencies: [
                "OnTheMapAPI",
                "OnTheMapClient",
                "OnTheMapDaemon",
                "OnTheMapGeocoder",
                "OnTheMapMap",
                "OnTheMapModels",
                "OnTheMapRPC",
                "OnTheMapTestSupport",
                "onthemap-server",
                "onthemapd",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // MARK: The client library (no NIO): Unix-socket JSON-RPC, for the CLI and the tests.
        .target(
            name: "OnTheMapClient",
            dependencies: [
                "OnTheMapModels",
                "OnTheMapRPC",
                "OnTheMapSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // MARK: The command-line client: no NIO, no HTTP, FoundationEssentials only.
        .target(
            name: "OnTheMapCLI",
            dependencies: [
                "OnTheMapBuildInfo",
                "OnTheMapSupport",
                // `open NAME` matches names as the daemon's search does.
                "OnTheMapFolding",
                "OnTheMapClient",
                "OnTheMapModels",
                "OnTheMapRPC",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(
            name: "onthemap",
            dependencies: [
                "OnTheMapCLI",
            ],
            // Status bars run the client every few seconds: a static executable starts without the
            // dynamic loader's relocations and look-ups, about 1 ms of a `status` here
            // (docs/benchmarks.md). Release only: the tests' debug build links the shared runtime.
            linkerSettings: [.unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release))]
        ),
        .testTarget(
            name: "OnTheMapCLITests",
            dependencies: [
                "OnTheMapCLI",
                "OnTheMapClient",
                "OnTheMapModels",
                "OnTheMapRPC",
                // TextTable and DisplayWidth, the tables' rule.
                "OnTheMapSupport",
                "OnTheMapTestSupport",
                "onthemap",
                "onthemap-server",
                "onthemapd",
                // A hostile upstream stand-in for `open` (HostileLinkTests).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                // `status` read by ArgumentParser, against its quick reading (StatusQuickTests).
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Golden"]
        ),

        // MARK: The editor clients (clients/nvim, clients/emacs), tested in the real editors.
        .testTarget(
            name: "OnTheMapEditorTests",
            dependencies: [
                "OnTheMapRPC",
                "OnTheMapTestSupport",
                "onthemap",
                "onthemap-server",
                "onthemapd",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),

        // MARK: Helpers for tests: real processes on temp files and free ports.
        .target(
            name: "OnTheMapTestSupport",
            dependencies: [
                "OnTheMapModels",
                "OnTheMapRPC",
            ]
        ),
        .testTarget(
            name: "OnTheMapTestSupportTests",
            dependencies: ["OnTheMapTestSupport"]
        ),
    ]
)

for target in package.targets where target.type != .system && target.type != .plugin {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
