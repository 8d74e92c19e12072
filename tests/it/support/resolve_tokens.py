"""An independent reading of a DTCG Resolver Module 2025.10 document: one
permutation merged in `resolutionOrder`, aliases resolved after merging,
and every colour token's value as sRGB bytes. It shares nothing with
marque's Rust reader, so the tests can hold marque's tokens.css to it.

    python3 resolve_colours.py RESOLVER.json [MODIFIER=CONTEXT ...]

prints {"colors": {"dotted.token.name": [r, g, b, alpha], ...},
"dimensions": {"dotted.token.name": px, ...}}: r, g and b from 0 to 255
(unrounded), alpha from 0 to 1; dimensions in px or rem as pixels (16 to
the rem), others left out. A modifier not named on the command line is at
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
    raise ValueError(f"colour space {value['colorSpace']} is not read here")


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

    colors, dimensions = {}, {}
    for name, (token, ty) in by_name.items():
        if ty in (None, "color"):
            value = resolve(name)
            if value is not None:
                colors[name] = value
        elif ty == "dimension":
            value = resolved(name)
            if isinstance(value, dict) and value.get("unit") in ("px", "rem"):
                dimensions[name] = value["value"] * (16 if value["unit"] == "rem" else 1)
    json.dump({"colors": colors, "dimensions": dimensions}, sys.stdout)


main()
