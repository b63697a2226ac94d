import Foundation

/// One condition on a pin's column, as a Parse `where` or a Udacity `uniqueKey` parameter asks.
public struct LocationFilter: Hashable, Sendable {
    /// How the column compares with the values.
    public enum Comparison: String, Hashable, Sendable {
        case equal = "=", notEqual = "<>", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case oneOf, noneOf
        /// Every column is NOT NULL, so `$exists` is true or false for all pins alike.
        case exists, missing
        /// Text compared as text, whole or in part (Parse's `$regex` of literal text: `ParseRegex`);
        /// with `ignoringCase`, after `lower()` on both sides (ASCII only on SQLite).
        case textEqual, textPrefix, textSuffix, textContains
    }

    /// A value compared with a column: text, a number, or an instant.
    public enum Value: Hashable, Sendable {
        case text(String)
        case number(Double)
        case date(Date)
    }

    public var column: String
    public var comparison: Comparison
    public var values: [Value]
    /// For the text comparisons: compare lower-cased.
    public var ignoringCase: Bool

    public init(column: String, comparison: Comparison, values: [Value] = [], ignoringCase: Bool = false) {
        self.column = column
        self.comparison = comparison
        self.values = values
        self.ignoringCase = ignoringCase
    }

    /// The SQL condition, with `placeholder(n)` for the n-th bound value counted from `first`;
    /// returns the values to bind in order. Column names come from `LocationQuery.sortableColumns`.
    func sql(first: Int, placeholder: (Int) -> String) -> (condition: String, values: [Value]) {
        guard LocationQuery.sortableColumns.contains(column) else { return ("1 = 0", []) }
        switch comparison {
        case .exists: return ("1 = 1", [])
        case .missing: return ("1 = 0", [])
        case .oneOf, .noneOf:
            if values.isEmpty { return (comparison == .oneOf ? "1 = 0" : "1 = 1", []) }
            let marks = values.indices.map { placeholder(first + $0) }.joined(separator: ", ")
            return ("\(column) \(comparison == .oneOf ? "IN" : "NOT IN") (\(marks))", values)
        case .textEqual, .textPrefix, .textSuffix, .textContains:
            return textSQL(first: first, placeholder: placeholder)
        default:
            return ("\(column) \(comparison.rawValue) \(placeholder(first))", Array(values.prefix(1)))
        }
    }
}

extension LocationFilter {
    /// The text comparisons in SQL that SQLite and PostgreSQL both run alike (`substr`, `length`,
    /// `replace`, `lower`): plain string functions, no pattern language, so no pattern to abuse.
    private func textSQL(first: Int, placeholder: (Int) -> String) -> (condition: String, values: [Value]) {
        guard let value = values.first else { return ("1 = 0", []) }
        let field = ignoringCase ? "lower(\(column))" : column
        func bound(_ offset: Int) -> String {
            ignoringCase ? "lower(\(placeholder(first + offset)))" : placeholder(first + offset)
        }
        switch comparison {
        case .textEqual:
            return ("\(field) = \(bound(0))", [value])
        case .textPrefix:
            return ("substr(\(field), 1, length(\(bound(0)))) = \(bound(1))", [value, value])
        case .textSuffix:
            // The length check first: a negative start means "from the end" to SQLite, and not to PostgreSQL.
            return (
                "(length(\(field)) >= length(\(bound(0))) AND substr(\(field), length(\(field)) - length(\(bound(1))) + 1) = \(bound(2)))",
                [value, value, value]
            )
        default:
            if case .text(let text) = value, text.isEmpty { return ("1 = 1", []) }
            return ("length(replace(\(field), \(bound(0)), '')) < length(\(field))", [value])
        }
    }
}

extension LocationQuery {
    /// ` WHERE …` for the filters (empty without any), with its values in binding order.
    func whereClause(placeholder: (Int) -> String) -> (sql: String, values: [LocationFilter.Value]) {
        var conditions: [String] = []
        var values: [LocationFilter.Value] = []
        for filter in allFilters {
            let part = filter.sql(first: values.count + 1, placeholder: placeholder)
            conditions.append(part.condition)
            values += part.values
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), values)
    }

    /// The filters, with `uniqueKey` as one of them.
    var allFilters: [LocationFilter] {
        filters + (uniqueKey.map { [LocationFilter(column: "uniqueKey", comparison: .equal, values: [.text($0)])] } ?? [])
    }
}
