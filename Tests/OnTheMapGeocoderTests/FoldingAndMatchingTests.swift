import OnTheMapFolding
import OnTheMapModels
import OnTheMapTestSupport
import Testing

@testable import OnTheMapGeocoder

@Suite("Offline geocoder: folding, queries, edit distance", .ownThreads)
struct FoldingAndMatchingTests {
    let folding: PlaceFolding

    init() async {
        // Loaded off the test's thread: see OfflineGeocoder.load().
        await OfflineGeocoder.load()
        folding = OfflineGeocoder.indexed().folding
        #expect(folding.fold("Łódź") == PlaceFolding.standard.fold("Łódź"), "the gazetteer folds with the one table")
    }

    func folded(_ text: String) -> String {
        String(decoding: folding.fold(text), as: UTF8.self)
    }

    @Test func foldingDropsAccentsCaseAndPunctuation() {
        #expect(folded("Baden-Württemberg") == "baden wurttemberg")
        #expect(folded("  São   Paulo ") == "sao paulo")
        #expect(folded("Straße") == "strasse")
        #expect(folded("Øresund, Łódź") == "oresund lodz")
        #expect(folded("ＴＯＫＹＯ") == "tokyo")
        #expect(folded("東京") == "東京")
        #expect(folded("Sa\u{0303}o") == "sao")
        #expect(folded("🙂!!") == "")
        // What shows as nothing parts no word: pasted "Li\u{200B}ma" is Lima (it found Morocco).
        for invisible in ["\u{200B}", "\u{200C}", "\u{200D}", "\u{200E}", "\u{202E}", "\u{2060}", "\u{FEFF}", "\u{AD}"] {
            #expect(folded("Li\(invisible)ma, Peru") == "lima peru", "\(invisible.unicodeScalars.first!.value)")
        }
    }

    @Test func queriesThatCannotNameAPlaceAreRefusedBeforeLookup() {
        for junk in ["https://x.org", "www.example.com", "a@b.c", "example.com/path", "12345", "!!!", ""] {
            #expect(PlaceQuery.parse(junk, folding: folding) == nil, "\(junk)")
        }
        #expect(PlaceQuery.parse("St. Louis, MO", folding: folding)?.parts.count == 2)
    }

    @Test func addressPartsAreRecognised() throws {
        let query = try #require(PlaceQuery.parse("1600 Amphitheatre Parkway, Mountain View, CA", folding: folding))
        #expect(query.parts.map(\.isAddress) == [true, false, false])
        #expect(query.parts[0].ignorable == [true, false, false])
        let german = try #require(PlaceQuery.parse("Unter den Linden 77, Berlin", folding: folding))
        #expect(german.parts.map(\.isAddress) == [true, false])
    }

    @Test func editDistanceCountsSwapsAsOneAndStopsAtTheLimit() {
        var distance = EditDistance()
        func d(_ a: String, _ b: String, limit: Int = 3) -> Int {
            Array(b.utf8).withUnsafeBufferPointer { distance.distance(Array(a.utf8), $0, limit: limit) }
        }
        #expect(d("dusseldorff", "dusseldorf") == 1)
        #expect(d("chicgo", "chicago") == 1)
        #expect(d("sydeny", "sydney") == 1)
        #expect(d("kitten", "sitting") == 3)
        #expect(d("abcdefgh", "zyxwvuts", limit: 2) == 3)
    }

    @Test func theIndexHoldsEveryRecord() {
        let gazetteer = OfflineGeocoder.indexed()
        #expect(gazetteer.places.count > 150_000)
        #expect(gazetteer.countries.count > 240)
        #expect(gazetteer.regions.count > 3_000)
        #expect(gazetteer.names.count > gazetteer.places.count)
    }

    @Test("an unloaded index is built again on the next search, and finds the same")
    func unloadedIndexIsBuiltAgain() async {
        let geocoder = OfflineGeocoder()
        let before = geocoder.search("Lima, Peru", limit: 3)
        OfflineGeocoder.unload()
        // Other suites may search meanwhile and build it first; either way it is back, and the same.
        await OfflineGeocoder.load()
        #expect(OfflineGeocoder.isLoaded)
        #expect(geocoder.search("Lima, Peru", limit: 3) == before)
        #expect(!before.isEmpty)
    }
}
