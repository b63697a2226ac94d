import Foundation
import HTTPTypes

/// The bearer token `/metrics` may require (`serve --metrics-token-file`, the settings key
/// `metrics-token-file`): Prometheus sends it with `authorization: {credentials_file: …}`.
///
/// Read from a file so it is never in a command line, which every local user can read; never
/// logged, and its description hides it.
public struct MetricsToken: Sendable, CustomStringConvertible {
    private let token: [UInt8]

    /// The token in `path`: its first line, without surrounding blanks. The file must not be
    /// readable by other users, and the token must not be empty.
    public init(contentsOf path: String) throws {
        let attributes: [FileAttributeKey: Any]
        let text: String
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw MetricsTokenError("Cannot read the metrics token file \(path): \((error as NSError).localizedDescription)")
        }
        if let mode = attributes[.posixPermissions] as? Int, mode & 0o004 != 0 {
            throw MetricsTokenError("The metrics token file \(path) is readable by every user; make it private (chmod 600 \(path)).")
        }
        let first = text.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
        let value = first.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { throw MetricsTokenError("The metrics token file \(path) is empty; put the token on its first line.") }
        token = Array(value.utf8)
    }

    /// Whether the request's `Authorization` header is `Bearer` and this token, compared in time that
    /// does not depend on where they differ.
    func admits(_ headers: HTTPFields) -> Bool {
        guard let value = headers[.authorization] else { return false }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        let given = Array(parts[1].trimmingCharacters(in: .whitespaces).utf8)
        var difference = UInt8(given.count == token.count ? 0 : 1)
        for index in token.indices { difference |= token[index] ^ (index < given.count ? given[index] : 0) }
        return difference == 0
    }

    public var description: String { "(metrics token hidden)" }
}

/// The metrics token file cannot be used; says which file and what to do.
public struct MetricsTokenError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
