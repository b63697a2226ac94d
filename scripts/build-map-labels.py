#!/usr/bin/env python3
"""Build the map's place names (Sources/CWorldMap/labels.bin) from the embedded gazetteer and
Natural Earth.

    apt-get download r-cran-rnaturalearthdata          # as for scripts/build-world-map.py
    python3 scripts/build-map-labels.py r-cran-rnaturalearthdata_0.1.0-2_all.deb

Names come from the gazetteer the daemon already embeds (Sources/CGazetteer/gazetteer.tsv, GeoNames,
CC BY 4.0): every country's English name, and every place of 50,000 or more inhabitants but a city's
districts (near a more populous place of the same country, or named after a place near it:
without_districts). Where a
country's name goes comes from Natural Earth's 1:50m countries (public domain), the same outlines the
map draws: sp's label point of each country (the centre of its largest ring, so "France" sits in
France, not between it and French Guiana), its label rank (how prominent cartographers make it), and
its short name ("Dem. Rep. Congo", "U.S.A.") for where the full one does not fit.

The output is deterministic. docs/MAP.md describes the format; in short: fixed 20-byte records, the
countries most prominent first (as prominent, the largest first), then the places most populous
first, then their names; a country's record says how large it is drawn (its extent).
"""

import importlib.util
import math
import os
import re
import struct
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "Sources", "CWorldMap", "labels.bin")
GAZETTEER = os.path.join(ROOT, "Sources", "CGazetteer", "gazetteer.tsv")
MINIMUM_POPULATION = 50_000
QUANT = 65535
MAX_LATITUDE = 85.0511287798066
NO_COUNTRY = 0xFFFF


def world_map_script():
    """scripts/build-world-map.py, for its reader of R's data (its name has a hyphen)."""
    spec = importlib.util.spec_from_file_location("build_world_map", os.path.join(ROOT, "scripts", "build-world-map.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def quantise(lon, lat):
    lat = max(-MAX_LATITUDE, min(MAX_LATITUDE, lat))
    x = (lon + 180.0) / 360.0
    y = (1.0 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / math.pi) / 2
    return int(round(min(max(x, 0.0), 1.0) * QUANT)), int(round(min(max(y, 0.0), 1.0) * QUANT))


def one_column(text):
    """The text in NFC when every character is one terminal column (Latin letters and their accents),
    else None: a map row must be exactly as many columns as characters."""
    text = unicodedata.normalize("NFC", text)
    for character in text:
        code = ord(character)
        if code < 0x20 or code > 0x2FF or unicodedata.combining(character) or unicodedata.category(character) == "Mn":
            return None
    return text


def ascii_form(text):
    """What an ASCII map shows: accents dropped, anything else left out ("Köln" → "Koln")."""
    folded = unicodedata.normalize("NFKD", text)
    folded = "".join(c for c in folded if ord(c) < 0x80 and not unicodedata.combining(c))
    return " ".join(folded.split())


def natural_earth_countries(world, data_dir):
    countries = world.load_r_object(data_dir, "countries50")
    slots = world.slots(countries)
    frame = slots["data"]
    columns = world.pairlist(frame[3])["names"][2]
    data = dict(zip(columns, [column[2] for column in frame[2]]))
    result = []
    for index, polygons in enumerate(slots["polygons"][2]):
        label = world.slots(polygons)["labpt"][2]
        rings = []
        for polygon in world.slots(polygons)["Polygons"][2]:
            values = world.slots(polygon)["coords"][2]
            half = len(values) // 2
            rings.append(list(zip(values[:half], values[half:])))
        result.append({
            "name": data["name"][index], "abbrev": data["abbrev"][index], "iso": data["iso_a2"][index],
            "rank": int(data["labelrank"][index]), "population": 0 if math.isnan(data["pop_est"][index]) else int(data["pop_est"][index]),
            "lon": label[0], "lat": label[1], "extent": extent(rings),
        })
    return result


def extent(rings):
    """How big the country is drawn around its name: the square root of its largest ring's area on the
    map (Web Mercator, in quanta), the ring sp's label point is the centre of. "Saint Pierre and
    Miquelon" is 60 quanta, "Australia" 7,780: a name is shown only where its country is drawn large
    enough to carry it (LabelLayout)."""
    largest = 0.0
    for ring in rings:
        points = [quantise(lon, lat) for lon, lat in ring]
        area = abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))) / 2
        largest = max(largest, area)
    return min(int(round(math.sqrt(largest))), 0xFFFF)


# Natural Earth's short names that read as no abbreviation of the name, or misspell it: the short name
# is drawn where the full one does not fit, so it must say the same country to someone who knows only
# the name. Its ISO-like codes ("Kgz.", "Ury.", "Bwa.") are replaced by the name's first letters, as
# atlases abbreviate; "" leaves a country only its name (a name of six letters needs no short one).
# LabelTests.shortNamesReadAsTheirCountry holds every short name to that rule.
ABBREVIATIONS = {"Auz.": "Austl.", "Tongo": "", "D'inca": "Dom.", "St-Barthlemy": "St. Barth.", "IoMan": "I. of Man",
                 "Gin.": "Guin.", "Kgz.": "Kyrg.", "Ury.": "Urug.", "Bwa.": "Bots.", "Bhs.": "Bah.", "Mrt.": "Maur.",
                 "Mus.": "Maur.", "Mda.": "Mold.", "Syc.": "Sey.", "Tjk.": "Taj.", "Svk.": "Slvk.", "Swz.": "Esw.",
                 "GnB.": "Guin.-B.", "Nfk. I.": "Norf. I.", "C.Vd.": "C. Verde", "Faeroe Is.": "Faroe Is.",
                 "Wlf.": "Wallis & Futuna", "Fr. S. Antarctic Lands": "Fr. S. Terr.", "Kwt.": "", "Mco.": "", "Jey.": ""}


def gazetteer():
    countries, regions, places = {}, {}, []
    with open(GAZETTEER, encoding="utf-8") as text:
        for line in text:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "C":
                countries[fields[1]] = {"name": fields[3], "population": int(fields[4])}
            elif fields[0] == "R":
                regions[(fields[1], fields[2])] = fields[3]
            elif fields[0] == "P" and int(fields[6]) >= MINIMUM_POPULATION:
                places.append({"name": fields[1], "country": fields[2], "region": fields[3], "lat": float(fields[4]),
                               "lon": float(fields[5]), "population": int(fields[6])})
    # A place's region by name, as the geocoder names it ("Leipzig, Saxony, Germany"): the view's
    # centre is named by the one rule (PlaceLabel), which needs it.
    for place in places:
        place["region"] = regions.get((place["country"], place["region"]), "")
    return countries, places


DISTRICT_KM = 5.0
# A place within DISTRICT_KM_PER_ROOT_MILLION × √(millions of inhabitants) km of a place at least
# DISTRICT_RATIO times as populous is part of it: Bucharest's sectors, 5–8 km from its point, Brooklyn.
DISTRICT_KM_PER_ROOT_MILLION = 6.0
DISTRICT_RATIO = 2
# A place named after a place within NAMED_DISTRICT_KM is a part of that one ("New South Memphis").
NAMED_DISTRICT_KM = 15.0


def words(name):
    return re.findall(r"\w+", name.casefold())


def named_after(place, other):
    """Whether `place`'s name holds `other`'s whole words, and more ("New South Memphis", "Memphis")."""
    mine, theirs = words(place["name"]), words(other["name"])
    return len(theirs) < len(mine) and any(mine[i:i + len(theirs)] == theirs for i in range(len(mine) - len(theirs) + 1))


def district_of(place, other):
    """Whether `place` is one of `other`'s districts, `other` more populous (or as populous) and of the
    same country."""
    km = distance_km(other, place)
    return km < DISTRICT_KM or (
        other["population"] >= DISTRICT_RATIO * place["population"]
        and km < DISTRICT_KM_PER_ROOT_MILLION * math.sqrt(other["population"] / 1e6))


def without_districts(places):
    """The places, most populous first, less a city's districts: GeoNames lists them as places of their
    own ("Mitte", at Berlin's point; "Sector 3", beside Bucharest; "New South Memphis", more populous
    than Memphis), and on a map, or as the name of a view's centre, they would stand for the city. A
    district is within DISTRICT_KM of a more populous place of the same country, or within a radius
    that grows with a city at least DISTRICT_RATIO times as populous, or named after a place near it."""
    # Cells of half a degree, and the places in the 3×5 around a place's: at least 38 km each way up to
    # 70°N, past the widest radius (Shanghai's, 30 km).
    cells = {}

    def near(place):
        cell = (math.floor(place["lat"] / 0.5), math.floor(place["lon"] / 0.5))
        for dy in (-1, 0, 1):
            for dx in (-2, -1, 0, 1, 2):
                yield from cells.get((cell[0] + dy, cell[1] + dx), ())

    def add(place):
        cells.setdefault((math.floor(place["lat"] / 0.5), math.floor(place["lon"] / 0.5)), []).append(place)

    for place in places:
        add(place)
    named = {id(place) for place in places for other in near(place) if other is not place
             and other["country"] == place["country"] and named_after(place, other) and distance_km(other, place) < NAMED_DISTRICT_KM}
    # Each place against every more populous one, kept or not: Hellersdorf, beside Marzahn, stays a
    # district of Berlin when Marzahn is one. But not against its own district: East Pensacola Heights,
    # more populous than Pensacola and 4 km from it, took Pensacola off the map with itself.
    cells = {}
    kept = []
    for place in places:
        if id(place) not in named and not any(other["country"] == place["country"] and district_of(place, other)
                                              and not named_after(other, place) for other in near(place)):
            kept.append(place)
        add(place)
    return kept


def distance_km(a, b):
    """Great-circle distance (haversine)."""
    phi1, phi2 = math.radians(a["lat"]), math.radians(b["lat"])
    dphi, dlambda = phi2 - phi1, math.radians(b["lon"] - a["lon"])
    h = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlambda / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(min(1.0, h)))


def build(data_dir):
    world = world_map_script()
    named, places = gazetteer()
    countries = []
    for country in natural_earth_countries(world, data_dir):
        # Natural Earth 4 gives France and Norway no ISO code (-99); their names are the gazetteer's.
        gazetteer_entry = named.get(country["iso"]) if country["iso"] else None
        name = gazetteer_entry["name"] if gazetteer_entry else country["name"]
        short = country["name"] if len(country["name"]) < len(name) else country["abbrev"]
        short = ABBREVIATIONS.get(short, short)
        # A short name no shorter than the name would never be drawn in its place ("Cz. Rep.", Czechia).
        countries.append(dict(country, name=name, short=short if len(short) < len(name) else ""))
    # The most prominent first and, as prominent, the largest on the map: placed first, their names
    # win where two would meet.
    countries.sort(key=lambda c: (c["rank"], -c["extent"], c["name"]))
    country_index = {}
    for index, country in enumerate(countries):
        if country["iso"] and country["iso"] not in country_index:
            country_index[country["iso"]] = index
    places.sort(key=lambda p: (-p["population"], p["name"], p["lat"], p["lon"]))
    places = without_districts(places)

    strings = bytearray()
    records = bytearray()

    def record(lon, lat, population, names, rank, country, extent=0):
        x, y = quantise(lon, lat)
        offset = len(strings)
        lengths = []
        for text in names:
            encoded = text.encode("utf-8")
            assert len(encoded) < 256
            strings.extend(encoded)
            lengths.append(len(encoded))
        records.extend(struct.pack("<HHIIBBBBHH", x, y, min(population, 0xFFFFFFFF), offset, lengths[0], lengths[1],
                                   lengths[2], rank, country, extent))

    def forms(name):
        shown = one_column(name)
        ascii_name = ascii_form(name)
        if not ascii_name:
            return None
        if shown is None:
            shown = ascii_name
        return shown, ascii_name if ascii_name != shown else ""

    kept_places = 0
    for country in countries:
        name, ascii_name = forms(country["name"])
        # The short name is Natural Earth's, in ASCII already ("Dem. Rep. Congo", "U.S.A.").
        record(country["lon"], country["lat"], country["population"], [name, ascii_name, ascii_form(country["short"])],
               country["rank"], NO_COUNTRY, country["extent"])
    for place in places:
        shown = forms(place["name"])
        if shown is None:
            continue
        # A place's third name is its region (a country's is its short name), as shown.
        region = forms(place["region"]) if place["region"] else None
        record(place["lon"], place["lat"], place["population"], [shown[0], shown[1], region[0] if region else ""], 0,
               country_index.get(place["country"], NO_COUNTRY))
        kept_places += 1

    header_size = 24
    header = b"OTMLABEL" + struct.pack("<IIII", 2, len(countries), kept_places, header_size + len(records))
    return header + bytes(records) + bytes(strings), len(countries), kept_places


def data_directory(source):
    world = world_map_script()
    return world.data_directory(source)


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else world_map_script().INSTALLED
    directory, temp = data_directory(source)
    data, countries, places = build(directory)
    with open(OUTPUT, "wb") as output:
        output.write(data)
    print(f"{OUTPUT}: {len(data):,} bytes, {countries} countries, {places} places of {MINIMUM_POPULATION:,} or more")
    del temp


if __name__ == "__main__":
    main()
