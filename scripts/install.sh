#!/usr/bin/env bash
# Installs (or, with `uninstall`, removes) OnTheMap under $DESTDIR$PREFIX: the three programs, the
# systemd units, man pages, bash/zsh/fish completions, the status-bar and script clients and the docs.
#
#   scripts/install.sh install|uninstall|list
#
# Settings (the Makefile passes them): PREFIX (/usr/local), DESTDIR, BINDIR, MANDIR,
# SYSTEMUNITDIR, USERUNITDIR, BASHCOMPDIR, ZSHCOMPDIR, FISHCOMPDIR, DATADIR, DOCDIR, STRIP; the binaries
# to install: ONTHEMAP_BIN, ONTHEMAPD_BIN, ONTHEMAP_SERVER_BIN (built by scripts/build-release.sh).
# ONTHEMAP_COMPONENTS picks a part: "all" (default), "client" (onthemap + onthemapd) or "server".
set -euo pipefail
cd "$(dirname "$0")/.."

ACTION="${1:-install}"
PREFIX="${PREFIX:-/usr/local}"
DESTDIR="${DESTDIR:-}"
BINDIR="${BINDIR:-$PREFIX/bin}"
MANDIR="${MANDIR:-$PREFIX/share/man}"
SYSTEMUNITDIR="${SYSTEMUNITDIR:-$PREFIX/lib/systemd/system}"
# systemd looks for user units in $PREFIX/lib/systemd/user for /usr and /usr/local, but in
# ~/.local/share/systemd/user for a home-directory install.
if [ "$PREFIX" = "${HOME:-/nonexistent}/.local" ]; then
    USERUNITDIR="${USERUNITDIR:-$PREFIX/share/systemd/user}"
else
    USERUNITDIR="${USERUNITDIR:-$PREFIX/lib/systemd/user}"
fi
BASHCOMPDIR="${BASHCOMPDIR:-$PREFIX/share/bash-completion/completions}"
ZSHCOMPDIR="${ZSHCOMPDIR:-$PREFIX/share/zsh/site-functions}"
FISHCOMPDIR="${FISHCOMPDIR:-$PREFIX/share/fish/vendor_completions.d}"
DATADIR="${DATADIR:-$PREFIX/share/onthemap}"
DOCDIR="${DOCDIR:-$PREFIX/share/doc/onthemap}"
COMPONENTS="${ONTHEMAP_COMPONENTS:-all}"
# Installed programs are stripped of their symbol tables (STRIP= keeps them).
STRIP="${STRIP-strip}"

client=false server=false
case "$COMPONENTS" in
    all) client=true server=true ;;
    client) client=true ;;
    server) server=true ;;
    *) echo "install.sh: ONTHEMAP_COMPONENTS must be all, client or server" >&2; exit 64 ;;
esac

# Every file this installs, as "MODE DESTINATION SOURCE"; SOURCE "@unit:NAME" is a unit rewritten
# to run the installed binary, "@completion:PROGRAM:SHELL" a completion script the program writes.
manifest() {
    local clientfile doc
    if $client; then
        echo "755 $BINDIR/onthemap ${ONTHEMAP_BIN:-}"
        echo "755 $BINDIR/onthemapd ${ONTHEMAPD_BIN:-}"
        echo "644 $USERUNITDIR/onthemapd.service @unit:onthemapd.service"
        echo "644 $USERUNITDIR/onthemapd.socket @unit:onthemapd.socket"
        echo "644 $MANDIR/man1/onthemap.1 docs/man/onthemap.1"
        echo "644 $MANDIR/man1/onthemapd.1 docs/man/onthemapd.1"
        for doc in PROTOCOL EDITORS MAP GEOCODING; do echo "644 $DOCDIR/$doc.md docs/$doc.md"; done
        # The editors' own tests (clients/nvim/tests, clients/emacs/*-tests.el) run from the source
        # tree; installed, they would only be loaded by mistake.
        while IFS= read -r clientfile; do
            local mode=644
            [ -x "$clientfile" ] && mode=755
            echo "$mode $DATADIR/${clientfile#clients/} $clientfile"
        done < <(find clients -type f ! -path 'clients/nvim/tests/*' ! -name '*-tests.el' | LC_ALL=C sort)
    fi
    if $server; then
        echo "755 $BINDIR/onthemap-server ${ONTHEMAP_SERVER_BIN:-}"
        echo "644 $SYSTEMUNITDIR/onthemap-server.service @unit:onthemap-server.service"
        echo "644 $MANDIR/man1/onthemap-server.1 docs/man/onthemap-server.1"
        for doc in API OPERATIONS DEPLOY; do echo "644 $DOCDIR/$doc.md docs/$doc.md"; done
        echo "644 $DOCDIR/deploy/nginx-onthemap.conf docs/deploy/nginx-onthemap.conf"
    fi
    local program
    for program in $($client && echo onthemap onthemapd) $($server && echo onthemap-server); do
        echo "644 $BASHCOMPDIR/$program @completion:$program:bash"
        echo "644 $ZSHCOMPDIR/_$program @completion:$program:zsh"
        echo "644 $FISHCOMPDIR/$program.fish @completion:$program:fish"
    done
    echo "644 $DOCDIR/README.md README.md"
    echo "644 $DOCDIR/NOTICE NOTICE"
    # The resolved dependencies, as scripts/build-release.sh recorded them.
    [ -f .build/dependencies.json ] && echo "644 $DOCDIR/dependencies.json .build/dependencies.json"
    return 0
}

binary_for() {  # the built binary of PROGRAM, as given in the environment
    case "$1" in
        onthemap) echo "${ONTHEMAP_BIN:?set ONTHEMAP_BIN to the onthemap binary to install}" ;;
        onthemapd) echo "${ONTHEMAPD_BIN:?set ONTHEMAPD_BIN to the onthemapd binary to install}" ;;
        onthemap-server) echo "${ONTHEMAP_SERVER_BIN:?set ONTHEMAP_SERVER_BIN to the onthemap-server binary to install}" ;;
    esac
}

# The units name the binaries where a user's own install puts them (~/.local/bin) or where the
# package puts them (/usr/bin), and the docs where the package puts them; installed, they name
# $BINDIR and $DOCDIR.
render_unit() {
    sed -e "s#^ExecStart=%h/.local/bin/#ExecStart=$BINDIR/#" -e "s#^ExecStart=/usr/bin/#ExecStart=$BINDIR/#" \
        -e "/^Documentation=/s#file:///usr/share/doc/onthemap/#file://$DOCDIR/#g" "systemd/$1"
}

install_one() {
    local mode="$1" destination="$DESTDIR$2" source="$3"
    mkdir -p "$(dirname "$destination")"
    case "$source" in
        @unit:*) render_unit "${source#@unit:}" >"$destination.tmp" ;;
        @completion:*)
            IFS=: read -r _ program shell <<<"$source"
            # Completion files are sourced, not run: no #! line.
            "$(binary_for "$program")" --generate-completion-script "$shell" | sed '1{/^#!/d}' >"$destination.tmp" ;;
        "") echo "install.sh: no binary given for $2" >&2; exit 64 ;;
        *)
            cp "$source" "$destination.tmp"
            if [ "$mode" = 755 ] && [ -n "$STRIP" ] && [ "${destination%/*}" = "$DESTDIR$BINDIR" ]; then
                "$STRIP" "$destination.tmp"
            fi ;;
    esac
    chmod "$mode" "$destination.tmp"
    mv -f "$destination.tmp" "$destination"
}

case "$ACTION" in
    list) manifest | cut -d' ' -f2 ;;
    install)
        manifest | while read -r mode destination source; do
            install_one "$mode" "$destination" "$source"
        done
        echo "installed OnTheMap ($COMPONENTS) under $DESTDIR$PREFIX" >&2 ;;
    uninstall)
        manifest | while read -r _ destination _; do
            rm -f "$DESTDIR$destination"
        done
        # The directories that are OnTheMap's alone.
        for directory in "$DATADIR" "$DOCDIR"; do
            [ -d "$DESTDIR$directory" ] && find "$DESTDIR$directory" -depth -type d -empty -delete
        done
        echo "removed OnTheMap ($COMPONENTS) from $DESTDIR$PREFIX" >&2 ;;
    *) echo "usage: scripts/install.sh install|uninstall|list" >&2; exit 64 ;;
esac
