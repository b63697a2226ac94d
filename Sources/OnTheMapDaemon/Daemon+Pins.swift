import Foundation
import Logging
import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC

extension Daemon {
    /// The account's newest pin upstream, or nil. When the upstream cannot be reached, the pin as
    /// the daemon last saw it (`cached`), as `status` shows it.
    func myPin() async throws -> MyPinResult {
        let (session, account) = try await requireLogin()
        do {
            let list = try await upstream("myPin", session: session) {
                try await self.api.studentLocations(StudentLocationQuery(limit: 10, order: "-updatedAt", uniqueKey: account.key))
            }
            let pin = list.results.first
            await state.recordPin(pin, for: session)
            return MyPinResult(pin: pin)
        } catch let error as APIError where error.kind == .unreachable || error.isRetryable {
            logger.notice("myPin: upstream not reached; answering the pin last seen", metadata: ["error": "\(error.message)"])
            return MyPinResult(pin: await state.current.myPin, cached: true)
        }
    }

    /// Posts or overwrites the user's pin; one at a time, so one user never gets two pins. Without
    /// coordinates, the place is geocoded and stored as the match's name ("Springfield, Illinois"),
    /// not as typed.
    func postPin(_ params: PostPinParams) async throws -> PostPinResult {
        let (session, account) = try await requireLogin()
        var mapString = params.mapString.trimmingWhitespace()
        let mediaURL = params.mediaURL.trimmingWhitespace()
        guard WebLink.isValid(mediaURL) else {
            throw RPCError.application(
                RPCError.invalidURLCode, "The link must be an http:// or https:// URL, like https://example.com/me.",
                retryable: false, extra: [("mediaURL", .string(mediaURL))])
        }
        let latitude: Double
        let longitude: Double
        if let givenLatitude = params.latitude, let givenLongitude = params.longitude {
            (latitude, longitude) = (givenLatitude, givenLongitude)
        } else {
            guard let best = try await geocode(mapString, limit: 1).first else {
                throw RPCError.application(
                    RPCError.placeNotFoundCode,
                    "No place matches \"\(mapString)\"; try \"City, Country\", or give latitude and longitude.",
                    retryable: false)
            }
            (latitude, longitude) = (best.latitude, best.longitude)
            mapString = best.placeName
        }
        let draft = StudentLocationDraft(
            uniqueKey: account.key, firstName: account.firstName, lastName: account.lastName,
            mapString: mapString, mediaURL: mediaURL, latitude: latitude, longitude: longitude)
        let overwrite = params.overwrite ?? false
        let (pin, created) = try await pinWriter.run {
            try await self.upstream("postPin", session: session) {
                let existing = try await self.api.studentLocations(
                    StudentLocationQuery(limit: 10, order: "-updatedAt", uniqueKey: account.key)
                ).results.first
                if let existing {
                    guard overwrite else {
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
        await state.recordPin(pin, for: session)
        logger.info(created ? "pin created" : "pin moved", metadata: ["objectId": "\(pin.objectId)"])
        try? await refresh(checkingSession: false)
        return PostPinResult(pin: pin, created: created)
    }
}
