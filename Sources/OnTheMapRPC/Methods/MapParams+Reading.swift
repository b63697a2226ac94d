import OnTheMapModels

extension MapParams {
    /// Reads in the order that decides which of several mistakes is reported: sizes and charset, the
    /// views' types and ranges, then how they combine, then the values inside them.
    public init(reading params: RPCParams) throws(RPCError) {
        width = try params(Self.width)
        height = try params(Self.height)
        charset = try params(Self.charset)
        labels = try params(Self.labels)
        let fitName = try params.string(Self.fit.name)
        let centerObject = try params.object(Self.center.name, allowed: ["latitude", "longitude"])
        zoom = try params(Self.zoom)
        radiusKm = try params(Self.radiusKm)
        near = try params(Self.near)
        guard [fitName != nil, centerObject != nil, near != nil].filter({ $0 }).count <= 1 else {
            throw .invalidParams(field: Self.fit.name, "goes alone: give one of fit, center and near")
        }
        if zoom != nil, centerObject == nil { throw .invalidParams(field: Self.zoom.name, "needs center") }
        if radiusKm != nil, near == nil { throw .invalidParams(field: Self.radiusKm.name, "needs near") }
        fit = try params(Self.fit)
        center = try centerObject.map { object throws(RPCError) in try Self.point(object, field: Self.center.name) }
    }

    /// `near`: a place's name ("LAT,LON" counts as coordinates) or `{latitude, longitude}`.
    static func readNear(_ params: RPCParams) throws(RPCError) -> Near? {
        if let text = try? params.string("near") {
            guard text.utf8.count <= GeocodeParams.maximumQueryBytes else {
                throw .invalidParams(field: "near", "is too long (at most \(GeocodeParams.maximumQueryBytes) bytes)")
            }
            let coordinates: (latitude: Double, longitude: Double)?
            do {
                coordinates = try CoordinateText.parse(text)
            } catch {
                throw .invalidParams(field: "near", error.description)
            }
            if let coordinates { return .point(Point(latitude: coordinates.latitude, longitude: coordinates.longitude)) }
            guard !text.trimmingWhitespace().isEmpty else { throw .invalidParams(field: "near", "is empty") }
            return .place(text)
        }
        let object: RPCParams?
        do {
            object = try params.object("near", allowed: ["latitude", "longitude"])
        } catch {
            throw .invalidParams(field: "near", "must be a place or {latitude, longitude}")
        }
        return try object.map { object throws(RPCError) in .point(try point(object, field: "near")) }
    }

    static func point(_ object: RPCParams, field: String) throws(RPCError) -> Point {
        guard let latitude = try object.double("latitude", in: -90...90) else {
            throw .invalidParams(field: "\(field).latitude", "is required")
        }
        guard let longitude = try object.double("longitude", in: -180...180) else {
            throw .invalidParams(field: "\(field).longitude", "is required")
        }
        return Point(latitude: latitude, longitude: longitude)
    }

    static func point(json point: Point) -> WireJSON {
        .object([("latitude", .number(point.latitude)), ("longitude", .number(point.longitude))])
    }
}
