import Foundation
import Hummingbird
import OnTheMapModels

/// The query parameters of a Parse list request: `where`, `order`, `limit`, `skip`, `count`, `keys`.
struct ParseQuery {
    static let textColumns: Set<String> = ["objectId", "uniqueKey", "firstName", "lastName", "mapString", "mediaURL"]
    static let numberColumns: Set<String> = ["latitude", "longitude"]
    static let dateColumns: Set<String> = ["createdAt", "updatedAt"]

    /// The bounds of a query, documented in docs/API.md: beyond them a request is refused (400, code
    /// 102) before it reaches the database, where it used to fail as a 500.
    static let maxKeys = 20
    static let maxWhereBytes = 8192
    static let maxConditions = 20
    static let maxValuesPerCondition = 100

    var query = LocationQuery()
    var wantsCount = false
    /// The keys to return (with objectId, createdAt and updatedAt always); nil for all.
    var keys: Set<String>?

    init(_ parameters: [String: String]) throws(ParseFailure) {
        if let text = parameters["limit"] {
            guard let limit = WholeNumberRule.read(text, in: LocationQuery.limitRange) else {
                throw .invalidQuery("limit " + WholeNumberRule.requirement(LocationQuery.limitRange, given: WholeNumberRule.shown(text)))
            }
            query.limit = limit
        }
        if let text = parameters["skip"] {
            guard let skip = WholeNumberRule.read(text, in: LocationQuery.skipRange) else {
                throw .invalidQuery("skip " + WholeNumberRule.requirement(LocationQuery.skipRange, given: WholeNumberRule.shown(text)))
            }
            query.skip = skip
        }
        if let text = parameters["order"], !text.isEmpty {
            do {
                query.order = try LocationQuery.order(text)
            } catch {
                throw .invalidQuery(error.message)
            }
        }
        wantsCount = parameters["count"] == "1"
        if let text = parameters["keys"], !text.isEmpty {
            let names = text.split(separator: ",", omittingEmptySubsequences: false)
            guard names.count <= Self.maxKeys else {
                throw .invalidQuery("keys takes at most \(Self.maxKeys) names; it has \(names.count)")
            }
            keys = Set(names.map { $0.trimmingWhitespace() })
        }
        if let text = parameters["where"], !text.isEmpty {
            guard text.utf8.count <= Self.maxWhereBytes else {
                throw .invalidQuery("where is limited to \(Self.maxWhereBytes) bytes; it has \(text.utf8.count)")
            }
            query.filters = try Self.filters(text)
        }
    }

    /// `where` as filters: equality, `$in`, `$nin`, `$ne`, `$lt…$gte`, `$exists`, `$regex` (literal
    /// text, anchored or not: `ParseRegex`) with its `$options`.
    static func filters(_ text: String) throws(ParseFailure) -> [LocationFilter] {
        guard let json = try? WireCoding.decode(WireJSON.self, from: text.utf8), case .object(let members) = json else {
            throw .invalidJSON("where must be a JSON object")
        }
        var filters: [LocationFilter] = []
        for (column, condition) in members {
            guard LocationQuery.sortableColumns.contains(column) else { throw .invalidQuery("no key named \(column)") }
            if case .object(let operators) = condition, operators.contains(where: { $0.0.hasPrefix("$") }) {
                let options = operators.first { $0.0 == "$options" }?.1
                if options != nil, !operators.contains(where: { $0.0 == "$regex" }) {
                    throw .invalidQuery("$options goes with $regex")
                }
                for (name, operand) in operators where name != "$options" {
                    if name == "$regex" {
                        filters.append(try regex(column, operand, options: options))
                    } else {
                        filters.append(try filter(column, name, operand))
                    }
                }
            } else {
                filters.append(LocationFilter(column: column, comparison: .equal, values: [try value(condition, for: column)]))
            }
            guard filters.count <= maxConditions else {
                throw .invalidQuery("where holds more than \(maxConditions) conditions")
            }
        }
        return filters
    }

    private static func filter(_ column: String, _ name: String, _ operand: WireJSON) throws(ParseFailure)
        -> LocationFilter
    {
        let comparisons: [String: LocationFilter.Comparison] = [
            "$ne": .notEqual, "$lt": .less, "$lte": .lessOrEqual, "$gt": .greater, "$gte": .greaterOrEqual,
        ]
        switch name {
        case "$in", "$nin":
            guard case .array(let elements) = operand else { throw .invalidQuery("\(name) takes an array") }
            guard elements.count <= maxValuesPerCondition else {
                throw .invalidQuery("\(name) takes at most \(maxValuesPerCondition) values; it has \(elements.count)")
            }
            var values: [LocationFilter.Value] = []
            for element in elements { values.append(try value(element, for: column)) }
            return LocationFilter(column: column, comparison: name == "$in" ? .oneOf : .noneOf, values: values)
        case "$exists":
            guard let flag = operand.boolValue else { throw .invalidQuery("$exists takes true or false") }
            return LocationFilter(column: column, comparison: flag ? .exists : .missing)
        default:
            guard let comparison = comparisons[name] else { throw .invalidQuery("unknown operator \(name)") }
            return LocationFilter(column: column, comparison: comparison, values: [try value(operand, for: column)])
        }
    }

    /// `{"$regex": pattern, "$options": "i"}` on a text column.
    private static func regex(_ column: String, _ pattern: WireJSON, options: WireJSON?) throws(ParseFailure)
        -> LocationFilter
    {
        guard textColumns.contains(column) else { throw .invalidQuery("$regex applies to text, and \(column) is not text") }
        guard let text = pattern.stringValue else { throw .invalidQuery("$regex takes a string, not \(pattern.typeDescription)") }
        if let options, options.stringValue == nil { throw .invalidQuery("$options takes a string such as \"i\"") }
        return try ParseRegex(text, options: options?.stringValue).filter(column: column)
    }

    /// A JSON value as the column's type: text, a number, or `{"__type":"Date","iso":…}`.
    private static func value(_ json: WireJSON, for column: String) throws(ParseFailure) -> LocationFilter.Value {
        if textColumns.contains(column), let text = json.stringValue { return .text(text) }
        if numberColumns.contains(column), let number = json.doubleValue { return .number(number) }
        if dateColumns.contains(column), json["__type"]?.stringValue == "Date",
            let iso = json["iso"]?.stringValue, let date = WireTimestamp.parse(iso)
        {
            return .date(date)
        }
        let expected = textColumns.contains(column)
            ? "a string" : numberColumns.contains(column) ? "a number" : #"{"__type":"Date","iso":"…"}"#
        throw .invalidQuery("\(column) compares with \(expected), not \(json.typeDescription)")
    }
}
