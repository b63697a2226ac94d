import Dispatch
import OnTheMapGeocoder
import OnTheMapMap
import OnTheMapModels
import OnTheMapRPC
import OnTheMapSupport

extension Daemon {
    /// Draws the cached students on the world map. The drawing runs on a thread of its own, off the
    /// event loops and off Swift's cooperative pool, so a large map never holds up other clients.
    func map(_ params: MapParams) async throws -> MapAnswer {
        let (_, account) = try await requireLogin()
        let (view, near) = try await viewRequest(params)
        let width = params.width ?? MapParams.defaultSize.width
        let height = params.height ?? MapParams.defaultSize.height
        let charset: MapCharset = params.charset == .ascii ? .ascii : .braille
        let labels = params.labels ?? true
        let students = await state.current.students
        let picture = await Self.drawingQueue.perform {
            MapRenderer.render(
                width: width, height: height, request: view, charset: charset,
                pins: MapAnswer.positions(of: students, accountKey: account.key), labels: labels)
        }
        return MapAnswer(
            picture: picture, students: students, accountKey: account.key, maxZoom: MapView.maximumZoom(width: width),
            near: near?.label)
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
            guard text.utf8.count <= PlaceQuery.maximumBytes else {
                throw RPCError.invalidParams(field: "near", "is too long (at most \(PlaceQuery.maximumBytes) bytes)")
            }
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
    func exportMap(_ params: ExportMapParams) async throws -> ExportMapResult {
        let (_, account) = try await requireLogin()
        let students = await state.current.students
        let name = [account.firstName, account.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        let document = await Self.drawingQueue.perform {
            let pins = students.entries.map { MapPin($0.location, accountKey: account.key) }
            switch params.format {
            case .svg: return MapDocument.svg(pins: pins)
            case .html: return MapDocument.html(pins: pins, title: "On The Map: \(pins.count) students, for \(name)")
            }
        }
        return ExportMapResult(format: params.format, students: students.count, document: document)
    }

    /// Where maps are drawn: off the event loops, which run the actors and every connection
    /// (see `DispatchQueue.perform` for why a serial queue).
    private static let drawingQueue = DispatchQueue(label: "onthemap.map-drawing")
}
