"""An independent reading of a DTCG Resolver Module 2025.10 document: one
permutation merged in `resolutionOrder`, aliases resolved after merging,
and every colour token's value as sRGB bytes. It shares nothing with
marque's Rust reader, so the tests can hold marque's tokens.css to it.

    python3 resolve_colours.py RESOLVER.json [MODIFIER=CONTEXT ...]

prints {"colors": {"dotted.token.name": [r, g, b, alpha], ...},
"dimensions": {"dotted.token.name": px, ...}, "fontSizes": {typography
token: px}, "fonts": {fontFamily token: [family, ...]}}: r, g and b from
0 to 255 (unrounded; a colour outside sRGB clipped to it), alpha from 0
to 1; dimensions in px or rem as pixels (16 to the rem), others left out. A modifier not named on the command line is at
its `default` context, or its first.
"""

import colorsys
import json
import os
import sys


def pointer(doc, ptr):
    for part in [p for p in ptr.split("/") if p != ""]:
        doc = doc[part.replace("~1", "/").replace("~0", "~")]
    return doc


def load(base, ref, root, cache):
    """The tokens a source `$ref` names."""
    path, _, frag = ref.partition("#")
    if path == "":
        return pointer(root, frag)
    if path not in cache:
        with open(os.path.join(base, path)) as f:
            cache[path] = json.load(f)
    return pointer(cache[path], frag)


def sources_of(item, base, root, cache):
    """The token trees of a set or context entry, expanded."""
    out = []
    for s in item:
        if isinstance(s, dict) and "$ref" in s and len(s) == 1:
            target = load(base, s["$ref"], root, cache)
            if s["$ref"].startswith("#/sets/"):
                out += sources_of(target["sources"], base, root, cache)
            else:
                out.append(target)
        else:
            out.append(s)
    return out


def merge(into, tree):
    for k, v in tree.items():
        if k == "$schema":
            continue
        is_group = isinstance(v, dict) and "$value" not in v and not k.startswith("$")
        if is_group and isinstance(into.get(k), dict) and "$value" not in into[k]:
            merge(into[k], v)
        elif is_group:
            into[k] = {}
            merge(into[k], v)
        else:
            into[k] = v


def tokens(tree, path=(), ty=None):
    """(dotted name, token, inherited $type) of every token."""
    ty = tree.get("$type", ty)
    for k, v in tree.items():
        if not isinstance(v, dict) or (k.startswith("$") and k != "$root"):
            continue
        if "$value" in v:
            yield ".".join(path + (k,)), v, v.get("$type", ty)
        else:
            yield from tokens(v, path + (k,), ty)


def srgb(value):
    """[r, g, b, alpha] of a literal colour, or None."""
    if isinstance(value, str) and value.startswith("#"):
        h = value[1:]
        if len(h) in (3, 4):
            h = "".join(c * 2 for c in h)
        rgb = [int(h[i : i + 2], 16) for i in (0, 2, 4)]
        alpha = int(h[6:8], 16) / 255 if len(h) == 8 else 1.0
        return rgb + [alpha]
    if not isinstance(value, dict) or "colorSpace" not in value:
        return None
    c = value["components"]
    alpha = value.get("alpha", 1.0)
    if value["colorSpace"] == "srgb":
        return [x * 255 for x in c] + [alpha]
    if value["colorSpace"] == "hsl":
        r, g, b = colorsys.hls_to_rgb(c[0] / 360, c[2] / 100, c[1] / 100)
        return [r * 255, g * 255, b * 255, alpha]
    if value["colorSpace"] in ("oklch", "oklab", "display-p3"):
        return [encode(x) * 255 for x in linear_srgb(value["colorSpace"], c)] + [alpha]
    raise ValueError(f"colour space {value['colorSpace']} is not read here")


def encode(x):
    """sRGB's transfer function, clipped to the gamut."""
    x = min(max(x, 0.0), 1.0)
    return 12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055


def decode(x):
    return x / 12.92 if abs(x) <= 0.04045 else ((abs(x) + 0.055) / 1.055) ** 2.4


def linear_srgb(space, c):
    """Linear sRGB of an OKLCH, OKLab or Display P3 colour (CSS Color 4's
    matrices), unclipped."""
    if space == "display-p3":
        r, g, b = (decode(x) for x in c)
        x = 0.4865709 * r + 0.2656677 * g + 0.1982173 * b
        y = 0.2289746 * r + 0.6917385 * g + 0.0792869 * b
        z = 0.0000000 * r + 0.0451134 * g + 1.0439444 * b
        return [
            3.2409699 * x - 1.5373832 * y - 0.4986108 * z,
            -0.9692436 * x + 1.8759675 * y + 0.0415551 * z,
            0.0556301 * x - 0.2039770 * y + 1.0569715 * z,
        ]
    if space == "oklch":
        import math
        l, ch, h = c
        c = [l, ch * math.cos(math.radians(h)), ch * math.sin(math.radians(h))]
    l, a, b = c
    l_ = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3
    m_ = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3
    s_ = (l - 0.0894841775 * a - 1.2914855480 * b) ** 3
    return [
        4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
        -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
        -0.0041960863 * l_ - 0.7034186147 * m_ + 1.7076147010 * s_,
    ]


def main():
    file = sys.argv[1]
    chosen = dict(a.split("=", 1) for a in sys.argv[2:])
    base = os.path.dirname(file)
    with open(file) as f:
        root = json.load(f)
    cache = {}
    merged = {}
    for step in root["resolutionOrder"]:
        ref = step["$ref"]
        target = pointer(root, ref.partition("#")[2])
        if ref.startswith("#/sets/"):
            entries = target["sources"]
        else:
            name = ref.rsplit("/", 1)[1]
            contexts = target["contexts"]
            context = chosen.get(name, target.get("default", next(iter(contexts))))
            entries = contexts[context]
        for tree in sources_of(entries, base, root, cache):
            merge(merged, tree)
    by_name = {name: (token, ty) for name, token, ty in tokens(merged)}

    def resolve(name, seen=()):
        token, _ = by_name[name]
        value = token["$value"]
        if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
            target = value[1:-1]
            if target in seen:
                raise ValueError(f"alias cycle at {name}")
            return resolve(target, seen + (name,))
        colour = srgb(value)
        # A numeric `alpha` beside a literal colour is its alpha (DESIGN 14).
        if colour is not None and isinstance(token.get("alpha"), (int, float)):
            colour[3] = token["alpha"]
        return colour

    def resolved(name, seen=()):
        value = by_name[name][0]["$value"]
        if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
            return resolved(value[1:-1], seen + (name,))
        return value

    def px(value):
        if isinstance(value, str) and value.startswith("{"):
            value = resolved(value[1:-1])
        if isinstance(value, dict) and value.get("unit") in ("px", "rem"):
            return value["value"] * (16 if value["unit"] == "rem" else 1)
        return None

    colors, dimensions, font_sizes, fonts = {}, {}, {}, {}
    for name, (token, ty) in by_name.items():
        if ty == "typography":
            value = resolved(name)
            size = px(value.get("fontSize")) if isinstance(value, dict) else None
            if size is not None:
                font_sizes[name] = size
            continue
        if ty == "fontFamily":
            value = resolved(name)
            fonts[name] = value if isinstance(value, list) else [value]
            continue
        if ty in (None, "color"):
            value = resolve(name)
            if value is not None:
                colors[name] = value
        elif ty == "dimension":
            value = resolved(name)
            if isinstance(value, dict) and value.get("unit") in ("px", "rem"):
                dimensions[name] = value["value"] * (16 if value["unit"] == "rem" else 1)
    json.dump(
        {"colors": colors, "dimensions": dimensions, "fontSizes": font_sizes, "fonts": fonts},
        sys.stdout,
    )


main()
