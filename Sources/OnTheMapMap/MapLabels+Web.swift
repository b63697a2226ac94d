import OnTheMapModels

extension MapLabels {
    /// The names for a browser's map, as JSON (docs/MAP.md, "Names in a browser"): the same names as
    /// the terminal's map and the same rule for how many show at a scale, from the same data
    /// (labels.bin), so the terminal, the exported file and the server's page name the same world.
    ///
    /// `{"rule": {"scales": [1.5, 3, …], "ranks": [3, 4, …], "populations": [20000000, …],
    /// "countryPixels": 8, "largeCountryPixels": 48},
    /// "countries": [[x, y, rank, name, short name, extent], …],
    /// "places": [[x, y, population, name], …]}`: x, y and a country's extent in map units (0…65535,
    /// as the SVGs), countries most prominent (as prominent, largest) first, places most populous
    /// first, those of at least `minimumPopulation`. A scale below `scales[i]` names countries up to
    /// `ranks[i]` and places of at least `populations[i]`; past the last, the last entries of `ranks`
    /// and `populations`. A country is named only where its extent is drawn at least `countryPixels`
    /// pixels across (the terminal's cell, at 640 pixels for an 80-column world), and may have its
    /// name a line above or below its point where it is drawn `largeCountryPixels` across (the
    /// terminal's three rows).
    public func webJSON(minimumPopulation: UInt32 = 0) -> String {
        let scales: [Double] = [1.5, 3, 6, 12, 24, 48]
        let probes = scales.map { $0 / 2 } + [scales.last! * 2]
        // A terminal draws an 80-column world 160 dots across, a browser's rule 640 pixels.
        let pixelsPerDot = 640.0 / 160
        let rule: WireJSON = .object([
            ("countryPixels", .number(LabelLayout.minimumCountryDots * pixelsPerDot)),
            ("largeCountryPixels", .number(LabelLayout.largeCountryDots * pixelsPerDot)),
            ("populations", .array(probes.map { .integer(Int(LabelLayout.minimumPopulation(scale: $0))) })),
            ("ranks", .array(probes.map { .integer(Int(LabelLayout.maximumCountryRank(scale: $0))) })),
            ("scales", .array(scales.map { .number($0) })),
        ])
        var countries: [WireJSON] = []
        for index in 0..<countryCount {
            let entry = entry(index)
            countries.append(
                .array([
                    .integer(Int(entry.x)), .integer(Int(entry.y)), .integer(Int(entry.rank)), .string(text(name(entry, ascii: false))),
                    .string(text(shortName(entry))), .integer(Int(entry.extent)),
                ]))
        }
        var places: [WireJSON] = []
        for index in countryCount..<countryCount + placeCount {
            let entry = entry(index)
            guard entry.population >= minimumPopulation else { break }
            places.append(
                .array([.integer(Int(entry.x)), .integer(Int(entry.y)), .integer(Int(entry.population)), .string(text(name(entry, ascii: false)))]))
        }
        // Keys in order, as `WireCoding` sorts them.
        return WireJSON.object([("countries", .array(countries)), ("places", .array(places)), ("rule", rule)]).serialized
    }

    private func text(_ utf8: [UInt8]) -> String {
        String(decoding: utf8, as: UTF8.self)
    }
}
