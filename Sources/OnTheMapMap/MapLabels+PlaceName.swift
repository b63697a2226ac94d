import OnTheMapModels

extension MapLabels {
    /// The view's centre in words: the named place nearest it, named by the one rule (`PlaceLabel`:
    /// "Leipzig, Saxony, Germany", as the geocoder names it), among places a
    /// little smaller than the view names, else the nearest country's name; empty when the view shows
    /// the whole world or a third of it (its centre is no place anyone looks at: a wide world view's is
    /// "Algiers, Algeria"), or nothing named is in view (open sea).
    public func placeName(near view: MapView) -> String {
        let scale = LabelLayout.scale(view)
        guard scale >= 1.5, view.zoom >= 3 else { return "" }
        let centre = (x: Double(view.dotsWide) / 2, y: Double(view.dotsHigh) / 2)
        func distance(_ entry: Entry) -> Double? {
            guard LabelLayout.cell(entry, view) != nil else { return nil }
            let (x, y) = LabelLayout.dot(entry, view)
            return (x - centre.x) * (x - centre.x) + (y - centre.y) * (y - centre.y)
        }
        let minimum = LabelLayout.minimumPopulation(scale: scale * 4)
        var best: (entry: Entry, distance: Double)?
        for index in countryCount..<countryCount + placeCount {
            let entry = entry(index)
            guard entry.population >= minimum else { break }
            if let d = distance(entry), d < best?.distance ?? .infinity { best = (entry, d) }
        }
        if let place = best?.entry {
            let country = place.country != Self.noCountry && place.country < countryCount ? name(entry(place.country), ascii: false) : []
            return PlaceLabel.text(
                name: String(decoding: name(place, ascii: false), as: UTF8.self),
                region: String(decoding: regionName(place), as: UTF8.self),
                country: String(decoding: country, as: UTF8.self))
        }
        for index in 0..<countryCount {
            let entry = entry(index)
            if let d = distance(entry), d < best?.distance ?? .infinity { best = (entry, d) }
        }
        return best.map { String(decoding: name($0.entry, ascii: false), as: UTF8.self) } ?? ""
    }
}
