//! The reading of a Tokens Studio document's tokens with a set of sets
//! on: references resolved, math evaluated, values in DTCG form.

use super::values::*;
use super::*;

pub(super) struct Reader<'w, 'd> {
    pub(super) written: &'w [Written<'d>],
    /// Math evaluated, by the sets on and the token's name.
    pub(super) cache: HashMap<(Vec<usize>, String), Result<Quantity, String>>,
    /// Tokens that refer to a token with no DTCG form, by name: why.
    pub(super) left_out: HashMap<String, String>,
    /// Each name's tokens, as indexes into `written`, in order.
    pub(super) by_name: HashMap<String, Vec<usize>>,
    /// Sets referred to but not published (`source` in every theme).
    pub(super) hidden: HashSet<usize>,
    /// How deep [`Reader::inlined`] is.
    pub(super) inlining: usize,
    /// What is found wrong in an unpublished token where a reference
    /// inlines it: its place and why, said once.
    pub(super) notes: Vec<(String, String)>,
}

/// The names of tokens with no DTCG form (a `composition`, a typography
/// without a font family or size), and of every token that refers to one,
/// with why each of the latter is left out.
pub(super) fn left_out(written: &[Written<'_>]) -> HashMap<String, String> {
    let mut gone: HashMap<String, String> = HashMap::new();
    for w in written {
        let ty = w.ty.as_deref().unwrap_or("");
        let partial = ty == "typography"
            && w.value
                .as_object()
                .is_some_and(|o| !o.contains_key("fontFamily") || !o.contains_key("fontSize"));
        if ty == "composition" || partial {
            gone.insert(w.path.join("."), String::new());
        }
    }
    loop {
        let mut more = Vec::new();
        for w in written {
            let name = w.path.join(".");
            if gone.contains_key(&name) {
                continue;
            }
            let mut refs = Vec::new();
            references_in(&old_references_in(w.value), &mut refs, 0);
            if let Some(r) = refs.into_iter().find(|r| gone.contains_key(r)) {
                more.push((
                    name,
                    format!("it refers to `{{{r}}}`, which has no DTCG form; left out"),
                ));
            }
        }
        if more.is_empty() {
            return gone;
        }
        gone.extend(more);
    }
}

impl<'d> Reader<'_, 'd> {
    pub(super) fn lookup(&self, on: &[usize], name: &str) -> Option<usize> {
        self.by_name
            .get(name)?
            .iter()
            .copied()
            .filter(|i| on.contains(&self.written[*i].set))
            .max_by_key(|i| (self.written[*i].set, *i))
    }

    /// The tokens of the sets `own`, merged in set order, as DTCG, their
    /// math evaluated with the sets `on`; each token's pointer under `at`
    /// with its source pointer.
    pub(super) fn tree(
        &mut self,
        own: &[usize],
        on: &[usize],
        at: &str,
        d: &mut FileDiags<'_>,
        said: &mut HashSet<String>,
    ) -> (Map<String, Value>, Vec<(String, String)>) {
        let mut tree = Map::new();
        let mut tokens: BTreeMap<Vec<String>, String> = BTreeMap::new();
        let written = self.written;
        let hidden = self.hidden.clone();
        for w in written
            .iter()
            .filter(|w| own.contains(&w.set) && !hidden.contains(&w.set))
        {
            let name = w.path.join(".");
            let value = match self.computed(on, w).then_some(()) {
                Some(_) => match self.math(on, &name) {
                    Ok(q) => Some(q),
                    Err(why) => {
                        if said.insert(w.at.clone()) {
                            let at = member(&w.at, "value", w);
                            d.push(Code::LeftOutMath, &at, format!("{why}; {LEFT_OUT}"));
                        }
                        continue;
                    }
                },
                None => None,
            };
            if let Some(why) = self.left_out.get(&name).filter(|why| !why.is_empty()) {
                if said.insert(w.at.clone()) {
                    d.push(Code::LeftOutDependent, &w.at, why.clone());
                }
                continue;
            }
            let token = self.token(on, w, value);
            if let Some((code, why)) = left_out_of(&token) {
                if said.insert(w.at.clone()) {
                    d.push(code, &w.at, why);
                }
                continue;
            }
            insert(&mut tree, &w.path, token);
            tokens.insert(w.path.clone(), w.at.clone());
        }
        self.drain(d, said);
        let tokens = tokens
            .into_iter()
            .map(|(path, source)| (path.iter().fold(at.to_string(), |p, s| join(&p, s)), source))
            .collect();
        (tree, tokens)
    }

    /// What was found wrong in unpublished tokens, said once each.
    pub(super) fn drain(&mut self, d: &mut FileDiags<'_>, said: &mut HashSet<String>) {
        for (at, why) in std::mem::take(&mut self.notes) {
            if said.insert(at.clone()) {
                d.push(Code::LeftOutMath, &at, why);
            }
        }
    }

    /// Every published token that the sets `on` apply, by name: its
    /// index in `written` and its DTCG form there.
    pub(super) fn published(&mut self, on: &[usize]) -> BTreeMap<String, (usize, Value)> {
        let names: Vec<String> = self
            .by_name
            .keys()
            .filter(|n| self.left_out.get(*n).is_none_or(|why| why.is_empty()))
            .cloned()
            .collect();
        let mut out = BTreeMap::new();
        for name in names {
            let Some(i) = self.lookup(on, &name) else {
                continue;
            };
            if self.hidden.contains(&self.written[i].set) {
                continue;
            }
            let w = &self.written[i];
            let evaluated = match expression_of(w) {
                Some(_) => match self.math(on, &name) {
                    Ok(q) => Some(q),
                    Err(_) => continue,
                },
                None => None,
            };
            let token = self.token(on, w, evaluated);
            if token.get("$left-out").is_none() {
                out.insert(name, (i, token));
            }
        }
        out
    }

    /// True when a token's value is computed by the reader: an
    /// expression.
    pub(super) fn computed(&self, _on: &[usize], w: &Written<'_>) -> bool {
        expression_of(w).is_some()
    }

    /// The DTCG type of the token an alias names, when it is a number
    /// where the alias says dimension or the other way: Style Dictionary
    /// gives the alias its target's value as built, so it takes that type.
    pub(super) fn target_type(&self, on: &[usize], ty: &str, text: &str) -> Option<&'static str> {
        let i = self.lookup(on, text.trim_matches(['{', '}']))?;
        let theirs = self.written[i].ty.as_deref().unwrap_or("");
        let family = |t: &str| dtcg_type(t, &Value::Null);
        let numeric = |t: Option<&str>| matches!(t, Some("number" | "dimension"));
        (numeric(family(ty)) && numeric(family(theirs)) && family(theirs) != family(ty))
            .then(|| family(theirs))
            .flatten()
    }

    /// The number a token stands for with the sets `on`: its literal, its
    /// reference's, or its expression's.
    pub(super) fn math(&mut self, on: &[usize], name: &str) -> Result<Quantity, String> {
        let key = (on.to_vec(), name.to_string());
        if let Some(v) = self.cache.get(&key) {
            return v.clone();
        }
        // A cycle reads as an error, not a loop.
        self.cache
            .insert(key.clone(), Err(format!("`{{{name}}}` refers to itself")));
        let result = self.number_of(on, name);
        self.cache.insert(key, result.clone());
        result
    }

    pub(super) fn number_of(&mut self, on: &[usize], name: &str) -> Result<Quantity, String> {
        let Some(i) = self.lookup(on, name) else {
            return Err(format!("reference `{{{name}}}` does not name a token"));
        };
        let w = &self.written[i];
        let text = match w.value {
            Value::Number(n) => {
                return Ok(Quantity {
                    value: n.as_f64().unwrap_or(0.0),
                    unit: String::new(),
                })
            }
            Value::String(s) => s.clone(),
            _ => return Err(format!("`{{{name}}}` is not a number")),
        };
        let written = w.value.as_str().unwrap_or("").to_string();
        let expression = expression_of(w).is_some();
        let ty = w.ty.clone().unwrap_or_default();
        let mut q =
            self.eval_text(on, &text)
                .map_err(|why| match why.starts_with("reference") {
                    true => why,
                    false => format!("`{written}` does not evaluate: {why}"),
                })?;
        // As sd-transforms builds a token before another's math uses it:
        // its math rounded to 4 decimals, a bare size in px.
        if expression {
            q.value = (q.value * 1e4).round() / 1e4;
        }
        if q.unit.is_empty()
            && dtcg_type(&ty, &Value::Null) == Some("dimension")
            && ty != "letterSpacing"
        {
            q.unit = "px".into();
        }
        Ok(q)
    }

    /// A token in DTCG form; `evaluated` is its expression's value. A
    /// token with no DTCG form carries `$left-out` with why.
    pub(super) fn token(
        &mut self,
        on: &[usize],
        w: &Written<'_>,
        evaluated: Option<Quantity>,
    ) -> Value {
        let ty = w.ty.as_deref().unwrap_or("");
        let mut out = Map::new();
        let (dtcg, value) = match evaluated {
            Some(q) => quantity(ty, q),
            None => self.convert(on, ty, w.value),
        };
        if let Some(why) = nested_left_out(&value) {
            return json!({"$left-out": why});
        }
        let value = match (w.modify, dtcg) {
            (Some(m), Some("color")) => match self.modified(on, &value, m) {
                Ok(c) => c,
                Err(why) => {
                    return left_out_value(
                        Code::LeftOutNoDtcgForm,
                        format!("its colour modifier cannot be applied: {why}; left out"),
                    )
                }
            },
            _ => value,
        };
        if let Some(t) = dtcg {
            out.insert("$type".into(), json!(t));
        }
        // `rgba({colour}, a)`: the colour at alpha `a`, still its alias.
        match value.get("$alias-alpha") {
            Some(a) => {
                out.insert("$value".into(), value["$value"].clone());
                out.insert("alpha".into(), a.clone());
            }
            None => {
                out.insert("$value".into(), value);
            }
        }
        if let Some(desc) = w.description.filter(|s| !s.is_empty()) {
            out.insert("$description".into(), json!(desc));
        }
        Value::Object(out)
    }

    /// A value of Tokens Studio type `ty` as DTCG: its type and value.
    pub(super) fn convert(
        &mut self,
        on: &[usize],
        ty: &str,
        v: &Value,
    ) -> (Option<&'static str>, Value) {
        if ty == "composition" {
            let why =
                "a `composition` token (several properties at once) has no DTCG form; left out";
            return (None, left_out_value(Code::LeftOutNoDtcgForm, why));
        }
        let dtcg = dtcg_type(ty, v);
        let value = match (ty, v) {
            (_, Value::String(_)) | (_, Value::Number(_)) => return self.value(on, ty, v, true),
            ("boxShadow", Value::Array(layers)) => {
                Value::Array(layers.iter().map(|l| self.shadow(on, l)).collect())
            }
            ("boxShadow", Value::Object(_)) => self.shadow(on, v),
            ("typography", Value::Object(o)) => {
                let mut t = Map::new();
                for (k, ty) in [
                    ("fontFamily", "fontFamilies"),
                    ("fontWeight", "fontWeights"),
                    ("fontSize", "fontSizes"),
                    ("lineHeight", "lineHeights"),
                    ("letterSpacing", "letterSpacing"),
                ] {
                    match o.get(k) {
                        Some(x) if x.as_str().is_some_and(|s| s.eq_ignore_ascii_case("auto")) => {}
                        Some(x) => {
                            t.insert(k.into(), self.part(on, ty, x).1);
                        }
                        None => {}
                    }
                }
                for k in ["fontFamily", "fontSize"] {
                    if !t.contains_key(k) {
                        let why = format!("a typography without `{k}` has no DTCG form; left out");
                        return (None, left_out_value(Code::LeftOutNoDtcgForm, why));
                    }
                }
                Value::Object(t)
            }
            ("border", Value::Object(o)) => {
                let mut b = Map::new();
                for (k, t) in [
                    ("color", "color"),
                    ("width", "borderWidth"),
                    ("style", "other"),
                ] {
                    if let Some(x) = o.get(k) {
                        b.insert(k.into(), self.part(on, t, x).1);
                    }
                }
                Value::Object(b)
            }
            _ => v.clone(),
        };
        (dtcg, value)
    }

    /// A Tokens Studio shadow layer as DTCG's.
    pub(super) fn shadow(&mut self, on: &[usize], v: &Value) -> Value {
        let Some(o) = v.as_object() else {
            return v.clone();
        };
        let mut s = Map::new();
        if let Some(c) = o.get("color") {
            s.insert("color".into(), self.part(on, "color", c).1);
        }
        for (theirs, ours) in [
            ("x", "offsetX"),
            ("y", "offsetY"),
            ("blur", "blur"),
            ("spread", "spread"),
        ] {
            let x = o.get(theirs).cloned().unwrap_or(json!(0));
            s.insert(ours.into(), self.part(on, "dimension", &x).1);
        }
        if o.get("type").and_then(Value::as_str) == Some("innerShadow") {
            s.insert("inset".into(), json!(true));
        }
        Value::Object(s)
    }

    /// A single value of type `ty`: a reference as it is, an expression
    /// evaluated (its references with the sets `on`), `rgba({c}, a)` the
    /// colour at that alpha, else the literal in the form sd-transforms'
    /// css transforms give it.
    pub(super) fn part(
        &mut self,
        on: &[usize],
        ty: &str,
        v: &Value,
    ) -> (Option<&'static str>, Value) {
        self.value(on, ty, v, false)
    }

    /// [`Reader::part`], or a token's whole value (`whole`).
    pub(super) fn value(
        &mut self,
        on: &[usize],
        ty: &str,
        v: &Value,
        whole: bool,
    ) -> (Option<&'static str>, Value) {
        if v.is_number() && matches!(dtcg_type(ty, v), Some("string") | None) {
            return (Some("number"), v.clone());
        }
        let text = match v {
            Value::Number(n) => n.to_string(),
            Value::String(s) => old_references(s.trim()),
            other => return (dtcg_type(ty, other), other.clone()),
        };
        if is_reference(&text) {
            let target = text.trim_matches(['{', '}']);
            if let Some(i) = self
                .lookup(on, target)
                .filter(|i| self.hidden.contains(&self.written[*i].set))
            {
                return self.inlined(on, ty, i, whole);
            }
            let ty = self.target_type(on, ty, &text).or(dtcg_type(ty, v));
            return (ty, json!(text));
        }
        if ty == "color" {
            if let Some((target, alpha)) = alias_alpha(&text) {
                let unpublished = self
                    .lookup(on, target.trim_matches(['{', '}']))
                    .is_some_and(|i| self.hidden.contains(&self.written[i].set));
                if !whole || unpublished {
                    // A composite's part cannot alias at an alpha: the
                    // colour it paints.
                    let name = target.trim_matches(['{', '}']).to_string();
                    if let Some(c) = self.literal_colour(on, &name, 0) {
                        return (Some("color"), with_alpha(c, alpha));
                    }
                }
                return (
                    Some("color"),
                    json!({"$value": target, "$alias-alpha": alpha}),
                );
            }
            if text.starts_with("linear-gradient(") || text.starts_with("radial-gradient(") {
                return (Some("gradient"), json!(text));
            }
        }
        if is_numeric(ty) && math::is_expression(&text.replace(['{', '}'], "")) {
            if let Ok(q) = self.eval_text(on, &text) {
                return quantity(ty, q);
            }
        }
        // A font list that names a token (`{font.base}, sans-serif`): the
        // families that token holds, in its place.
        if ty == "fontFamilies" && text.contains(',') && text.contains('{') && self.inlining < 32 {
            let mut families = Vec::new();
            for item in text.split(',').map(str::trim) {
                if is_reference(item) {
                    self.inlining += 1;
                    let target = self
                        .lookup(on, item.trim_matches(['{', '}']))
                        .map(|i| self.written[i].value);
                    let resolved = target.map(|v| self.value(on, ty, v, false).1);
                    self.inlining -= 1;
                    match resolved {
                        Some(Value::String(s)) if !is_reference(&s) => families.push(json!(s)),
                        Some(Value::Array(a)) => families.extend(a),
                        _ => families.push(json!(item)),
                    }
                } else {
                    families.push(json!(item.trim_matches(['"', '\''])));
                }
            }
            return (Some("fontFamily"), Value::Array(families));
        }
        leaf(ty, &text)
    }

    /// A colour with Tokens Studio's modifier applied, as sd-transforms'
    /// `ts/color/modifiers` applies it: `lighten` and `darken` (in srgb a
    /// mix with white or black; in hsl the lightness moved that fraction
    /// of the way to 100 or 0), `mix` with another colour (srgb), `alpha`.
    /// Its amount may be math or a reference.
    pub(super) fn modified(
        &mut self,
        on: &[usize],
        value: &Value,
        m: &Value,
    ) -> Result<Value, String> {
        // A modifier written as a reference to a token holding one.
        let m = match m.as_str().map(|s| old_references(s.trim())) {
            Some(r) if is_reference(&r) => {
                let i = self
                    .lookup(on, r.trim_matches(['{', '}']))
                    .ok_or_else(|| format!("reference `{r}` does not name a token"))?;
                self.written[i].value
            }
            _ => m,
        };
        let colour = |reader: &mut Self, v: &Value| -> Option<([f64; 3], f64)> {
            let c = match v {
                Value::String(s) if is_reference(s) => {
                    reader.literal_colour(on, s.trim_matches(['{', '}']), 0)?
                }
                Value::String(s) => color(s)?,
                other => other.clone(),
            };
            let rgb: Vec<f64> = c
                .get("components")?
                .as_array()?
                .iter()
                .filter_map(Value::as_f64)
                .collect();
            let rgb: [f64; 3] = rgb.try_into().ok()?;
            Some((rgb, c.get("alpha").and_then(Value::as_f64).unwrap_or(1.0)))
        };
        let (rgb, alpha) = colour(self, value).ok_or("its colour is no sRGB colour")?;
        let amount = match m.get("value") {
            Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0),
            Some(Value::String(s)) => self.eval_text(on, s)?.value,
            _ => return Err("it has no `value`".into()),
        };
        let space = m.get("space").and_then(Value::as_str).unwrap_or("srgb");
        let towards = |rgb: [f64; 3], to: f64| rgb.map(|c| c + (to - c) * amount);
        let (rgb, alpha) = match (m.get("type").and_then(Value::as_str), space) {
            (Some("alpha"), _) => (rgb, amount),
            (Some("lighten"), "srgb") => (towards(rgb, 1.0), alpha),
            (Some("darken"), "srgb") => (towards(rgb, 0.0), alpha),
            (Some(t @ ("lighten" | "darken")), "hsl") => {
                let [h, s, l] = crate::color::srgb_to_hsl(rgb);
                let l = match t {
                    "lighten" => (l + (100.0 - l) * amount).min(100.0),
                    _ => (l - l * amount).max(0.0),
                };
                (crate::color::to_srgb("hsl", [h, s, l]).ok_or("hsl")?, alpha)
            }
            (Some("mix"), "srgb") => {
                let other = m.get("color").ok_or("a mix without `color`")?;
                let (to, to_alpha) = colour(self, other).ok_or("its `color` is no sRGB colour")?;
                let mixed = [0, 1, 2].map(|i| rgb[i] + (to[i] - rgb[i]) * amount);
                (mixed, alpha + (to_alpha - alpha) * amount)
            }
            (t, space) => {
                return Err(format!(
                    "`{}` in `{space}` is not read yet",
                    t.unwrap_or("?")
                ))
            }
        };
        Ok(srgb(rgb.map(|c| c.clamp(0.0, 1.0)), alpha.clamp(0.0, 1.0)))
    }

    /// The colour literal the token `name` resolves to with the sets `on`,
    /// its modifier (and its target's) applied.
    pub(super) fn literal_colour(
        &mut self,
        on: &[usize],
        name: &str,
        depth: usize,
    ) -> Option<Value> {
        let w = &self.written[self.lookup(on, name)?];
        let (modify, text) = (w.modify, old_references(w.value.as_str()?.trim()));
        let c = match is_reference(&text) {
            true if depth < 32 => {
                self.literal_colour(on, text.trim_matches(['{', '}']), depth + 1)?
            }
            true => return None,
            false => match alias_alpha(&text) {
                Some((target, alpha)) if depth < 32 => self
                    .literal_colour(on, target.trim_matches(['{', '}']), depth + 1)
                    .map(|c| with_alpha(c, alpha))?,
                _ => color(&text)?,
            },
        };
        match modify {
            Some(m) => self.modified(on, &c, m).ok(),
            None => Some(c),
        }
    }

    /// The value of the token `i` of an unpublished set, where a reference
    /// names it (`ty`: the referring token's type, when it has one).
    pub(super) fn inlined(
        &mut self,
        on: &[usize],
        ty: &str,
        i: usize,
        whole: bool,
    ) -> (Option<&'static str>, Value) {
        let w = &self.written[i];
        let own = w.ty.clone().unwrap_or_default();
        let ty = if own.is_empty() { ty.to_string() } else { own };
        if expression_of(w).is_some() {
            let name = w.path.join(".");
            match self.math(on, &name) {
                Ok(q) => return quantity(&ty, q),
                Err(why) => {
                    let at = member(&w.at, "value", w);
                    self.notes.push((at, format!("{why}; {LEFT_OUT}")));
                    let why = format!(
                        "it refers to `{{{name}}}`, whose math does not evaluate; left out"
                    );
                    return (None, left_out_value(Code::LeftOutDependent, why));
                }
            }
        }
        if ty == "color" {
            if let Some(c) = self.literal_colour(on, &w.path.join("."), 0) {
                return (Some("color"), c);
            }
        }
        let value = w.value;
        self.inlining += 1;
        let out = match self.inlining > 32 {
            true => (dtcg_type(&ty, value), value.clone()),
            false => match whole {
                true => self.convert(on, &ty, value),
                false => self.value(on, &ty, value, false),
            },
        };
        self.inlining -= 1;
        out
    }

    /// `text` evaluated, its references replaced by their numbers.
    pub(super) fn eval_text(&mut self, on: &[usize], text: &str) -> Result<Quantity, String> {
        let mut text = old_references(text);
        for (span, target) in references(&text).into_iter().rev() {
            let q = self.math(on, &target)?;
            text.replace_range(span, &format!("({}{})", q.value, q.unit));
        }
        math::evaluate(&text)
    }
}
