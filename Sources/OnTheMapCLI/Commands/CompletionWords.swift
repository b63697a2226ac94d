import ArgumentParser

/// Words a custom completion offers (`open`'s names), as the shell asking will read them back.
enum CompletionWords {
    /// What `candidates` offers for the word being completed, `typed` as the shell passed it.
    static func offered(typed: String, _ candidates: (String) -> [String]) -> [String] {
        forRequestingShell(candidates(typedText(typed)))
    }

    /// The text of the word typed so far. bash and zsh pass it as it stands on the command line, so
    /// after Tab stopped at a shared first word it reads `Sven\ ` (or `'Sven ` as a person may type
    /// it), and no name started with that: the names after "Sven" could not be reached. Their quotes
    /// and backslashes come off here, as the shell takes them off when it runs the command. fish
    /// passes the word already unquoted, so a quote in it is part of a name ("O'Brien").
    static func typedText(_ typed: String) -> String {
        let shell = CompletionShell.requesting
        guard shell == .bash || shell == .zsh else { return typed }
        return unquoted(typed)
    }

    /// `word` without its shell quoting: a backslash keeps the next character, single quotes keep
    /// everything up to the next one, double quotes everything but a backslash before `$`, a
    /// backquote, `"` or a backslash. A quote still open (the person is typing) ends at the end.
    static func unquoted(_ word: String) -> String {
        enum Quote { case none, single, double }
        var text = ""
        var quote = Quote.none
        var escaped = false
        for character in word {
            if escaped {
                if quote == .double, !["$", "`", "\"", "\\"].contains(character) { text.append("\\") }
                text.append(character)
                escaped = false
                continue
            }
            switch (quote, character) {
            case (.none, "\\"), (.double, "\\"): escaped = true
            case (.none, "'"): quote = .single
            case (.none, "\""): quote = .double
            case (.single, "'"), (.double, "\""): quote = .none
            default: text.append(character)
            }
        }
        return text
    }

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
