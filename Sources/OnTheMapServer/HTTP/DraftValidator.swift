import Foundation
import OnTheMapModels

/// Checks a `POST`/`PUT /StudentLocation` body before anything is stored. Values are stored as sent.
enum DraftValidator {
    static let maxKeyLength = 64
    static let maxMapStringLength = 200
    static let maxURLLength = 2048

    static func validate(_ draft: StudentLocationDraft) throws {
        try text(draft.uniqueKey, field: "uniqueKey", maxLength: maxKeyLength, kind: .name)
        try name(draft.firstName, field: "firstName")
        try name(draft.lastName, field: "lastName")
        try text(draft.mapString, field: "mapString", maxLength: maxMapStringLength, kind: .place)
        try text(draft.mediaURL, field: "mediaURL", maxLength: maxURLLength, kind: .link)
        if let problem = WebLink.problem(draft.mediaURL.trimmingWhitespace()) {
            throw APIFailure.badRequest("The field mediaURL must be an http:// or https:// URL: \(problem).")
        }
        guard draft.latitude.isFinite, (-90...90).contains(draft.latitude) else {
            throw APIFailure.badRequest("The field latitude must be between -90 and 90.")
        }
        guard draft.longitude.isFinite, (-180...180).contains(draft.longitude) else {
            throw APIFailure.badRequest("The field longitude must be between -180 and 180.")
        }
    }

    private static func name(_ value: String, field: String) throws {
        if let problem = ShownText.problem(inName: value) {
            throw APIFailure.badRequest("The field \(field) \(problem).")
        }
    }

    /// The length in code points, as a name's (`ShownText.maxNameLength`).
    private static func text(_ value: String, field: String, maxLength: Int, kind: ShownText.Kind) throws {
        if value.trimmingWhitespace().isEmpty {
            throw APIFailure.badRequest("The field \(field) is required and must not be empty.")
        }
        guard value.unicodeScalars.count <= maxLength else {
            throw APIFailure.badRequest("The field \(field) is longer than \(maxLength) characters.")
        }
        if let problem = ShownText.problem(in: value, kind: kind) {
            throw APIFailure.badRequest("The field \(field) \(problem).")
        }
    }
}
