import ArgumentParser
import OnTheMapClient
import OnTheMapModels
import OnTheMapRPC

/// `onthemap export --html FILE | --svg FILE`: the students the daemon holds on a world map, in one
/// file that works offline.
struct ExportCommand: ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the students the daemon caches on a world map to one self-contained HTML or SVG file.",
        discussion: """
            The HTML page shows a popup with name, place and link for each marker (students at the same point \
            share one marker, which shows how many they are, and its popup lists them all), zooms with the wheel, \
            a double click or two fingers, \
            pans by dragging, and filters students by name or place. Markers close together on screen are drawn \
            as one cluster with their count: hover it for the list, click it to zoom in. The SVG is a still \
            image: hover a marker for \
            the names, click a single student's marker for the link. Neither loads anything from elsewhere. "-" \
            writes to standard output. FILE must be a new path or a regular file (not a symlink, FIFO or \
            device); it is written whole or not at all (a temporary file in its folder, renamed over it). \
            A new file is readable as your umask allows (0644 with the usual 022), like any file you save; \
            an existing one keeps its permissions, and a read-only one is replaced only with --force.

            \(ExitStatus.help)
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Write an interactive HTML page.", valueName: "file"), completion: .file())
    var html: String?

    @Option(help: ArgumentHelp("Write an SVG image.", valueName: "file"), completion: .file())
    var svg: String?

    @Flag(help: "Replace FILE even when it is read-only.")
    var force = false

    @Flag(help: "What was written as JSON ({\"file\", \"format\", \"students\"}).")
    var json = false

    func validate() throws {
        guard (html == nil) != (svg == nil) else { throw ValidationError("Give one of --html FILE and --svg FILE.") }
        if json, (html ?? svg) == "-" {
            throw ValidationError("--json and FILE \"-\" both write to standard output: give a file to write, or leave out --json.")
        }
    }

    func execute() throws {
        let (format, path): (ExportMapParams.Format, String) = html.map { (.html, $0) } ?? (.svg, svg!)
        // A path that cannot be written is refused before the daemon draws the map.
        if path != "-" { try AtomicFile.check(path, replacingReadOnly: force) }
        let result = try global.result(ExportMapParams(format: format))
        if path == "-" {
            Output.out(result.document)
            return
        }
        // What any program saving a file does (0666 less the umask): the page is made to be
        // shared, and the umask is the user's say in who may read it. A failure says why (exit 1).
        try AtomicFile.write(Array(result.document.utf8), to: path, mode: 0o666, replacingReadOnly: force)
        if json {
            try Output.json(Written(file: path, format: format.rawValue, students: result.students))
        } else {
            Output.error("wrote \(path): \(result.students) students")
        }
    }

    /// What `--json` prints: `{"file":"map.html","format":"html","students":100}`.
    struct Written: Encodable {
        var file: String
        var format: String
        var students: Int
    }
}
