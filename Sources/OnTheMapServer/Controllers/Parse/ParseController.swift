import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OnTheMapModels

/// The Parse-era dialect: `/1/classes/StudentLocation` and `/parse/classes/StudentLocation`, over the
/// same storage as the Udacity paths. It owns only its request parsing and its error shape (the
/// group it is added to carries `ParseMiddleware`).
struct ParseController: Sendable {
    let storage: any ServerStorage
    let openWrites: Bool
    let maxBodyBytes: Int
    /// Encoded lists until a pin changes, shared with the Udacity paths (under keys of their own).
    let cache: LocationListCache

    static let sessionToken = HTTPField.Name("X-Parse-Session-Token")!

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get(use: list)
        group.post(use: create)
        group.get(":objectId", use: one)
        group.put(":objectId", use: update)
        group.delete(":objectId", use: delete)
    }

    /// The list, from the cache while no pin has changed (as the Udacity list is), with an `ETag`
    /// and a 304 for a client whose `If-None-Match` names it.
    @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> Response {
        // A space cannot occur in a request's query string, so no Udacity query shares these keys.
        try await cache.answer(
            "parse " + (request.uri.query ?? ""), ifNoneMatch: request.headers[.ifNoneMatch],
            parse: { try ParseQuery(FormQuery.parse(request.uri.query)) }, version: { try await storage.locationsVersion() }
        ) { parsed in
            let pins = parsed.query.limit == 0 ? [] : try await storage.locations(parsed.query)
            // Parse's order, the list before its count: {"results":[…],"count":N}.
            var page = ByteBuffer(string: #"{"results":"#)
            let results = try parsed.keys.map { try WireCoding.encode(Self.reduced(pins, to: $0)) } ?? WireCoding.encode(pins)
            page.writeBytes(results)
            if parsed.wantsCount { page.writeString(#","count":\#(try await storage.countLocations(parsed.query))"#) }
            page.writeString("}")
            return page
        }
    }

    @Sendable func one(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let objectId = try context.parameters.require("objectId")
        guard let pin = try await storage.location(objectId: objectId) else { throw ParseFailure.objectNotFound(objectId) }
        let keys = FormQuery.parse(request.uri.query)["keys"].map { Set($0.split(separator: ",").map(String.init)) }
        let body = try keys.map { try WireCoding.encode(Self.reduced([pin], to: $0)[0]) } ?? WireCoding.encode(pin)
        return Response.json(bytes: ByteBuffer(bytes: body))
    }

    @Sendable func create(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let draft = try ParseBody.draft(from: try await body(request), base: nil)
        try DraftValidator.validate(draft)
        if let session = try await session(request) {
            guard draft.uniqueKey == session.accountKey else {
                throw ParseFailure.forbidden("uniqueKey must be your own account key (\(session.accountKey))")
            }
        }
        let posted = try await storage.postLocation(draft, objectId: SecretGenerator.objectID(), now: Date())
        context.logger.debug(posted.moved ? "location moved" : "location created", metadata: ["objectId": "\(posted.objectId)"])
        return try Response.json(
            encoding: CreatedLocation(createdAt: WireTimestamp.milliseconds(posted.createdAt), objectId: posted.objectId),
            status: .created)
    }

    @Sendable func update(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let objectId = try context.parameters.require("objectId")
        let fields = try await body(request)
        let session = try await session(request)
        // Parse's PUT changes only the fields it sends: they are merged into the pin as read, and the
        // write happens only if the pin is still as read (its owner and its version). Otherwise a
        // concurrent PUT's fields would be overwritten with the values this one read: read again.
        for _ in 0..<Self.mergeAttempts {
            guard let existing = try await storage.location(objectId: objectId) else { throw ParseFailure.objectNotFound(objectId) }
            let draft = try ParseBody.draft(from: fields, base: existing.draft)
            try DraftValidator.validate(draft)
            if let session, existing.uniqueKey != session.accountKey || draft.uniqueKey != session.accountKey {
                throw ParseFailure.forbidden("you can only change your own location")
            }
            switch try await storage.updateLocation(
                objectId: objectId, with: draft, ownedBy: session?.accountKey, ifUpdatedAt: existing.updatedAt, now: Date())
            {
            case .updated(let updated):
                return try Response.json(encoding: UpdatedLocation(updatedAt: WireTimestamp.milliseconds(updated.updatedAt!)))
            case .notFound: throw ParseFailure.objectNotFound(objectId)
            case .ownedByAnother: throw ParseFailure.forbidden("you can only change your own location")
            case .changedSinceRead: continue
            }
        }
        // Not 503: the database is up, and monitoring must not read one busy pin as an outage.
        throw ParseFailure(
            status: .conflict, code: -1, message: "the location kept changing while this update was merged into it; try again")
    }

    /// How often a PUT reads and merges again when other writes keep changing the pin under it.
    static let mergeAttempts = 8

    @Sendable func delete(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let objectId = try context.parameters.require("objectId")
        let session = try await session(request)
        guard let existing = try await storage.location(objectId: objectId) else { throw ParseFailure.objectNotFound(objectId) }
        if let session, existing.uniqueKey != session.accountKey {
            throw ParseFailure.forbidden("you can only delete your own location")
        }
        guard try await storage.removeLocation(objectId: objectId) else { throw ParseFailure.objectNotFound(objectId) }
        context.logger.debug("location deleted", metadata: ["objectId": "\(objectId)"])
        return Self.json(.object([]))
    }

    /// The live session named by `X-Parse-Session-Token`; nil when writes are open and none is sent.
    private func session(_ request: Request) async throws -> SessionRecord? {
        guard let token = request.headers[Self.sessionToken], !token.isEmpty else {
            if openWrites { return nil }
            throw ParseFailure.invalidSession(
                "writing requires a session: log in with POST /parse/login and send its sessionToken in X-Parse-Session-Token")
        }
        guard let session = try await storage.liveSession(id: token) else {
            throw ParseFailure.invalidSession("the session has expired or is unknown; log in again")
        }
        return session
    }

    private func body(_ request: Request) async throws -> [(String, WireJSON)] {
        let buffer = try await request.collectBody(limit: maxBodyBytes)
        guard let json = try? WireCoding.decode(WireJSON.self, from: buffer.readableBytesView), case .object(let members) = json else {
            throw ParseFailure.invalidJSON("the body must be a JSON object")
        }
        return members
    }

    /// Pins as Parse writes them (their one encoding, `WireCoding`), each reduced to `keys` (objectId
    /// and the timestamps are always kept): the encoding read back once as trees, to leave keys out,
    /// and encoded again (in alphabetical order, as `WireCoding` writes every object).
    static func reduced(_ pins: [StudentLocation], to keys: Set<String>) throws -> [WireJSON] {
        let kept = keys.union(["objectId", "createdAt", "updatedAt"])
        return try WireCoding.decode([WireJSON].self, from: WireCoding.encode(pins)).map { pin in
            guard case .object(let members) = pin else { return pin }
            return .object(members.filter { kept.contains($0.0) })
        }
    }

    static func json(_ value: WireJSON, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: value.serialized)))
    }
}

/// A Parse write body as a draft: each field must have its type (111 otherwise); PUT starts from the pin.
enum ParseBody {
    static func draft(from members: [(String, WireJSON)], base: StudentLocationDraft?) throws(ParseFailure)
        -> StudentLocationDraft
    {
        let fields = Dictionary(members, uniquingKeysWith: { $1 })
        func text(_ key: String, _ fallback: String?) throws(ParseFailure) -> String {
            guard let value = fields[key] else {
                if let fallback { return fallback }
                throw .validation("The field \(key) is required.")
            }
            guard let text = value.stringValue else { throw .invalidType("\(key) must be a string, not \(value.typeDescription)") }
            return text
        }
        func number(_ key: String, _ fallback: Double?) throws(ParseFailure) -> Double {
            guard let value = fields[key] else {
                if let fallback { return fallback }
                throw .validation("The field \(key) is required.")
            }
            guard let number = value.doubleValue else { throw .invalidType("\(key) must be a number, not \(value.typeDescription)") }
            return number
        }
        return StudentLocationDraft(
            uniqueKey: try text("uniqueKey", base?.uniqueKey), firstName: try text("firstName", base?.firstName),
            lastName: try text("lastName", base?.lastName ?? ""), mapString: try text("mapString", base?.mapString),
            mediaURL: try text("mediaURL", base?.mediaURL), latitude: try number("latitude", base?.latitude),
            longitude: try number("longitude", base?.longitude))
    }
}
