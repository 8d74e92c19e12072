//! `marque import`: a brand folder from the tokens a design system already
//! has. The input (a DTCG resolver document and the files it names, or one
//! tokens file) is read as a brand would be, with the tolerant reading;
//! what comes out is strict DTCG 2025.10 (`tokens.resolver.json`, self-
//! contained, or `tokens.json`) and a brand.json skeleton that validates:
//! the name, version 0.1.0, today's date, and a palette and type section
//! where the tokens' names make the roles obvious. What was normalised is
//! printed, grouped and counted. Importing the output again changes nothing.
//!
//! The input may come from anyone's repository, so it is read as serving
//! reads a brand folder (`source::dir::Reader`, the input's folder being
//! the brand folder): regular files only, links only when they stay in the
//! folder, never a FIFO or a device, every file and the whole within the
//! limits. What is written stays inside `--out` and never goes through a
//! link (`import/write.rs`).

use crate::bodies::Bodies;
use crate::clock::today;
use crate::config::ImportArgs;
use crate::render::tokens_json;
use crate::source::dir::Reader;
use crate::spec::brand::{is_slug, parse_brand};
use crate::spec::diag::{first_quoted, Code, FileDiags};
use crate::spec::formats::{self, Format};
use crate::spec::limits::MAX_JSON_VALUES;
use crate::spec::tokens::resolver::{self, RESOLVER_FILE};
use crate::spec::tokens::{TokenSet, TokenType, ROOT};
use crate::spec::{BrandFiles, Diagnostic, Severity};
use anyhow::{bail, Context as _, Result};
use bytes::Bytes;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

pub mod against;
mod naming;
mod plan;
mod roles;
mod root;
mod sd_config;
mod summary;
pub(crate) mod write;

use summary::{summary, verdict};

/// Runs the import; the process exit code (1 when the input has errors).
/// It works under the time limit a served build gives one brand, and
/// stops there with an error, as a build does (a hostile input cannot
/// keep it for minutes).
pub fn run(args: &ImportArgs, out: &mut impl Write) -> Result<i32> {
    // `.` or `..`: the folder by its name.
    let mut args = args.clone();
    if args.file.file_name().is_none() {
        args.file = args.file.canonicalize().unwrap_or(args.file);
    }
    let args = &args;
    use crate::spec::limits::stop::{self, Stopped, Watch};
    struct Until(std::time::Instant);
    impl Watch for Until {
        fn over(&self) -> bool {
            std::time::Instant::now() > self.0
        }
    }
    let limit = crate::build::BuildOptions::default().budget;
    let until = std::sync::Arc::new(Until(std::time::Instant::now() + limit));
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        stop::under(until, || import(args, out))
    }));
    match ran {
        Ok(result) => result,
        Err(payload) if payload.is::<Stopped>() => bail!(
            "cannot import {}: reading it took longer than the {} s a build gives one brand, so it stopped",
            args.file.display(),
            limit.as_secs()
        ),
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

/// The import itself (see [`run`]).
fn import(args: &ImportArgs, out: &mut impl Write) -> Result<i32> {
    let slug = args.slug.clone().unwrap_or_else(|| slug_of(&args.file));
    if !is_slug(&slug) {
        bail!("`{slug}` is not a slug (lowercase words joined by hyphens): name one with --slug");
    }
    // A zip (Figma's export of a collection, or marque's figma.zip) is
    // read as the folder it unpacks to, named by the zip without `.zip`.
    let zipped = is_zip(&args.file);
    let folder = args.file.is_dir() || zipped;
    let format = format_of(args, folder)?;
    let (dir, zip_name) = split_input(&args.file)?;
    let file_name = match zipped {
        true => &zip_name[..zip_name.len() - 4],
        false => zip_name,
    };
    let mut reader =
        Reader::open(&slug, dir).with_context(|| format!("cannot read {}", dir.display()))?;
    std::fs::symlink_metadata(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    // The input's folder is read as a brand folder is served: regular files
    // only, links only inside it, each file and the whole within the limits.
    // A folder's JSON files are read where they are.
    let (synced, (bytes, doc)) = match folder {
        true if zipped => (
            read_zip(&mut reader, &args.file, zip_name, file_name)?,
            (Bytes::new(), json!({})),
        ),
        true => (
            read_folder(&mut reader, &args.file, file_name)?,
            (Bytes::new(), json!({})),
        ),
        false => (
            BTreeMap::new(),
            read_input(&mut reader, &args.file, file_name)?,
        ),
    };
    let format = format.or_else(|| sd_config::format_in(&doc));
    let is_resolver = doc.get("resolutionOrder").is_some();
    // Another format is read where it is, named by brand.json's `tokens`.
    let other_format = match format.map_or_else(|| formats::detect(&doc), Ok) {
        // A folder's format is detected as brand.json's `tokens` detects it.
        _ if folder => format.or(Some(Format::TokensStudio)),
        Ok(Format::Dtcg) => None,
        Ok(f) if !is_resolver => Some(f),
        // In no format marque reads: one error that says so, not one per
        // member read as DTCG.
        Err(why) if why == formats::not_a_format() => {
            bail!("cannot import {}: {why}", args.file.display())
        }
        _ => format,
    };
    let name = doc
        .get("name")
        .and_then(Value::as_str)
        .filter(|_| is_resolver)
        .map_or_else(|| slug.clone(), str::to_string);
    let tokens_file = if is_resolver {
        RESOLVER_FILE
    } else {
        "tokens.json"
    };
    let mut files: BTreeMap<String, Bytes> = BTreeMap::new();
    let read_as = match other_format {
        Some(_) => file_name,
        None => tokens_file,
    };
    match folder {
        true => files.extend(synced),
        false => {
            files.insert(read_as.to_string(), bytes);
        }
    }
    if is_resolver {
        let mut ignored = FileDiags::new(&slug, RESOLVER_FILE.to_string());
        if let Some(r) = resolver::read(&doc, &mut ignored) {
            for path in r.files() {
                if let Some(b) = reader.read_named(path) {
                    files.insert(path.to_string(), b);
                }
            }
        }
    }
    // A source refused (a link out of the folder, a FIFO, too large) is an
    // error on that file, reported as serving reports it.
    let problems = reader.problems().to_vec();
    let today = today();
    // The brand read for the import: another format named where it is.
    let named = |brand_json: String| match other_format {
        None => brand_json,
        Some(f) => {
            let mut doc: Value = serde_json::from_str(&brand_json).unwrap_or_default();
            doc["tokens"] = match folder && format.is_none() {
                true => json!(file_name),
                false => json!({"path": file_name, "format": f.as_str()}),
            };
            doc.to_string()
        }
    };
    let bare = skeleton(&name, today, None, None);
    let (brand, diags) = parse(&slug, &named(bare.clone()), &files, &problems, today);
    if let Some(to) = &args.plan {
        let said = (args.file.as_path(), slug.as_str(), diags.as_slice());
        let input = plan::Input::new(reader.base(), file_name, &doc, &files);
        return input.of(folder, other_format.or(format), said).write(
            to,
            brand.as_ref().map(|b| &b.tokens),
            out,
        );
    }
    let Some(mut brand) = brand else {
        for d in diags.iter().filter(|d| d.severity() == Severity::Error) {
            let text = text_of(&files, &slug, d);
            // Where the user's files are, not the folder import would write.
            let mut d = d.clone();
            if let Some(rel) = d.file.strip_prefix(&format!("{slug}/")) {
                let rel = match rel == read_as {
                    true => file_name,
                    false => rel,
                };
                d.file = dir.join(rel).display().to_string();
            }
            writeln!(out, "{}", crate::report::frame(&d, text, false))?;
        }
        let file = args.file.display();
        writeln!(out, "{file} is not imported: fix the errors above")?;
        return Ok(1);
    };
    // The team's names; the roles the names make obvious, kept if the brand still validates.
    let built = args.against.as_deref().map(read_built_css).transpose()?;
    let kept = args.out.join(&slug).join("brand.json");
    let naming = naming::find(&args.file, &kept, &mut brand.tokens, built.as_deref());
    let prefix = naming.found.as_ref().map(|f| f.prefix.as_str());
    let filled = skeleton(&name, today, Some(&brand.tokens), prefix);
    let (brand_doc, roles_kept) =
        match parse(&slug, &named(filled.clone()), &files, &problems, today).0 {
            Some(_) => (filled, true),
            None => (skeleton(&name, today, None, prefix), false),
        };
    // A format's modes (Figma's collections) are kept as a resolver's.
    let is_resolver = is_resolver || !brand.tokens.modes.is_empty();
    let read = Read {
        slug: &slug,
        brand: &brand,
        diags: &diags,
        brand_doc: &brand_doc,
        roles_kept,
        naming: &naming,
        built: built.as_deref(),
    };
    write_and_report(args, read, is_resolver, out)
}

/// What an import read, ready to be written.
struct Read<'a> {
    slug: &'a str,
    brand: &'a crate::spec::Brand,
    diags: &'a [Diagnostic],
    brand_doc: &'a str,
    roles_kept: bool,
    naming: &'a naming::Naming,
    built: Option<&'a str>,
}

/// Writes what was read (unless it publishes no token) and says what it
/// was: the summary, the roles, the files, and the exit code it earns.
fn write_and_report(
    args: &ImportArgs,
    read: Read<'_>,
    is_resolver: bool,
    out: &mut impl Write,
) -> Result<i32> {
    let Read {
        slug,
        brand,
        diags,
        brand_doc,
        roles_kept,
        naming,
        built,
    } = read;
    let (tokens_file, body, left_out) = strict_export(brand, is_resolver);
    let set = &brand.tokens;
    if set.tokens.len() <= left_out.len() {
        summary(out, &args.file, slug, set, diags, &left_out)?;
        writeln!(
            out,
            "the import publishes no token, so nothing is written: this is not the design system (see what was left out above)"
        )?;
        return Ok(1);
    }
    let (brand_json, keep_brand_json, wrote) =
        write_brand(&args.out, slug, tokens_file, brand_doc, &body)?;
    summary(out, &args.file, slug, set, diags, &left_out)?;
    naming.report(out)?;
    if let (Some(path), Some(css)) = (&args.against, built) {
        let ours = crate::render::tokens_css::render(brand, &crate::render::Context::new(""));
        let compared = against::compare(set, css, &ours);
        against::report(out, set, path, &compared)?;
    }
    if keep_brand_json {
        writeln!(out, "kept {} as it is", brand_json.display())?;
    } else {
        print_roles(out, set, !roles_kept)?;
    }
    writeln!(out, "wrote {}", wrote.join(", "))?;
    verdict(out, diags, args.allow_partial)
}

/// The team's built CSS that `--against` names: a regular file of at most
/// [`crate::spec::limits::MAX_BRAND_BYTES`].
pub(crate) fn read_built_css(path: &Path) -> Result<String> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    let max = crate::spec::limits::MAX_BRAND_BYTES;
    if !meta.is_file() || meta.len() > max as u64 {
        bail!(
            "cannot compare against {}: it is not a file of at most {}",
            path.display(),
            crate::spec::limits::describe_bytes(max)
        );
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Writes the brand folder `<out>/<slug>/`: the strict tokens, and
/// brand.json unless the folder has one. Everything on the way is checked
/// before anything is made or written: a link anywhere inside `out` stops
/// the import whole. Returns brand.json's path, whether it was kept, and
/// the files written.
fn write_brand(
    out: &Path,
    slug: &str,
    tokens_file: &str,
    brand_doc: &str,
    body: &str,
) -> Result<(PathBuf, bool, Vec<String>)> {
    let out_dir: PathBuf = out.components().collect();
    let folder = out_dir.join(slug);
    write::check_folder(&out_dir)?;
    write::check_folder(&folder)?;
    let other = match tokens_file == RESOLVER_FILE {
        true => "tokens.json",
        false => RESOLVER_FILE,
    };
    if std::fs::symlink_metadata(folder.join(other)).is_ok() {
        bail!(
            "{} has {other}: a brand keeps one of tokens.json and tokens.resolver.json",
            folder.display()
        );
    }
    let brand_json = folder.join("brand.json");
    let tokens_path = folder.join(tokens_file);
    let keep_brand_json = write::check_file(&brand_json)?;
    write::check_file(&tokens_path)?;
    write::make_folders(&out_dir, &folder)?;
    let mut wrote = Vec::new();
    if !keep_brand_json {
        write::replace(&folder, "brand.json", brand_doc.as_bytes())?;
        wrote.push(brand_json.display().to_string());
    }
    write::replace(&folder, tokens_file, body.as_bytes())?;
    wrote.push(tokens_path.display().to_string());
    Ok((brand_json, keep_brand_json, wrote))
}

/// The strict export import writes: its file name, its body, and each
/// token it leaves out (by code, with the token's name).
fn strict_export(
    brand: &crate::spec::Brand,
    is_resolver: bool,
) -> (&'static str, String, Vec<(Code, Option<String>)>) {
    let (tokens, resolver) = tokens_json::render_both(brand);
    let named = |code: Code, skipped: &[(String, _)]| -> Vec<(Code, Option<String>)> {
        skipped
            .iter()
            .map(|(why, _)| (code, first_quoted(why).map(String::from)))
            .collect()
    };
    let mut left_out = named(Code::LeftOutOfTokensJson, &tokens.skipped);
    match is_resolver {
        true => {
            left_out.extend(named(Code::LeftOutOfResolverJson, &resolver.skipped));
            (RESOLVER_FILE, resolver.body, left_out)
        }
        false => ("tokens.json", tokens.body, left_out),
    }
}

/// The palette roles brand.json was given, each with its token and value,
/// and each role left out with why: guesses from names, to review.
fn print_roles(out: &mut impl Write, set: &TokenSet, dropped: bool) -> Result<()> {
    let palette = roles::palette(set);
    if dropped || palette.chosen.is_empty() {
        writeln!(
            out,
            "palette: no role given (no colour token's name makes one obvious); add color.palette to brand.json"
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "palette roles, guessed from token names (review them in brand.json):"
    )?;
    for c in &palette.chosen {
        writeln!(out, "  {:<11} {} {}", c.role, c.token, c.value)?;
    }
    for (role, why) in &palette.not_chosen {
        writeln!(out, "  {role:<11} left out: {why}")?;
    }
    Ok(())
}

/// The slug a file's name suggests: `figma-sds.resolver.json` →
/// `figma-sds`; a plain `tokens.json` takes its folder's name.
fn slug_of(file: &Path) -> String {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let stem = crate::spec::syntax::stem(name)
        .trim_end_matches(".resolver")
        .trim_end_matches(".tokens");
    let stem = match stem {
        // A Style Dictionary config is named by its folder.
        s if s.is_empty() || s == "tokens" || sd_config::NAMES.contains(&s) => file
            .canonicalize()
            .ok()
            .and_then(|p| p.parent()?.file_name()?.to_str().map(str::to_string))
            .unwrap_or_default(),
        s => s.to_string(),
    };
    let mut slug = String::new();
    for c in stem.chars() {
        match c {
            c if c.is_ascii_alphanumeric() => {
                if c.is_ascii_uppercase() && !slug.is_empty() && !slug.ends_with('-') {
                    slug.push('-');
                }
                slug.push(c.to_ascii_lowercase());
            }
            _ if !slug.is_empty() && !slug.ends_with('-') => slug.push('-'),
            _ => {}
        }
    }
    slug.trim_end_matches('-').chars().take(64).collect()
}

/// The file `name` of the reader's folder (the input `file`), or why it
/// cannot be read, as its refusals say.
fn read_or_say_why(reader: &mut Reader<'_>, file: &Path, name: &str) -> Result<Bytes> {
    match reader.read_named(name) {
        Some(bytes) => Ok(bytes),
        None => {
            let why: Vec<&str> = reader
                .problems()
                .iter()
                .map(|d| d.message.as_str())
                .collect();
            bail!("cannot import {}: {}", file.display(), why.join("; "))
        }
    }
}

/// The input file, read as a brand file is (`file_name` in the reader's
/// folder), and parsed, within the budget on JSON values.
fn read_input(reader: &mut Reader<'_>, file: &Path, file_name: &str) -> Result<(Bytes, Value)> {
    // A build script or a `.js` config is a program: never run.
    if [".js", ".mjs", ".cjs", ".ts"]
        .iter()
        .any(|e| file_name.ends_with(e))
    {
        bail!("cannot import {}: it is a program, and marque never runs one; import a JSON or JSON5 Style Dictionary config, or the token files it names", file.display());
    }
    let bytes = read_or_say_why(reader, file, file_name)?;
    // JSONC, JSON5 and YAML are read as the JSON they stand for.
    let bytes = match crate::spec::syntax::json_of(file_name, &bytes) {
        Ok(Some(json)) => Bytes::from(json),
        Ok(None) => bytes,
        Err(e) => bail!(
            "cannot import {}:{}:{}: {}",
            file.display(),
            e.line,
            e.column,
            e.message
        ),
    };
    // The budget parsing keeps, checked before serde_json builds the
    // document (parse_brand checks it again, with the others).
    if let Ok(text) = std::str::from_utf8(&bytes) {
        let values = crate::spec::json::count_values(text);
        if values > MAX_JSON_VALUES {
            bail!(
                "cannot import {}: it holds about {values} JSON values; at most {MAX_JSON_VALUES} are read",
                file.display()
            );
        }
    }
    let doc: Value = serde_json::from_slice(&bytes)
        .with_context(|| format!("{} is not JSON", file.display()))?;
    // A Style Dictionary config: the resolver over the files it names.
    if sd_config::is_config(&doc) {
        let dir = split_input(file)?.0;
        let why = || {
            format!(
                "cannot import the Style Dictionary config {}",
                file.display()
            )
        };
        let files = sd_config::data_files(dir).with_context(why)?;
        let made = match sd_config::resolver(&doc, dir, &files) {
            Ok(made) => made,
            // Style Dictionary runs where the team runs it, the repository's
            // root: globs that name nothing beside the config name from there.
            Err(e) => {
                let Some(root) = root::repository_root(dir) else {
                    return Err(e).with_context(why);
                };
                let files = sd_config::data_files(&root).with_context(why)?;
                let made = sd_config::resolver(&doc, &root, &files).map_err(|_| e);
                reader.reopen(&root)?;
                made.with_context(why)?
            }
        };
        return Ok((Bytes::from(made.to_string()), made));
    }
    // A resolver whose sources reach outside its folder (`../core.json`).
    if let Some(made) = root::widened(reader, split_input(file)?.0, &doc)? {
        return Ok(made);
    }
    Ok((bytes, doc))
}

/// The format `--format` names, if any; a folder is a Tokens Studio sync
/// or Figma's export, so no other format is taken for one.
fn format_of(args: &ImportArgs, folder: bool) -> Result<Option<Format>> {
    if folder
        && !matches!(
            args.format.as_deref(),
            None | Some("tokens-studio" | "figma-export")
        )
    {
        bail!(
            "{} is a folder: a folder is imported as a Tokens Studio sync or Figma's export (`--format tokens-studio` or `figma-export`, detected without one)",
            args.file.display()
        );
    }
    Ok(match args.format.as_deref() {
        None => None,
        Some(f) => Some(Format::parse(f).with_context(|| {
            format!(
                "unknown format `{f}`: {}",
                Format::ALL.map(Format::as_str).join(", ")
            )
        })?),
    })
}

/// The JSON files of the folder `file` (`file_name` in the reader's
/// folder), by their path in the reader's folder.
fn read_folder(
    reader: &mut Reader<'_>,
    file: &Path,
    file_name: &str,
) -> Result<BTreeMap<String, Bytes>> {
    let mut synced = BTreeMap::new();
    for rel in json_files_under(file)? {
        let path = format!("{file_name}/{rel}");
        let Some(b) = reader.read_named(&path) else {
            let why: Vec<&str> = reader
                .problems()
                .iter()
                .map(|d| d.message.as_str())
                .collect();
            bail!(
                "cannot import {}: {}",
                file.join(&rel).display(),
                why.join("; ")
            );
        };
        synced.insert(path, b);
    }
    Ok(synced)
}

/// The data files of the zip `zip_name` in the reader's folder, by their
/// path in the folder `folder` it stands for.
fn read_zip(
    reader: &mut Reader<'_>,
    file: &Path,
    zip_name: &str,
    folder: &str,
) -> Result<BTreeMap<String, Bytes>> {
    let bytes = read_or_say_why(reader, file, zip_name)?;
    let entries = crate::render::apps::archive::unzip(&bytes, crate::spec::limits::MAX_BRAND_BYTES)
        .map_err(|why| anyhow::anyhow!("cannot import {}: {why}", file.display()))?;
    Ok(entries
        .into_iter()
        .filter(|(name, _)| crate::spec::syntax::is_data_file(name))
        .map(|(name, body)| (format!("{folder}/{name}"), Bytes::from(body)))
        .collect())
}

/// The `.json` files under `dir`, relative to it, in path order; links
/// and other special files are left to the reader, which refuses them.
fn json_files_under(dir: &Path) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).with_context(|| format!("cannot read {}", d.display()))? {
            let p = e?.path();
            let meta = std::fs::symlink_metadata(&p)?;
            if meta.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                if let Ok(rel) = p.strip_prefix(dir) {
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The input's folder (the brand folder for the files a resolver names)
/// and its name in that folder.
/// True for a zip (Figma's export of a collection, or marque's figma.zip).
fn is_zip(file: &Path) -> bool {
    !file.is_dir()
        && file
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
}

fn split_input(file: &Path) -> Result<(&Path, &str)> {
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("{} names no file (or not in UTF-8)", file.display()))?;
    let dir = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Ok((dir, name))
}

fn parse(
    slug: &str,
    brand_json: &str,
    files: &BTreeMap<String, Bytes>,
    problems: &[Diagnostic],
    today: chrono::NaiveDate,
) -> (Option<crate::spec::Brand>, Vec<Diagnostic>) {
    let mut files = files.clone();
    files.insert(
        "brand.json".to_string(),
        Bytes::from(brand_json.to_string()),
    );
    let files = BrandFiles::new(slug, files, problems.to_vec(), Bodies::process());
    parse_brand(&files, today)
}

fn text_of<'f>(files: &'f BTreeMap<String, Bytes>, slug: &str, d: &Diagnostic) -> Option<&'f str> {
    let rel = d.file.strip_prefix(&format!("{slug}/"))?;
    std::str::from_utf8(files.get(rel)?).ok()
}

/// brand.json: the name, version 0.1.0 and `today`, the team's CSS
/// prefix, and a palette and type section from `tokens` where the roles
/// are obvious.
fn skeleton(
    name: &str,
    today: chrono::NaiveDate,
    tokens: Option<&TokenSet>,
    prefix: Option<&str>,
) -> String {
    let mut doc = json!({
        "$schema": format!("http://127.0.0.1:8080{}", crate::render::SCHEMA_PATH),
        "name": name,
        "version": "0.1.0",
        "updated": today.to_string(),
    });
    if let Some(p) = prefix {
        doc["naming"] = json!({ "prefix": p });
    }
    if let Some(set) = tokens {
        let palette = roles::palette(set).chosen;
        if !palette.is_empty() {
            doc["color"] = json!({ "palette": palette.iter().map(|c| json!({
                "name": title(&c.token), "token": format!("{{{}}}", c.token), "role": c.role
            })).collect::<Vec<_>>() });
        }
        let families = roles::by_name(set, TokenType::FontFamily, roles::FAMILIES);
        let styles = roles::by_name(set, TokenType::Typography, roles::STYLES);
        if !families.is_empty() || !styles.is_empty() {
            doc["typography"] = json!({
                "families": families.iter().map(|(role, t)| json!({"role": role, "token": format!("{{{t}}}")})).collect::<Vec<_>>(),
                "styles": styles.iter().map(|(_, t)| json!({"name": title(t), "token": format!("{{{t}}}")})).collect::<Vec<_>>(),
            });
        }
    }
    let mut s = serde_json::to_string_pretty(&doc).expect("serialisable");
    s.push('\n');
    s
}

/// A token's name for people: `color.brand.primary` → `Brand primary`.
fn title(name: &str) -> String {
    let words: Vec<&str> = name.split('.').skip(1).filter(|s| *s != ROOT).collect();
    let words = if words.is_empty() { vec![name] } else { words };
    let mut s = words.join(" ");
    if let Some(first) = s.get(..1) {
        s = first.to_uppercase() + &s[1..];
    }
    s
}
