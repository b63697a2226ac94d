/// A byte range of the embedded text: names are read from there, never copied.
struct TextRange: Sendable {
    var offset: UInt32
    var length: UInt16
}

/// A country: `C` lines.
struct GazetteerCountry: Sendable {
    var code: String
    var name: String
    var population: Int
    var latitude: Float
    var longitude: Float
}

/// A first-level region (state, province, Land): `R` lines.
struct GazetteerRegion: Sendable {
    var name: String
    var country: UInt16
    var population: Int
    var latitude: Float
    var longitude: Float
}

/// A populated place: `P` lines. 24 bytes, 170,000 of them.
struct GazetteerPlace: Sendable {
    var name: TextRange
    var country: UInt16
    /// `GazetteerPlace.noRegion` when GeoNames gives none.
    var region: UInt16
    /// How many alternate names GeoNames lists, at most 255: how widely the place is known, beyond
    /// its size (in the struct's padding: the record stays 24 bytes).
    var alternateNames: UInt8
    var latitude: Float
    var longitude: Float
    var population: UInt32

    static let noRegion = UInt16.max
}

/// A continent or an ocean: `A` lines.
struct GazetteerArea: Sendable {
    var name: String
    /// `continent` or `ocean`, as results give `precision`.
    var kind: String
    var latitude: Float
    var longitude: Float
    /// How far it reaches from its point.
    var extentKm: Double
    var population: Int
    /// Indices of the countries on a continent (none for an ocean).
    var countries: Set<UInt16>
}

/// What a name in the index stands for: a place, a region, a country or a continent or ocean, by index.
struct EntityRef: Hashable, Sendable {
    enum Kind: UInt32, Sendable {
        case place = 0, region = 1, country = 2, area = 3
    }

    var kind: Kind
    var index: Int

    /// Packed in 20 bits: 2 for the kind, 18 for the index (places stay under 262,144).
    var packed: UInt64 { UInt64(kind.rawValue) << 18 | UInt64(index) }

    init(kind: Kind, index: Int) {
        self.kind = kind
        self.index = index
    }

    init(packed: UInt64) {
        self.kind = Kind(rawValue: UInt32(packed >> 18 & 0x3))!
        self.index = Int(packed & 0x3FFFF)
    }
}
