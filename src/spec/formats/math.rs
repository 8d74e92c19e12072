//! Tokens Studio's math, as its toolchain evaluates it (`expr-eval` in
//! the plugin, `checkAndEvaluateMath` in `@tokens-studio/sd-transforms`):
//! numbers with an optional unit, `+ - * / ^` (`^` binds tightest and to
//! the right), unary minus, parentheses and the functions `round`,
//! `roundTo(x, digits)`, `floor`, `ceil`, `abs`, `sqrt`, `min`, `max` and
//! `pow`. A result has the unit its operands had: one unit throughout (or
//! none); two different units do not evaluate.

/// A number and its unit (`""` for none).
#[derive(Debug, Clone, PartialEq)]
pub struct Quantity {
    pub value: f64,
    pub unit: String,
}

const UNITS: &[&str] = &[
    "px", "rem", "em", "%", "ms", "s", "pt", "dp", "vw", "vh", "deg",
];

/// Evaluates `text`, whose references are already replaced by values.
pub fn evaluate(text: &str) -> Result<Quantity, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        unit: None,
        depth: 0,
    };
    let v = p.sum()?;
    p.space();
    if p.i < p.s.len() {
        return Err(format!("`{}` is not arithmetic", &text[p.i..]));
    }
    if !v.is_finite() {
        return Err("the result is not a finite number".into());
    }
    Ok(Quantity {
        value: v,
        unit: p.unit.unwrap_or_default(),
    })
}

struct Parser<'s> {
    s: &'s [u8],
    i: usize,
    unit: Option<String>,
    depth: usize,
}

impl Parser<'_> {
    fn space(&mut self) {
        while self.s.get(self.i).is_some_and(u8::is_ascii_whitespace) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.space();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            return true;
        }
        false
    }

    fn sum(&mut self) -> Result<f64, String> {
        let mut v = self.product()?;
        loop {
            if self.eat(b'+') {
                v += self.product()?;
            } else if self.eat(b'-') {
                v -= self.product()?;
            } else {
                return Ok(v);
            }
        }
    }

    fn product(&mut self) -> Result<f64, String> {
        let mut v = self.power()?;
        loop {
            if self.eat(b'*') {
                v *= self.power()?;
            } else if self.eat(b'/') {
                v /= self.power()?;
            } else {
                return Ok(v);
            }
        }
    }

    fn power(&mut self) -> Result<f64, String> {
        let base = self.unary()?;
        if self.eat(b'^') {
            let exp = self.power()?;
            return Ok(base.powf(exp));
        }
        Ok(base)
    }

    fn unary(&mut self) -> Result<f64, String> {
        if self.eat(b'-') {
            return Ok(-self.unary()?);
        }
        if self.eat(b'+') {
            return self.unary();
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<f64, String> {
        self.depth += 1;
        if self.depth > 64 {
            return Err("the expression nests too deep".into());
        }
        let v = self.atom_inner();
        self.depth -= 1;
        v
    }

    fn atom_inner(&mut self) -> Result<f64, String> {
        self.space();
        if self.eat(b'(') {
            let v = self.sum()?;
            if !self.eat(b')') {
                return Err("a parenthesis is not closed".into());
            }
            return Ok(v);
        }
        let start = self.i;
        while self.s.get(self.i).is_some_and(u8::is_ascii_alphabetic) {
            self.i += 1;
        }
        if self.i > start {
            let name = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
            return self.call(name);
        }
        while self
            .s
            .get(self.i)
            .is_some_and(|c| c.is_ascii_digit() || *c == b'.')
        {
            self.i += 1;
        }
        // An exponent (`1e2`, `2.5E-3`), not a unit that starts with `e`.
        if self.i > start && matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            let digits_at = match self.s.get(self.i + 1) {
                Some(b'+' | b'-') => self.i + 2,
                _ => self.i + 1,
            };
            if self.s.get(digits_at).is_some_and(u8::is_ascii_digit) {
                self.i = digits_at;
                while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
                    self.i += 1;
                }
            }
        }
        if self.i == start {
            return Err(match self.s.get(self.i) {
                Some(c) => format!("`{}` is not arithmetic", *c as char),
                None => "the expression ends too early".into(),
            });
        }
        let number = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        let v: f64 = number
            .parse()
            .map_err(|_| format!("`{number}` is not a number"))?;
        // A unit written straight after the number (only the next few
        // bytes are looked at: the whole rest would make a long
        // expression quadratic).
        let rest = &self.s[self.i..];
        if let Some(unit) = UNITS.iter().find(|u| {
            rest.starts_with(u.as_bytes())
                && !rest.get(u.len()).is_some_and(|c| c.is_ascii_alphabetic())
        }) {
            self.i += unit.len();
            match &self.unit {
                Some(u) if u != unit => {
                    return Err(format!("`{u}` and `{unit}` cannot be combined"));
                }
                _ => self.unit = Some(unit.to_string()),
            }
        }
        Ok(v)
    }

    fn call(&mut self, name: &str) -> Result<f64, String> {
        if !self.eat(b'(') {
            return Err(format!("`{name}` is not arithmetic"));
        }
        let mut args = vec![self.sum()?];
        while self.eat(b',') {
            args.push(self.sum()?);
        }
        if !self.eat(b')') {
            return Err(format!("`{name}(` is not closed"));
        }
        let one = |f: fn(f64) -> f64| match args.as_slice() {
            [x] => Ok(f(*x)),
            _ => Err(format!("`{name}` takes one argument")),
        };
        match name {
            "round" => one(f64::round),
            "floor" => one(f64::floor),
            "ceil" => one(f64::ceil),
            "abs" => one(f64::abs),
            "sqrt" => one(f64::sqrt),
            "roundTo" => match args.as_slice() {
                [x] => Ok(x.round()),
                [x, digits] => {
                    let f = 10f64.powi(*digits as i32);
                    Ok((x * f).round() / f)
                }
                _ => Err("`roundTo` takes one or two arguments".into()),
            },
            "pow" => match args.as_slice() {
                [x, y] => Ok(x.powf(*y)),
                _ => Err("`pow` takes two arguments".into()),
            },
            "min" => Ok(args.into_iter().fold(f64::INFINITY, f64::min)),
            "max" => Ok(args.into_iter().fold(f64::NEG_INFINITY, f64::max)),
            other => Err(format!(
                "`{other}` is not a function of Tokens Studio's math"
            )),
        }
    }
}

/// True when `text` is an expression rather than a single value: an
/// operator between operands, or a function call.
pub fn is_expression(text: &str) -> bool {
    let t = text.trim();
    if t.is_empty() {
        return false;
    }
    let body = t.strip_prefix('-').unwrap_or(t);
    body.contains(['*', '/', '+', '^', '('])
        || body
            .char_indices()
            .any(|(i, c)| c == '-' && i > 0 && body[..i].ends_with([' ', ')', '}']))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> (f64, String) {
        let v = evaluate(s).unwrap();
        ((v.value * 1e6).round() / 1e6, v.unit)
    }

    #[test]
    fn arithmetic_functions_and_units() {
        assert_eq!(q("16 * 2"), (32.0, "".into()));
        assert_eq!(q("4px * 2 + 1px"), (9.0, "px".into()));
        assert_eq!(q("(1 + 2) * 3"), (9.0, "".into()));
        assert_eq!(q("2^3^2"), (512.0, "".into()));
        assert_eq!(q("-2 * -3"), (6.0, "".into()));
        assert_eq!(q("round(2.5)"), (3.0, "".into()));
        assert_eq!(q("roundTo(1.23456, 2)"), (1.23, "".into()));
        assert_eq!(q("roundTo(16*1.25^2)"), (25.0, "".into()));
        assert_eq!(q("min( max( 3,  4) ,2)"), (2.0, "".into()));
        assert_eq!(q("5*roundTo((18*1.2^(-3/5)/5),1)"), (16.0, "".into()));
        assert_eq!(q("floor(1.5rem * 3)"), (4.0, "rem".into()));
        assert!(evaluate("1px + 1rem").is_err());
        assert!(evaluate("1 +").is_err());
        assert!(evaluate("foo(1)").is_err());
        assert!(is_expression("{a} * 2") && is_expression("round(1)") && is_expression("{a}-{b}"));
        assert!(!is_expression("16px") && !is_expression("-4") && !is_expression("#fff"));
    }

    #[test]
    fn scientific_notation_reads_and_em_stays_a_unit() {
        assert_eq!(q("2 * 1e2"), (200.0, "".into()));
        assert_eq!(q("pow(10, 1e2) / 1e99"), (10.0, "".into()));
        assert_eq!(q("2.5E-1 * 4"), (1.0, "".into()));
        assert_eq!(q("1em * 2"), (2.0, "em".into()));
        assert_eq!(q("1e2px"), (100.0, "px".into()));
    }

    #[test]
    fn a_long_expression_evaluates_in_one_pass() {
        // 500,000 terms: quadratic work would keep this test for minutes.
        let long = format!("{}1", "1+".repeat(500_000));
        assert_eq!(q(&long), (500_001.0, "".into()));
    }
}
