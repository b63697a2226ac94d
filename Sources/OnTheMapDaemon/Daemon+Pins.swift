import FoundationEssentials
import Logging
import OnTheMapAPI
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

extension Daemon {
    /// The account's newest pin upstream, or none. When the upstream cannot be reached, the pin as
    /// the daemon last saw it (`cached`), as `status` shows it.
    func myPin() async throws -> MyPinResult {
        let (session, account) = try await requireLogin()
        do {
            let pin = try await upstream("myPin", session: session) { try await self.newestPin(of: account) }?.withWebLinkOnly
            await state.recordPin(pin, for: session)
            return MyPinResult(pin: pin.map { StudentPin(student: $0, mine: true) })
        } catch let error as APIError where error.kind == .unreachable || error.isRetryable {
            logger.notice("myPin: upstream not reached; answering the pin last seen", metadata: ["error": "\(error.message)"])
            return MyPinResult(pin: state.current.myPin.map { StudentPin(student: $0, mine: true) }, cached: true)
        }
    }

    /// Posts or overwrites the user's pin; one at a time, so one user never gets two pins. Without
    /// coordinates, the place is geocoded and stored under its label ("Springfield, Illinois, United
    /// States"), not as typed. Two upstream requests: the account's pin, then the write. The pin the
    /// server confirmed goes into the cached list at once; the next refresh brings the rest.
    func postPin(_ params: PostPinParams) async throws -> PostPinResult {
        let (session, account) = try await requireLogin()
        if let problem = Self.unpostableName(account) {
            throw RPCError.application(RPCError.upstreamErrorCode, problem, retryable: false)
        }
        var mapString = params.mapString.trimmingWhitespace()
        let mediaURL = params.mediaURL.trimmingWhitespace()
        if let problem = WebLink.problem(mediaURL) {
            // The reason alone in `data`, for an editor that asks for the link again with it.
            let reason = "The link is not a web link (\(problem))"
            throw RPCError.application(
                RPCError.invalidURLCode, reason + ": give an http:// or https:// address, like https://example.com/me.",
                retryable: false, extra: [("mediaURL", .string(mediaURL)), ("reason", .string(reason))])
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
            mapString = best.label
        }
        let draft = StudentLocationDraft(
            uniqueKey: account.key, firstName: account.firstName, lastName: account.lastName,
            mapString: mapString, mediaURL: mediaURL, latitude: latitude, longitude: longitude)
        let overwrite = params.overwrite ?? false
        let (pin, created) = try await pinWriter.run {
            try await self.upstream("postPin", session: session) {
                if let existing = try await self.newestPin(of: account) {
                    guard overwrite else {
                        throw RPCError.application(
                            RPCError.pinExistsCode,
                            "You already have a pin at \"\(existing.mapString)\"; say so to move it (`overwrite`).",
                            retryable: false,
                            extra: [("pin", try WireCoding.decode(WireJSON.self, from: WireCoding.encode(StudentPin(student: existing, mine: true))))])
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
        await state.recordPostedPin(pin, capacity: await live.cacheSize, for: session)
        logger.info(created ? "pin created" : "pin moved", metadata: ["objectId": "\(pin.objectId)"])
        return PostPinResult(pin: StudentPin(student: pin, mine: true), created: created)
    }

    /// Why the server would refuse a pin under the account's name (`ShownText`, the rule it applies),
    /// said to someone who cannot change that name here; nil when it would not. Asked before the place
    /// is geocoded, so nothing is looked up for a pin that cannot be stored.
    static func unpostableName(_ account: AccountInfo) -> String? {
        for (which, name) in [("first", account.firstName), ("last", account.lastName)] {
            if name.trimmingWhitespace().isEmpty {
                return "Your account has no \(which) name, and the server stores no pin without one: ask whoever runs the server to add it."
            }
            if let reason = ShownText.reason(in: name, kind: .name) {
                return "Your account's \(which) name \(reason), and the server stores no pin under it: ask whoever runs the server to correct it."
            }
        }
        return nil
    }

    /// The account's newest pin upstream, or nil: one request.
    private func newestPin(of account: AccountInfo) async throws -> StudentLocation? {
        try await api.studentLocations(StudentLocationQuery(limit: 1, order: "-updatedAt", uniqueKey: account.key)).results.first
    }
}
