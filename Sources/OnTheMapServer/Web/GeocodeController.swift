import Foundation
import HTTPTypes
import Hummingbird
import OnTheMapModels

/// `GET /v1/geocode?q=TEXT&limit=N`: places in the embedded gazetteer matching free text, for the web
/// page's "Find on map" (docs/API.md). Not in Udacity's API. Needs a session (the
/// `X-OnTheMap-Session` header); each account may look up `perMinute` places a minute, counted in
/// the database as login attempts are, so replicas share the count.
struct GeocodeController: Sendable {
    let sessions: any SessionStore
    let attempts: any LoginAttemptStore
    let geocoder: ServerGeocoder

    /// Lookups allowed per account per minute: far more than a person types, far fewer than a
    /// script scraping the gazetteer would like.
    static let perMinute = 30
    /// How many places one lookup may ask for.
    static let limitRange = 1...20
    /// The longest query: the longest `mapString` a pin may have.
    static let maxQueryLength = 200

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get(use: lookup)
    }

    @Sendable func lookup(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let session = try await liveSession(request)
        let parameters = request.uri.queryParameters
        let query = parameters.get("q")?.trimmingWhitespace() ?? ""
        guard !query.isEmpty else { throw APIFailure.badRequest("Say which place to look up: q=TEXT.") }
        guard query.count <= Self.maxQueryLength else {
            throw APIFailure.badRequest("q must be at most \(Self.maxQueryLength) characters.")
        }
        // Pasted unseen with a place, one split "Pa^[]0;x^Gris" into words that matched Ris-Orangis.
        if let control = query.unicodeScalars.first(where: DisplayText.isControl) {
            throw APIFailure.badRequest("q holds a control character (\(DisplayText.codePoint(control))), which no place name has.")
        }
        var limit = 5
        if let text = parameters.get("limit") {
            guard let value = WholeNumberRule.read(text, in: Self.limitRange) else {
                throw APIFailure.badRequest("limit " + WholeNumberRule.requirement(Self.limitRange, given: WholeNumberRule.shown(text)) + ".")
            }
            limit = value
        }
        let now = Date()
        let counter = AttemptCounter(subject: "geocode:\(session.accountKey)", window: .seconds(60), limit: Self.perMinute)
        if let tally = try await attempts.countAttempts([counter], now: now).first, tally.attempts > counter.limit {
            let refusal = TooManyRequests(
                "place lookups", wait: Int(tally.windowStart.addingTimeInterval(60).timeIntervalSince(now).rounded(.up)))
            throw APIFailure(.tooManyRequests, refusal.message, headers: refusal.headers)
        }
        let places = try await geocoder.places(matching: query, limit: [GeocodeResult].asked(for: limit))
        return try Response.json(encoding: GeocodePlaces(results: places, limit: limit))
    }

    private func liveSession(_ request: Request) async throws -> SessionRecord {
        guard let id = request.headers[HTTPField.Name(OnTheMapHeaders.session)!], !id.isEmpty else {
            throw APIFailure(
                .unauthorized, "Looking up places requires a session: log in and send its id in the \(OnTheMapHeaders.session) header.")
        }
        guard let session = try await sessions.liveSession(id: id) else {
            throw APIFailure(.unauthorized, "The session has expired or is unknown; log in again.")
        }
        return session
    }
}
