/// A name as people read it: "Ada Lovelace", or whichever part is known. The one rule for a
/// student's name (`StudentLocation`) and an account's (`AccountInfo`).
public enum FullName {
    public static func of(first: String, last: String) -> String {
        // Not `[first, last].joined(separator:)`: the generic `joined` costs a command its first
        // scan of the program's protocol conformances (about 0.05 ms of `onthemap status`).
        if first.isEmpty { return last }
        if last.isEmpty { return first }
        return first + " " + last
    }
}
