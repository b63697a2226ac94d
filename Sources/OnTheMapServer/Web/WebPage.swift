import OnTheMapMap

/// What the server writes into the page (web/index.html, `{{settings}}`): the operator's settings as
/// `<meta name="onthemap-…">` elements, which the page's script reads (web/js/state.mjs). Data, not
/// code: the page's CSP runs no inline script.
enum WebPage {
    static func meta(_ settings: WebSettings) -> String {
        var values = [("pins", String(settings.pins)), ("poll-seconds", String(settings.pollSeconds))]
        if let url = settings.signUpURL { values.append(("signup-url", url)) }
        return values.map { #"<meta name="onthemap-\#($0)" content="\#(MapDocument.escape($1))">"# }.joined(separator: "\n")
    }
}
