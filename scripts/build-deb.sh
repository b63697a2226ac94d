#!/usr/bin/env bash
# Builds the Debian packages from release programs (scripts/build-release.sh prints where they are):
#   dist/onthemap_VERSION_ARCH.deb         onthemap, onthemapd, user units, clients/, completions, man
#   dist/onthemap-server_VERSION_ARCH.deb  onthemap-server, its system unit, completions, man page
# Two packages: a desktop wants the client and its daemon, a server host the server; neither needs
# the other's program, dependencies or units.
# The version comes from scripts/version.sh; Depends from dpkg-shlibdeps on the programs themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${ONTHEMAP_BIN:?run scripts/build-release.sh first (make deb does)}" "${ONTHEMAPD_BIN:?}" "${ONTHEMAP_SERVER_BIN:?}"
command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null ||
    { echo "build-deb.sh: needs dpkg-deb and dpkg-shlibdeps (apt-get install dpkg-dev)" >&2; exit 1; }

VERSION="$(scripts/version.sh)"
ARCH="$(dpkg --print-architecture)"
OUT="${DEB_OUTPUT_DIR:-dist}"
MAINTAINER="${DEB_MAINTAINER:-OnTheMap for Linux maintainers <maintainers@onthemap.example.org>}"
# Reproducible: the time of the last commit, not of the build.
EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
STAGE=".build/deb"
mkdir -p "$OUT"

# Depends for the given programs, from the shared libraries they link (libc6, libsqlite3-0, …).
shlib_depends() {
    local scratch
    scratch="$(mktemp -d)"
    mkdir "$scratch/debian"
    printf 'Source: onthemap\n\nPackage: onthemap\nArchitecture: any\n' >"$scratch/debian/control"
    local programs=()
    for program in "$@"; do programs+=("$(realpath "$program")"); done
    (cd "$scratch" && dpkg-shlibdeps -O "${programs[@]}" 2>/dev/null) | sed -n 's/^shlibs:Depends=//p'
    rm -rf "$scratch"
}

# build PACKAGE COMPONENT SECTION SYNOPSIS DESCRIPTION [EXTRA-CONTROL-LINES]
build() {
    local package="$1" component="$2" section="$3" synopsis="$4" description="$5" extra="${6:-}"
    local root="$STAGE/$package" doc="/usr/share/doc/$1"
    rm -rf "$root"
    PREFIX=/usr DESTDIR="$root" SYSTEMUNITDIR=/lib/systemd/system USERUNITDIR=/usr/lib/systemd/user \
        ZSHCOMPDIR=/usr/share/zsh/vendor-completions DOCDIR="$doc" ONTHEMAP_COMPONENTS="$component" \
        scripts/install.sh install 2>/dev/null
    gzip -9n "$root"/usr/share/man/man1/*.1
    sed -e "s/@PACKAGE@/$package/" packaging/copyright >"$root$doc/copyright"
    printf '%s (%s) unstable; urgency=medium\n\n  * OnTheMap for Linux %s.\n\n -- %s  %s\n' \
        "$package" "$VERSION" "$VERSION" "$MAINTAINER" "$(date -u -R -d "@$EPOCH")" | gzip -9n >"$root$doc/changelog.gz"
    chmod 644 "$root$doc/copyright" "$root$doc/changelog.gz"
    # What lintian reports and is meant: the Swift runtime (with its zlib) is linked in so no
    # toolchain is needed.
    if [ -f "packaging/$package.lintian-overrides" ]; then
        install -Dm644 "packaging/$package.lintian-overrides" "$root/usr/share/lintian/overrides/$package"
    fi

    local programs=()
    mapfile -t programs < <(find "$root/usr/bin" -type f)
    mkdir -p "$root/DEBIAN"
    {
        echo "Package: $package"
        echo "Version: $VERSION"
        echo "Architecture: $ARCH"
        echo "Maintainer: $MAINTAINER"
        echo "Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)"
        echo "Depends: $(shlib_depends "${programs[@]}")"
        [ -n "$extra" ] && echo "$extra"
        echo "Section: $section"
        echo "Priority: optional"
        echo "Description: $synopsis"
        echo "$description" | fold -s -w 78 | sed -e 's/ *$//' -e 's/^/ /'
    } >"$root/DEBIAN/control"
    for script in packaging/"$package".{postinst,prerm,postrm}; do
        [ -f "$script" ] && install -m 755 "$script" "$root/DEBIAN/${script##*.}"
    done
    (cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
    chmod 644 "$root/DEBIAN/md5sums" "$root/DEBIAN/control"
    find "$root" -exec touch -h -d "@$EPOCH" {} +
    local deb="$OUT/${package}_${VERSION}_${ARCH}.deb"
    dpkg-deb --root-owner-group -Z"${DEB_COMPRESSION:-xz}" --build "$root" "$deb" >/dev/null
    echo "$deb"
}

build onthemap client utils \
    "see where other Udacity students are on the map, from the desktop" \
    "On The Map for Linux desktops: onthemapd, a per-user daemon (systemd user service, socket activated) that holds the login and a cache of student locations and answers JSON-RPC 2.0 on a Unix socket; and onthemap, a small, fast command-line client for people, scripts and status bars (waybar, i3blocks, polybar set-ups in /usr/share/onthemap). Works with Udacity's service or a self-hosted onthemap-server." \
    "Suggests: onthemap-server, socat, jq"
build onthemap-server server net \
    "self-hostable server for the Udacity OnTheMap web API" \
    "onthemap-server speaks the Udacity OnTheMap web API byte for byte (sessions, users, student locations) from one SQLite file, so a group can host its own map. Ships a hardened systemd unit (DynamicUser, state in /var/lib/onthemap-server) with health and Prometheus metrics endpoints." \
    "Recommends: systemd"
