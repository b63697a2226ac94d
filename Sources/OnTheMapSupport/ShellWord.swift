/// A string as one word for a POSIX shell, so advice naming a path can be pasted into one.
public enum ShellWord {
    /// Bare when made only of `[A-Za-z0-9_./:-]` (it still reads as a path, or a URL), else in single quotes,
    /// a single quote inside written `'\''` (as the editor clients write it).
    public static func quoted(_ text: String) -> String {
        let bare = !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/"),
                UInt8(ascii: ":"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
        if bare { return text }
        var quoted = "'"
        for character in text {
            quoted += character == "'" ? "'\\''" : String(character)
        }
        return quoted + "'"
    }
}
