import Glibc
import OnTheMapModels

/// Reads a query against the gazetteer: finds every run of words that names a place, region or
/// country, then weighs each consistent reading (at most one of each, not overlapping, the place
/// inside the region inside the country) by how much of the query it explains, how many parts
/// agree, and how populous the place is.
struct GazetteerMatcher {
    let gazetteer: Gazetteer

    /// A run of words in one part that names something.
    struct Hit {
        var part: Int
        var words: Range<Int>
        var ref: EntityRef
        var isFuzzy: Bool
        /// Words in the run that count towards coverage (not house numbers or postcodes).
        var weight: Int
        /// Matched one of the entity's alternate names, not its own.
        var isAlias = false

        func overlaps(_ other: Hit) -> Bool {
            part == other.part && words.overlaps(other.words)
        }

        func sameSpan(_ other: Hit) -> Bool {
            part == other.part && words == other.words
        }
    }

    /// One way of reading the whole query.
    struct Reading {
        var place: Hit?
        var region: Hit?
        var country: Hit?
        /// A continent or an ocean: alone, or the continent of the rest ("Lyon, Europe").
        var area: Hit?
        var score: Double

        var breadth: Int { place != nil ? 0 : region != nil ? 1 : country != nil ? 2 : 3 }
        var mostSpecific: Hit? { place ?? region ?? country ?? area }
        var reportedScore: Double { (score * 1000).rounded() / 1000 }
    }

    /// Longest name, in words, looked up as one run ("Colonia Claudia Ara Agrippinensium" has 4).
    static let maximumWordsPerName = 6
    /// Namesakes kept per run, most populous first ("San José" names hundreds of places).
    static let maximumNamesakes = 64
    /// Below this share of the query explained, a reading is a guess, and guesses are not answers.
    static let minimumCoverage = 0.5
    /// How far below the best reading another may score and still be offered as an alternative. A
    /// query that names its region or country ("Paris, France", 0.86) is answered: Paris, Texas
    /// (0.41) and France itself (0.50) answer a question nobody asked, and `post` made people choose
    /// among them. Namesakes that score alike ("Paris" alone: France 0.76, Texas 0.71) are all offered.
    static let alternativeMargin = 0.1

    func search(_ text: String, limit: Int) -> [GeocodeResult] {
        guard let query = PlaceQuery.parse(text, folding: gazetteer.folding) else { return [] }
        let hits = findHits(in: query)
        guard !hits.isEmpty else { return [] }
        // Equal scores go to the broader reading: "Singapore" is the country before the city.
        // Scores are compared as reported, to three places.
        let readings = weigh(hits, in: query).sorted { ($0.reportedScore, $0.breadth) > ($1.reportedScore, $1.breadth) }
        var seen = Set<EntityRef>()
        // Two entries that read the same are one to a person choosing: GeoNames has a Lima region
        // and a Lima province, both "Lima, Lima, Peru (region)". The better-scored one is kept.
        var shown = Set<[String]>()
        var results: [GeocodeResult] = []
        let best = readings.first?.reportedScore ?? 0
        for reading in readings where reading.reportedScore >= best - Self.alternativeMargin {
            guard let result = describe(reading), let ref = reading.mostSpecific?.ref
            else { continue }
            guard seen.insert(ref).inserted,
                shown.insert([result.name, result.admin1, result.countryCode, result.precision]).inserted
            else { continue }
            results.append(result)
            if results.count == limit { break }
        }
        return results
    }

    // MARK: Finding names

    private func findHits(in query: PlaceQuery) -> [Hit] {
        var hits: [Hit] = []
        for (partIndex, part) in query.parts.enumerated() {
            // Words a big place, a region or a country explains; the rest may be misspelt.
            var explained = Array(repeating: false, count: part.words.count)
            for start in part.words.indices where !part.ignorable[start] {
                var hasher = NameIndex.Hasher()
                for end in (start + 1)...min(start + Self.maximumWordsPerName, part.words.count) {
                    if part.ignorable[end - 1] { break }
                    hasher.combine(word: part.words[end - 1])
                    let found = gazetteer.names.lookup(hash: hasher.value)
                    guard !found.isEmpty else { continue }
                    var refs = found.map(\.ref)
                    let aliases = Set(found.filter(\.isAlias).map(\.ref))
                    // Two- and three-letter codes ("CA", "NSW", "DEU") only count at the end of a
                    // part, where people write them: "in Berlin" is not India, "OK" alone is Oklahoma.
                    if end - start == 1, isCode(part.words[start]), end != part.words.count { continue }
                    // One letter ("ツ" in a shrug) names a place only by accident.
                    if end - start == 1, part.words[start].count(where: { $0 & 0xC0 != 0x80 }) < 2 { continue }
                    refs = mostProminent(refs)
                    for ref in refs {
                        hits.append(
                            Hit(part: partIndex, words: start..<end, ref: ref, isFuzzy: false, weight: end - start,
                                isAlias: aliases.contains(ref)))
                    }
                    // "Melbourn" is a village in England, but in "Melbourn, Australia" it is a misspelling.
                    if refs.contains(where: {
                        $0.kind != .place || gazetteer.places[$0.index].population >= Gazetteer.fuzzyMinimumPopulation
                    }) {
                        for index in start..<end { explained[index] = true }
                    }
                }
            }
            guard !part.isAddress else { continue }
            hits += fuzzyHits(part: part, index: partIndex, explained: explained)
        }
        return withoutNestedNames(hits)
    }

    /// Drops the names found inside a longer name the query spells out: "New York" is the city (or the
    /// state), never a York it contains. Without this, a reading that left "New" unexplained still
    /// explained half the query, enough to be listed: Warner Robins, Georgia (GeoNames lists "York"
    /// among its alternate names) came up among New York's matches.
    private func withoutNestedNames(_ hits: [Hit]) -> [Hit] {
        let names = hits.filter { !$0.isFuzzy }
        return hits.filter { hit in
            !names.contains { name in
                name.part == hit.part && name.words != hit.words && name.words.lowerBound <= hit.words.lowerBound
                    && hit.words.upperBound <= name.words.upperBound
            }
        }
    }

    /// Misspellings: each run of words nothing big explained, tried as one name.
    private func fuzzyHits(part: PlaceQuery.Part, index partIndex: Int, explained covered: [Bool]) -> [Hit] {
        var hits: [Hit] = []
        var start = 0
        while start < part.words.count {
            guard !covered[start], !part.ignorable[start] else {
                start += 1
                continue
            }
            var end = start
            while end < part.words.count, !covered[end], !part.ignorable[end] { end += 1 }
            let key = Array(part.words[start..<end].joined(separator: [0x20]))
            if let (refs, _) = gazetteer.fuzzy.nearest(key) {
                for ref in mostProminent(refs) {
                    hits.append(Hit(part: partIndex, words: start..<end, ref: ref, isFuzzy: true, weight: end - start))
                }
            }
            start = end
        }
        return hits
    }

    private func isCode(_ word: [UInt8]) -> Bool {
        word.count <= 3 && word.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
    }

    private func mostProminent(_ refs: [EntityRef]) -> [EntityRef] {
        guard refs.count > Self.maximumNamesakes else { return refs }
        return Array(refs.sorted { population(of: $0) > population(of: $1) }.prefix(Self.maximumNamesakes))
    }

    // MARK: Weighing readings

    private func weigh(_ hits: [Hit], in query: PlaceQuery) -> [Reading] {
        let places = hits.filter { $0.ref.kind == .place }
        let regions = hits.filter { $0.ref.kind == .region }
        let countries = hits.filter { $0.ref.kind == .country }
        let areas = hits.filter { $0.ref.kind == .area }
        var readings: [Reading] = []
        for area in areas {
            if let score = score(place: nil, region: nil, country: nil, area: area, query: query) {
                readings.append(Reading(place: nil, region: nil, country: nil, area: area, score: score))
            }
        }
        for country in [nil] + countries.map(Optional.some) {
            for region in [nil] + regions.map(Optional.some) {
                if let region, let country {
                    guard !region.overlaps(country), regionCountry(region.ref) == country.ref.index else { continue }
                }
                for place in [nil] + places.map(Optional.some) {
                    guard place != nil || region != nil || country != nil else { continue }
                    if let place {
                        let record = gazetteer.places[place.ref.index]
                        if let region, region.overlaps(place) || Int(record.region) != region.ref.index { continue }
                        if let country, country.overlaps(place) || Int(record.country) != country.ref.index { continue }
                    } else if let region, places.contains(where: { isEponymousCity($0, of: region) }) {
                        // "São Paulo" alone means the city, not the state around it.
                        continue
                    }
                    if let score = score(place: place, region: region, country: country, area: nil, query: query) {
                        readings.append(Reading(place: place, region: region, country: country, score: score))
                    }
                    // "Lyon, Europe": a continent qualifies what lies on it.
                    let countryIndex = country?.ref.index ?? region.map { regionCountry($0.ref) }
                        ?? place.map { Int(gazetteer.places[$0.ref.index].country) }
                    for area in areas {
                        let chosen = [place, region, country].compactMap { $0 }
                        guard let countryIndex, gazetteer.areas[area.ref.index].countries.contains(UInt16(countryIndex)),
                            !chosen.contains(where: { $0.overlaps(area) }),
                            let score = score(place: place, region: region, country: country, area: area, query: query)
                        else { continue }
                        readings.append(Reading(place: place, region: region, country: country, area: area, score: score))
                    }
                }
            }
        }
        return readings
    }

    private func isEponymousCity(_ place: Hit, of region: Hit) -> Bool {
        place.sameSpan(region) && Int(gazetteer.places[place.ref.index].region) == region.ref.index
    }

    private func score(place: Hit?, region: Hit?, country: Hit?, area: Hit?, query: PlaceQuery) -> Double? {
        let chosen = [place, region, country, area].compactMap { $0 }
        let covered = chosen.reduce(0) { $0 + $1.weight }
        var considered = 0
        for (index, part) in query.parts.enumerated() {
            let words = part.ignorable.filter { !$0 }.count
            considered += part.isAddress ? chosen.filter { $0.part == index }.reduce(0) { $0 + $1.weight } : words
        }
        guard considered > 0 else { return nil }
        let coverage = Double(covered) / Double(considered)
        guard coverage >= Self.minimumCoverage else { return nil }
        let mostSpecificHit = (place ?? region ?? country ?? area)!
        let mostSpecific = mostSpecificHit.ref
        // A place found by one of its alternate names ranks as if a tenth the size: "Cancun" is
        // Cancún's own name and only a transliteration of Changchun's, five times bigger.
        let aliasDiscount = mostSpecificHit.isAlias && mostSpecific.kind == .place ? 0.1 : 1
        let prominence = min(1, log10(max(population(of: mostSpecific, forRanking: true) * aliasDiscount, 1)) / 8)
        let fuzzyPenalty = 0.15 * Double(chosen.filter(\.isFuzzy).count)
        return max(0, min(1, 0.6 * coverage + 0.1 * Double(chosen.count - 1) + 0.2 * prominence - fuzzyPenalty))
    }

    private func regionCountry(_ ref: EntityRef) -> Int {
        Int(gazetteer.regions[ref.index].country)
    }

    /// Population, with regions discounted when ranking: a state is not "bigger" than its namesake city.
    /// A place known abroad (named in many languages) ranks up to half again its size: Orléans in
    /// France (116,000, 25 names) before Orléans in Ottawa (126,000, none); but never above its own
    /// country, so "Singapore" stays the country.
    private func population(of ref: EntityRef, forRanking: Bool = false) -> Double {
        switch ref.kind {
        case .place:
            let place = gazetteer.places[ref.index]
            let population = Double(place.population)
            guard forRanking else { return population }
            let knownAbroad = 1 + min(Double(place.alternateNames), 20) / 40
            let country = Double(gazetteer.countries[Int(place.country)].population)
            return min(population * knownAbroad, max(population, country))
        case .region: return Double(gazetteer.regions[ref.index].population) * (forRanking ? 0.3 : 1)
        case .country: return Double(gazetteer.countries[ref.index].population)
        // An ocean has no people; it ranks as a large country would, above the towns named after it
        // ("Pacific", Missouri).
        case .area: return Double(max(gazetteer.areas[ref.index].population, 100_000_000))
        }
    }

    // MARK: Results

    /// The file holds coordinates to four decimals (11 m); `Float` keeps them to about a metre, so
    /// rounding back gives the file's numbers, not 50.93330001831055.
    static func degrees(_ value: Float) -> Double {
        (Double(value) * 10_000).rounded() / 10_000
    }

    private func describe(_ reading: Reading) -> GeocodeResult? {
        if let place = reading.place {
            let record = gazetteer.places[place.ref.index]
            let country = gazetteer.countries[Int(record.country)]
            let region = record.region == GazetteerPlace.noRegion ? "" : gazetteer.regions[Int(record.region)].name
            return GeocodeResult(
                name: gazetteer.name(of: record), admin1: region, country: country.name, countryCode: country.code,
                latitude: Self.degrees(record.latitude), longitude: Self.degrees(record.longitude), precision: "locality",
                score: reading.reportedScore)
        }
        if let region = reading.region {
            let record = gazetteer.regions[region.ref.index]
            let country = gazetteer.countries[Int(record.country)]
            return GeocodeResult(
                name: record.name, admin1: record.name, country: country.name, countryCode: country.code,
                latitude: Self.degrees(record.latitude), longitude: Self.degrees(record.longitude), precision: "region",
                score: reading.reportedScore)
        }
        if let country = reading.country {
            let record = gazetteer.countries[country.ref.index]
            return GeocodeResult(
                name: record.name, admin1: "", country: record.name, countryCode: record.code,
                latitude: Self.degrees(record.latitude), longitude: Self.degrees(record.longitude), precision: "country",
                score: reading.reportedScore)
        }
        if let area = reading.area {
            let record = gazetteer.areas[area.ref.index]
            return GeocodeResult(
                name: record.name, admin1: "", country: "", countryCode: "", latitude: Self.degrees(record.latitude),
                longitude: Self.degrees(record.longitude), precision: record.kind, score: reading.reportedScore,
                extentKm: record.extentKm)
        }
        return nil
    }
}
