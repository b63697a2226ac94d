/// `{"status":403,"error":"Account not found or invalid credentials."}`: every error the API returns.
public struct APIErrorBody: Sendable, Hashable, Codable, Error {
    public var status: Int
    public var error: String

    /// Creates an error body.
    public init(status: Int, error: String) {
        self.status = status
        self.error = error
    }
}
