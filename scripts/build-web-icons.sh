#!/usr/bin/env bash
# Draws the web page's PNG icons (Sources/CWebPage/web/icon-*.png: a phone's home screen and the web
# app manifest) from the project's own artwork, the pin of web/icon.svg, with headless Chromium.
# The PNGs are committed: building the server needs neither this script nor Chromium.
#   icon-192.png, icon-512.png   the pin on a light disc, for launchers that show the icon as it is
#   icon-maskable-512.png        the pin within the middle 60% of a full square in the theme's blue,
#                                for launchers that cut the icon to their own shape ("maskable")
set -euo pipefail
cd "$(dirname "$0")/.."
WEB=Sources/CWebPage/web
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
PIN="$(sed -n 's/.* d="\([^"]*\)".*/\1/p' "$WEB/icon.svg")"
[ -n "$PIN" ] || { echo "no path in $WEB/icon.svg" >&2; exit 1; }

draw() { # NAME SIZE BACKGROUND(svg element) PIN_SCALE
    local name=$1 size=$2 background=$3 scale=$4
    cat >"$WORK/$name.html" <<HTML
<!DOCTYPE html><html><head><style>html,body{margin:0;background:transparent}svg{display:block}</style></head><body>
<svg xmlns="http://www.w3.org/2000/svg" width="$size" height="$size" viewBox="0 0 24 24">$background
<g transform="translate(12 12) scale($scale) translate(-12 -12)"><path fill="#d6402b" stroke="#fff" stroke-width="0.6" d="$PIN"/></g></svg>
</body></html>
HTML
    chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --default-background-color=00000000 \
        --window-size="$size,$size" --screenshot="$WORK/$name.png" "file://$WORK/$name.html" >/dev/null 2>&1
    cp "$WORK/$name.png" "$WEB/$name.png"
    echo "$WEB/$name.png"
}

draw icon-192 192 '<circle cx="12" cy="12" r="11.5" fill="#dbe9f4"/>' 0.82
draw icon-512 512 '<circle cx="12" cy="12" r="11.5" fill="#dbe9f4"/>' 0.82
draw icon-maskable-512 512 '<rect width="24" height="24" fill="#1a5fb4"/>' 0.62
