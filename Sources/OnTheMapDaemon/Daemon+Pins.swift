import Foundation
import OnTheMapAPI
import OnTheMapGeocoder
import OnTheMapModels
import OnTheMapRPC
import Logging

/// What `postPin` asks for.
struct PinRequest: Sendable {
    var mapString: String
    var mediaURL: String
    var latitude: Double?
    var longitude: Double?
    var overwrite: Bool
}

extension Daemon {
    /// The account's newest pin upstream, or nil.
    func myPin() async throws -> StudentLocation? {
        let (session, account) = try await requireLogin()
        let list = try await upstream("myPin", session: session) {
            try await self.api.studentLocations(StudentLocationQuery(limit: 10, order: "-updatedAt", uniqueKey: account.key))
        }
        return list.results.first
    }

    /// Posts or overwrites the user's pin; one at a time, so one user never gets two pins.
    func postPin(_ request: PinRequest) async throws -> PostPinResult {
        let (session, account) = try await requireLogin()
        guard WebLink.isValid(request.mediaURL) else {
            throw RPCError.application(
                RPCError.invalidURLCode, "The link must be an http:// or https:// URL, like https://example.com/me.",
                retryable: false, extra: [("mediaURL", .string(request.mediaURL))])
        }
        var latitude = request.latitude
        var longitude = request.longitude
        if latitude == nil || longitude == nil {
            guard let best = try await geocoder.geocode(request.mapString, limit: 1).first else {
                throw RPCError.application(
                    RPCError.placeNotFoundCode,
                    "No place matches \"\(request.mapString)\"; try \"City, Country\", or give latitude and longitude.",
                    retryable: false)
            }
            latitude = best.latitude
            longitude = best.longitude
        }
        let draft = StudentLocationDraft(
            uniqueKey: account.key, firstName: account.firstName, lastName: account.lastName,
            mapString: request.mapString, mediaURL: request.mediaURL, latitude: latitude!, longitude: longitude!)

        let (pin, created) = try await pinWriter.run {
            try await self.upstream("postPin", session: session) {
                let existing = try await self.myPin()
                if let existing {
                    guard request.overwrite else {
                        throw RPCError.application(
                            RPCError.pinExistsCode,
                            "You already have a pin at \"\(existing.mapString)\"; pass overwrite: true to move it.",
                            retryable: false, extra: [("pin", existing.wireJSON)])
                    }
                    let updated = try await self.api.updateStudentLocation(objectId: existing.objectId, draft, session: session)
                    let pin = StudentLocation(
                        objectId: existing.objectId, draft: draft, createdAt: existing.createdAt,
                        updatedAt: WireTimestamp.parse(updated.updatedAt))
                    return (pin, false)
                }
                let created = try await self.api.createStudentLocation(draft, session: session)
                let date = WireTimestamp.parse(created.createdAt)
                return (StudentLocation(objectId: created.objectId, draft: draft, createdAt: date, updatedAt: date), true)
            }
        }
        logger.info(created ? "pin created" : "pin moved", metadata: ["objectId": "\(pin.objectId)"])
        try? await refresh()
        return PostPinResult(pin: pin, created: created)
    }
}
