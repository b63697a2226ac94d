import OnTheMapModels

/// `postPin {mapString, mediaURL, latitude?, longitude?, overwrite?}` → `{pin, created}`.
public struct PostPinParams: RPCRequestType, Equatable {
    public typealias Response = PostPinResult
    public static let method = "postPin"
    public static let summary = "Post the user's pin, geocoding mapString unless coordinates are given; -32006 if a pin exists and overwrite is not true."

    public static let mapString = RPCParam<String>.string("mapString", required: true, "the place as it should read on the map (a geocoded place's label, or the text typed)")
    public static let mediaURL = RPCParam<String>.string("mediaURL", required: true, "an http(s) link")
    public static let latitude = RPCParam<Double>.number("latitude", in: -90...90, "with longitude, skips geocoding")
    public static let longitude = RPCParam<Double>.number("longitude", in: -180...180, "with latitude, skips geocoding")
    public static let overwrite = RPCParam<Bool>.boolean("overwrite", "move an existing pin (default false)")
    public static let parameters = [mapString, mediaURL].map(\.parameter) + [latitude, longitude].map(\.parameter) + [overwrite.parameter]

    public var mapString: String
    public var mediaURL: String
    /// Both or neither: without them the daemon geocodes `mapString`.
    public var latitude: Double?
    public var longitude: Double?
    public var overwrite: Bool?

    public init(mapString: String, mediaURL: String, latitude: Double? = nil, longitude: Double? = nil, overwrite: Bool? = nil) {
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
        self.overwrite = overwrite
    }

    public init(reading params: RPCParams) throws(RPCError) {
        latitude = try params(Self.latitude)
        longitude = try params(Self.longitude)
        if (latitude == nil) != (longitude == nil) {
            throw .invalidParams(
                field: latitude == nil ? Self.latitude.name : Self.longitude.name, "is required when the other coordinate is given")
        }
        mapString = try params.required(Self.mapString)
        mediaURL = try params.required(Self.mediaURL)
        overwrite = try params(Self.overwrite)
    }

    public var params: WireJSON? {
        var writer = RPCParamsWriter()
        writer.add(Self.mapString, mapString)
        writer.add(Self.mediaURL, mediaURL)
        writer.add(Self.latitude, latitude)
        writer.add(Self.longitude, longitude)
        writer.add(Self.overwrite, overwrite)
        return writer.params
    }
}

/// `postPin`'s result: the pin as the server stored it, and whether it is new (false: an existing one
/// moved).
public struct PostPinResult: RPCResultType, Equatable {
    public var pin: StudentPin
    public var created: Bool

    public init(pin: StudentPin, created: Bool) {
        self.pin = pin
        self.created = created
    }
}
