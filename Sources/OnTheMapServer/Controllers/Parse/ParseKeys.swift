/// The Parse application keys a request must carry.
public struct ParseKeys: Sendable, Hashable {
    /// The keys public On The Map clients send, accepted unless the server is given its own.
    public static let udacityApplicationID = "QrX47CA9cyuGewLdsL7o5Eb8iug6Em8ye0dnAbIr"
    public static let udacityRESTAPIKey = "QuWThTdiRmTux3YaDseUSEpUKo7aBYM737yKd4gY"

    public var applicationID: String
    public var restAPIKey: String

    public init(applicationID: String = udacityApplicationID, restAPIKey: String = udacityRESTAPIKey) {
        self.applicationID = applicationID
        self.restAPIKey = restAPIKey
    }

    func accepts(applicationID: String?, restAPIKey: String?) -> Bool {
        applicationID == self.applicationID && restAPIKey == self.restAPIKey
    }
}
