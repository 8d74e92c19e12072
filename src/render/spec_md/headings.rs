//! Headings of the author's brand book, moved under spec.md's own.

/// The level of the highest heading of a Markdown document (1 for `#`).
pub fn top_heading_level(text: &str) -> Option<usize> {
    let mut top: Option<usize> = None;
    visit_headings(text, |level| {
        top = Some(top.map_or(level, |t| t.min(level)))
    });
    top
}

fn visit_headings(text: &str, mut seen: impl FnMut(usize)) {
    let shifted = shift_headings(text, 0);
    let mut fence: Option<&str> = None;
    for line in shifted.lines() {
        let t = line.trim_start();
        if let Some(f) = fence {
            if t.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = Some(&t[..3]);
            continue;
        }
        let hashes = t.chars().take_while(|c| *c == '#').count();
        if (1..=6).contains(&hashes) && t[hashes..].starts_with(' ') {
            seen(hashes);
        }
    }
}

/// Moves every heading of a Markdown document down `by` levels (`#` → `##`
/// for 1; at most `######`), leaving fenced code blocks alone. Setext
/// headings become ATX headings.
pub fn shift_headings(text: &str, by: usize) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some((ch, n)) = fence {
            let run = trimmed.chars().take_while(|c| *c == ch).count();
            if indent < 4 && run >= n && trimmed[run..].trim().is_empty() {
                fence = None;
            }
            out.push(line.to_string());
            i += 1;
            continue;
        }
        if indent < 4 {
            for ch in ['`', '~'] {
                let run = trimmed.chars().take_while(|c| *c == ch).count();
                if run >= 3 {
                    fence = Some((ch, run));
                }
            }
            if fence.is_some() {
                out.push(line.to_string());
                i += 1;
                continue;
            }
            let hashes = trimmed.chars().take_while(|c| *c == '#').count();
            if (1..=6).contains(&hashes)
                && trimmed[hashes..]
                    .chars()
                    .next()
                    .is_none_or(|c| c == ' ' || c == '\t')
            {
                let level = (hashes + by).min(6);
                out.push(format!(
                    "{} {}",
                    "#".repeat(level),
                    trimmed[hashes..].trim()
                ));
                i += 1;
                continue;
            }
            // Setext: a paragraph line followed by === or ---.
            if let Some(next) = lines.get(i + 1) {
                let n = next.trim();
                let para = !trimmed.is_empty() && !trimmed.starts_with(['-', '*', '>', '+']);
                if para
                    && !n.is_empty()
                    && (n.chars().all(|c| c == '=')
                        || (n.chars().all(|c| c == '-') && n.len() >= 2))
                {
                    let level = (if n.starts_with('=') { 1 } else { 2 } + by).min(6);
                    out.push(format!("{} {}", "#".repeat(level), trimmed.trim()));
                    i += 2;
                    continue;
                }
            }
        }
        out.push(line.to_string());
        i += 1;
    }
    let mut s = out.join("\n");
    s.push('\n');
    s
}
