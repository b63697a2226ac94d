import OnTheMapModels
/// The world with every student's pin as one self-contained file: an SVG, or an HTML page around it
/// with popups, zoom and pan, and a search box. Nothing in either refers to anything outside the
/// file (no tiles, fonts or scripts), so both work offline.
public enum MapDocument {
    /// The part of the world shown first: from 84°N to 60°S (quanta).
    static let initialTop = Int(Mercator.y(latitude: 84) * Double(WorldData.quanta))
    static let initialBottom = Int(Mercator.y(latitude: -60) * Double(WorldData.quanta))

    /// A standalone SVG: hover a marker for its name and place, click it to open the link.
    public static func svg(pins: [StudentPin], world: WorldData = .embedded) -> String {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        text += svgElement(pins: pins, world: world)
        return text + "\n"
    }

    /// An HTML page: the SVG with a popup per marker listing the students there, wheel and drag zoom
    /// and pan, and a search box that filters students by name or place. The page's files are the
    /// server page's own (web/export.html, the style sheets and the map's modules), inlined.
    public static func html(pins: [StudentPin], title: String, world: WorldData = .embedded) -> String {
        let legend = pins.contains(where: \.mine) ? #"<span class="legend"><span class="you">●</span> you</span>"# : ""
        return WebFiles.fill(
            WebFiles.text("export.html"),
            [
                // The world's colours, the moving map's style, then the export page's own; the export
                // page's module with the map's modules it imports, as one inline module.
                "title": escape(title), "style": ["world.css", "map.css", "export.css"].map(WebFiles.text).joined(separator: "\n"),
                "script": WebFiles.inlinedModule("js/export.mjs"),
                "count": "\(CountText.grouped(pins.count)) \(pins.count == 1 ? "student" : "students")", "legend": legend,
                "world": worldSVG(world: world),
                // In a <script> element: "</" would end it.
                "names": MapLabels.embedded.webJSON().replacing("</", with: "<\\/"),
                "markers": spots(pins).map { marker($0.pins, at: $0.position, standalone: false) }.joined(),
            ])
    }

    /// The standalone SVG's one element: world and markers together, styled by its own `<style>`.
    private static func svgElement(pins: [StudentPin], world: WorldData) -> String {
        let width = WorldData.quanta
        let height = initialBottom - initialTop
        var text = #"<svg id="map" xmlns="http://www.w3.org/2000/svg" viewBox="0 \#(initialTop) \#(width) \#(height)""#
        text += #" width="1200" height="\#(1200 * height / width)">"#
        text += "<style>\(WebFiles.text("world.css"))</style>"
        text += worldLayers(world) + #"<g id="markers">"#
        for spot in spots(pins) {
            text += marker(spot.pins, at: spot.position, standalone: true)
        }
        return text + "</g></svg>"
    }

    /// A page's world: `<svg id="world">`, sea, land and borders, which the page's map (web/js/map-view.mjs)
    /// draws anew only when the view rests; its first viewBox is the band the map shows first. No
    /// `<style>`: the page's style sheet (web/world.css) colours it.
    public static func worldSVG(world: WorldData = .embedded) -> String {
        let height = initialBottom - initialTop
        let text = #"<svg id="world" xmlns="http://www.w3.org/2000/svg" viewBox="0 \#(initialTop) \#(WorldData.quanta) \#(height)""#
        return text + #" preserveAspectRatio="xMidYMid meet" aria-hidden="true" focusable="false">"# + worldLayers(world) + "</svg>"
    }

    /// Sea, land and borders, the land and borders in pieces (`WorldPaths.landPieces`): a browser
    /// draws into each tile of the screen only the pieces over it.
    private static func worldLayers(_ world: WorldData) -> String {
        var text = #"<rect class="sea" x="-65535" y="0" width="196605" height="65535"/>"#
        for piece in WorldPaths.landPieces(world) {
            text += #"<path class="land" fill-rule="evenodd" d=""# + piece + #""/>"#
        }
        for piece in WorldPaths.borderPieces(world) {
            text += #"<path class="border" d=""# + piece + #""/>"#
        }
        return text
    }

    /// Students drawn at one point, and where: "x y" in map units.
    typealias Spot = (position: String, pins: [StudentPin])

    /// The pins grouped by the point they are drawn at, in the order first met, with the group holding
    /// your own pin last so it is drawn on top. Everyone who types "Lima, Peru" gets the same
    /// coordinates from the geocoder; one marker for all of them keeps each one reachable, where
    /// markers stacked on one point would show only the top one.
    static func spots(_ pins: [StudentPin]) -> [Spot] {
        var spots: [Spot] = []
        var index: [String: Int] = [:]
        for pin in pins {
            let x = Mercator.x(longitude: pin.student.longitude) * Double(WorldData.quanta)
            let y = Mercator.y(latitude: pin.student.latitude) * Double(WorldData.quanta)
            let position = format(x) + " " + format(y)
            if let i = index[position] {
                spots[i].pins.append(pin)
            } else {
                index[position] = spots.count
                spots.append((position, [pin]))
            }
        }
        let yours = { (spot: Spot) in spot.pins.contains(where: \.mine) }
        return spots.filter { !yours($0) } + spots.filter(yours)
    }

    /// One marker for the students at a point. Sizes are in pixels on screen: the page's script sets
    /// the scale to the map units a pixel covers, at every zoom. The SVG has no script; its scale of 36
    /// makes a lone student's marker 180 map units across, 3.3 of its 1,200 pixels.
    private static func marker(_ pins: [StudentPin], at position: String, standalone: Bool) -> String {
        let mine = pins.contains(where: \.mine)
        let radius = pins.count > 1 ? 9 : mine ? 7 : 5
        // On the page, a marker is a button the keyboard reaches: the map keeps one of them in the Tab
        // order and arrow keys move between them (web/js/roving-focus.mjs). Its <title> names it.
        let focusable = standalone ? "" : #" tabindex="-1" role="button""#
        var text = #"<g class="marker\#(mine ? " mine" : "")"\#(focusable) transform="translate(\#(position)) scale(36)">"#
        text += #"<circle r="\#(radius)"/>"#
        if pins.count > 1 { text += "<text>\(pins.count)</text>" }
        text += "<title>" + pins.map(tooltip).joined(separator: "\n") + "</title>"
        for pin in pins {
            text += #"<g class="student\#(pin.mine ? " mine" : "")" data-object-id="\#(escape(pin.student.objectId))""#
            text += #" data-name="\#(shown(name(pin)))" data-place="\#(shown(pin.student.mapString))""#
            text += #" data-url="\#(escape(pin.student.mediaURL))"/>"#
        }
        text += "</g>"
        // A shared point has no single link to open; its tooltip lists everyone's. Only a web link
        // by the one rule (`WebLink`: http or https, no control character or bidi override) is one.
        guard standalone, pins.count == 1, WebLink.isValid(pins[0].student.mediaURL) else { return text }
        return #"<a href="\#(escape(pins[0].student.mediaURL))" target="_blank">"# + text + "</a>"
    }

    private static func name(_ pin: StudentPin) -> String {
        pin.student.fullName
    }

    private static func tooltip(_ pin: StudentPin) -> String {
        shown(name(pin)) + " — " + shown(pin.student.mapString) + (pin.student.mediaURL.isEmpty ? "" : " — " + shown(pin.student.mediaURL))
    }

    private static func format(_ value: Double) -> String {
        String(Double(Int((value * 10).rounded())) / 10)
    }

    /// Someone's text as the page shows it (its tooltips, its popup, its search): by the display rule
    /// (`DisplayText`, the web page's `shownText`), so a right-to-left override in a name cannot turn
    /// "gnp.exe" into "exe.png" on hover. Links keep their exact text in `data-url`: the page checks
    /// and shows them itself.
    private static func shown(_ text: String) -> String {
        escape(DisplayText.clean(text))
    }

    /// Text for an XML or HTML attribute or element (also the server's page settings).
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            // XML 1.0 forbids most control characters, even escaped.
            case _ where scalar.value < 0x20 && scalar != "\t" && scalar != "\n": result += " "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
