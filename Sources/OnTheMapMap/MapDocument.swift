/// The world with every student's pin as one self-contained file: an SVG, or an HTML page around it
/// with popups, zoom and pan, and a search box. Nothing in either refers to anything outside the
/// file (no tiles, fonts or scripts), so both work offline.
public enum MapDocument {
    /// The part of the world shown first: from 84°N to 60°S (quanta).
    static let initialTop = Int(Mercator.y(latitude: 84) * Double(WorldData.quanta))
    static let initialBottom = Int(Mercator.y(latitude: -60) * Double(WorldData.quanta))

    /// A standalone SVG: hover a marker for its name and place, click it to open the link.
    public static func svg(pins: [MapPin], world: WorldData = .embedded) -> String {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        text += svgElement(pins: pins, world: world, standalone: true)
        return text + "\n"
    }

    /// An HTML page: the SVG with a popup per marker, wheel and drag zoom and pan, and a search box
    /// that filters markers by name.
    public static func html(pins: [MapPin], title: String, world: WorldData = .embedded) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
        <title>\(escape(title))</title>
        <style>\(MapDocumentAssets.css)</style>
        </head>
        <body>
        <header><input id="search" type="search" placeholder="Filter by name" aria-label="Filter students by name" autocomplete="off">
        <span id="count">\(pins.count) \(pins.count == 1 ? "student" : "students")</span><span class="hint">wheel or +/− to zoom, drag to pan</span></header>
        <main id="stage">
        \(svgElement(pins: pins, world: world, standalone: false))
        <div id="popup" role="dialog" hidden><button id="close" aria-label="Close">×</button><strong id="popup-name"></strong><div id="popup-place"></div><a id="popup-link" target="_blank" rel="noopener noreferrer"></a></div>
        </main>
        <script>\(MapDocumentAssets.script)</script>
        </body>
        </html>

        """
    }

    private static func svgElement(pins: [MapPin], world: WorldData, standalone: Bool) -> String {
        let width = WorldData.quanta
        let height = initialBottom - initialTop
        var text = #"<svg id="map" xmlns="http://www.w3.org/2000/svg" viewBox="0 \#(initialTop) \#(width) \#(height)""#
        text += standalone ? #" width="1200" height="\#(1200 * height / width)">"# : #" preserveAspectRatio="xMidYMid meet">"#
        if standalone { text += "<style>\(MapDocumentAssets.svgCSS)</style>" }
        text += #"<rect class="sea" x="-65535" y="0" width="196605" height="65535"/>"#
        text += #"<path class="land" fill-rule="evenodd" d=""# + WorldPaths.land(world) + #""/>"#
        text += #"<path class="border" d=""# + WorldPaths.borders(world) + #""/>"#
        text += #"<g id="markers">"#
        // Your own pin last, so it is drawn on top.
        for pin in pins.filter({ !$0.mine }) + pins.filter(\.mine) {
            text += marker(pin, standalone: standalone)
        }
        return text + "</g></svg>"
    }

    private static func marker(_ pin: MapPin, standalone: Bool) -> String {
        let x = Mercator.x(longitude: pin.longitude) * Double(WorldData.quanta)
        let y = Mercator.y(latitude: pin.latitude) * Double(WorldData.quanta)
        let name = [pin.firstName, pin.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        let circle =
            #"<circle class="marker\#(pin.mine ? " mine" : "")" data-object-id="\#(escape(pin.objectId))" data-name="\#(escape(name))" data-place="\#(escape(pin.mapString))" data-url="\#(escape(pin.mediaURL))" cx="\#(format(x))" cy="\#(format(y))" r="\#(pin.mine ? 260 : 180)">"#
            + "<title>\(escape(name)) — \(escape(pin.mapString))\(pin.mediaURL.isEmpty ? "" : " — " + escape(pin.mediaURL))</title></circle>"
        guard standalone, isWebLink(pin.mediaURL) else { return circle }
        return #"<a href="\#(escape(pin.mediaURL))" target="_blank">"# + circle + "</a>"
    }

    /// Only http and https links become clickable.
    static func isWebLink(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    private static func format(_ value: Double) -> String {
        String(Double(Int((value * 10).rounded())) / 10)
    }

    /// Text for an XML attribute or element.
    static func escape(_ text: String) -> String {
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
