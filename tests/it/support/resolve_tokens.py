"""An independent reading of a DTCG Resolver Module 2025.10 document: one
permutation merged in `resolutionOrder`, aliases resolved after merging,
and every colour token's value as sRGB bytes. It shares nothing with
marque's Rust reader, so the tests can hold marque's surfaces to it.

    python3 resolve_tokens.py RESOLVER.json [MODIFIER=CONTEXT ...]

prints one JSON object:

- "colors": {"dotted.token.name": [r, g, b, alpha]}: r, g and b from 0 to
  255 (unrounded; a colour outside sRGB clipped to it), alpha from 0 to 1;
- "dimensions": {name: px}: dimensions in px or rem as pixels (16 to the
  rem), others left out;
- "fontSizes": {typography token: px};
- "fonts": {fontFamily token: [family, ...]} and "typographyFonts":
  {typography token: [family, ...]};
- "shadows": {name: [{"color": [r, g, b, alpha] or null, "x", "y", "blur",
  "spread": px, "inset": bool}, ...]}: shadow tokens, and strings that
  read as a CSS shadow once their references are resolved (a layer
  without a colour is null: CSS paints it in `currentcolor`);
- "borders": {name: {"color": [r, g, b, alpha], "width": px, "style": s}};
- "strings": {name: text}: string values with `{references}` inside, each
  reference replaced by its target's value as CSS would write it.

A modifier not named on the command line is at its `default` context, or
its first.

The readings DESIGN.md section 14 asks for, as Primer's own build makes
them: a numeric `alpha` beside a colour `$value` is that colour's alpha,
also beside an alias, where it replaces the alpha of the colour the alias
reaches (along a chain of aliases, the alpha nearest the token read wins;
a token aliasing such a token has its alpha too); `{references}` inside a
string are resolved; a fontFamily written as one string is a CSS list of
families. With MARQUE_REFERENCE_NO_ALIAS_ALPHA=1 an `alpha` beside an
alias is ignored (only a literal colour's counts), to show what a reader
without that rule gives.
"""

import colorsys
import json
import math
import os
import re
import sys

NO_ALIAS_ALPHA = os.environ.get("MARQUE_REFERENCE_NO_ALIAS_ALPHA") == "1"
ALIAS = re.compile(r"^\{([^{}]+)\}$")
REF = re.compile(r"\{([^{}]+)\}")


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


def alias(value):
    """The token a whole-value alias `{a.b}` names, or None."""
    m = ALIAS.match(value) if isinstance(value, str) else None
    return m.group(1) if m else None


def number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def split_top(text, sep):
    """`text` split at `sep` outside quotes and parentheses."""
    parts, depth, quote, cur = [], 0, None, ""
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and (ch == sep or (sep == " " and ch.isspace())):
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip() != ""]


def css_families(text):
    """A CSS font-family list as its families, quotes taken off."""
    out = []
    for part in split_top(text, ","):
        if len(part) >= 2 and part[0] == part[-1] and part[0] in "'\"":
            part = part[1:-1]
        out.append(part)
    return out


def css_colour(text):
    """[r, g, b, alpha] of a hex or rgb()/rgba() colour in CSS text, or None."""
    if text.startswith("#") and len(text) in (4, 5, 7, 9):
        try:
            return srgb(text)
        except ValueError:
            return None
    m = re.fullmatch(r"rgba?\(([^)]*)\)", text)
    if not m:
        return None
    n = [float(x) for x in re.split(r"[\s,/]+", m.group(1).strip())]
    return n[:3] + [n[3] if len(n) > 3 else 1.0] if len(n) in (3, 4) else None


def references(tree):
    """Every token name referred to inside a token tree."""
    if isinstance(tree, dict):
        return set().union(*(references(v) for v in tree.values()), set())
    if isinstance(tree, list):
        return set().union(*(references(v) for v in tree), set())
    return set(REF.findall(tree)) if isinstance(tree, str) else set()


def read(root, chosen, base):
    """The merged token tree of one permutation. A set `resolutionOrder`
    leaves out but whose tokens the permutation refers to (Apple HIG's
    typography) is merged first, under everything listed, as marque's
    tolerant reading does."""
    cache = {}
    merged = ordered(root, chosen, base, cache, {})
    names = {name for name, _, _ in tokens(merged)}
    missing = references(merged) - names
    listed = {step["$ref"] for step in root["resolutionOrder"]}
    under = {}
    for name, s in root.get("sets", {}).items():
        if f"#/sets/{name}" in listed:
            continue
        trees = sources_of(s["sources"], base, root, cache)
        if any(n in missing for t in trees for n, _, _ in tokens(t)):
            for tree in trees:
                merge(under, tree)
    return ordered(root, chosen, base, cache, under) if under else merged


def ordered(root, chosen, base, cache, merged):
    """`merged` with the sets and contexts of `resolutionOrder` merged on top."""
    merged = json.loads(json.dumps(merged))
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
    return merged


class Reader:
    def __init__(self, by_name):
        self.by_name = by_name

    def value(self, name, seen=()):
        """A token's value, whole-value aliases followed."""
        if name in seen:
            raise ValueError(f"alias cycle at {name}")
        value = self.by_name[name][0]["$value"]
        target = alias(value)
        return self.value(target, seen + (name,)) if target else value

    def colour_of(self, name, seen=()):
        """A colour token's colour: its literal, or its alias's target's,
        with a numeric `alpha` beside its `$value` replacing the alpha (the
        one nearest `name` along the chain wins)."""
        if name in seen:
            raise ValueError(f"alias cycle at {name}")
        token = self.by_name[name][0]
        target = alias(token["$value"])
        colour = self.colour_of(target, seen + (name,)) if target else srgb(token["$value"])
        own = token.get("alpha")
        if colour is not None and number(own) and not (target and NO_ALIAS_ALPHA):
            colour = colour[:3] + [own]
        return colour

    def colour(self, value):
        """A colour written inside a composite: an alias or a literal."""
        target = alias(value)
        if target:
            return self.colour_of(target)
        if isinstance(value, str):
            return css_colour(value.strip())
        return srgb(value)

    def px(self, value):
        """A length as px: a dimension, an alias to one, `0`, or an older
        string form (`"2px"`, `"0.5rem"`)."""
        target = alias(value)
        if target:
            return self.px(self.value(target))
        if isinstance(value, dict) and value.get("unit") in ("px", "rem") and number(value.get("value")):
            return value["value"] * (16 if value["unit"] == "rem" else 1)
        if number(value) and value == 0:
            return 0
        if isinstance(value, str):
            m = re.fullmatch(r"(-?(?:\d+\.?\d*|\.\d+))(px|rem)?", value.strip())
            if m and (m.group(2) or float(m.group(1)) == 0):
                return float(m.group(1)) * (16 if m.group(2) == "rem" else 1)
        return None

    def families(self, value):
        target = alias(value)
        if target:
            return self.families(self.value(target))
        if isinstance(value, list):
            # An element may itself be a CSS font list (Primer's fontStack).
            return [f for item in value for f in css_families(str(item))]
        if isinstance(value, str):
            return css_families(value)
        return None

    def text(self, value):
        """A value as CSS would write it, references inside strings resolved."""
        target = alias(value)
        if target:
            return self.text(self.value(target))
        if isinstance(value, str):
            return REF.sub(lambda m: self.text(self.by_name[m.group(1)][0]["$value"]), value)
        if number(value):
            return str(value)
        colour = srgb(value) if isinstance(value, dict) and "colorSpace" in value else None
        if colour is not None:
            return "rgb({} {} {} / {})".format(*colour)
        if isinstance(value, dict) and "unit" in value:
            return f"{value['value']}{value['unit']}"
        raise ValueError(f"no text for {value!r}")

    def shadow_string(self, text):
        """The layers of a CSS shadow written as a string with references,
        or None when it does not read as one."""
        layers = []
        for layer in split_top(text, ","):
            out = {"color": None, "lengths": [], "inset": False}
            for word in split_top(layer, " "):
                target = alias(word)
                if target:
                    value = self.value(target)
                    colour = self.colour_of(target)
                    length = None if colour else self.px(value)
                elif word == "inset":
                    out["inset"], colour, length = True, None, None
                    continue
                else:
                    colour, length = css_colour(word), self.px(word)
                if colour is not None and out["color"] is None:
                    out["color"] = colour
                elif length is not None:
                    out["lengths"].append(length)
                else:
                    return None
            n = out.pop("lengths")
            if not 2 <= len(n) <= 4:
                return None
            n += [0] * (4 - len(n))
            layers.append(dict(out, x=n[0], y=n[1], blur=n[2], spread=n[3]))
        return layers or None

    def shadow(self, value):
        """A shadow token's layers, or None."""
        target = alias(value)
        if target:
            return self.shadow(self.value(target))
        if isinstance(value, str):
            return self.shadow_string(self.text(value)) if REF.search(value) else None
        layers = []
        for layer in value if isinstance(value, list) else [value]:
            target = alias(layer)
            if target:
                more = self.shadow(self.value(target))
                if more is None:
                    return None
                layers += more
                continue
            if not isinstance(layer, dict):
                return None
            colour = self.colour(layer.get("color"))
            n = [self.px(layer.get(k, 0)) for k in ("offsetX", "offsetY", "blur", "spread")]
            if colour is None or None in n:
                return None
            inset = layer.get("inset", False) is True
            layers.append({"color": colour, "x": n[0], "y": n[1], "blur": n[2], "spread": n[3], "inset": inset})
        return layers

    def border(self, value):
        target = alias(value)
        if target:
            return self.border(self.value(target))
        if not isinstance(value, dict):
            return None
        colour, width = self.colour(value.get("color")), self.px(value.get("width"))
        style = value.get("style")
        style = self.value(alias(style)) if alias(style) else style
        if colour is None or width is None or not isinstance(style, str):
            return None
        return {"color": colour, "width": width, "style": style}


def main():
    file = sys.argv[1]
    chosen = dict(a.split("=", 1) for a in sys.argv[2:])
    with open(file) as f:
        root = json.load(f)
    merged = read(root, chosen, os.path.dirname(file))
    by_name = {name: (token, ty) for name, token, ty in tokens(merged)}
    r = Reader(by_name)

    out = {k: {} for k in ("colors", "dimensions", "fontSizes", "fonts", "typographyFonts", "shadows", "borders", "strings")}
    for name, (token, ty) in by_name.items():
        raw = token["$value"]
        value = r.value(name)
        if isinstance(value, str) and REF.search(value):
            out["strings"][name] = r.text(value)
            shadow = r.shadow_string(out["strings"][name])
            if shadow is not None:
                out["shadows"][name] = shadow
            continue
        if ty == "typography":
            if isinstance(value, dict):
                size = r.px(value.get("fontSize"))
                if size is not None:
                    out["fontSizes"][name] = size
                families = r.families(value.get("fontFamily"))
                if families:
                    out["typographyFonts"][name] = families
        elif ty == "fontFamily":
            out["fonts"][name] = r.families(raw)
        elif ty in (None, "color"):
            colour = r.colour_of(name)
            if colour is not None:
                out["colors"][name] = colour
        elif ty == "dimension":
            if isinstance(value, dict) and value.get("unit") in ("px", "rem"):
                out["dimensions"][name] = r.px(value)
        elif ty == "shadow":
            shadow = r.shadow(value)
            if shadow is not None:
                out["shadows"][name] = shadow
        elif ty == "border":
            border = r.border(value)
            if border is not None:
                out["borders"][name] = border
    json.dump(out, sys.stdout)


main()
