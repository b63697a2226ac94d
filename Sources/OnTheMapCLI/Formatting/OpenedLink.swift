/// What `open --json` and `signup --json` print: the link opened and, for a student's, whose it is
/// (`{"name":"Ada Lovelace","link":"https://ada.example"}`; `signup`'s has no name).
struct OpenedLink: Encodable {
    var name: String?
    var link: String
}
