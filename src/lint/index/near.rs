//! PURE. The nearest names to one the brand does not publish: edit
//! distance (Myers' bit-parallel form) against every name of its kind,
//! with words in any order as near as in theirs, and a bound on letters
//! that leaves most names unmeasured.

/// A name's words (split at `-`, `_` and `.`) sorted and joined by `-`:
/// `--color-fg-default` is `--fg-color-default` misremembered, and both
/// have the same words. As long as the name.
pub(super) fn words(s: &str) -> String {
    let mut w: Vec<&str> = s.split(['-', '_', '.']).collect();
    w.sort_unstable();
    w.join("-")
}

/// A name the nearest-name search measures, with what it needs of it
/// made once: its `words` and its [`Letters`].
#[derive(Debug)]
pub(super) struct Candidate {
    name: String,
    words: String,
    letters: Option<Letters>,
    token: usize,
}

impl Candidate {
    pub(super) fn new(name: &str, token: usize) -> Candidate {
        Candidate {
            name: name.to_string(),
            words: words(name),
            letters: Letters::of(name),
            token,
        }
    }
}

/// The three candidates' tokens nearest `name` (edit distance, with words
/// in any order as near as in theirs); ties in name order, so the answer
/// does not depend on a map's order. Candidates are measured nearest by
/// their letters ([`Letters`]) first, so the best are found early, and
/// measuring stops at the first whose letters alone put it further than
/// the third best (every one after it is as far). The sort is stable:
/// two tokens' candidates of one name keep their order, as ties do.
pub(super) fn closest(candidates: Vec<&Candidate>, name: &str) -> Vec<usize> {
    let sorted = words(name);
    let (plain, sorted) = (Pattern::new(name), Pattern::new(&sorted));
    let letters = Letters::of(name);
    let mut order: Vec<(usize, &Candidate)> = candidates
        .into_iter()
        .map(|c| match (&letters, &c.letters) {
            (Some(l), Some(o)) => (l.bound(o), c),
            _ => (0, c),
        })
        .collect();
    order.sort_by_key(|(bound, _)| *bound);
    // The best, nearest first: (distance, name, token), one per token.
    let mut best: Vec<(usize, &str, usize)> = Vec::new();
    for (bound, c) in order {
        if best.get(2).is_some_and(|third| bound > third.0) {
            break;
        }
        let (k, kw, i) = (c.name.as_str(), c.words.as_str(), c.token);
        let d = plain.distance(k).min(sorted.distance(kw));
        if let Some(at) = best.iter().position(|b| b.2 == i) {
            if (d, k) >= (best[at].0, best[at].1) {
                continue;
            }
            best.remove(at);
        }
        let at = best.partition_point(|b| (b.0, b.1) < (d, k));
        if at < 3 {
            best.insert(at, (d, k, i));
            best.truncate(3);
        }
    }
    best.into_iter().map(|b| b.2).collect()
}

/// How many of each letter an ASCII name has, some letters counted
/// together (case, digits in pairs, every other byte as one): a lower
/// bound of the edit distance between two names that is cheap to take.
/// An edit takes at most one surplus letter away from each side, so the
/// distance is at least the larger surplus; counting letters together
/// only lowers a surplus. `words` moves words and turns `_` and `.` into
/// `-`, all counted together, so it bounds the distance of two names'
/// `words` alike.
#[derive(Debug)]
struct Letters([u8; 32]);

impl Letters {
    /// `None` for a name that is not ASCII (its distance is in characters).
    fn of(name: &str) -> Option<Letters> {
        if !name.is_ascii() {
            return None;
        }
        let mut n = [0u8; 32];
        for b in name.bytes() {
            let at = match b {
                b'a'..=b'z' => b - b'a',
                b'A'..=b'Z' => b - b'A',
                b'0'..=b'9' => 26 + (b - b'0') / 2,
                _ => 31,
            };
            // Saturating only ever lowers a surplus: still a lower bound.
            n[usize::from(at)] = n[usize::from(at)].saturating_add(1);
        }
        Some(Letters(n))
    }

    /// The larger of the two names' surpluses of letters: at most their
    /// edit distance.
    fn bound(&self, other: &Letters) -> usize {
        let (mut more, mut fewer) = (0usize, 0usize);
        for (a, b) in self.0.iter().zip(&other.0) {
            more += usize::from(a.saturating_sub(*b));
            fewer += usize::from(b.saturating_sub(*a));
        }
        more.max(fewer)
    }
}

/// A name to measure many others against: for an ASCII name of 1 to 64
/// bytes, the bit masks of Myers' bit-parallel edit distance (Hyyrö's
/// form), made once, so each measure is one pass over the other name
/// with a few word operations per byte; else `strsim`'s table.
struct Pattern<'a> {
    text: &'a str,
    masks: Option<Box<[u64; 256]>>,
}

impl<'a> Pattern<'a> {
    fn new(text: &'a str) -> Pattern<'a> {
        let fits = (1..=64).contains(&text.len()) && text.is_ascii();
        let masks = fits.then(|| {
            let mut m = Box::new([0u64; 256]);
            for (at, b) in text.bytes().enumerate() {
                m[usize::from(b)] |= 1 << at;
            }
            m
        });
        Pattern { text, masks }
    }

    /// The Levenshtein distance (in characters) from `other`.
    fn distance(&self, other: &str) -> usize {
        let Some(masks) = self.masks.as_deref().filter(|_| other.is_ascii()) else {
            return strsim::levenshtein(self.text, other);
        };
        let last = 1u64 << (self.text.len() - 1);
        let (mut pv, mut mv, mut score) = (!0u64, 0u64, self.text.len());
        for b in other.bytes() {
            let eq = masks[usize::from(b)];
            let xv = eq | mv;
            let xh = ((eq & pv).wrapping_add(pv) ^ pv) | eq;
            let ph = mv | !(xh | pv);
            let mh = pv & xh;
            if ph & last != 0 {
                score += 1;
            } else if mh & last != 0 {
                score -= 1;
            }
            let ph = (ph << 1) | 1;
            let mh = mh << 1;
            pv = mh | !(xv | ph);
            mv = ph & xv;
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bit_parallel_distance_is_levenshteins() {
        // Empty, one byte, 64 bytes (the widest mask), 65 and non-ASCII
        // (measured by strsim), and names of a brand.
        let mut names: Vec<String> = [
            "",
            "a",
            "color-fg-default",
            "fg-color-default",
            "button-default-bgColor-rest",
            "button-default-bg-color-rest",
            "borderColor-translucent",
            "couleur-é",
        ]
        .map(String::from)
        .to_vec();
        names.push("x".repeat(63) + "y");
        names.push("x".repeat(65));
        for a in &names {
            let p = Pattern::new(a);
            for b in &names {
                assert_eq!(p.distance(b), strsim::levenshtein(a, b), "{a:?} {b:?}");
            }
        }
    }

    /// Names of a brand's kinds, misspelled and not, to hold the fast
    /// paths to their plain definitions.
    fn sample_names() -> Vec<String> {
        let mut names: Vec<String> = [
            "color-fg-default",
            "fg-color-default",
            "color-default-fg",
            "button-default-bgColor-rest",
            "button-default-bg-color-rest",
            "borderColor-translucent",
            "border_color.translucent",
            "color-fg-muted",
            "color-fg-defaults",
            "space-gap",
            "gap-space",
            "fontSize-12",
            "font-size-21",
            "zIndex-99",
            "a",
            "",
            "couleur-é",
            "shadow-resting-small",
            "shadow-floating-large",
            "overlay-bgColor",
        ]
        .map(String::from)
        .to_vec();
        names.push("x".repeat(300) + "y");
        names.push("x".repeat(290) + "yz");
        names
    }

    #[test]
    fn the_letter_bound_is_never_above_the_distance_of_names_or_their_words() {
        let names = sample_names();
        for a in &names {
            for b in &names {
                let (Some(la), Some(lb)) = (Letters::of(a), Letters::of(b)) else {
                    continue;
                };
                assert!(la.bound(&lb) <= strsim::levenshtein(a, b), "{a:?} {b:?}");
                let (wa, wb) = (words(a), words(b));
                assert!(
                    la.bound(&lb) <= strsim::levenshtein(&wa, &wb),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn the_nearest_names_are_those_of_measuring_every_name() {
        // The plain definition: every candidate measured, the nearest
        // three tokens by (distance, name).
        fn plain(cands: &[(String, String, usize)], name: &str) -> Vec<usize> {
            let mut all: Vec<(usize, &str, usize)> = cands
                .iter()
                .map(|(k, kw, i)| {
                    let d = strsim::levenshtein(name, k).min(strsim::levenshtein(&words(name), kw));
                    (d, k.as_str(), *i)
                })
                .collect();
            all.sort();
            let mut out: Vec<usize> = Vec::new();
            for (_, _, i) in all {
                if !out.contains(&i) && out.len() < 3 {
                    out.push(i);
                }
            }
            out
        }
        let names = sample_names();
        // Two names a token, for some tokens: one per token in the answer.
        let cands: Vec<(String, String, usize)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), words(n), i / 2))
            .collect();
        let made: Vec<Candidate> = cands
            .iter()
            .map(|(k, _, i)| Candidate::new(k, *i))
            .collect();
        for name in names
            .iter()
            .chain(&["colr-fg-defualt".to_string(), "bg".to_string()])
        {
            let list = made.iter().collect();
            assert_eq!(closest(list, name), plain(&cands, name), "{name:?}");
        }
    }

    #[test]
    fn the_nearest_names_are_by_distance_then_name_one_per_token() {
        let cands = [
            ("color-fg-muted", 0),
            ("color-fg-default", 1),
            ("color-fg-defaults", 1),
            ("fg-color-default", 2),
            ("space-gap", 3),
        ]
        .map(|(k, i)| Candidate::new(k, i));
        // Words in another order are as near as in theirs; token 1 once.
        assert_eq!(
            closest(cands.iter().collect(), "color-default-fg"),
            [1, 2, 0]
        );
    }
}
