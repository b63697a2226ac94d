import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import OnTheMapModels
import OnTheMapTestSupport
import Synchronization
import Testing

@testable import OnTheMapServer

/// The web page's files as the router serves them: the strict headers on every one, gzip for clients
/// that accept it, 304 for a current copy, the operator's settings in the page, and none of it with
/// `--no-web`.
@Suite("The web page's files", .ownThreads)
struct WebAppRouterTests {
    /// The page, its service worker and manifest, every file the page names (its style sheets, icons,
    /// modules), and the modules its first module imports.
    static func files(_ client: any TestClientProtocol) async throws -> [String] {
        let page = try await client.execute(uri: "/", method: .get) { String(buffer: $0.body) }
        let folder = try #require(page.firstMatch(of: /assets\/[0-9a-f]{16}\//)).output
        var files = ["/", "/index.html", "/sw.js", "/manifest.webmanifest"]
            + page.matches(of: /"(assets\/[0-9a-f]{16}\/[^"]+)"/).map { "/" + $0.output.1 }
        let app = try await client.execute(uri: "/\(folder)js/app.mjs", method: .get) { String(buffer: $0.body) }
        files += app.matches(of: /from "\.\/([a-z-]+\.mjs)"/).map { "/\(folder)js/\($0.output.1)" }
        return files
    }

    private func withRouter(
        _ configuration: ServerConfiguration = ServerConfiguration(), _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await TestStorage.with { storage in
            let router = buildRouter(configuration: configuration, storage: storage)
            try await Application(router: router).test(.router) { client in try await body(client) }
        }
    }

    @Test func everyFileCarriesTheStrictHeaders() async throws {
        try await withRouter { client in
            let files = try await Self.files(client)
            #expect(files.count >= 10, "\(files)")
            for path in files {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentSecurityPolicy] == "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'", "\(path)")
                    #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                    #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer", "\(path)")
                    #expect(response.headers[.eTag]?.hasPrefix("\"") == true, "\(path)")
                    #expect(response.headers[.vary] == "Accept-Encoding", "\(path)")
                    #expect(response.headers[.contentEncoding] == nil, "no gzip unless asked: \(path)")
                }
            }
            let page = try await client.execute(uri: "/", method: .get) { String(buffer: $0.body) }
            #expect(try await client.execute(uri: "/index.html", method: .get) { String(buffer: $0.body) } == page)
            #expect(page.contains(#"data-testid="map""#) && page.contains(#"<path class="land""#), "the world is in the page")
            // Only files of its own: no inline script or style for the policy to refuse.
            #expect(!page.contains("<script>") && !page.contains("<style") && !page.contains(" style="))
            #expect(page.ranges(of: "<script ").count == 1 && page.contains(#"<script type="module" src="assets/"#))
            #expect(!page.contains("{{"), "every placeholder of web/index.html filled in")
            for testID in [
                "map", "login-username", "login-password", "login-submit", "login-error", "list-tab", "map-tab", "refresh",
                "post-open", "post-place", "post-link", "post-find", "post-finish", "post-cancel", "overwrite-confirm",
                "logout", "busy", "alert", "list-row",
            ] {
                #expect(page.contains(#"data-testid="\#(testID)""#), "\(testID)")
            }
            var script = ""
            for path in files where path.hasSuffix(".mjs") {
                script += try await client.execute(uri: path, method: .get) { response in
                    #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                    #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                    return String(buffer: response.body)
                }
            }
            #expect(script.contains("export function mapView(o)"), "the export's map code")
            for testID in ["marker", "cluster", "post-candidate"] {
                #expect(script.contains(testID), "\(testID) is set by the script")
            }
            // The export's own files are not the page's.
            let folder = try #require(files.first { $0.hasPrefix("/assets/") }?.split(separator: "/").prefix(2).joined(separator: "/"))
            for path in ["/\(folder)/export.html", "/\(folder)/js/export.mjs", "/assets/0000000000000000/app.css"] {
                try await client.execute(uri: path, method: .get) { #expect($0.status == .notFound, "\(path)") }
            }
        }
    }

    @Test func gzipWhenAskedAndNotModifiedForACurrentCopy() async throws {
        try await withRouter { client in
            let files = try await Self.files(client)
            for path in files where path.hasSuffix(".png") {
                try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "gzip"]) { response in
                    #expect(response.status == .ok && response.headers[.contentEncoding] == nil, "a PNG is sent as it is: \(path)")
                }
            }
            #expect(files.contains { $0.hasSuffix(".png") })
            for path in files where !path.hasSuffix(".png") {
                let (plain, etag) = try await client.execute(uri: path, method: .get) { ($0.body, $0.headers[.eTag]!) }
                let zipped = try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "gzip, deflate, br"]) {
                    response in
                    #expect(response.headers[.contentEncoding] == "gzip", "\(path)")
                    #expect(response.headers[.eTag] == "W/\(etag)", "the file's tag made weak, as a gzipped list's: \(path)")
                    return response.body
                }
                #expect(Array(zipped.readableBytesView.prefix(2)) == [0x1f, 0x8b], "\(path) is gzip")
                #expect(plain.readableBytes < 1024 || zipped.readableBytes < plain.readableBytes * 2 / 3, "\(path)")
                for tag in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                    try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: tag]) { response in
                        #expect(response.status == .notModified, "\(path) \(tag)")
                        #expect(response.body.readableBytes == 0)
                        #expect(response.headers[.contentSecurityPolicy] != nil)
                    }
                }
                try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: "\"stale\""]) { response in
                    #expect(response.status == .ok)
                }
                try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "gzip;q=0, identity"]) { response in
                    #expect(response.headers[.contentEncoding] == nil, "gzip;q=0 refuses gzip")
                }
            }
        }
    }

    @Test func thePageCarriesTheOperatorsSettings() async throws {
        let web = WebSettings(signUpURL: "https://example.com/join?group=a&b=\"c\"", pins: 250, pollSeconds: 7)
        try await withRouter(ServerConfiguration(web: web)) { client in
            let page = try await client.execute(uri: "/", method: .get) { String(buffer: $0.body) }
            #expect(page.contains(#"<meta name="onthemap-pins" content="250">"#))
            #expect(page.contains(#"<meta name="onthemap-poll-seconds" content="7">"#))
            #expect(page.contains(#"<meta name="onthemap-signup-url" content="https://example.com/join?group=a&amp;b=&quot;c&quot;">"#))
        }
        try await withRouter { client in
            let page = try await client.execute(uri: "/", method: .get) { String(buffer: $0.body) }
            #expect(!page.contains("onthemap-signup-url"), "no sign-up link unless configured")
            #expect(page.contains(#"<meta name="onthemap-pins" content="100">"#))
        }
        #expect(WebSettings(signUpURL: "javascript:alert(1)").problem != nil)
        #expect(WebSettings(pins: 0).problem == "--web-pins must be from 1 to 10000.")
        #expect(WebSettings(pins: 10_001).problem != nil)
        #expect(WebSettings(pollSeconds: 0).problem != nil)
        #expect(WebSettings(signUpURL: "https://example.com/join", pins: 10_000).problem == nil)
    }

    @Test func noWebServesNoPageButTheAPI() async throws {
        let served = Mutex<[String]>([])
        try await withRouter { client in
            let files = try await Self.files(client)
            served.withLock { $0 = files }
        }
        try await withRouter(ServerConfiguration(web: nil)) { client in
            for path in served.withLock({ $0 }) {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .notFound, "\(path)")
                    #expect(response.headers[.contentSecurityPolicy] == nil)
                }
            }
            try await client.execute(uri: "/v1/StudentLocation", method: .get) { #expect($0.status == .ok) }
        }
    }
}
