import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OnTheMapModels

/// `GET`/`POST /StudentLocation` and `PUT /StudentLocation/{objectId}`.
struct StudentLocationController: Sendable {
    let locations: any LocationStore
    let sessions: any SessionStore
    /// Accept writes without a session, as the original service did.
    let openWrites: Bool
    /// Larger bodies get 413.
    let maxBodyBytes: Int
    /// Encoded lists, until a pin changes (shared with the Parse paths, under keys of their own).
    let cache: LocationListCache

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get(use: list)
        group.post(use: create)
        group.put(":objectId", use: update)
    }

    @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> Response {
        try await cache.answer(
            request.uri.query ?? "", ifNoneMatch: request.headers[.ifNoneMatch],
            parse: { try LocationQuery(udacity: request.uri.queryParameters) }, version: { try await locations.locationsVersion() }
        ) { query in
            let pins = try await locations.locations(query)
            return ByteBuffer(bytes: try WireCoding.encode(StudentLocationList(results: pins)))
        }
    }

    @Sendable func create(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let draft = try await request.decodeJSONBody(StudentLocationDraft.self, limit: maxBodyBytes)
        try DraftValidator.validate(draft)
        if let session = try await authorizedSession(request) {
            guard draft.uniqueKey == session.accountKey else {
                throw APIFailure(.forbidden, "uniqueKey must be your own account key (\(session.accountKey)).")
            }
        }
        // One statement: a new pin, or (one pin per account) the account's pin moved.
        let posted = try await locations.postLocation(draft, objectId: SecretGenerator.objectID(), now: Date())
        context.logger.debug(
            posted.moved ? "location moved" : "location created", metadata: ["objectId": "\(posted.objectId)"])
        return try Response.json(
            encoding: CreatedLocation(createdAt: WireTimestamp.milliseconds(posted.createdAt), objectId: posted.objectId),
            status: .created)
    }

    @Sendable func update(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let objectId = try context.parameters.require("objectId")
        let draft = try await request.decodeJSONBody(StudentLocationDraft.self, limit: maxBodyBytes)
        try DraftValidator.validate(draft)
        let session = try await authorizedSession(request)
        if let session, draft.uniqueKey != session.accountKey {
            throw Self.notYours
        }
        // Whose pin it is is checked by the write itself: one trip to the database, and no window
        // between the check and the change.
        // A full replacement: nothing read to merge into, so no version to hold it to.
        switch try await locations.updateLocation(
            objectId: objectId, with: draft, ownedBy: session?.accountKey, ifUpdatedAt: nil, now: Date())
        {
        case .updated(let updated):
            context.logger.debug("location updated", metadata: ["objectId": "\(objectId)"])
            return try Response.json(encoding: UpdatedLocation(updatedAt: WireTimestamp.milliseconds(updated.updatedAt!)))
        case .notFound:
            throw APIFailure(.notFound, "No StudentLocation has the objectId \(objectId).")
        case .ownedByAnother:
            throw Self.notYours
        case .changedSinceRead:  // not asked for (no ifUpdatedAt), so not expected
            throw APIFailure(.conflict, "The location changed while it was being written; try again.")
        }
    }

    private static var notYours: APIFailure {
        APIFailure(.forbidden, "You can only change your own location.")
    }

    /// The caller's live session, or nil when writes are open; throws 401 when one is needed and missing.
    private func authorizedSession(_ request: Request) async throws -> SessionRecord? {
        if openWrites { return nil }
        guard let id = request.headers[HTTPField.Name(OnTheMapHeaders.session)!], !id.isEmpty else {
            throw APIFailure(
                .unauthorized,
                "Writing requires a session: log in and send its id in the \(OnTheMapHeaders.session) header.")
        }
        guard let session = try await sessions.liveSession(id: id) else {
            throw APIFailure(.unauthorized, "The session has expired or is unknown; log in again.")
        }
        return session
    }
}
