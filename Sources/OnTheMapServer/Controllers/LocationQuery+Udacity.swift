import Hummingbird
import OnTheMapModels

extension LocationQuery {
    /// The parameters of `GET /StudentLocation`, validated; oldest first unless `order` says otherwise.
    init(udacity parameters: Parameters) throws {
        self.init(order: [SortTerm(column: "createdAt", descending: false)], uniqueKey: parameters.get("uniqueKey"))
        if let text = parameters.get("limit") {
            guard let value = WholeNumberRule.read(text, in: Self.limitRange) else {
                throw APIFailure.badRequest("limit " + WholeNumberRule.requirement(Self.limitRange, given: WholeNumberRule.shown(text)) + ".")
            }
            limit = value
        }
        if let text = parameters.get("skip") {
            guard let value = WholeNumberRule.read(text, in: Self.skipRange) else {
                throw APIFailure.badRequest("skip " + WholeNumberRule.requirement(Self.skipRange, given: WholeNumberRule.shown(text)) + ".")
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
