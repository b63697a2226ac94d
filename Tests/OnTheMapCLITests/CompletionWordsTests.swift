import Testing

@testable import OnTheMapCLI

/// The word bash or zsh passes, as the shell would read it when the command runs.
@Suite("The typed word's quoting")
struct CompletionWordsTests {
    @Test(arguments: [
        (#"Sven\ Ch"#, "Sven Ch"), ("'Sven Ch", "Sven Ch"), (#""Sven Ch"#, "Sven Ch"), ("Tim' O'\\'B", "Tim O'B"),
        // `$'…'`: to its closing quote, its escapes standing for their characters.
        ("$'Jos", "Jos"), ("$'Sven Ch", "Sven Ch"), (#"$'Tim O\'B"#, "Tim O'B"), (#"$'Jos\u00e9 S"#, "José S"),
        (#"$'Sven\x20C"#, "Sven C"), (#"$'\101da'"#, "Ada"), (#"$'a\\b'c"#, #"a\bc"#), (#"$'a\q'"#, #"a\q"#),
        // An escape still being typed is nothing yet; a `$` before anything but a quote is itself.
        (#"$'Jos\x"#, "Jos"), (#"$'Jos\"#, "Jos"), ("$HOME", "$HOME"), ("a$", "a$"),
    ])
    func unquoted(typed: String, text: String) {
        #expect(CompletionWords.unquoted(typed) == text, "\(typed)")
    }
}
