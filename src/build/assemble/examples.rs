//! The examples /openapi.json names, taken from the catalog.

use super::super::{Catalog, Published};
use crate::{paths, render};

/// What /openapi.json's examples name: published brands, released versions,
/// and a demo call of the first brand with a prompt whose variables all
/// have examples.
pub(super) fn openapi_examples(catalog: &Catalog) -> render::openapi::Examples {
    const MAX: usize = 10;
    let mut published: Vec<&Published> = catalog.published().map(|p| p.as_ref()).collect();
    let demo = published.iter().enumerate().find_map(|(i, p)| {
        p.demo.prompts.iter().find_map(|prompt| {
            let variables: Option<serde_json::Map<String, serde_json::Value>> = prompt
                .variables
                .iter()
                .map(|v| Some((v.name.clone(), v.example.clone()?.into())))
                .collect();
            Some((
                i,
                serde_json::json!({"promptId": prompt.id, "variables": variables?}),
            ))
        })
    });
    // The slug example first is the brand the demo example belongs to.
    if let Some((i, _)) = demo {
        published.swap(0, i);
    }
    let slugs: Vec<String> = published.iter().take(MAX).map(|p| p.key.clone()).collect();
    // Versions of the first slug's releases first, so the two examples meet.
    let mut versions: Vec<(bool, &str)> = catalog
        .pinned
        .keys()
        .filter_map(|k| k.split_once('@'))
        .map(|(slug, v)| (Some(slug) != slugs.first().map(String::as_str), v))
        .collect();
    versions.sort();
    let file = published.first().and_then(|p| {
        let prefix = paths::assets(&p.key);
        let mut files: Vec<&str> = p
            .resources
            .keys()
            .filter_map(|k| k.strip_prefix(&prefix))
            .collect();
        files.sort_unstable();
        files.first().map(|f| f.to_string())
    });
    render::openapi::Examples {
        file,
        versions: versions
            .iter()
            .map(|(_, v)| v.to_string())
            .take(MAX)
            .collect(),
        slugs,
        demo: demo.map(|(_, call)| call),
        prompts: catalog
            .published()
            .filter(|p| !p.demo.prompts.is_empty())
            .map(|p| {
                let shapes = p.demo.prompts.iter().map(Into::into).collect();
                (p.demo.slug.clone(), shapes)
            })
            .collect(),
    }
}
