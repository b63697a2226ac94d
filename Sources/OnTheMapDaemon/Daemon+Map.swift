import OnTheMapGeocoder
import OnTheMapMap
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

extension Daemon {
    /// Draws the cached students on the world map, on `Daemon.clientWork` (a large map takes milliseconds),
    /// and lists the pins in view written from the cache's encoded pins (`PinListAnswer`). A full
    /// cache is said (`limitedTo`): the server may have more students than the map shows.
    func map(_ params: MapParams, for clientIsThere: @escaping ClientWork.ClientIsThere = { true }) async throws -> RPCResult {
        _ = try await requireLogin()
        let (view, near) = try await viewRequest(params)
        let width = params.width ?? MapParams.defaultSize.width
        let height = params.height ?? MapParams.defaultSize.height
        let charset: MapCharset = params.charset == .ascii ? .ascii : .braille
        let labels = params.labels ?? true
        let snapshot = state.current
        let students = snapshot.students
        let limitedTo = snapshot.cacheIsFull(cacheSize: await live.cacheSize) ? students.count : nil
        return try await Self.clientWork.perform(for: clientIsThere) {
            let entries = students.entries
            let picture = MapRenderer.render(
                width: width, height: height, request: view, charset: charset,
                pins: entries.map { MapPoint(latitude: $0.location.latitude, longitude: $0.location.longitude, mine: $0.mine) },
                labels: labels)
            let bounds = picture.view.bounds
            let result = MapResult(
                rows: picture.rows, styles: picture.styles, pins: [], outside: picture.outside,
                view: MapResult.View(
                    west: bounds.west, south: bounds.south, east: bounds.east, north: bounds.north, zoom: picture.view.zoom,
                    maxZoom: MapView.maximumZoom(width: width), place: picture.placeName),
                near: near?.label, limitedTo: limitedTo)
            let pins = try picture.placements.map { placement in
                let entry = entries[placement.index]
                let pinJSON = try entry.pinJSON ?? WireCoding.encode(entry.pin)
                return PinListAnswer.pin(pinJSON, adding: PinListAnswer.members(of: placement.cell))
            }
            return .encoded(try PinListAnswer.bytes(result, key: "pins", pins: pins))
        }
    }

    /// The view `map`'s params ask for, and the place a `near` name was found to be; a place is geocoded
    /// as `students --near` geocodes it.
    private func viewRequest(_ params: MapParams) async throws -> (MapViewRequest, GeocodeResult?) {
        let radiusKm = params.radiusKm ?? MapParams.defaultRadiusKm
        switch (params.fit, params.center, params.near) {
        case (.pins?, _, _):
            return (.pins, nil)
        case (_, let center?, _):
            return (.center(latitude: center.latitude, longitude: center.longitude, zoom: params.zoom ?? 1), nil)
        case (_, _, .point(let point)?):
            return (.near(latitude: point.latitude, longitude: point.longitude, radiusKm: radiusKm), nil)
        case (_, _, .place(let text)?):
            guard let place = try await geocode(text, limit: 1).first else {
                throw RPCError.application(RPCError.placeNotFoundCode, "No place matches \"\(text)\".", retryable: false)
            }
            // A continent or an ocean is shown whole unless a radius is asked for.
            let radius = params.radiusKm ?? place.extentKm ?? radiusKm
            return (.near(latitude: place.latitude, longitude: place.longitude, radiusKm: radius), place)
        default:
            return (.world, nil)
        }
    }

    /// Every cached student in an HTML page or an SVG image.
    func exportMap(_ params: ExportMapParams, for clientIsThere: @escaping ClientWork.ClientIsThere = { true }) async throws -> ExportMapResult {
        let (_, account) = try await requireLogin()
        let students = state.current.students
        let document = try await Self.clientWork.perform(for: clientIsThere) {
            let pins = students.entries.map(\.pin)
            switch params.format {
            case .svg: return MapDocument.svg(pins: pins)
            case .html: return MapDocument.html(pins: pins, title: "On The Map: \(pins.count) students, for \(account.fullName)")
            }
        }
        return ExportMapResult(format: params.format, students: students.count, document: document)
    }
}
