//! YAML 1.2 (core schema) as JSON text whose values keep their lines and,
//! where JSON's punctuation leaves room, their columns.

use super::{Out, SyntaxError, MAX_EXPANDED_VALUES};

/// YAML 1.2 (core schema) as JSON text: the first document; an alias is
/// the JSON of its anchor's node, counted in full against
/// [`MAX_EXPANDED_VALUES`].
pub(super) fn yaml(text: &str, notes: &mut Vec<SyntaxError>) -> Result<String, SyntaxError> {
    use saphyr_parser::{Event, Parser};
    let mut out = Out::new();
    // Per open collection: is it a mapping, and how many entries
    // (keys and values, or items) it has had.
    let mut stack: Vec<(bool, usize)> = Vec::new();
    // Anchors: their JSON, once their node ends; open ones by where they began.
    let mut anchors: std::collections::HashMap<usize, String> = Default::default();
    let mut open: Vec<(usize, usize, usize)> = Vec::new(); // (anchor, depth, start)
    let mut values = 0usize;
    let mut documents = 0;
    let chars: Vec<char> = text.chars().collect();
    let lines: Vec<&str> = text.lines().collect();
    // The line of the last key: an empty value after it may be a `#`
    // that YAML read as a comment.
    let mut key_line = 0usize;
    let error = |line: usize, col: usize, message: String| SyntaxError {
        line: line as u32,
        column: col as u32 + 1,
        message,
    };
    for event in Parser::new_from_str(text) {
        let (event, span) =
            event.map_err(|e| error(e.marker().line(), e.marker().col(), e.info().to_string()))?;
        let (line, col) = (span.start.line() as u32, span.start.col() as u32 + 1);
        // Before a node: the separator its place in the parent needs.
        let node = matches!(
            event,
            Event::Scalar(..)
                | Event::SequenceStart(..)
                | Event::MappingStart(..)
                | Event::Alias(..)
        );
        if node {
            if documents > 1 {
                return Err(error(
                    span.start.line(),
                    span.start.col(),
                    "a file holds one YAML document; this is a second".into(),
                ));
            }
            values += 1;
            if let Some((mapping, n)) = stack.last_mut() {
                let key = *mapping && *n % 2 == 0;
                if *mapping && !key {
                    out.push(":");
                } else if *n > 0 {
                    out.push(",");
                }
                *n += 1;
                if key && !matches!(event, Event::Scalar(..)) {
                    return Err(error(
                        span.start.line(),
                        span.start.col(),
                        "a key must be text, not a list or a mapping".into(),
                    ));
                }
            }
        }
        let key = stack.last().is_some_and(|(m, n)| *m && n % 2 == 1);
        match event {
            Event::DocumentStart(_) => documents += 1,
            Event::MappingStart(anchor, _) | Event::SequenceStart(anchor, _) => {
                let mapping = matches!(event, Event::MappingStart(..));
                // A flow collection's bracket where it is; a block
                // mapping's before its first key, whose quote goes just
                // before the key (see below).
                let block = mapping && chars.get(span.start.index()) != Some(&'{');
                out.at(
                    line,
                    if block {
                        col.saturating_sub(2).max(1)
                    } else {
                        col
                    },
                );
                if anchor > 0 {
                    open.push((anchor, stack.len(), out.text.len()));
                }
                out.push(if mapping { "{" } else { "[" });
                stack.push((mapping, 0));
            }
            Event::MappingEnd | Event::SequenceEnd => {
                let (mapping, n) = stack.pop().unwrap_or((false, 0));
                if mapping && n % 2 == 1 {
                    out.push(":null");
                }
                out.push(if mapping { "}" } else { "]" });
                while let Some(&(anchor, depth, start)) = open.last() {
                    if depth != stack.len() {
                        break;
                    }
                    open.pop();
                    anchors.insert(anchor, compact(&out.text[start..]));
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                let plain = style == saphyr_parser::ScalarStyle::Plain
                    && tag.as_ref().is_none_or(|t| t.suffix != "str");
                // A plain key's quote goes just before it, so that its
                // value, after `":`, starts where it does in the file.
                if key && style == saphyr_parser::ScalarStyle::Plain {
                    out.at(line, col.saturating_sub(1).max(1));
                } else {
                    out.at(line, col);
                }
                let start = out.text.len();
                if key {
                    key_line = span.start.line();
                    out.string(&value);
                } else {
                    if plain && matches!(value.as_ref(), "" | "~") {
                        notes.extend(commented_out(&lines, key_line));
                    }
                    scalar(&mut out, &value, plain);
                }
                if anchor > 0 {
                    anchors.insert(anchor, out.text[start..].to_string());
                }
            }
            Event::Alias(anchor) => {
                let Some(json) = anchors.get(&anchor) else {
                    let e = "an alias names no anchor before it";
                    return Err(error(span.start.line(), span.start.col(), e.into()));
                };
                values += count(json);
                out.at(line, col);
                if !repeat(&mut out, json, key) {
                    let e = "a key must be text";
                    return Err(error(span.start.line(), span.start.col(), e.into()));
                }
            }
            _ => {}
        }
        if values > MAX_EXPANDED_VALUES {
            return Err(error(
                span.start.line(),
                span.start.col(),
                format!("the file stands for more than {MAX_EXPANDED_VALUES} values once its aliases are expanded; it is not read"),
            ));
        }
    }
    if out.text.trim().is_empty() {
        out.push("null");
    }
    Ok(out.text)
}

/// Writes an anchor's JSON where an alias repeats it; as a key, only text
/// may be repeated (false otherwise).
fn repeat(out: &mut Out, json: &str, key: bool) -> bool {
    if !key {
        out.push(json);
        return true;
    }
    match serde_json::from_str::<serde_json::Value>(json) {
        Ok(serde_json::Value::String(s)) => {
            out.string(&s);
            true
        }
        _ => false,
    }
}

/// A value scalar as JSON: a plain one by the core schema, any other a
/// string.
fn scalar(out: &mut Out, value: &str, plain: bool) {
    match core_schema(value).filter(|_| plain) {
        Some(json) => out.push(&json),
        None => out.string(value),
    }
}

/// The note for an empty value on the line of its key (1-based) when that
/// line shows an unquoted `#` after the colon: a comment ate the value.
fn commented_out(lines: &[&str], key_line: usize) -> Option<SyntaxError> {
    let said = lines.get(key_line.wrapping_sub(1)).copied().unwrap_or("");
    let at = said.find(": #").or_else(|| said.find(":\t#"))?;
    Some(SyntaxError {
        line: key_line as u32,
        column: said[..at].chars().count() as u32 + 3,
        message:
            "this value is empty: an unquoted `#` starts a comment in YAML; quote it (`\"#fff\"`)"
                .into(),
    })
}

/// The JSON a plain YAML scalar stands for under the core schema, when it
/// is not a string.
fn core_schema(s: &str) -> Option<String> {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Some("null".into()),
        "true" | "True" | "TRUE" => return Some("true".into()),
        "false" | "False" | "FALSE" => return Some("false".into()),
        _ => {}
    }
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    let negative = s.starts_with('-');
    if let Some(oct) = s.strip_prefix("0o") {
        return i64::from_str_radix(oct, 8).ok().map(|v| v.to_string());
    }
    if let Some(hex) = s.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16).ok().map(|v| v.to_string());
    }
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        let trimmed = digits.trim_start_matches('0');
        let n = if trimmed.is_empty() { "0" } else { trimmed };
        return Some(if negative && n != "0" {
            format!("-{n}")
        } else {
            n.to_string()
        });
    }
    let float = digits.bytes().any(|b| b.is_ascii_digit())
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'));
    if float {
        let v: f64 = s.parse().ok()?;
        return serde_json::Number::from_f64(v).map(|n| n.to_string());
    }
    None
}

/// `json` on one line (an anchor's node, to repeat at an alias).
fn compact(json: &str) -> String {
    serde_json::from_str::<serde_json::Value>(json)
        .map(|v| v.to_string())
        .unwrap_or_else(|_| json.replace('\n', " "))
}

/// How many values `json` holds (an alias's cost).
fn count(json: &str) -> usize {
    crate::spec::json::count_values(json).max(1)
}
