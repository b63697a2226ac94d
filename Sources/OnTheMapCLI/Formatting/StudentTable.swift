import FoundationEssentials
import OnTheMapModels
import OnTheMapSupport

/// The default `students` output: numbered, aligned columns that fit the terminal (`TextTable`).
/// Narrow, the link is cut first, then the place and the name (never under six cells and its
/// "(you)": `Ada L… (you)`); then LINK is left out, then PLACE and UPDATED (the editors' lists
/// leave out LINK and PLACE in that order too). `#`, NAME and a near list's KM always show, so
/// `open N` still opens row N.
enum StudentTable {
    static func render(_ rows: [StudentPin], width: Int?, now: Date, style: Style) -> String {
        let students = rows.map(\.student)
        var columns = [
            TextTable.Column(header: "#", cells: rows.indices.map { String($0 + 1) }, rightAligned: true),
            // "(you)" is the table's own word, added after the name is made safe (and kept whole when
            // the name is cut to fit).
            TextTable.Column(
                header: "NAME", cells: students.map { DisplayText.clean($0.fullName) },
                kept: rows.map { $0.mine ? "(you)" : nil },
                minimum: 6),
            TextTable.Column(
                header: "PLACE", cells: students.map { DisplayText.clean($0.mapString) }, minimum: 8, dropOrder: 1),
            TextTable.Column(
                header: "LINK", cells: students.map { DisplayText.clean($0.mediaURL) }, minimum: 16, dropOrder: 0),
            TextTable.Column(
                header: "UPDATED",
                cells: students.map { $0.updatedAt.map { RelativeTime.describe($0, now: now) } ?? "" }, dropOrder: 2),
        ]
        // Rows from a `--near` query carry their distance: shown after the place.
        if rows.contains(where: { $0.distanceKm != nil }) {
            columns.insert(
                TextTable.Column(
                    header: "KM", cells: rows.map { $0.distanceKm.map(Self.kilometres) ?? "" }, rightAligned: true),
                at: 3)
        }
        let table = TextTable(columns: columns)
        let lines = table.lines(width: width) { row, _, text in row == nil ? style.bold(text) : text }
        return lines.joined(separator: "\n")
    }

    /// "0.8", "12", "1,234": a decimal only below 10 km.
    static func kilometres(_ distance: Double) -> String {
        if distance < 10 { return String((distance * 10).rounded() / 10) }
        return CountText.grouped(Int(distance.rounded()))
    }
}
