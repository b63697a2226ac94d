import AsyncHTTPClient
import FoundationEssentials
import Logging
import NIOCore
import NIOHTTP1
import OnTheMapGeocoder
import OnTheMapModels

/// Forward geocoding through a Nominatim server's search API (the public service or a self-hosted
/// one), under its usage policy: a User-Agent that names the application, at most one request per
/// second, and repeated queries answered from a cache.
public final class NominatimGeocoder: Geocoding, Sendable {
    let baseURL: String
    let userAgent: String
    let httpClient: HTTPClient
    let spacer: RequestSpacer
    let cache = GeocodeCache()
    let logger: Logger

    /// Answers larger than this are not Nominatim's and are refused.
    static let maxResponseBytes = 1 << 20
    static let requestTimeout: TimeAmount = .seconds(10)

    /// Creates a geocoder with its own connection pool; call `shutdown()` when done.
    public init(baseURL: String, minimumInterval: Duration = .seconds(1), logger: Logger) {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
        self.httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.userAgent = "onthemapd/\(Daemon.version) (OnTheMap for Linux)"
        self.spacer = RequestSpacer(interval: minimumInterval)
        self.logger = logger
    }

    public func shutdown() async {
        try? await httpClient.shutdown()
    }

    public func geocode(_ query: String, limit: Int) async throws -> [GeocodeResult] {
        let text = query.trimmingWhitespace()
        guard !text.isEmpty else { return [] }
        let key = "\(limit)\t\(text.lowercased())"
        if let cached = await cache.results(for: key) { return cached }
        let results = try await spacer.run { try await self.search(text, limit: limit) }
        await cache.store(results, for: key)
        return results
    }

    private func search(_ text: String, limit: Int) async throws -> [GeocodeResult] {
        var components = URLComponents()
        components.queryItems = [
            URLQueryItem(name: "q", value: text), URLQueryItem(name: "format", value: "jsonv2"),
            URLQueryItem(name: "addressdetails", value: "1"), URLQueryItem(name: "limit", value: String(limit)),
            URLQueryItem(name: "accept-language", value: "en"),
        ]
        var request = HTTPClientRequest(url: baseURL + "/search?" + (components.percentEncodedQuery ?? ""))
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Accept", value: "application/json")
        let status: UInt
        let body: ByteBuffer
        do {
            let response = try await httpClient.execute(request, timeout: Self.requestTimeout, logger: logger)
            status = response.status.code
            body = try await response.body.collect(upTo: Self.maxResponseBytes)
        } catch is NIOTooManyBytesError {
            throw GeocoderError(.malformed, "Nominatim at \(baseURL) sent more than \(Self.maxResponseBytes) bytes.")
        } catch {
            throw GeocoderError(.unreachable, "Cannot reach Nominatim at \(baseURL): \(error).")
        }
        logger.debug("nominatim search", metadata: ["status": "\(status)"])
        guard status == 200 else {
            throw GeocoderError(.failed, "Nominatim at \(baseURL) answered HTTP \(status).")
        }
        guard let json = try? WireCoding.decode(WireJSON.self, from: body.readableBytesView), case .array(let places) = json else {
            throw GeocoderError(
                .malformed, "Nominatim at \(baseURL) answered with something that is not its search format.")
        }
        return places.enumerated().compactMap { Self.result(from: $0.element, rank: $0.offset) }
    }

    /// One element of a `format=jsonv2&addressdetails=1` answer; nil if it has no usable coordinates.
    static func result(from place: WireJSON, rank: Int) -> GeocodeResult? {
        guard let latitude = place["lat"]?.stringValue.flatMap(Double.init),
            let longitude = place["lon"]?.stringValue.flatMap(Double.init),
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        let address = place["address"]
        let displayName = place["display_name"]?.stringValue ?? ""
        let name =
            place["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            ?? String(displayName.split(separator: ",").first ?? "")
        let placeRank = place["place_rank"]?.intValue ?? 30
        let precision = placeRank <= 4 ? "country" : placeRank <= 12 ? "region" : "locality"
        let importance = place["importance"]?.doubleValue ?? max(0, 1 - 0.1 * Double(rank))
        // Names as they may be shown (`DisplayText`): the label becomes a pin's place, which the
        // server refuses with a control character in it, and the user never typed one.
        return GeocodeResult(
            name: DisplayText.clean(name),
            admin1: DisplayText.clean(address?["state"]?.stringValue ?? address?["region"]?.stringValue ?? ""),
            country: DisplayText.clean(address?["country"]?.stringValue ?? ""),
            countryCode: (address?["country_code"]?.stringValue ?? "").uppercased(),
            latitude: latitude, longitude: longitude, precision: precision,
            score: min(1, max(0, importance)))
    }
}
