#!/usr/bin/env python3
"""Build the embedded world map (Sources/CWorldMap/world.bin) from Natural Earth 1:50m countries.

Natural Earth (https://www.naturalearthdata.com, public domain) reaches us through the Debian package
r-cran-rnaturalearthdata 0.1.0 (CC0), which carries `countries50` as R data. No R is needed: this
script reads R's lazy-load database and serialization format itself (standard library only).

    apt-get download r-cran-rnaturalearthdata          # any directory; or have the package installed
    python3 scripts/build-world-map.py r-cran-rnaturalearthdata_0.1.0-2_all.deb

The output is deterministic: the same package gives the same bytes. docs/MAP.md describes the format;
in short, every country outline is projected to Web Mercator and quantised to 16 bits, edges shared by
two countries become "border" polylines (stored once), the others chain into closed "coast" rings (the
land's outline, filled by parity), and each is simplified at four levels of detail with shared end
points kept, so coasts and borders still meet at every level.
"""

import gzip
import lzma
import math
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "Sources", "CWorldMap", "world.bin")
DATA_DIR = "usr/lib/R/site-library/rnaturalearthdata/data"
INSTALLED = "/" + DATA_DIR

QUANT = 65535
MAX_LATITUDE = 85.0511287798066  # Web Mercator's square world
# Douglas-Peucker tolerances in quanta (1/65535 of the world's width), coarsest first; the renderer
# picks the coarsest whose tolerance is under half a dot.
TOLERANCES = [96, 24, 6, 0]


# --- R's serialization format (XDR), just what sp objects use --------------------------------------

class RReader:
    def __init__(self, data):
        self.data = data
        self.pos = 0
        self.refs = []

    def int(self):
        value = struct.unpack_from(">i", self.data, self.pos)[0]
        self.pos += 4
        return value

    def item(self):
        flags = self.int()
        kind = flags & 0xFF
        has_attr = flags & (1 << 9)
        has_tag = flags & (1 << 10)
        if kind == 254:  # NILVALUE
            return None
        if kind in (253, 252, 251, 250, 242, 241):  # environments and markers sp data never needs
            return ("special", kind)
        if kind == 255:  # a reference to an earlier symbol or environment
            index = flags >> 8
            return self.refs[(index or self.int()) - 1]
        if kind == 1:  # symbol
            symbol = ("sym", self.item())
            self.refs.append(symbol)
            return symbol
        if kind in (249, 248):  # namespace, package
            self.int()
            names = [self.item() for _ in range(self.int())]
            value = ("ns", names)
            self.refs.append(value)
            return value
        if kind == 4:  # environment
            env = {}
            self.refs.append(env)
            self.int()
            env["enclos"], env["frame"], env["hash"], env["attr"] = self.item(), self.item(), self.item(), self.item()
            return env
        if kind in (2, 3, 5, 6, 17):  # pairlists and language objects
            attr = self.item() if has_attr else None
            tag = self.item() if has_tag else None
            car = self.item()
            return ("pair", tag, car, self.item(), attr)
        if kind == 25:  # S4 object: its slots are its attributes
            return ("s4", self.item() if has_attr else None)
        if kind == 9:  # CHARSXP
            length = self.int()
            if length == -1:
                return None
            text = self.data[self.pos:self.pos + length].decode("utf-8", "replace")
            self.pos += length
            return text
        length = self.int()
        if length == -1:
            length = (self.int() << 32) + self.int()
        if kind in (10, 13):
            values = list(struct.unpack_from(">%di" % length, self.data, self.pos))
            self.pos += 4 * length
        elif kind == 14:
            values = list(struct.unpack_from(">%dd" % length, self.data, self.pos))
            self.pos += 8 * length
        elif kind in (16, 19, 20):
            values = [self.item() for _ in range(length)]
        elif kind == 24:
            values = self.data[self.pos:self.pos + length]
            self.pos += length
        else:
            raise ValueError("unsupported R type %d" % kind)
        return ("vec", kind, values, self.item() if has_attr else None)


def unserialize(data):
    assert data[:2] == b"X\n", "not XDR-serialized R data"
    reader = RReader(data)
    reader.pos = 2
    version = reader.int()
    reader.int()
    reader.int()
    if version == 3:
        reader.pos += 4 + reader.int()
    return reader.item()


def pairlist(value):
    members = {}
    while value is not None and value[0] == "pair":
        members[value[1][1] if value[1] else None] = value[2]
        value = value[3]
    return members


def slots(obj):
    return pairlist(obj[1] if obj[0] == "s4" else obj[3])


def load_r_object(data_dir, name):
    index = unserialize(gzip.decompress(open(os.path.join(data_dir, "Rdata.rdx"), "rb").read()))
    variables = index[2][0]
    offsets = dict(zip(pairlist(variables[3])["names"][2], variables[2]))
    offset, length = offsets[name][2]
    with open(os.path.join(data_dir, "Rdata.rdb"), "rb") as database:
        database.seek(offset)
        chunk = database.read(length)
    size = struct.unpack(">i", chunk[:4])[0]
    assert chunk[4:5] == b"Z", "expected xz compression"
    # R writes raw LZMA2 streams with preset 9e (R_compress3).
    data = lzma.decompress(chunk[5:], format=lzma.FORMAT_RAW,
                           filters=[{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME}])
    assert len(data) == size
    return unserialize(data)


def country_rings(data_dir):
    """Every ring of every country, as lists of (lon, lat)."""
    countries = load_r_object(data_dir, "countries50")
    rings = []
    for polygons in slots(countries)["polygons"][2]:
        for polygon in slots(polygons)["Polygons"][2]:
            values = slots(polygon)["coords"][2]
            half = len(values) // 2
            rings.append(list(zip(values[:half], values[half:])))
    return rings


# --- Projection and topology -----------------------------------------------------------------------

def quantise(lon, lat):
    lat = max(-MAX_LATITUDE, min(MAX_LATITUDE, lat))
    x = (lon + 180.0) / 360.0
    y = (1.0 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / math.pi) / 2
    return (int(round(min(max(x, 0.0), 1.0) * QUANT)), int(round(min(max(y, 0.0), 1.0) * QUANT)))


def quantised_rings(rings):
    result = []
    for ring in rings:
        points = []
        for lon, lat in ring:
            point = quantise(lon, lat)
            if not points or points[-1] != point:
                points.append(point)
        while len(points) > 1 and points[-1] == points[0]:
            points.pop()
        if len(set(points)) >= 3:
            result.append(points)
    return result


def edge_key(a, b):
    return (a, b) if a < b else (b, a)


def split_topology(rings):
    """Coast rings (edges in an odd number of country rings: the land's outline) and border polylines
    (edges shared by two countries), each edge once."""
    count = {}
    for ring in rings:
        for i, a in enumerate(ring):
            key = edge_key(a, ring[(i + 1) % len(ring)])
            count[key] = count.get(key, 0) + 1

    # Coast: walk odd edges into closed rings, preferring to continue along the same country ring.
    odd_at = {}
    edges = []  # (a, b, ring index, position)
    for r, ring in enumerate(rings):
        for i, a in enumerate(ring):
            b = ring[(i + 1) % len(ring)]
            if count[edge_key(a, b)] % 2 == 1:
                edges.append((a, b))
    used = [False] * len(edges)
    seen_key = {}
    for e, (a, b) in enumerate(edges):
        key = edge_key(a, b)
        if key in seen_key:  # an odd count above 1: keep one copy
            used[e] = True
            continue
        seen_key[key] = e
        odd_at.setdefault(a, []).append(e)
        odd_at.setdefault(b, []).append(e)
    coast = []
    for start in range(len(edges)):
        if used[start]:
            continue
        used[start] = True
        a, b = edges[start]
        walk = [a, b]
        current = start
        while walk[-1] != walk[0]:
            vertex = walk[-1]
            following = current + 1
            if following < len(edges) and not used[following] and edges[following][0] == vertex:
                nxt = following
            else:
                candidates = [e for e in odd_at[vertex] if not used[e]]
                if not candidates:
                    break
                nxt = candidates[0]
            used[nxt] = True
            a, b = edges[nxt]
            walk.append(b if a == vertex else a)
            current = nxt
        walk.pop()
        if len(walk) >= 3:
            coast.append(walk)

    # Borders: even (shared) edges, chained between vertices of degree other than 2.
    shared = sorted(key for key, n in count.items() if n % 2 == 0)
    neighbours = {}
    for a, b in shared:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    for vertex in neighbours:
        neighbours[vertex].sort()
    visited = set()
    borders = []

    def walk_from(a, b):
        line = [a, b]
        visited.add(edge_key(a, b))
        while len(neighbours[line[-1]]) == 2:
            nxt = [v for v in neighbours[line[-1]] if edge_key(line[-1], v) not in visited]
            if not nxt:
                break
            visited.add(edge_key(line[-1], nxt[0]))
            line.append(nxt[0])
        return line

    for vertex in sorted(neighbours):
        if len(neighbours[vertex]) != 2:
            for other in neighbours[vertex]:
                if edge_key(vertex, other) not in visited:
                    borders.append(walk_from(vertex, other))
    for a, b in shared:  # loops with no end (enclaves)
        if edge_key(a, b) not in visited:
            borders.append(walk_from(a, b))
    return coast, borders


# --- Simplification --------------------------------------------------------------------------------

def douglas_peucker(points, tolerance):
    """Keeps both ends."""
    if tolerance <= 0 or len(points) <= 2:
        return list(points)
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    squared = tolerance * tolerance
    while stack:
        first, last = stack.pop()
        ax, ay = points[first]
        bx, by = points[last]
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy
        best, index = -1.0, -1
        for i in range(first + 1, last):
            px, py = points[i]
            if length == 0:
                distance = (px - ax) ** 2 + (py - ay) ** 2
            else:
                cross = dx * (py - ay) - dy * (px - ax)
                distance = cross * cross / length
            if distance > best:
                best, index = distance, i
        if index >= 0 and best > squared:
            keep[index] = True
            stack.append((first, index))
            stack.append((index, last))
    return [p for p, k in zip(points, keep) if k]


def extent(points):
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return max(max(xs) - min(xs), max(ys) - min(ys))


def simplify_ring(ring, fixed, tolerance):
    if tolerance <= 0:
        return ring
    anchors = [i for i, p in enumerate(ring) if p in fixed]
    if not anchors:
        far = max(range(len(ring)), key=lambda i: ((ring[i][0] - ring[0][0]) ** 2 + (ring[i][1] - ring[0][1]) ** 2, -i))
        anchors = [0, far] if far != 0 else [0]
    result = []
    for k, start in enumerate(anchors):
        end = anchors[(k + 1) % len(anchors)]
        piece = ring[start:end + 1] if end > start else ring[start:] + ring[:end + 1]
        result.extend(douglas_peucker(piece, tolerance)[:-1])
    return result


# --- Output ----------------------------------------------------------------------------------------

def varint(value, out):
    value = (value << 1) ^ (value >> 63)  # zigzag
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def encode_features(features, data):
    table = bytearray()
    for points in features:
        offset = len(data)
        px, py = 0, 0
        for x, y in points:
            varint(x - px, data)
            varint(y - py, data)
            px, py = x, y
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        table += struct.pack("<IIHHHH", offset, len(points), min(xs), min(ys), max(xs), max(ys))
    return table


def build(data_dir):
    rings = quantised_rings(country_rings(data_dir))
    coast, borders = split_topology(rings)
    fixed = set()
    for line in borders:
        fixed.add(line[0])
        fixed.add(line[-1])
    lods = []
    for tolerance in TOLERANCES:
        polygons = []
        for ring in coast:
            if tolerance and extent(ring) < 2 * tolerance:
                continue
            simple = simplify_ring(ring, fixed, tolerance)
            if len(set(simple)) >= 3:
                polygons.append(simple)
        lines = []
        for line in borders:
            if tolerance and extent(line) < 2 * tolerance:
                continue
            lines.append(douglas_peucker(line, tolerance))
        lods.append((tolerance, polygons, lines))

    header_size = 16 + 32 * len(lods)
    tables = []
    data = bytearray()
    for tolerance, polygons, lines in lods:
        tables.append((tolerance, encode_features(polygons, data), len(polygons), encode_features(lines, data), len(lines)))
    out = bytearray(b"OTMWORLD")
    out += struct.pack("<II", 1, len(lods))
    position = header_size
    directory = bytearray()
    for tolerance, polygon_table, polygon_count, line_table, line_count in tables:
        directory += struct.pack("<IIIIIIII", tolerance, polygon_count, position, line_count,
                                 position + len(polygon_table), 0, 0, 0)
        position += len(polygon_table) + len(line_table)
    data_start = position
    out += directory
    for _, polygon_table, _, line_table, _ in tables:
        for table in (polygon_table, line_table):
            # Data offsets become absolute.
            for k in range(0, len(table), 16):
                relative = struct.unpack_from("<I", table, k)[0]
                struct.pack_into("<I", table, k, relative + data_start)
            out += table
    assert len(out) == data_start
    out += data
    summary = ", ".join("tolerance %d: %d rings / %d points, %d borders / %d points" % (
        t, len(p), sum(map(len, p)), len(l), sum(map(len, l))) for t, p, l in lods)
    return bytes(out), summary


def data_directory(source):
    if os.path.isdir(os.path.join(source, DATA_DIR)):
        return os.path.join(source, DATA_DIR), None
    if os.path.isdir(source) and os.path.exists(os.path.join(source, "Rdata.rdb")):
        return source, None
    if source.endswith(".deb"):
        temp = tempfile.TemporaryDirectory()
        subprocess.run(["dpkg-deb", "-x", source, temp.name], check=True)
        return os.path.join(temp.name, DATA_DIR), temp
    sys.exit("expected the .deb, an extracted package, or its data directory: " + source)


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else INSTALLED
    directory, keep_alive = data_directory(source)
    data, summary = build(directory)
    os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
    with open(OUTPUT, "wb") as output:
        output.write(data)
    print("wrote %s: %d bytes; %s" % (os.path.relpath(OUTPUT, ROOT), len(data), summary))
    del keep_alive


if __name__ == "__main__":
    main()
