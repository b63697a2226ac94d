/// Text folded for case- and accent-insensitive search ("São Paulo" and "SAO PAULO" are both
/// "sao paulo"): the gazetteer's own folding (`PlaceFolding`), so a search in the daemon's list, a
/// name given to `onthemap open` and a geocoding query read accents alike, without Foundation's
/// (ICU's) folding.
public enum SearchFolding {
    /// `text` lower-cased, without accents, its words separated by single spaces.
    public static func fold(_ text: some StringProtocol) -> String {
        String(decoding: PlaceFolding.standard.fold(text), as: UTF8.self)
    }
}
