import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

/// Who a Facebook access token belongs to, as the verification endpoint says.
struct FacebookIdentity: Decodable, Sendable {
    var id: String
    var firstName: String?
    var lastName: String?

    enum CodingKeys: String, CodingKey {
        case id
        case firstName = "first_name"
        case lastName = "last_name"
    }
}

/// Checks a Facebook token against a Graph API `/me`-compatible endpoint:
/// `GET URL?fields=id,first_name,last_name&access_token=TOKEN` answering `{"id":…,"first_name":…}`.
struct FacebookTokenVerifier: Sendable {
    let url: String
    let httpClient: HTTPClient

    func verify(accessToken: String) async throws -> FacebookIdentity {
        var components = URLComponents(string: url)
        var items = components?.queryItems ?? []
        items.append(URLQueryItem(name: "fields", value: "id,first_name,last_name"))
        items.append(URLQueryItem(name: "access_token", value: accessToken))
        components?.queryItems = items
        guard let requestURL = components?.string else {
            throw APIFailure(.internalServerError, "The Facebook verification URL is not valid.")
        }
        let status: UInt
        let body: ByteBuffer
        do {
            let response = try await httpClient.execute(HTTPClientRequest(url: requestURL), timeout: .seconds(10))
            status = response.status.code
            body = try await response.body.collect(upTo: 64 * 1024)
        } catch {
            throw APIFailure(.badGateway, "Could not reach the Facebook token verifier; try again later.")
        }
        guard status == 200 else {
            throw APIFailure(.forbidden, "The Facebook access token was rejected.")
        }
        guard let identity = try? JSONDecoder().decode(FacebookIdentity.self, from: Data(body.readableBytesView)),
            !identity.id.isEmpty
        else {
            throw APIFailure(.badGateway, "The Facebook token verifier answered in an unknown format.")
        }
        return identity
    }
}
