import AsyncHTTPClient
import Logging
import NIOCore
import NIOHTTP1
import OnTheMapModels

extension OnTheMapAPIClient {
    /// The sign-up page an `onthemap-server` names (`serve --signup-url`), read where its web page
    /// learns it: the page it serves beside the API (`…/v1` → `…/`), in its
    /// `<meta name="onthemap-signup-url">` (or, as earlier servers wrote it, the `<a id="signup">`
    /// link). Nil when the server has no page or names no sign-up page; only an http(s) link counts.
    public func signUpURL() async throws -> String? {
        var request = HTTPClientRequest(url: Self.webPageURL(forAPI: configuration.baseURL))
        request.headers.add(name: "Accept", value: "text/html")
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        logger.debug("request", metadata: ["method": "GET", "path": "the web page, for its sign-up link"])
        let page: ByteBuffer?
        do {
            page = try await CancellingDeadline.within(configuration.requestTimeout) { [httpClient, configuration, logger, request] in
                let response = try await httpClient.execute(request, timeout: .init(configuration.requestTimeout), logger: logger)
                let body = try await response.body.collect(upTo: Self.maximumPageBytes)
                return (200..<300).contains(response.status.code) ? body : nil
            }
        } catch is NIOTooManyBytesError {
            return nil
        } catch {
            throw APIError.unreachable(error, baseURL: configuration.shownURL)
        }
        return page.flatMap { Self.signUpURL(inPage: String(buffer: $0)) }
    }

    /// A web page is a few kilobytes; anything larger is not the one meant.
    static let maximumPageBytes = 1 << 20

    /// `https://host/v1` → `https://host/`; `https://host/onthemap/v1` → `https://host/onthemap/`.
    static func webPageURL(forAPI base: String) -> String {
        guard let scheme = base.firstRange(of: "://"), let slash = base[scheme.upperBound...].lastIndex(of: "/") else {
            return base + "/"
        }
        return String(base[...slash])
    }

    /// The sign-up link in the page's HTML, its attribute's entities decoded; nil when there is none
    /// or it is no http(s) link.
    static func signUpURL(inPage html: String) -> String? {
        for (start, attribute) in [(#"<meta name="onthemap-signup-url""#, #"content=""#), (#"id="signup""#, #"href=""#)] {
            guard let element = html.firstRange(of: start) else { continue }
            let tag = html[element.upperBound...].prefix { $0 != ">" }
            guard let value = tag.firstRange(of: attribute) else { continue }
            let text = tag[value.upperBound...].prefix { $0 != "\"" }
            let decoded = String(text).replacing("&quot;", with: "\"").replacing("&#39;", with: "'").replacing("&lt;", with: "<")
                .replacing("&gt;", with: ">").replacing("&amp;", with: "&")
            return WebLink.isValid(decoded) ? decoded : nil
        }
        return nil
    }
}
