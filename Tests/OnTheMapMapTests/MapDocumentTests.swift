import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapMap

/// Exported documents on fixed pins: students at one point share one marker.
@Suite("Map documents", .ownThreads)
struct MapDocumentTests {
    static let lima = (latitude: -12.0464, longitude: -77.0428)
    static let paris = (latitude: 48.85, longitude: 2.35)

    static func pin(_ id: String, _ first: String, at point: (latitude: Double, longitude: Double), mine: Bool = false)
        -> StudentPin
    {
        StudentPin(
            student: StudentLocation(
                objectId: id, uniqueKey: id, firstName: first, lastName: "Test", mapString: "Lima, Peru",
                mediaURL: "https://\(id).example", latitude: point.latitude, longitude: point.longitude, createdAt: nil,
                updatedAt: nil),
            mine: mine)
    }

    @Test func studentsAtOnePointShareAMarkerThatShowsTheirCount() {
        let pins = [
            Self.pin("a", "Ana", at: Self.lima), Self.pin("b", "Bruno", at: Self.paris),
            Self.pin("c", "Carla", at: Self.lima), Self.pin("d", "Diego", at: Self.lima),
        ]
        #expect(MapDocument.spots(pins).map { $0.pins.map(\.student.objectId) } == [["a", "c", "d"], ["b"]])
        let page = MapDocument.html(pins: pins, title: "t")
        #expect(page.ranges(of: #"<g class="marker""#).count == 2)
        #expect(page.ranges(of: "data-object-id=").count == 4, "every student is still in the page")
        #expect(page.contains("<text>3</text>"))
        #expect(!page.contains("<text>1</text>"), "a lone student's marker has no count")
        #expect(
            page.contains("<title>Ana Test — Lima, Peru — https://a.example\nCarla Test"),
            "the tooltip lists everyone there")
        #expect(!page.contains(#"class="legend""#), "no key for a pin that is not on the map")
    }

    @Test func yourPinKeepsItsColourAtASharedPointAndIsDrawnLast() {
        let pins = [
            Self.pin("me", "Ada", at: Self.lima, mine: true), Self.pin("a", "Ana", at: Self.lima),
            Self.pin("b", "Bruno", at: Self.paris),
        ]
        #expect(MapDocument.spots(pins).map { $0.pins.map(\.student.objectId) } == [["b"], ["me", "a"]])
        let page = MapDocument.html(pins: pins, title: "t")
        let yours = page.ranges(of: #"<g class="marker mine""#)
        #expect(yours.count == 1)
        #expect(page[yours[0].upperBound...].contains(#"data-object-id="a""#), "the shared marker is yours")
        #expect(page.contains(#"<span class="legend"><span class="you">●</span> you</span>"#))
    }

    @Test func inTheSVGOnlyALoneStudentLinks() {
        let svg = MapDocument.svg(pins: [
            Self.pin("a", "Ana", at: Self.lima), Self.pin("c", "Carla", at: Self.lima),
            Self.pin("b", "Bruno", at: Self.paris),
        ])
        #expect(svg.ranges(of: "<a href=").count == 1)
        #expect(svg.contains(#"<a href="https://b.example""#))
    }

    /// A lone student's link is a link only by the one rule for links: one that shows a file name
    /// backwards (a right-to-left override) or runs a script is text in the tooltip, not an <a>.
    @Test func inTheSVGOnlyAWebLinkLinks() {
        for link in ["https://evil.example/\u{202E}gnp.exe", "javascript:alert(1)", "https://evil.example/a\u{0}b", "https://"] {
            var pin = Self.pin("e", "Eve", at: Self.lima)
            pin.student.mediaURL = link
            let svg = MapDocument.svg(pins: [pin])
            #expect(!svg.contains("<a href="), "\(link.debugDescription) became a link")
        }
    }

    /// What a browser shows of someone's text (the tooltip, the popup's name and place) follows the
    /// display rule: no bidi override turns "gnp.exe" into "exe.png" on hover, no C1 or DEL is kept.
    /// The link keeps its exact text for the page to check.
    @Test func shownTextFollowsTheDisplayRule() {
        var pin = Self.pin("e", "Ab\u{202E}gnp.exe", at: Self.lima)
        pin.student.mapString = "Acc\u{9B}2Jra\u{2066}, Ghana\u{7F}"
        pin.student.mediaURL = "https://rlo.example/\u{202E}gnp.exe"
        for document in [MapDocument.svg(pins: [pin]), MapDocument.html(pins: [pin], title: "t")] {
            let title = try? #require(document.firstRange(of: "<title>Ab").map { document[$0.lowerBound...].prefix(200) })
            #expect(title?.hasPrefix("<title>Abgnp.exe Test — Acc\u{FFFD}2Jra, Ghana\u{FFFD} — https://rlo.example/gnp.exe</title>") == true,
                    "\(String(describing: title).debugDescription)")
            #expect(document.contains(#"data-name="Abgnp.exe Test" data-place="Acc\#u{FFFD}2Jra, Ghana\#u{FFFD}""#))
            #expect(document.contains(#"data-url="https://rlo.example/\#u{202E}gnp.exe""#))
        }
    }

    @Test func countsAreGroupedByTheOneRule() {
        #expect([0, 950, 1000, 10_000, -100, -20_100].map(CountText.grouped) == ["0", "950", "1,000", "10,000", "-100", "-20,100"])
        let page = MapDocument.html(pins: (0..<1234).map { Self.pin("p\($0)", "P", at: Self.lima) }, title: "t")
        #expect(page.contains("1,234 students"))
    }
}
