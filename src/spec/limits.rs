//! Budgets on content work. Content is untrusted: one push or one save must
//! not be able to make marque spend unbounded time or memory. Every limit
//! here is far above what a real brand needs, and going past one is a
//! diagnostic with file and line, never a crash or a stall.

/// Largest single file of a brand folder (brand.json, tokens.json, an asset).
pub const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
/// Largest brand folder, all files together.
pub const MAX_BRAND_BYTES: usize = 32 * 1024 * 1024;
/// Most files in a brand folder.
pub const MAX_ASSETS: usize = 2_000;
/// Deepest folder nesting under assets/.
pub const MAX_ASSET_DEPTH: usize = 16;
/// Most JSON values in brand.json or tokens.json (counted before parsing,
/// so a file of millions of tiny values is refused before it costs memory).
pub const MAX_JSON_VALUES: usize = 300_000;
/// Deepest nesting of objects and arrays in brand.json and tokens.json.
pub const MAX_JSON_DEPTH: usize = 64;
/// Longest object key, in characters.
pub const MAX_KEY_CHARS: usize = 256;
/// Most tokens of a brand (in tokens.json, or a resolver's merge), after
/// `$extends` and `$ref` are resolved. The largest real systems hold tens
/// of thousands (Atlassian's is cited at about 37,000); a generated one of
/// 40,000 in four contexts reads, checks and renders in the corpus bench.
pub const MAX_TOKENS: usize = 100_000;
/// Most JSON values that `$extends` and `$ref` may add to tokens.json.
pub const MAX_EXPANDED_VALUES: usize = 200_000;
/// Most JSON values one context's merge of a resolver's sources copies
/// (a token of a colour is about 8, a typography 15): room for
/// [`MAX_TOKENS`] tokens, while a resolver that names one file thousands
/// of times is still stopped.
pub const MAX_MERGED_VALUES: usize = 2_000_000;
/// Longest alias chain (`{a}` → `{b}` → …), and deepest `$extends`/`$ref` nesting.
pub const MAX_ALIAS_DEPTH: usize = 64;
/// Most sources that a resolver's sets and contexts name in all, each set
/// counted as often as it is named (every set is expanded once and its
/// sources listed once, so a set named a hundred times costs a hundred
/// times its list, not a copy per path through the sets). The largest
/// corpus resolver (GitHub Primer's) names 59 in all, and none names a set
/// from a set; a graph that still adds up past this is refused before
/// anything is merged.
pub const MAX_RESOLVER_SOURCES: usize = 10_000;
/// Deepest chain of sets that name sets (`#/sets/a` naming `#/sets/b` …).
pub const MAX_SET_DEPTH: usize = 8;
/// Most tokens checked over every context of a brand: each context other
/// than the default is merged, parsed and checked whole, so a brand costs
/// its contexts times its tokens. GitHub Primer, the largest corpus
/// system, needs 11,600 (7 contexts of about 1,650 tokens); a Tokens
/// Studio repository of 2,000 tokens and a dozen themes 24,000; a system
/// of 37,000 tokens with a dark theme 37,000, and the bench's 40,000 in
/// four contexts 120,000. Room for [`MAX_TOKENS`] with a dark theme; a
/// brand at the budget checks its contexts in about 2.5 s on two cores.
pub const MAX_CONTEXT_TOKENS: usize = 150_000;
/// Most bytes of bodies one brand (or one release) publishes, before
/// compression: the largest corpus system, GitHub Primer, publishes 5.2 MiB,
/// and the corpus bench's 40,000 tokens in four contexts 57 MiB, which a
/// cap of 48 MiB refused although its tokens fit every token budget.
pub const MAX_BRAND_BODY_BYTES: usize = 128 * 1024 * 1024;
/// Most diagnostics reported per file; the rest are counted in one more.
pub const MAX_DIAGNOSTICS_PER_FILE: usize = 200;

/// `5 MiB`, `32 MiB`, `512 KiB`.
pub fn describe_bytes(n: usize) -> String {
    if n >= 1024 * 1024 && n.is_multiple_of(1024 * 1024) {
        format!("{} MiB", n / (1024 * 1024))
    } else if n >= 1024 && n.is_multiple_of(1024) {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

/// Work on one brand stops where its time is up or it was called off:
/// expansion, merging, checking and rendering call [`checkpoint`] between
/// steps small enough that a stopped build holds no CPU a few milliseconds
/// later. Stopping unwinds the build (with [`std::panic::resume_unwind`],
/// so no panic message is printed), which frees everything it held; the
/// job runner (`build::jobs`) catches it. The core reads no clock: the
/// runner hands it a `Watch` that says when to stop. Work run outside
/// `under` (tests, `marque import`) is never stopped.
pub mod stop {
    use std::cell::{Cell, RefCell};
    use std::sync::Arc;

    /// The payload a stopped build unwinds with.
    #[derive(Debug)]
    pub struct Stopped;

    /// Says when the work on a brand must stop.
    pub trait Watch: Send + Sync {
        fn over(&self) -> bool;
    }

    thread_local! {
        static CURRENT: RefCell<Option<Arc<dyn Watch>>> = const { RefCell::new(None) };
        static TICKS: Cell<u32> = const { Cell::new(0) };
    }

    /// Runs `work` on this thread under `watch`: its checkpoints unwind
    /// with [`Stopped`] once `watch` says it is over.
    pub fn under<R>(watch: Arc<dyn Watch>, work: impl FnOnce() -> R) -> R {
        let outer = CURRENT.with(|c| c.replace(Some(watch)));
        struct Restore(Option<Arc<dyn Watch>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let outer = self.0.take();
                CURRENT.with(|c| *c.borrow_mut() = outer);
            }
        }
        let _restore = Restore(outer);
        work()
    }

    /// Runs the pieces of one brand's work that do not depend on each
    /// other (a resolver's contexts) at once: the core says what may run
    /// together, the runner that called it (`build::jobs`, `marque lint`)
    /// says on how many threads, as it says when to stop. Work run outside
    /// [`spreading`] runs its pieces one after another on its own thread.
    pub trait Spread: Send + Sync {
        /// Calls `worker` on this thread and on as many more as it has
        /// (fewer than `pieces`), each under `watch` (the caller's), and
        /// returns when every call has returned; a call that unwinds
        /// unwinds this one with its payload. Each worker takes pieces
        /// until none is left.
        fn spread(&self, pieces: usize, watch: Option<Arc<dyn Watch>>, worker: &(dyn Fn() + Sync));
    }

    thread_local! {
        static SPREAD: RefCell<Option<Arc<dyn Spread>>> = const { RefCell::new(None) };
    }

    /// Runs `work` on this thread with its independent pieces spread by `spread`.
    pub fn spreading<R>(spread: Arc<dyn Spread>, work: impl FnOnce() -> R) -> R {
        let outer = SPREAD.with(|s| s.replace(Some(spread)));
        struct Restore(Option<Arc<dyn Spread>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let outer = self.0.take();
                SPREAD.with(|s| *s.borrow_mut() = outer);
            }
        }
        let _restore = Restore(outer);
        work()
    }

    /// Works `f` out for each of `items`, spread as this thread's
    /// [`Spread`] spreads it (one after another where none is), and gives
    /// the answers in the items' order. Items are taken in order and none
    /// is taken once `enough` says so of an answer, so what is left out
    /// is always a tail (`None`).
    pub fn each<T: Sync, R: Send>(
        items: &[T],
        f: impl Fn(&T) -> R + Sync,
        enough: impl Fn(&R) -> bool + Sync,
    ) -> Vec<Option<R>> {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        use std::sync::Mutex;
        let next = AtomicUsize::new(0);
        let done = AtomicBool::new(false);
        let answers: Mutex<Vec<Option<R>>> =
            Mutex::new(std::iter::repeat_with(|| None).take(items.len()).collect());
        // A worker that unwinds stops the others taking more (its guard is
        // dropped only then; a stopped build stops them at their next
        // checkpoint anyway).
        struct Halt<'a>(&'a AtomicBool);
        impl Drop for Halt<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let worker = || {
            while !done.load(Ordering::SeqCst) {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(item) = items.get(i) else { break };
                let halt = Halt(&done);
                let answer = f(item);
                std::mem::forget(halt);
                if enough(&answer) {
                    done.store(true, Ordering::SeqCst);
                }
                answers.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(answer);
            }
        };
        let spread = SPREAD
            .with(|s| s.borrow().clone())
            .filter(|_| items.len() > 1);
        match spread {
            Some(spread) => {
                spread.spread(items.len(), CURRENT.with(|c| c.borrow().clone()), &worker)
            }
            None => worker(),
        }
        answers.into_inner().unwrap_or_else(|p| p.into_inner())
    }

    /// Unwinds with [`Stopped`] when the work this thread runs is over.
    /// Cheap: it asks one call in 16.
    pub fn checkpoint() {
        let tick = TICKS.with(|t| {
            let n = t.get().wrapping_add(1);
            t.set(n);
            n
        });
        if !tick.is_multiple_of(16) {
            return;
        }
        let over = CURRENT.with(|c| c.borrow().as_ref().is_some_and(|w| w.over()));
        if over {
            std::panic::resume_unwind(Box::new(Stopped));
        }
    }
}

pub use stop::checkpoint;
