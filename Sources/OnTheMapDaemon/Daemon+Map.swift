import Dispatch
import OnTheMapGeocoder
import OnTheMapMap
import OnTheMapModels
import OnTheMapRPC

extension Daemon {
    /// Draws the cached students on the world map. The drawing runs on a thread of its own, off the
    /// actors and off Swift's cooperative pool, so a large map never holds up other clients.
    func map(_ request: MapRequest) async throws -> MapPicture {
        let (_, account) = try await requireLogin()
        let view: MapViewRequest
        switch request.place {
        case .view(let resolved):
            view = resolved
        case .place(let text, let radiusKm):
            guard text.utf8.count <= PlaceQuery.maximumBytes else {
                throw RPCError.invalidParams(field: "near", "is too long (at most \(PlaceQuery.maximumBytes) bytes)")
            }
            // The same answer as `geocode`, which `students --near` goes through.
            guard let place = try await geocoder.geocode(text, limit: 1).first else {
                throw RPCError.application(RPCError.placeNotFoundCode, "No place matches \"\(text)\".", retryable: false)
            }
            view = .near(latitude: place.latitude, longitude: place.longitude, radiusKm: radiusKm)
        }
        let entries = await cache.entries
        return await Self.drawingQueue.perform {
            MapRenderer.render(
                width: request.width, height: request.height, request: view, charset: request.charset,
                pins: Self.pins(entries, accountKey: account.key))
        }
    }

    /// Every cached student in an HTML page or an SVG image, and how many.
    func exportMap(_ kind: ExportMapParams.Format) async throws -> (String, Int) {
        let (_, account) = try await requireLogin()
        let entries = await cache.entries
        let name = [account.firstName, account.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        let document = await Self.drawingQueue.perform {
            let pins = Self.pins(entries, accountKey: account.key)
            switch kind {
            case .svg: return MapDocument.svg(pins: pins)
            case .html: return MapDocument.html(pins: pins, title: "On The Map: \(pins.count) students, for \(name)")
            }
        }
        return (document, entries.count)
    }

    private static func pins(_ entries: [StudentCache.Entry], accountKey: String) -> [MapPin] {
        entries.map { entry in
            let location = entry.location
            return MapPin(
                objectId: location.objectId, firstName: location.firstName, lastName: location.lastName,
                mapString: location.mapString, mediaURL: location.mediaURL, latitude: location.latitude,
                longitude: location.longitude, mine: location.uniqueKey == accountKey)
        }
    }

    /// Where maps are drawn: off the event loops, which run the actors and every connection
    /// (`EventLoopConcurrency`; see `DispatchQueue.perform` for why a serial queue).
    private static let drawingQueue = DispatchQueue(label: "onthemap.map-drawing")
}

extension MapResult {
    /// The map module's picture, as `map` sends it.
    init(_ picture: MapPicture) {
        let bounds = picture.view.bounds
        self.init(
            rows: picture.rows, styles: picture.styles,
            pins: picture.pins.map { placed in
                let pin = placed.pin
                return Pin(
                    n: placed.n, row: placed.row, col: placed.col, objectId: pin.objectId, firstName: pin.firstName,
                    lastName: pin.lastName, mapString: pin.mapString, mediaURL: pin.mediaURL, latitude: pin.latitude,
                    longitude: pin.longitude, mine: pin.mine)
            },
            view: View(west: bounds.west, south: bounds.south, east: bounds.east, north: bounds.north, zoom: picture.view.zoom))
    }
}
