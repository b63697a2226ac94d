import Foundation
import GRDB
import OnTheMapModels

/// A row of `studentLocation`: one pin.
struct StudentLocationRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "studentLocation"

    var objectId: String
    var uniqueKey: String
    var firstName: String
    var lastName: String
    var mapString: String
    var mediaURL: String
    var latitude: Double
    var longitude: Double
    var createdAt: Date
    var updatedAt: Date

    init(objectId: String, draft: StudentLocationDraft, createdAt: Date, updatedAt: Date) {
        self.objectId = objectId
        uniqueKey = draft.uniqueKey
        firstName = draft.firstName
        lastName = draft.lastName
        mapString = draft.mapString
        mediaURL = draft.mediaURL
        latitude = draft.latitude
        longitude = draft.longitude
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    var wire: StudentLocation {
        StudentLocation(
            objectId: objectId, uniqueKey: uniqueKey, firstName: firstName, lastName: lastName,
            mapString: mapString, mediaURL: mediaURL, latitude: latitude, longitude: longitude,
            createdAt: createdAt, updatedAt: updatedAt)
    }
}
