import HTTPTypes
import OnTheMapModels

/// A 429's two halves, said once for both dialects: the wait in words for people ("Too many login
/// attempts: try again in 1 minute."), and in whole seconds in `Retry-After` for programs. Each
/// dialect wraps them in its own error body (`APIFailure`, `ParseFailure`).
struct TooManyRequests {
    let message: String
    let headers: HTTPFields

    /// `what` names what came too often ("login attempts"); `seconds` is the wait, at least 1.
    init(_ what: String, wait seconds: Int) {
        let seconds = max(1, seconds)
        message = "Too many \(what): try again in \(WaitInWords.describe(seconds: seconds))."
        headers = [.retryAfter: "\(seconds)"]
    }
}
