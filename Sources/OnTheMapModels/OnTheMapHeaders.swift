/// Header and cookie names of the API that are not obvious from the wire format.
public enum OnTheMapHeaders {
    /// Cookie the server sets at login; its value goes back in `xsrfToken` to log out.
    public static let xsrfCookie = "XSRF-TOKEN"
    /// Header that must echo the `XSRF-TOKEN` cookie on `DELETE /session`.
    public static let xsrfToken = "X-XSRF-TOKEN"
    /// Header carrying the session id on writes (`onthemap-server` requires it unless `--open-writes`).
    public static let session = "X-OnTheMap-Session"
}
