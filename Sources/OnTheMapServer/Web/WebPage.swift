import OnTheMapMap

/// The page's HTML: every screen's elements, hidden until the script shows them, around the world
/// drawn by the export's code (`MapDocument.worldSVG`). No inline script or style: the page's CSP
/// allows only its own files. What the operator configured travels in `<meta>` elements.
///
/// `data-testid` attributes are the hooks the browser tests (and anyone's) hold on to (issue #29).
enum WebPage {
    static func html(settings: WebSettings, scriptVersion: String, styleVersion: String, iconVersion: String) -> String {
        var meta = #"<meta name="onthemap-pins" content="\#(settings.pins)">"#
        meta += #"<meta name="onthemap-poll-seconds" content="\#(settings.pollSeconds)">"#
        let signUp =
            settings.signUpURL.map {
                #"<p class="signup">New here? <a id="signup" href="\#(escape($0))" target="_blank" rel="noopener noreferrer">Sign up</a></p>"#
            } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
            <meta name="color-scheme" content="light">
            \(meta)
            <title>On The Map</title>
            <link rel="icon" href="icon.svg?v=\(iconVersion)" type="image/svg+xml">
            <link rel="stylesheet" href="app.css?v=\(styleVersion)">
            <script src="app.js?v=\(scriptVersion)" defer></script>
            </head>
            <body class="signed-out">
            <div id="busy" data-testid="busy" role="progressbar" aria-label="Loading" hidden></div>
            <header id="bar" hidden>
            <div class="tabs" role="tablist"><button id="map-tab" data-testid="map-tab" role="tab" aria-selected="true">Map</button><button id="list-tab" data-testid="list-tab" role="tab" aria-selected="false">List</button></div>
            <input id="search" type="search" placeholder="Search" aria-label="Search students by name or place" autocomplete="off" enterkeyhint="search">
            <button id="refresh" class="icon" data-testid="refresh" title="Refresh" aria-label="Refresh">\(icon(refreshPath))</button>
            <button id="post-open" class="primary" data-testid="post-open" title="Post your place" aria-label="Post your place">\(icon(pinPath))<span class="wide">Post</span></button>
            <button id="logout" class="icon" data-testid="logout" title="Log out" aria-label="Log out">\(icon(logoutPath))</button>
            </header>
            <main id="stage">
            \(MapDocument.worldSVG())
            \(MapDocument.markersSVG(attributes: #"data-testid="map" aria-label="World map of students""#))
            <div id="popup" role="dialog" hidden><button id="close" aria-label="Close">×</button><h2 id="popup-heading" hidden></h2><ul id="popup-list"></ul></div>
            <template id="popup-entry"><li><strong class="name"></strong> <span class="you">● you</span><div class="place"></div><a target="_blank" rel="noopener noreferrer"></a></li></template>
            <p id="count" aria-live="polite" hidden></p>
            <section id="list-view" aria-label="Students, newest first" hidden><ol id="student-list"></ol><p id="list-empty" hidden></p></section>
            <template id="list-entry"><li data-testid="list-row" tabindex="0"><span class="who"><strong class="name"></strong> <span class="you">you</span></span><span class="place"></span><span class="link"></span><time class="updated"></time></li></template>
            <form id="login" novalidate hidden>
            <h1>On The Map</h1>
            <p class="lead">Log in to see where everyone is.</p>
            <label>Email<input id="login-username" data-testid="login-username" type="email" autocomplete="username" inputmode="email" autocapitalize="none" spellcheck="false" required></label>
            <label>Password<input id="login-password" data-testid="login-password" type="password" autocomplete="current-password" required></label>
            <p id="login-error" data-testid="login-error" role="alert" hidden></p>
            <button id="login-submit" data-testid="login-submit" class="primary" type="submit">Log in</button>
            \(signUp)
            </form>
            <form id="post" novalidate hidden>
            <h2 id="post-title">Where are you?</h2>
            <div id="post-ask">
            <label>Place<input id="post-place" data-testid="post-place" type="text" placeholder="City, country" autocomplete="off" enterkeyhint="next" required></label>
            <label>Link<input id="post-link" data-testid="post-link" type="url" placeholder="https://…" inputmode="url" autocapitalize="none" spellcheck="false" enterkeyhint="go" required></label>
            </div>
            <div id="post-pick" hidden><p id="post-picked"></p><ul id="post-candidates" aria-label="Places found"></ul></div>
            <div class="actions"><button id="post-cancel" data-testid="post-cancel" type="button">Cancel</button><button id="post-find" data-testid="post-find" class="primary" type="submit">Find on map</button><button id="post-finish" data-testid="post-finish" class="primary" type="button" hidden>Finish</button></div>
            </form>
            </main>
            <dialog id="overwrite" aria-labelledby="overwrite-text"><form method="dialog"><p id="overwrite-text"></p><div class="actions"><button value="keep">Keep my pin</button><button id="overwrite-confirm" data-testid="overwrite-confirm" class="primary" value="replace">Replace it</button></div></form></dialog>
            <div id="alert" data-testid="alert" role="alert" hidden><span id="alert-text"></span><button id="alert-close" aria-label="Dismiss">×</button></div>
            <div id="toast" role="status" hidden></div>
            </body>
            </html>

            """
    }

    /// A 24-pixel icon from one path, drawn in the text's colour.
    private static func icon(_ path: String) -> String {
        #"<svg class="glyph" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="\#(path)"/></svg>"#
    }

    private static let refreshPath =
        "M17.65 6.35A7.96 7.96 0 0 0 12 4a8 8 0 1 0 7.73 10h-2.08A6 6 0 1 1 12 6c1.66 0 3.14.69 4.22 1.78L13 11h7V4l-2.35 2.35z"
    private static let pinPath =
        "M12 2a7 7 0 0 0-7 7c0 5.25 7 13 7 13s7-7.75 7-13a7 7 0 0 0-7-7zm0 9.5a2.5 2.5 0 1 1 0-5 2.5 2.5 0 0 1 0 5z"
    private static let logoutPath =
        "M10.09 15.59 11.5 17l5-5-5-5-1.41 1.41L12.67 11H3v2h9.67l-2.58 2.59zM19 3H5a2 2 0 0 0-2 2v4h2V5h14v14H5v-4H3v4a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2z"

    /// The browser tab's icon: a pin.
    static let favicon = #"""
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="#d6402b" d="\#(pinPath)"/></svg>

        """#

    /// Text for an HTML attribute.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
