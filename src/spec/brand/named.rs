//! Where a brand's tokens are read from ([`read_tokens`]): tokens.json or
//! tokens.resolver.json, or what its `brand.json` names (DESIGN 17): `"tokens":
//! "<path>"` or `{"path": "<path>", "format": "<format>"}`, a file in the
//! brand folder in any format marque reads. A resolver document is read as
//! one ([`super::resolved`]), with its sources in any format, and so is a
//! Style Dictionary config, as the resolver over what it names; any other
//! file is read by its format's reader, then as DTCG tokens, every
//! diagnostic placed in the file as it is written.

use super::setting::{named, Named};
use super::{check_css_names, enforce_limits, named_in, read_json, resolved};
use crate::spec::diag::{file_diagnostic, Code, Diagnostic, FileDiags, Severity};
use crate::spec::files::BrandFiles;
use crate::spec::formats::{self, Format};
use crate::spec::tokens::resolver::RESOLVER_FILE;
use crate::spec::tokens::{parse_tokens, TokenSet};
use serde_json::Value;
use std::collections::BTreeMap;

mod plan;
use plan::read_resolver_at;

/// The brand's tokens: the file brand.json names, else tokens.json or
/// tokens.resolver.json; read, limited, parsed, their CSS names checked.
pub(super) fn read_tokens(files: &BrandFiles, out: &mut Vec<Diagnostic>) -> Option<TokenSet> {
    match &files.lineage {
        crate::spec::Lineage::None => {}
        crate::spec::Lineage::Parents(_) => return resolved::read_family(files, out),
        // Why is said at brand.json's `extends`.
        crate::spec::Lineage::Broken(..) => return None,
    }
    match named(files, out) {
        Named::Default => {}
        Named::Broken => return None,
        Named::File { path, format } => {
            return read_named(files, &path, format, out);
        }
    }
    let slug = files.slug.as_str();
    let file = format!("{slug}/tokens.json");
    let resolver = files.get(RESOLVER_FILE).is_some();
    let Some(bytes) = files.get("tokens.json") else {
        if resolver {
            return read_resolver_at(files, RESOLVER_FILE, None, out);
        }
        if !named_in(&files.problems, &file) {
            out.push(file_diagnostic(
                Code::MissingFile,
                slug,
                &file,
                "missing tokens.json (or tokens.resolver.json): every brand needs its design tokens",
            ));
        }
        return None;
    };
    if resolver {
        out.push(file_diagnostic(
            Code::TwoTokenFiles,
            slug,
            &format!("{slug}/{RESOLVER_FILE}"),
            "the brand has both tokens.json and tokens.resolver.json: keep one (tokens.json for one set of tokens, the resolver for modes)",
        ));
        return None;
    }
    let (mut doc, text) = read_json(bytes, slug, &file, out)?;
    let mut d = FileDiags::new(slug, file);
    enforce_limits(&mut doc, &mut d);
    // Modes kept in a Figma export's paths, or inside values, are a
    // modifier's contexts.
    if let Some(converted) =
        formats::path_modes::read(&doc).or_else(|| formats::value_modes::read(&doc, &mut d))
    {
        d.finish(Some(text), out);
        return read_converted(files, "tokens.json", converted, text, out);
    }
    let set = parse_tokens(&doc, &mut d);
    if let Some(set) = &set {
        check_css_names(set, &mut d);
    }
    d.finish(Some(text), out);
    set
}

/// The tokens of the file at `path`, read in `format` or the one its
/// content shows.
pub(super) fn read_named(
    files: &BrandFiles,
    path: &str,
    format: Option<Format>,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let slug = files.slug.as_str();
    let file = format!("{slug}/{path}");
    let Some(bytes) = files.get(path) else {
        let folder = files
            .files()
            .keys()
            .any(|f| f.starts_with(&format!("{path}/")));
        if folder && format == Some(Format::FigmaExport)
            || folder && format.is_none() && is_figma_export(files, path)
        {
            return read_figma_export(files, path, out);
        }
        if folder && matches!(format, None | Some(Format::TokensStudio)) {
            return read_folder(files, path, out);
        }
        out.extend(super::setting::not_a_file(files, path, "a folder is read as a Tokens Studio sync or Figma's export, and this format from files: name a file, or a tokens.resolver.json that lists the files"));
        return None;
    };
    let (mut doc, text) = read_json(bytes, slug, &file, out)?;
    let mut d = FileDiags::new(slug, file.clone());
    enforce_limits(&mut doc, &mut d);
    if formats::sd_config::is_config(&doc) {
        return read_config(files, path, &doc, text, d, format, out);
    }
    if doc.get("resolutionOrder").is_some() {
        // The format brand.json gives is its sources'.
        d.finish(Some(text), out);
        return read_resolver_at(files, path, format, out);
    }
    let format = match format.map_or_else(|| formats::detect(&doc), Ok) {
        Ok(f) => f,
        Err(why) => {
            d.push(Code::UndetectedFormat, "", why);
            d.finish(Some(text), out);
            return None;
        }
    };
    if format == Format::Theo {
        let file = |p: &str| files.get(p).and_then(|b| serde_json::from_slice(b).ok());
        formats::theo::import_aliases(&mut doc, path, &file, &mut d);
    }
    let converted = formats::convert(format, &doc, &mut d);
    d.finish(Some(text), out);
    let converted = converted?;
    read_converted(files, path, converted, text, out)
}

/// A Style Dictionary config named by brand.json: the resolver over the
/// brand's data files its `include` and `source` name, as `marque import`
/// reads it (`formats::sd_config`).
fn read_config(
    files: &BrandFiles,
    path: &str,
    config: &Value,
    text: &str,
    mut d: FileDiags<'_>,
    format: Option<Format>,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    let under = |f: &str| -> Option<String> {
        match dir {
            "" => Some(f.to_string()),
            dir => Some(f.strip_prefix(&format!("{dir}/"))?.to_string()),
        }
    };
    let rel: Vec<String> = files
        .files()
        .keys()
        .filter(|f| f.as_str() != path && crate::spec::syntax::is_data_file(f))
        .filter_map(|f| under(f))
        .collect();
    let rel: Vec<&str> = rel.iter().map(String::as_str).collect();
    let full = |f: &str| match dir {
        "" => f.to_string(),
        dir => format!("{dir}/{f}"),
    };
    let has_value = |f: &str| {
        files
            .get(&full(f))
            .is_some_and(|b| String::from_utf8_lossy(b).contains("\"$value\""))
    };
    match formats::sd_config::resolver(config, &rel, has_value) {
        Ok(doc) => {
            let format = format.or(formats::sd_config::format_in(&doc));
            let mut set = match formats::plan::is_one_tree(&doc) {
                true => {
                    d.finish(Some(text), out);
                    plan::read_plan(files, path, &doc, text, out)?
                }
                false => {
                    super::resolved::read_resolver(files, path, doc, text, None, d, format, out)?
                }
            };
            // Named as the team's own build names them, in its units
            // (brand.json `naming.prefix`, where given, says the prefix).
            if let Some(base) = formats::sd_config::px_to_rem(config) {
                formats::sd_config::to_rem(&mut set, base);
            }
            set.prefix = formats::sd_config::config_prefix(config).unwrap_or_default();
            Some(set)
        }
        Err(why) => {
            d.push(
                Code::UnknownResolverReference,
                "",
                format!("a Style Dictionary config whose {why}"),
            );
            d.finish(Some(text), out);
            None
        }
    }
}

/// The `.json` files under the folder `path`, by their path in it.
fn json_files<'f>(files: &'f BrandFiles, path: &str) -> impl Iterator<Item = (&'f str, &'f str)> {
    let prefix = format!("{path}/");
    files.files().keys().filter_map(move |file| {
        let rel = file.strip_prefix(&prefix)?;
        crate::spec::syntax::is_data_file(rel).then_some((file.as_str(), rel))
    })
}

/// True when the folder holds Figma's export: no Tokens Studio files, and
/// its files read as `figma-export` (Figma's native export's too: their
/// `com.figma.*` extensions and `com.figma.modeName` say so).
fn is_figma_export(files: &BrandFiles, path: &str) -> bool {
    let mut any = false;
    for (file, rel) in json_files(files, path) {
        if rel.starts_with('$') || rel.contains("/$") {
            return false;
        }
        let doc = files
            .get(file)
            .and_then(|b| serde_json::from_slice::<Value>(b).ok());
        if !doc.is_some_and(|d| formats::detect(&d) == Ok(Format::FigmaExport)) {
            return false;
        }
        any = true;
    }
    any
}

/// The mode a file of Figma's native export names at its root.
fn mode_name(doc: &Value) -> Option<&str> {
    doc.get("$extensions")?.get("com.figma.modeName")?.as_str()
}

/// True for a file of Figma's native export: one naming its mode, or
/// named `<Mode>.tokens.json` (a name DTCG files of every kind take, so
/// only one Figma's extensions mark).
fn is_native(rel: &str, doc: &Value) -> bool {
    mode_name(doc).is_some()
        || rel.to_ascii_lowercase().ends_with(".tokens.json")
            && formats::detect(doc) == Ok(Format::FigmaExport)
}

/// The collection and mode of an export's file at `rel` in the folder
/// `path`. Figma's native export (`<Collection>/<Mode>.tokens.json`, or a
/// file naming its `com.figma.modeName`): the folder holding the file is
/// the collection (the export folder's own name for a file directly in
/// it), the mode its `modeName`, else its name. The variables GitHub
/// action's: `<Collection>.<Mode>.json`.
fn collection_and_mode(path: &str, rel: &str, doc: &Value) -> (String, String) {
    if is_native(rel, doc) {
        let file = rel.rsplit('/').next().unwrap_or(rel);
        let stem = crate::spec::syntax::stem(file);
        let stem = stem.strip_suffix(".tokens").unwrap_or(stem);
        let mode = mode_name(doc).unwrap_or(stem).to_string();
        let collection = match rel.rsplit_once('/') {
            Some((folder, _)) => folder.to_string(),
            None => path.rsplit('/').next().unwrap_or(path).to_string(),
        };
        return (collection, mode);
    }
    let stem = crate::spec::syntax::stem(rel);
    let (collection, mode) = stem.rsplit_once('.').unwrap_or((stem, "Default"));
    (collection.to_string(), mode.to_string())
}

/// Every token's dotted name in `doc` (a group's members, not `$` keys).
fn token_names(doc: &Value, prefix: &str, out: &mut std::collections::HashSet<String>) {
    let Some(o) = doc.as_object() else { return };
    if o.contains_key("$value") {
        out.insert(prefix.to_string());
        return;
    }
    for (k, v) in o.iter().filter(|(k, _)| is_member(k)) {
        let name = match prefix {
            "" => k.clone(),
            p => format!("{p}.{k}"),
        };
        token_names(v, &name, out);
    }
}

/// Figma's native export writes an alias to another collection's variable
/// as the value it resolves to, with `com.figma.aliasData` naming the
/// variable: each becomes the reference it stands for, when the export
/// holds its target (a remote library's keeps its value).
fn relink_aliases(doc: &mut Value, names: &std::collections::HashSet<String>, depth: usize) {
    let Some(o) = doc.as_object_mut() else { return };
    if depth > crate::spec::limits::MAX_JSON_DEPTH {
        return;
    }
    if o.contains_key("$value") {
        let target = o
            .get("$extensions")
            .and_then(|e| e.get("com.figma.aliasData"))
            .and_then(|a| a.get("targetVariableName"))
            .and_then(Value::as_str)
            .map(|n| n.split('/').map(str::trim).collect::<Vec<_>>().join("."));
        if let Some(target) = target.filter(|t| names.contains(t)) {
            o.insert("$value".into(), Value::String(format!("{{{target}}}")));
        }
        return;
    }
    for (k, v) in o.iter_mut() {
        if is_member(k) {
            relink_aliases(v, names, depth + 1);
        }
    }
}

/// A group's member: a token or group, or the group's own `$root` token.
fn is_member(key: &str) -> bool {
    !key.starts_with('$') || key == crate::spec::tokens::ROOT
}

/// Figma's export folder: Figma's native export (a folder per collection
/// with a `<Mode>.tokens.json` per mode, or files naming their
/// `com.figma.modeName`), or a `<Collection>.<Mode>.json` file per
/// collection and mode as the variables GitHub action writes them (in
/// subfolders too). A collection with one mode is a set; one with several
/// is a modifier (named by the collection) whose contexts are its modes,
/// the default the one named `Default`, `Light` or `Mode 1` if there is
/// one, else the first in name order (Figma's files do not say which is
/// the default). A `com.figma.aliasData` becomes the reference it stands
/// for. The files are read as DTCG, in a resolver made of them (its sets
/// first, then its modifiers, each in path order).
fn read_figma_export(
    files: &BrandFiles,
    path: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let (mut docs, sources) = read_jsons(files, path, out)?;
    let mut names = std::collections::HashSet::new();
    for (_, doc) in &docs {
        token_names(doc, "", &mut names);
    }
    for (_, doc) in &mut docs {
        relink_aliases(doc, &names, 0);
    }
    let mut collections: BTreeMap<String, Vec<(String, usize)>> = BTreeMap::new();
    for (i, (rel, doc)) in docs.iter().enumerate() {
        let (collection, mode) = collection_and_mode(path, rel, doc);
        collections.entry(collection).or_default().push((mode, i));
    }
    let mut sets = serde_json::Map::new();
    let mut modifiers = serde_json::Map::new();
    let mut order = Vec::new();
    let mut tokens = Vec::new();
    let join = crate::spec::json::join;
    for (collection, modes) in &collections {
        let name = collection
            .rsplit_once('/')
            .map_or(collection.as_str(), |(_, n)| n)
            .trim();
        match modes.as_slice() {
            [(_, i)] => {
                sets.insert(
                    collection.clone(),
                    serde_json::json!({"sources": [docs[*i].1]}),
                );
                order.push(serde_json::json!({"$ref": join("#/sets", collection)}));
                tokens.push((
                    format!("{}/0", join(&join("/sets", collection), "sources")),
                    sources[*i].prefix.clone(),
                ));
            }
            _ => {
                let default = modes
                    .iter()
                    .find(|(m, _)| {
                        ["default", "light", "mode 1"].contains(&m.to_ascii_lowercase().as_str())
                    })
                    .unwrap_or(&modes[0]);
                let mut contexts = serde_json::Map::new();
                for (m, i) in modes {
                    contexts.insert(m.clone(), serde_json::json!([docs[*i].1]));
                    let at = join(&join(&join("/modifiers", name), "contexts"), m);
                    tokens.push((format!("{at}/0"), sources[*i].prefix.clone()));
                }
                modifiers.insert(
                    name.to_string(),
                    serde_json::json!({"contexts": contexts, "default": default.0}),
                );
            }
        }
    }
    for name in modifiers.keys() {
        order.push(serde_json::json!({"$ref": join("#/modifiers", name)}));
    }
    let doc = serde_json::json!({"version": "2025.10", "sets": sets, "modifiers": modifiers, "resolutionOrder": order});
    let mut converted = formats::Converted::new(doc, tokens, &[]);
    converted.files = sources;
    read_converted(files, path, converted, "", out)
}

/// Every `.json` file under the folder `path`, parsed, each with its place
/// in the folder's single document (a member per file, named by its path
/// without `.json`).
#[allow(clippy::type_complexity)]
fn read_jsons(
    files: &BrandFiles,
    path: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<(Vec<(String, Value)>, Vec<formats::SourceFile>)> {
    let slug = files.slug.as_str();
    let mut docs = Vec::new();
    let mut sources = Vec::new();
    let mut ok = true;
    for (file, rel) in json_files(files, path) {
        let Some(bytes) = files.get(file) else {
            continue;
        };
        let Some((mut doc, text)) = read_json(bytes, slug, &format!("{slug}/{file}"), out) else {
            ok = false;
            continue;
        };
        let mut d = FileDiags::new(slug, format!("{slug}/{file}"));
        enforce_limits(&mut doc, &mut d);
        ok &= !d.has_errors();
        d.finish(Some(text), out);
        let name = formats::tokens_studio::set_name(rel).to_string();
        sources.push(formats::SourceFile {
            prefix: formats::tokens_studio::set_pointer(&name),
            path: file.to_string(),
            within: String::new(),
            text: text.to_string(),
        });
        docs.push((rel.to_string(), doc));
    }
    ok.then_some((docs, sources))
}

/// A folder synced by Tokens Studio: every `.json` file under `path` a set
/// named by its path in the folder, `$themes.json` and `$metadata.json`
/// its themes and set order.
fn read_folder(files: &BrandFiles, path: &str, out: &mut Vec<Diagnostic>) -> Option<TokenSet> {
    let (docs, sources) = read_jsons(files, path, out)?;
    let doc = formats::tokens_studio::folder_doc(&docs);
    read_studio(files, path, &doc, sources, out)
}

/// A Tokens Studio document put together from `sources` (a synced folder's
/// files, or a plan's), read as one, each diagnostic in its file. `path`
/// is the folder's (or plan's) path.
fn read_studio(
    files: &BrandFiles,
    path: &str,
    doc: &Value,
    sources: Vec<formats::SourceFile>,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let slug = files.slug.as_str();
    let mut d = FileDiags::new(slug, format!("{slug}/{path}"));
    let mut converted = formats::tokens_studio::read(doc, true, &mut d);
    converted.files = sources;
    // The reader's own diagnostics, in the files they are about.
    let texts: BTreeMap<String, &str> = converted
        .files
        .iter()
        .map(|f| (format!("{slug}/{}", f.path), f.text.as_str()))
        .collect();
    let folder = format!("{slug}/{path}");
    d.finish_mapped(
        |p| {
            let (f, p) = converted.split(p);
            (
                f.map_or_else(|| folder.clone(), |f| format!("{slug}/{f}")),
                p,
            )
        },
        &texts,
        |_| {},
        out,
    );
    read_converted(files, path, converted, "", out)
}

/// The tokens a format's reader made of the file (or folder) at `path`.
/// One bad token never sinks an export (DESIGN 17): an error in a token is
/// a warning that it is left out, and the export is read again without it,
/// until no error is in a token. Errors elsewhere stay errors.
fn read_converted(
    files: &BrandFiles,
    path: &str,
    mut converted: formats::Converted,
    text: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let slug = files.slug.as_str();
    let mut left_out: Vec<Diagnostic> = Vec::new();
    for reading in 1.. {
        let mut found = Vec::new();
        let set = read_once(files, path, &converted, text, &mut found);
        let bad: Vec<(String, &Diagnostic)> = found
            .iter()
            .filter(|d| d.severity() == Severity::Error && reading < formats::MAX_READINGS)
            .filter_map(|d| {
                let file = d.file.strip_prefix(&format!("{slug}/"))?;
                let file = (file != path).then_some(file);
                Some((converted.token_at(file, &d.pointer)?, d))
            })
            .collect();
        if bad.is_empty() {
            out.extend(left_out);
            out.extend(found);
            return set;
        }
        let mut gone = std::collections::HashSet::new();
        for (pointer, d) in bad {
            let mut d = d.clone();
            d.code = d.code.left_out();
            d.message.push_str("; ");
            d.message.push_str(formats::LEFT_OUT);
            if !left_out.contains(&d) {
                left_out.push(d);
            }
            gone.insert(formats::token_name(&pointer));
            converted.remove(&pointer);
        }
        // What refers to them, at any depth, goes with them now, not one
        // reading per level.
        if converted.doc.get("resolutionOrder").is_none() {
            let dependents = formats::dependents(&[&converted.doc], &gone);
            let file = format!("{slug}/{path}");
            let mut p = FileDiags::new(slug, file.clone());
            for (_, pointer, target) in &dependents {
                p.push(
                    crate::spec::diag::Code::LeftOutDependent,
                    pointer,
                    format!(
                        "it refers to `{{{target}}}`, which is left out; {}",
                        formats::LEFT_OUT
                    ),
                );
            }
            finish_in_sources(p, &converted, slug, &file, text, &mut left_out);
            for (_, pointer, _) in dependents {
                converted.remove(&pointer);
            }
        }
    }
    None
}

/// Places what `p` says of `converted` in the files it was read from: the
/// file `file` (whose text is `text`) or a folder's file.
fn finish_in_sources(
    p: FileDiags<'_>,
    converted: &formats::Converted,
    slug: &str,
    file: &str,
    text: &str,
    out: &mut Vec<Diagnostic>,
) {
    let mut texts = BTreeMap::from([(file.to_string(), text)]);
    for f in &converted.files {
        texts.insert(format!("{slug}/{}", f.path), f.text.as_str());
    }
    p.finish_mapped(
        |pointer| {
            let (f, p) = converted.place(pointer);
            (
                f.map_or_else(|| file.to_string(), |f| format!("{slug}/{f}")),
                p,
            )
        },
        &texts,
        |_| {},
        out,
    );
}

/// One reading of what a format's reader made.
fn read_once(
    files: &BrandFiles,
    path: &str,
    converted: &formats::Converted,
    text: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let slug = files.slug.as_str();
    let file = format!("{slug}/{path}");
    // A reader that finds modes makes a resolver (Figma's collections).
    if converted.doc.get("resolutionOrder").is_some() {
        let d = FileDiags::new(slug, file.clone());
        let doc = converted.doc.clone();
        return super::resolved::read_resolver(
            files,
            path,
            doc,
            text,
            Some(converted),
            d,
            None,
            out,
        );
    }
    let mut p = FileDiags::new(slug, file.clone());
    let mut set = parse_tokens(&converted.doc, &mut p);
    if let Some(set) = &set {
        check_css_names(set, &mut p);
    }
    finish_in_sources(p, converted, slug, &file, text, out);
    if let Some(set) = set.as_mut() {
        for t in &mut set.tokens {
            let (f, p) = converted.place(&t.pointer);
            t.file = Some(f.unwrap_or(path).to_string());
            t.pointer = p;
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_native_exports_collection_is_its_folder_and_its_mode_the_files_own() {
        let named = json!({"$extensions": {"com.figma.modeName": "Dark mode"}, "a": {"$type": "color", "$value": "#000000"}});
        let bare = json!({"a": {"$type": "color", "$value": "#000000", "$extensions": {"com.figma.scopes": ["ALL_SCOPES"]}}});
        let dtcg = json!({"a": {"$type": "color", "$value": "#000000"}});
        let at = |rel, doc| collection_and_mode("brand/figma", rel, doc);
        assert_eq!(
            at("Semantic/Dark.tokens.json", &named),
            ("Semantic".into(), "Dark mode".into())
        );
        assert_eq!(
            at("Semantic/Light.tokens.json", &bare),
            ("Semantic".into(), "Light".into())
        );
        assert_eq!(
            at("Light.tokens.json", &named),
            ("figma".into(), "Dark mode".into())
        );
        // The variables GitHub action's names, and a DTCG file that is not Figma's.
        assert_eq!(
            at("sub/Tokens.Light.json", &bare),
            ("sub/Tokens".into(), "Light".into())
        );
        assert_eq!(
            at("color.tokens.json", &dtcg),
            ("color".into(), "tokens".into())
        );
    }

    #[test]
    fn alias_data_becomes_the_reference_when_the_export_holds_its_target() {
        let mut doc = json!({
            "color": {
                "accent": {"$type": "color", "$value": {"hex": "#2563EB"}, "$extensions": {"com.figma.aliasData": {"targetVariableName": "color/blue/500", "targetVariableSetName": "Primitives"}}},
                "brand": {"$root": {"$type": "color", "$value": {"hex": "#000000"}, "$extensions": {"com.figma.aliasData": {"targetVariableName": "color/blue/500"}}}},
                "remote": {"$type": "color", "$value": {"hex": "#FFFFFF"}, "$extensions": {"com.figma.aliasData": {"targetVariableName": "library/white"}}}
            }
        });
        let names = ["color.blue.500".to_string()].into_iter().collect();
        relink_aliases(&mut doc, &names, 0);
        assert_eq!(doc["color"]["accent"]["$value"], "{color.blue.500}");
        assert_eq!(doc["color"]["brand"]["$root"]["$value"], "{color.blue.500}");
        assert_eq!(doc["color"]["remote"]["$value"], json!({"hex": "#FFFFFF"}));
        let mut found = std::collections::HashSet::new();
        token_names(&doc, "", &mut found);
        assert!(found.contains("color.brand.$root") && found.contains("color.accent"));
    }
}
