import Hummingbird
import OnTheMapModels

extension LocationQuery {
    /// The parameters of `GET /StudentLocation`, validated; oldest first unless `order` says otherwise.
    init(udacity parameters: Parameters) throws {
        self.init(order: [SortTerm(column: "createdAt", descending: false)], uniqueKey: parameters.get("uniqueKey"))
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
                order = try Self.order(text)
            } catch {
                throw APIFailure.badRequest(error.message.prefix(1).uppercased() + error.message.dropFirst() + ".")
            }
        }
    }
}
