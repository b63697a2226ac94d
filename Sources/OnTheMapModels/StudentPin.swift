/// A student's pin as the daemon gives it out, in every answer that shows one (`students`, `map`,
/// `status.myPin`, `myPin`, `postPin`) and in an exported map: the student's location, whether it is
/// the user's own, and what the request added (its distance from a `near` point, its cell on a map).
///
/// On the wire, one flat object: the location's members with `mine` and, when present, `distanceKm`
/// and `n`/`row`/`col` beside them.
public struct StudentPin: Sendable, Hashable, Codable {
    public var student: StudentLocation
    /// The logged-in user's own pin.
    public var mine: Bool
    /// With `students {near}`: how far from that point, in kilometres, to a tenth (`StudentSelection`
    /// rounds it).
    public var distanceKm: Double?
    /// With `map`: where in the picture the pin is drawn.
    public var cell: MapCell?

    public init(student: StudentLocation, mine: Bool, distanceKm: Double? = nil, cell: MapCell? = nil) {
        self.student = student
        self.mine = mine
        self.distanceKm = distanceKm
        self.cell = cell
    }

    /// The pin of `student` for the account with `accountKey`.
    public init(_ student: StudentLocation, accountKey: String?) {
        self.init(student: student, mine: student.uniqueKey == accountKey)
    }

    private enum CodingKeys: String, CodingKey {
        case mine, distanceKm, n, row, col
    }

    public init(from decoder: any Decoder) throws {
        student = try StudentLocation(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mine = try container.decode(Bool.self, forKey: .mine)
        distanceKm = try container.decodeIfPresent(Double.self, forKey: .distanceKm)
        if let n = try container.decodeIfPresent(Int.self, forKey: .n) {
            cell = MapCell(
                n: n, row: try container.decode(Int.self, forKey: .row), col: try container.decode(Int.self, forKey: .col))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try student.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mine, forKey: .mine)
        try container.encodeIfPresent(distanceKm, forKey: .distanceKm)
        if let cell {
            try container.encode(cell.n, forKey: .n)
            try container.encode(cell.row, forKey: .row)
            try container.encode(cell.col, forKey: .col)
        }
    }
}

/// Where a pin is drawn on a map: its number (1-based, in reading order of the cells) and its cell
/// (0-based row and column).
public struct MapCell: Sendable, Hashable, Codable {
    public var n: Int
    public var row: Int
    public var col: Int

    public init(n: Int, row: Int, col: Int) {
        self.n = n
        self.row = row
        self.col = col
    }
}
