import OnTheMapModels

/// The hand-made query set (Benchmarks/geocoder/queries.tsv) and how an answer is judged against
/// it; shared by the accuracy test and the benchmark so both apply the same rules.
public struct GeocoderQuerySet: Sendable {
    public enum Expectation: Sendable {
        /// Within `toleranceKilometres` of these coordinates, in this country.
        case locality(countryCode: String, latitude: Double, longitude: Double)
        /// A region of that name in this country.
        case region(countryCode: String, name: String)
        /// The country itself.
        case country(countryCode: String)
        /// No answer at all.
        case junk

        /// As the query set's second column names it.
        public var kind: String {
            switch self {
            case .locality: "locality"
            case .region: "region"
            case .country: "country"
            case .junk: "junk"
            }
        }
    }

    public struct Query: Sendable {
        public var text: String
        public var expectation: Expectation
    }

    public static let toleranceKilometres = 25.0

    public var queries: [Query]

    /// Parses the TSV: query, kind, country, latitude, longitude, region; `#` starts a comment line.
    public init(tsv: String) throws {
        queries = []
        for (number, line) in tsv.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.hasPrefix("#"), !line.isEmpty else { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 2 else { throw QuerySetError(line: number + 1) }
            func field(_ index: Int) -> String { index < fields.count ? fields[index] : "" }
            let expectation: Expectation
            switch fields[1] {
            case "locality":
                guard let latitude = Double(field(3)), let longitude = Double(field(4)) else {
                    throw QuerySetError(line: number + 1)
                }
                expectation = .locality(countryCode: field(2), latitude: latitude, longitude: longitude)
            case "region": expectation = .region(countryCode: field(2), name: field(5))
            case "country": expectation = .country(countryCode: field(2))
            case "junk": expectation = .junk
            default: throw QuerySetError(line: number + 1)
            }
            queries.append(Query(text: fields[0], expectation: expectation))
        }
    }

    /// Whether `best` (the first result, or nil for none) is a right answer.
    public static func isCorrect(_ best: GeocodeResult?, for expectation: Expectation) -> Bool {
        switch expectation {
        case .junk:
            return best == nil
        case .locality(let countryCode, let latitude, let longitude):
            guard let best else { return false }
            return best.countryCode == countryCode
                && Geo.distanceKm(best.latitude, best.longitude, latitude, longitude) <= toleranceKilometres
        case .region(let countryCode, let name):
            guard let best else { return false }
            return best.precision == "region" && best.countryCode == countryCode && best.admin1 == name
        case .country(let countryCode):
            return best?.precision == "country" && best?.countryCode == countryCode
        }
    }
}

public struct QuerySetError: Error, CustomStringConvertible {
    public var line: Int
    public var description: String { "query set line \(line) is malformed" }
}
