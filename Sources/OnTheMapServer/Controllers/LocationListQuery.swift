import Hummingbird
import OnTheMapModels

/// The parameters of `GET /StudentLocation`, validated.
struct LocationListQuery {
    static let defaultLimit = 100
    static let maxLimit = 1000

    var limit = defaultLimit
    var skip = 0
    var order: [SortTerm] = [SortTerm(column: "createdAt", descending: false)]
    var uniqueKey: String?

    init(_ parameters: Parameters) throws {
        if let text = parameters.get("limit") {
            guard let value = Int(text), (0...Self.maxLimit).contains(value) else {
                throw APIFailure.badRequest("limit must be a whole number from 0 to \(Self.maxLimit).")
            }
            limit = value
        }
        if let text = parameters.get("skip") {
            guard let value = Int(text), value >= 0, value <= Int(Int32.max) else {
                throw APIFailure.badRequest("skip must be a whole number, 0 or more.")
            }
            skip = value
        }
        if let text = parameters.get("order"), !text.isEmpty {
            do {
                order = try LocationQuery.order(text)
            } catch {
                throw APIFailure.badRequest(error.message.prefix(1).uppercased() + error.message.dropFirst() + ".")
            }
        }
        uniqueKey = parameters.get("uniqueKey")
    }

    /// The query for the storage.
    var storageQuery: LocationQuery {
        LocationQuery(limit: limit, skip: skip, order: order, uniqueKey: uniqueKey)
    }
}
