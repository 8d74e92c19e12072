//! A shadow's layers and a gradient's stops as Figma variables: Figma has
//! no composite variable, so each member it can bind is one.

use super::{Builder, Placement};
use crate::spec::tokens::{Item, Token, TokenType, TokenValue};

/// The layers of a shadow or the stops of a gradient, each member a
/// variable Figma can bind (an effect's colour, offsets, blur and spread;
/// a stop's colour), named by position when there are several
/// (`elevation/card/1/blur`). An aliased element stands for the elements
/// of the token it names. Dev Mode shows the whole token's property.
pub(super) fn layers(b: &mut Builder<'_>, t: &Token, at: &Placement<'_>) {
    let set = b.set;
    // Each mode's elements, resolved in the context the mode stands for.
    let per_mode: Vec<(String, Vec<Element>)> = at
        .modes
        .iter()
        .map(|(mode, x)| (mode.clone(), elements(b, mode, &x.value, 0)))
        .collect();
    let count = per_mode.first().map_or(0, |(_, m)| m.len());
    let web = format!("var(--{})", set.var_name(&t.path));
    for i in 0..count {
        let keys: Vec<(&'static str, TokenType)> = per_mode[0].1[i]
            .iter()
            .map(|(k, ty, _)| (*k, *ty))
            .collect();
        for (key, ty) in keys {
            let mut path = t.path.clone();
            if count > 1 {
                path.push(i.to_string());
            }
            path.push(key.to_string());
            let values: Vec<(String, Option<TokenValue>)> = per_mode
                .iter()
                .map(|(mode, m)| {
                    let v = m.get(i).and_then(|e| e.iter().find(|(k, _, _)| *k == key));
                    (mode.clone(), v.map(|(_, _, v)| v.clone()))
                })
                .collect();
            let description = t.description.as_ref();
            let Ok(v) = b.add(
                t,
                &path,
                ty,
                at.collection,
                &values,
                description,
                web.clone(),
            ) else {
                continue;
            };
            v.scopes = match (t.ty, ty) {
                (TokenType::Shadow, TokenType::Color) => vec!["EFFECT_COLOR"],
                (TokenType::Shadow, _) => vec!["EFFECT_FLOAT"],
                (_, TokenType::Color) => vec!["ALL_FILLS"],
                _ => vec![],
            };
        }
    }
}

/// A shadow layer or a gradient stop: its members, each with its type.
type Element = Vec<(&'static str, TokenType, TokenValue)>;

/// A shadow's layers or a gradient's stops as (member, type, value) lists,
/// aliased elements replaced by the elements they name in Figma mode
/// `mode`'s context.
fn elements(b: &Builder<'_>, mode: &str, value: &TokenValue, depth: usize) -> Vec<Element> {
    let value = match b.resolve(mode, value) {
        Some(v) if depth < 8 => v,
        _ => return Vec::new(),
    };
    // An aliased element stands for the elements its target has here.
    let aliased =
        |target: &String| elements(b, mode, &TokenValue::Alias(target.clone()), depth + 1);
    let mut out = Vec::new();
    match &value {
        TokenValue::Shadow(items) => {
            for item in items {
                match item {
                    Item::Alias(target) => out.extend(aliased(target)),
                    Item::Literal(l) => out.push(vec![
                        ("color", TokenType::Color, l.color.clone()),
                        ("offsetX", TokenType::Dimension, l.offset_x.clone()),
                        ("offsetY", TokenType::Dimension, l.offset_y.clone()),
                        ("blur", TokenType::Dimension, l.blur.clone()),
                        ("spread", TokenType::Dimension, l.spread.clone()),
                    ]),
                }
            }
        }
        TokenValue::Gradient(items) => {
            for item in items {
                match item {
                    Item::Alias(target) => out.extend(aliased(target)),
                    Item::Literal(s) => out.push(vec![
                        ("color", TokenType::Color, s.color.clone()),
                        ("position", TokenType::Number, s.position.clone()),
                    ]),
                }
            }
        }
        _ => {}
    }
    out
}
