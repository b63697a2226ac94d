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
    /// backquote, `"` or a backslash, and `$'…'` (ANSI-C quoting, bash's and zsh's) everything up to
    /// the next `'` but its backslash escapes (`\'`, `\n`, `\x41`…), which stand for the character they
    /// name. A quote still open (the person is typing) ends at the end.
    static func unquoted(_ word: String) -> String {
        enum Quote { case none, single, double, ansiC }
        var text = ""
        var quote = Quote.none
        var rest = Substring(word)
        while let character = rest.popFirst() {
            switch (quote, character) {
            case (.none, "\\"), (.double, "\\"):
                guard let next = rest.popFirst() else { continue }
                if quote == .double, !["$", "`", "\"", "\\"].contains(next) { text.append("\\") }
                text.append(next)
            case (.none, "$") where rest.first == "'":
                rest.removeFirst()
                quote = .ansiC
            case (.ansiC, "\\"): text += ansiCEscape(&rest)
            case (.none, "'"): quote = .single
            case (.none, "\""): quote = .double
            case (.single, "'"), (.double, "\""), (.ansiC, "'"): quote = .none
            default: text.append(character)
            }
        }
        return text
    }

    /// What the escape at the start of `rest` (after its backslash) stands for inside `$'…'`, taken off
    /// `rest`: a named character, a code in octal (`\101`), hex (`\x41`, `\u00e9`, `\U0001F600`) or a
    /// control (`\cA`); an escape the shells do not know keeps its backslash; one the person has not
    /// finished typing (`\x` at the end) is nothing yet.
    private static func ansiCEscape(_ rest: inout Substring) -> String {
        guard let letter = rest.popFirst() else { return "" }
        let named: [Character: String] = [
            "a": "\u{07}", "b": "\u{08}", "e": "\u{1B}", "E": "\u{1B}", "f": "\u{0C}", "n": "\n", "r": "\r",
            "t": "\t", "v": "\u{0B}", "\\": "\\", "'": "'", "\"": "\"", "?": "?",
        ]
        if let text = named[letter] { return text }
        /// Up to `most` digits in `radix` from the start of `rest`, and their value.
        func code(_ most: Int, radix: Int, from value: UInt32 = 0, counted: Int = 0) -> (UInt32, Int) {
            var (value, count) = (value, counted)
            while count < most, let digit = rest.first?.hexDigitValue, digit < radix {
                value = value * UInt32(radix) + UInt32(digit)
                rest.removeFirst()
                count += 1
            }
            return (value, count)
        }
        let (value, count): (UInt32, Int)
        switch letter {
        case "0"..."7": (value, count) = code(3, radix: 8, from: UInt32(letter.hexDigitValue!), counted: 1)
        case "x": (value, count) = code(2, radix: 16)
        case "u": (value, count) = code(4, radix: 16)
        case "U": (value, count) = code(8, radix: 16)
        case "c":
            guard let control = rest.popFirst() else { return "" }
            (value, count) = ((control.asciiValue.map(UInt32.init) ?? 0x3F) & 0x1F, 1)
        default: return "\\" + String(letter)
        }
        guard count > 0 else { return rest.isEmpty ? "" : "\\" + String(letter) }
        return Unicode.Scalar(value).map { String(Character($0)) } ?? ""
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
