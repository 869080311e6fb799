#!/usr/bin/env python3
"""Converts the svg-diplomacy classic board into dipjudge's drawing data, once.

    scripts/convert-board.py SOURCE.json [OUT.json]

SOURCE is svg-diplomacy's classic board, `app/data/maps/classic.json` of
https://github.com/hawkrives/svg-diplomacy (MIT, (c) 2014 Hawken Rives; see
THIRD-PARTY-NOTICES.md); it is not kept in this repository, only what this script derives
from it. OUT defaults to src/picture/board.json. The output is keyed by the judge's
standard province codes (checked against fixtures/maps/standard/provinces.csv) and holds,
per province: its kind (land, sea or impassable), its outline as absolute SVG paths with one
decimal, the point a unit stands on, the points of its coasts, and its supply centre's point.
Every point is in SVG coordinates (y down). Adjacency (`moveTo`) is not read: the judge's
own map is the only source of borders.

What the conversion mends, each in a function below that says why:
  * the sixteen abbreviations that are not the standard codes (`CODES`);
  * `drawUnit` and `supply` measure y from the bottom (svg y = height - y);
  * values stored as Python literals (`"{'x': 160, 'y': 730}"`, `"'Clyde'"`, `"None"`);
  * the Irish Sea's unit point, which lies on Ireland (`UNIT_POINTS`);
  * the "gaps" at Denmark and Constantinople: they are water no sea outline covers (the
    Danish straits between Jutland and the islands, the Sea of Marmara; also a loch in the
    Great Glen between Clyde and Edinburgh and lakes cut out of Sweden and Denmark). The
    outlines are right; the renderer paints the whole canvas in the sea colour first, so
    these show as water, which they are. Nothing is moved here.

The script is deterministic: run twice, it writes the same bytes.
"""

import ast
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_OUT = os.path.join(ROOT, "src", "picture", "board.json")
PROVINCES_CSV = os.path.join(ROOT, "fixtures", "maps", "standard", "provinces.csv")

# svg-diplomacy's abbreviations that differ from the judge's codes.
CODES = {
    "NAT": "nao", "NRG": "nwg", "GOB": "bot", "HLG": "hel", "ECH": "eng", "IRS": "iri",
    "MAT": "mao", "WME": "wes", "GOL": "lyo", "TYN": "tys", "EME": "eas", "BLK": "bla",
    "EDB": "edi", "LND": "lon", "PMT": "pie", "NOR": "nwy",
}

# The areas no unit may enter: drawn as neutral land, not provinces of the judge's map.
IMPASSABLE = {"IRE", "ICE", "SIB", "SWZ", "COR", "SAR"}

# Unit points moved by hand (SVG coordinates, y down). The source puts the Irish Sea's unit
# on Ireland (266,402 against Ireland's 266,398); this point lies in open water between
# Ireland and Wales, inside the Irish Sea's outline (checked below).
UNIT_POINTS = {"iri": (280.0, 435.0)}

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
TOKEN = re.compile(r"[MmLlHhVvCcZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def literal(value):
    """A value as stored: JSON, or a Python literal inside a string ("None", "{'x': 1}")."""
    if isinstance(value, str):
        try:
            return ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return value
    return value


def parse_path(text):
    """An SVG path (M m L l H h V v C c Z z) as absolute subpaths.

    Each subpath is a list of segments: ("L", (x, y)) or ("C", (x1, y1), (x2, y2), (x, y)),
    the first an ("M", (x, y)); a closed subpath ends with ("Z",)."""
    tokens = TOKEN.findall(text)
    subpaths, current = [], None
    x = y = start_x = start_y = 0.0
    command = None
    i = 0

    def number():
        nonlocal i
        value = float(tokens[i])
        i += 1
        return value

    while i < len(tokens):
        if re.fullmatch(r"[A-Za-z]", tokens[i]):
            command = tokens[i]
            i += 1
            if command in "Zz":
                if current is not None:
                    current.append(("Z",))
                x, y = start_x, start_y
                continue
        elif command is None:
            raise ValueError("path starts with a number: " + text[:40])
        relative = command.islower()
        c = command.upper()
        if c == "M":
            nx, ny = number(), number()
            if relative:
                nx, ny = x + nx, y + ny
            x, y = start_x, start_y = nx, ny
            current = [("M", (x, y))]
            subpaths.append(current)
            # Further pairs after a moveto are linetos.
            command = "l" if relative else "L"
        elif c == "L":
            nx, ny = number(), number()
            if relative:
                nx, ny = x + nx, y + ny
            x, y = nx, ny
            current.append(("L", (x, y)))
        elif c == "H":
            nx = number()
            x = x + nx if relative else nx
            current.append(("L", (x, y)))
        elif c == "V":
            ny = number()
            y = y + ny if relative else ny
            current.append(("L", (x, y)))
        elif c == "C":
            pts = [(number(), number()) for _ in range(3)]
            if relative:
                pts = [(x + px, y + py) for px, py in pts]
            current.append(("C",) + tuple(pts))
            x, y = pts[2]
        else:
            raise ValueError("unsupported path command " + command)
    return subpaths


def fmt(v):
    """One decimal, no trailing `.0`, no `-0`: stable, compact numbers."""
    s = "%.1f" % v
    if s.endswith(".0"):
        s = s[:-2]
    if s == "-0":
        s = "0"
    return s


def write_path(subpaths):
    out = []
    for sub in subpaths:
        for seg in sub:
            if seg[0] == "Z":
                out.append("Z")
            else:
                out.append(seg[0] + " ".join(fmt(px) + " " + fmt(py) for px, py in seg[1:]))
    return "".join(out)


def points_of(subpaths):
    """The vertices of every subpath (curve end points only: enough for a polygon test)."""
    return [[seg[-1] for seg in sub if seg[0] != "Z"] for sub in subpaths]


def inside(point, subpaths):
    """Even-odd point-in-polygon over all subpaths (curves taken as chords)."""
    px, py = point
    hit = False
    for poly in points_of(subpaths):
        for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1]):
            if (ay > py) != (by > py):
                cross = ax + (py - ay) * (bx - ax) / (by - ay)
                if px < cross:
                    hit = not hit
    return hit


def standard_codes():
    codes = {}
    with open(PROVINCES_CSV, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split(",")
            codes[fields[0]] = {"terrain": fields[2], "centre": bool(fields[3]),
                                "coasts": fields[4].split() if fields[4] else []}
    return codes


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: scripts/convert-board.py SOURCE.json [OUT.json] (SOURCE: svg-diplomacy's classic.json)")
    source = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else DEFAULT_OUT
    with open(source, encoding="utf-8") as f:
        data = json.load(f)
    height = float(data["height"])
    standard = standard_codes()

    def flip(point):
        point = literal(point)
        if point is None:
            return None
        return (float(point["x"]), height - float(point["y"]))

    by_id = {}
    for space in data["spaces"]:
        by_id[int(literal(space["id"]))] = space

    provinces = {}
    coasts = []
    for space in data["spaces"]:
        abbrev = literal(space["abbrev"]).strip()
        kind = literal(space["type"])
        m = re.fullmatch(r"([A-Z]{3}) \((NC|SC|EC)\)", abbrev)
        if m:
            coasts.append((m.group(1), m.group(2).lower(), flip(space["drawUnit"])))
            continue
        path = literal(space["path"])
        if isinstance(path, str):
            path = [path]
        # One outline per source string: a string's subpaths may cut holes (lakes) in
        # each other under the nonzero rule, so strings are not merged.
        outlines = [parse_path(p) for p in path]
        subpaths = [s for o in outlines for s in o]
        if abbrev in IMPASSABLE:
            code, kind = abbrev.lower(), "impassable"
            if code in standard:
                raise SystemExit("impassable area %s collides with a province" % code)
        else:
            code = CODES.get(abbrev, abbrev.lower())
            if code not in standard:
                raise SystemExit("%s (%s) is not a standard province" % (abbrev, code))
            want = "sea" if standard[code]["terrain"] == "sea" else "land"
            if kind != want:
                raise SystemExit("%s is %s in the source, %s in the map" % (code, kind, want))
        provinces[code] = {
            "name": literal(space["name"]),
            "kind": kind,
            "subpaths": subpaths,
            "outlines": outlines,
            "unit": UNIT_POINTS.get(code, flip(space["drawUnit"])),
            "centre": flip(space["supply"]),
        }

    for parent, coast, point in coasts:
        code = CODES.get(parent, parent.lower())
        provinces[code].setdefault("coasts", {})[coast] = point

    missing = sorted(set(standard) - set(provinces))
    if missing:
        raise SystemExit("no drawing for " + ", ".join(missing))
    for code, info in standard.items():
        p = provinces[code]
        if info["centre"] != (p["centre"] is not None):
            raise SystemExit("%s: centre point disagrees with the map" % code)
        if sorted(info["coasts"]) != sorted(p.get("coasts", {})):
            raise SystemExit("%s: coasts disagree with the map" % code)

    # Every point must lie inside its own outline, and a sea's points on no land (seas are
    # drawn beneath land: the Irish Sea's outline runs under Ireland, which is how its
    # source point came to stand on Ireland).
    land = [(c, p) for c, p in provinces.items() if p["kind"] != "sea"]
    for code, p in provinces.items():
        if p["kind"] == "impassable":
            continue
        points = [("unit", p["unit"])] + [(c, pt) for c, pt in p.get("coasts", {}).items()]
        if p["centre"] is not None:
            points.append(("centre", p["centre"]))
        for what, point in points:
            if not inside(point, p["subpaths"]) and what in ("unit", "centre"):
                raise SystemExit("%s: %s point %r is outside its outline" % (code, what, point))
            if p["kind"] == "sea":
                for other, q in land:
                    if inside(point, q["subpaths"]):
                        raise SystemExit("%s: %s point %r lies on %s" % (code, what, point, other))

    out = {
        "source": "svg-diplomacy classic.json (MIT, (c) 2014 Hawken Rives), converted by "
                  "scripts/convert-board.py",
        "width": int(data["width"]),
        "height": int(data["height"]),
        "provinces": {},
    }
    for code in sorted(provinces):
        p = provinces[code]
        entry = {"kind": p["kind"], "paths": [write_path(o) for o in p["outlines"]]}
        if p["kind"] != "impassable":
            entry["unit"] = [round(v, 1) for v in p["unit"]]
        if p.get("coasts"):
            entry["coasts"] = {c: [round(v, 1) for v in pt] for c, pt in sorted(p["coasts"].items())}
        if p["centre"] is not None:
            entry["centre"] = [round(v, 1) for v in p["centre"]]
        out["provinces"][code] = entry

    with open(out_path, "w", encoding="utf-8") as f:
        f.write("{\n")
        f.write('  "source": %s,\n' % json.dumps(out["source"]))
        f.write('  "width": %d,\n  "height": %d,\n' % (out["width"], out["height"]))
        f.write('  "provinces": {\n')
        lines = ['    %s: %s' % (json.dumps(c), json.dumps(e, separators=(",", ":")))
                 for c, e in out["provinces"].items()]
        f.write(",\n".join(lines))
        f.write("\n  }\n}\n")
    print("wrote %d provinces to %s" % (len(out["provinces"]), out_path), file=sys.stderr)


if __name__ == "__main__":
    main()
