//! The gzip and brotli codings of a body, made by compressors whose big
//! tables outlive one body: each thread keeps a deflate state per level
//! and brotli's hash table. Reusing them changes no byte of the output;
//! making them new for every body was a tenth of `marque check` (deflate's)
//! and a twentieth of a cold start (brotli's).

use brotli::enc::StandardAlloc;
use brotli::{Allocator, CombiningAllocator, SliceWrapper, SliceWrapperMut};
use std::cell::RefCell;
use std::io::Write;

/// A 4 MiB window. From 17 bits up the window changes neither time nor
/// size; at 16 bits or fewer brotli picks another match finder, 25 times
/// slower here (`cargo bench --bench compression`).
const BROTLI_WINDOW: u32 = 22;

/// The length, in `u32`s, of the hash table brotli's quality 5 uses with a
/// window over 16 bits (its hasher H5: 2^14 buckets of 2^4 entries; other
/// qualities size it otherwise and always get a new one): a mebibyte,
/// which a new table zeroes first.
const TABLE: usize = 1 << 18;

/// Bodies shorter than this reuse a table. Every other `u32` array the
/// encoder allocates is sized by a count of symbols, blocks or clusters,
/// none larger than the body, and grown by doubling: under 2^17 bytes none
/// can be [`TABLE`] long, so only the hash table is ever taken from the
/// pool. Longer bodies (few, and rare) get a fresh table.
const REUSED_BELOW: usize = 1 << 17;

thread_local! {
    /// The hash table the last brotli coding on this thread gave back: a
    /// mebibyte kept by each thread that compresses (the build's workers).
    static TABLES: RefCell<Option<Box<[u32]>>> = const { RefCell::new(None) };
}

/// `body` in gzip at `level` (see [`crate::bodies::gzip`]).
pub fn gzip(body: &[u8], level: u32) -> Vec<u8> {
    crate::bodies::gzip(body, level)
}

/// `body` in brotli at `quality`: the bytes `brotli::CompressorWriter`
/// writes, with a hash table this thread used before where that is safe.
pub fn brotli(body: &[u8], quality: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() / 4 + 64);
    let buffer = <StandardAlloc as Allocator<u8>>::alloc_cell(&mut StandardAlloc::default(), 4096);
    let tables = Tables {
        reuse: body.len() < REUSED_BELOW,
    };
    let mut w = brotli::enc::writer::CompressorWriterCustomAlloc::new(
        &mut out,
        buffer,
        with_tables(tables),
        quality,
        BROTLI_WINDOW,
    );
    w.write_all(body).expect("writing to memory");
    drop(w);
    out
}

/// brotli's standard allocator for everything but `u32` arrays.
fn with_tables(tables: Tables) -> impl brotli::enc::BrotliAlloc {
    let s = StandardAlloc::default;
    CombiningAllocator::new(
        s(),
        s(),
        s(),
        tables,
        s(),
        s(),
        s(),
        s(),
        s(),
        s(),
        s(),
        s(),
        s(),
        s(),
        s(),
        s(),
        s(),
        s(),
    )
}

/// brotli's `u32` arrays: zeroed, as the standard allocator gives them,
/// except a [`TABLE`]-long one when `reuse` holds, which is this thread's
/// last hash table as that coding left it. That is safe because of how the
/// hasher reads it, as in C brotli: its `Prepare` zeroes the per-bucket
/// counts, and a search reads only the entries those counts say were
/// written for the body at hand. (The unit tests compare every byte with
/// the standard allocator's output.)
struct Tables {
    reuse: bool,
}

#[derive(Default)]
struct Cells(Box<[u32]>);

impl SliceWrapper<u32> for Cells {
    fn slice(&self) -> &[u32] {
        &self.0
    }
}

impl SliceWrapperMut<u32> for Cells {
    fn slice_mut(&mut self) -> &mut [u32] {
        &mut self.0
    }
}

impl Allocator<u32> for Tables {
    type AllocatedMemory = Cells;

    fn alloc_cell(&mut self, len: usize) -> Cells {
        if self.reuse && len == TABLE {
            if let Some(table) = TABLES.take() {
                return Cells(table);
            }
        }
        Cells(vec![0; len].into_boxed_slice())
    }

    fn free_cell(&mut self, cells: Cells) {
        if self.reuse && cells.0.len() == TABLE {
            TABLES.set(Some(cells.0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// What `brotli` must equal: a fresh encoder with zeroed tables.
    fn standard_brotli(body: &[u8], quality: u32) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut w = brotli::CompressorWriter::new(&mut out, 4096, quality, BROTLI_WINDOW);
            w.write_all(body).unwrap();
        }
        out
    }

    /// Bodies of many shapes and sizes, in an order where each meets a
    /// table full of another's positions.
    fn bodies() -> Vec<Vec<u8>> {
        let json = br##"{"slug":"northwind","name":"Northwind Outfitters","color":{"primary":"#0b3d2e","accent":"#f2a900"},"voice":["plain","warm"]}"##;
        let mut bodies = vec![Vec::new(), b"a".to_vec(), json.to_vec()];
        let mut seed = 0x2545_f491_u64;
        for len in [100, 255, 256, 257, 4_000, 20_000, 70_000, REUSED_BELOW - 1] {
            let text: Vec<u8> = json.iter().copied().cycle().take(len).collect();
            bodies.push(text.clone());
            // The same text with a byte in eight changed at random.
            let mut noisy = text;
            for b in noisy.iter_mut() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                if seed.is_multiple_of(8) {
                    *b = (seed >> 32) as u8;
                }
            }
            bodies.push(noisy);
        }
        bodies.push(vec![b'x'; REUSED_BELOW + 10]);
        bodies
    }

    #[test]
    fn brotli_with_a_reused_table_writes_the_standard_encoders_bytes() {
        for quality in [1, 4, 5, 6] {
            // Twice round, so every body also meets a table left by a later one.
            for body in bodies().iter().chain(bodies().iter().rev()) {
                let br = brotli(body, quality);
                assert_eq!(
                    br,
                    standard_brotli(body, quality),
                    "q{quality}, {} bytes",
                    body.len()
                );
                let mut back = Vec::new();
                brotli::Decompressor::new(&br[..], 4096)
                    .read_to_end(&mut back)
                    .unwrap();
                assert_eq!(&back, body);
            }
        }
    }

    #[test]
    fn a_brotli_coding_leaves_its_table_for_the_next_one_on_its_thread() {
        std::thread::spawn(|| {
            assert!(TABLES.with_borrow(Option::is_none));
            brotli(&b"a body that compresses well. ".repeat(40), 5);
            let table = TABLES.with_borrow(|t| t.as_ref().map(|t| (t.as_ptr(), t.len())));
            assert_eq!(table.map(|(_, len)| len), Some(TABLE));
            brotli(&b"another body, quite unlike it. ".repeat(30), 5);
            let again = TABLES.with_borrow(|t| t.as_ref().map(|t| (t.as_ptr(), t.len())));
            assert_eq!(again, table, "the same table, not a new one");
            // A long body takes a fresh table and leaves the kept one be.
            brotli(&vec![b'x'; REUSED_BELOW], 5);
            let after = TABLES.with_borrow(|t| t.as_ref().map(|t| (t.as_ptr(), t.len())));
            assert_eq!(after, table);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn gzip_from_a_reused_compressor_round_trips_with_flate2s_header() {
        let bodies: [&[u8]; 3] = [b"", &[b'a'; 70_000], br#"{"slug":"northwind","name":"N"}"#];
        for level in [1, 6, 9] {
            for body in bodies {
                let gz = gzip(body, level);
                let mut header =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level))
                        .finish()
                        .unwrap();
                header.truncate(10);
                assert_eq!(gz[..10], header[..], "level {level}");
                let mut back = Vec::new();
                flate2::read::GzDecoder::new(&gz[..])
                    .read_to_end(&mut back)
                    .unwrap();
                assert_eq!(back, body, "level {level}");
                assert_eq!(gzip(body, level), gz, "the same bytes every time");
            }
        }
    }
}
