import ArgumentParser

/// Words a custom completion offers (`open`'s names), as the shell asking will read them back.
enum CompletionWords {
    /// `words` for the shell asking for them. bash reads them through `compgen -W`, which expands
    /// each word (`$(…)`, backquotes, `$NAME`) and takes its quotes off: a name another student wrote
    /// ran as a command on Tab, and "O'Brien" came back "OBrien". For bash every ASCII character but a
    /// letter or a digit goes behind a backslash, which `compgen` takes off again (and the script's
    /// `complete -o filenames` quotes the word it inserts); zsh and fish take the words as they are.
    static func forRequestingShell(_ words: [String]) -> [String] {
        guard CompletionShell.requesting == .bash else { return words }
        return words.map(escapedForCompgen)
    }

    static func escapedForCompgen(_ word: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in word.unicodeScalars {
            if scalar.isASCII, !("a"..."z").contains(scalar), !("A"..."Z").contains(scalar), !("0"..."9").contains(scalar) {
                escaped.append("\\")
            }
            escaped.append(scalar)
        }
        return String(escaped)
    }
}
