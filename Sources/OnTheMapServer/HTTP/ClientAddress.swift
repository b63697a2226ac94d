import Foundation
import HTTPTypes
import Hummingbird

/// The address a request came from, for the per-address login limit: the peer, or — when the peer is a
/// trusted reverse proxy (`--trusted-proxy`) — the last address that proxy put in `X-Forwarded-For`.
enum ClientAddress {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    static func resolve(peer: String?, headers: HTTPFields, trustedProxies: Set<String>) -> String? {
        guard let peer, trustedProxies.contains(peer) else { return peer }
        // nginx appends the address it saw to what the client sent; only that last one is the proxy's word.
        let forwarded = headers[values: forwardedFor].joined(separator: ",")
        guard let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty
        else { return peer }
        return last
    }
}
