//! A brand's files with their parse deferred: a published brand keeps its
//! files, not its parsed form (at thousands of brands that would outweigh
//! every rendered body), and is parsed again only when something needs it
//! (a stale brand's page shows its last good version; the compare endpoint
//! diffs two versions).

use super::{parse_brand, Brand, BrandFiles};
use chrono::NaiveDate;
use std::sync::{Arc, OnceLock};

/// The files a render was made from, and the brand they parse into.
#[derive(Debug)]
pub struct LazyBrand {
    files: Arc<BrandFiles>,
    today: NaiveDate,
    brand: OnceLock<Option<Arc<Brand>>>,
}

impl LazyBrand {
    /// Files to parse on first use.
    pub fn unparsed(files: &Arc<BrandFiles>, today: NaiveDate) -> LazyBrand {
        LazyBrand {
            files: files.clone(),
            today,
            brand: OnceLock::new(),
        }
    }

    /// The files it parses.
    pub fn files(&self) -> &Arc<BrandFiles> {
        &self.files
    }

    /// The brand (None only if its files no longer parse, which a render
    /// made from them rules out).
    pub fn brand(&self) -> Option<Arc<Brand>> {
        self.brand
            .get_or_init(|| parse_brand(&self.files, self.today).0.map(Arc::new))
            .clone()
    }
}
