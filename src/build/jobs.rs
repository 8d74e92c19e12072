//! Running brand jobs, each contained, and none waiting on another.
//!
//! Each job runs under a `Stop`: its time limit, counted from when it
//! starts, and a flag that calls it off. The job's checkpoints unwind it
//! once either fires, so a stopped job holds no CPU or memory a few
//! milliseconds later (see [`crate::spec::limits::stop`]). A job that
//! panics is reported as panicked.
//!
//! Jobs run on long-lived workers: one per core for the published content,
//! and one for branch previews at a lower scheduling priority, so previews
//! can never take the published site's cores. A job that has run longer
//! than the build's patience is left behind: the build returns without it
//! (its brand is listed as building), a new worker takes its worker's
//! place, and it calls the build's [`Wake`] when it ends, so its brand is
//! published then, and its worker ends with it. At most
//! [`MAX_LEFT_BEHIND`] jobs of the published content and one of previews
//! are left behind at once: past that a build waits, which bounds the jobs
//! alive at any time, and with them the memory builds can hold, to one per
//! core plus six.
//!
//! A build that is not a server's first also has a patience of its own
//! ([`Schedule::defer_after`]): once it has waited that long, every job of
//! it not yet ended is deferred: the build returns, the job runs on (or
//! waits its turn) on the same workers, and wakes the build's loop when it
//! ends. A newer build's jobs go to the front of the queue. So a parent
//! edited with hundreds of children never holds up an unrelated save: the
//! children are published as they end, behind it.

use super::Published;
use crate::spec::limits::stop::{self, Stopped, Watch};
use crate::spec::Diagnostic;
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// What one job produces: the render (when valid), every diagnostic shown,
/// and the warnings its brand.json silences, counted.
pub type Result = (
    Option<Arc<Published>>,
    Arc<Vec<Diagnostic>>,
    Arc<crate::spec::brand::silence::Silenced>,
);

pub type Job = Box<dyn FnOnce() -> Result + Send + 'static>;

#[derive(Debug, Clone)]
pub enum Outcome {
    Done(Result),
    Panicked(String),
    /// It ran past its time limit and was stopped.
    TimedOut,
    /// A newer build of the same brand called it off.
    Cancelled,
}

/// What became of a job by the time its build returned.
pub enum Ran {
    Finished(Outcome),
    /// Still running: its outcome lands in the handle, and the build's
    /// [`Wake`] is called then.
    LeftBehind(Arc<Handle>),
}

/// Called when a job left behind ends, so its outcome is published.
#[derive(Clone)]
pub struct Wake(pub Arc<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for Wake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Wake")
    }
}

/// Whose work a job is: the published content's, or a branch preview's
/// (fewer places, a lower scheduling priority).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Priority {
    #[default]
    Published,
    Preview,
}

/// How a set of jobs runs.
#[derive(Debug, Clone)]
pub struct Schedule {
    /// Each job's time limit, from its start.
    pub limit: Duration,
    /// How long a build waits for a started job before leaving it behind
    /// (`None`: it waits for every job, as `marque check` does).
    pub patience: Option<Duration>,
    pub priority: Priority,
    pub wake: Option<Wake>,
    /// How long the build waits for its jobs as a whole before deferring
    /// the rest (`None`: it does not; a server's first build and `marque
    /// check` wait).
    pub defer_after: Option<Duration>,
    /// With `defer_after`: set when a save arrives, and then the build
    /// defers what it has not finished at once, so the save is built next.
    pub hurry: Option<Arc<AtomicBool>>,
}

/// When one brand's work must stop: its time limit, counted from when it
/// starts, or a call from outside (a newer edit of the same brand).
#[derive(Debug)]
struct Stop {
    limit: Duration,
    started: OnceLock<Instant>,
    cancelled: AtomicBool,
}

impl Stop {
    fn new(limit: Duration) -> Arc<Stop> {
        Arc::new(Stop {
            limit,
            started: OnceLock::new(),
            cancelled: AtomicBool::new(false),
        })
    }

    fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    fn started(&self) -> Option<Instant> {
        self.started.get().copied()
    }

    /// Runs `work` on this thread, its time counted from now, its
    /// independent pieces spread over the machine's cores.
    fn run<R>(self: &Arc<Self>, work: impl FnOnce() -> R) -> R {
        let _ = self.started.set(Instant::now());
        stop::under(self.clone(), || stop::spreading(Arc::new(Cores), work))
    }
}

impl Watch for Stop {
    /// Past its time limit, or called off.
    fn over(&self) -> bool {
        self.is_cancelled() || self.started().is_some_and(|s| s.elapsed() > self.limit)
    }
}

/// One job's outcome, once it has one, and its stop.
#[derive(Debug)]
pub struct Handle {
    stop: Arc<Stop>,
    slot: Mutex<Slot>,
}

#[derive(Debug, Default)]
struct Slot {
    outcome: Option<Outcome>,
    /// Its build returned without it (a new worker took its worker's
    /// place): it wakes its build's loop when it ends.
    left_behind: Option<Option<Wake>>,
    /// Its build returned without it, which it did not hold up for long
    /// (see [`Schedule::defer_after`]): it wakes its build's loop when it
    /// ends, and its worker goes on.
    deferred: Option<Option<Wake>>,
}

impl Handle {
    /// Its outcome, once it ended.
    pub fn outcome(&self) -> Option<Outcome> {
        lock(&self.slot).outcome.clone()
    }

    /// Calls the job off (a newer edit of its brand supersedes it); no-op
    /// once it ended.
    pub fn cancel(&self) {
        self.stop.cancel();
    }
}

/// A job waiting for a worker, and where its outcome goes.
struct Task {
    i: usize,
    job: Job,
    handle: Arc<Handle>,
    done: mpsc::Sender<usize>,
}

/// The workers of one priority: one per core for the published content,
/// one for previews. Long-lived (a thread and its allocator heap per job
/// made `marque check` of a thousand brands take 1.88 s instead of 0.83);
/// a worker whose job is left behind is replaced at once, and ends with
/// that job.
struct Pool {
    priority: Priority,
    tasks: Mutex<VecDeque<Task>>,
    more: std::sync::Condvar,
    /// Workers alive.
    workers: AtomicUsize,
    /// Its jobs left behind and still running.
    left_behind: AtomicUsize,
}

impl Pool {
    fn get(priority: Priority) -> &'static Pool {
        static PUBLISHED: OnceLock<&'static Pool> = OnceLock::new();
        static PREVIEW: OnceLock<&'static Pool> = OnceLock::new();
        let (cell, size) = match priority {
            Priority::Published => (&PUBLISHED, cores()),
            Priority::Preview => (&PREVIEW, 1),
        };
        cell.get_or_init(|| {
            let pool: &'static Pool = Box::leak(Box::new(Pool {
                priority,
                tasks: Mutex::default(),
                more: std::sync::Condvar::new(),
                workers: AtomicUsize::new(0),
                left_behind: AtomicUsize::new(0),
            }));
            for _ in 0..size {
                pool.add_worker();
            }
            pool
        })
    }

    fn submit(&'static self, tasks: impl IntoIterator<Item = Task>) {
        lock(&self.tasks).extend(tasks);
        self.more.notify_all();
    }

    /// Queues `tasks` before every task queued already (jobs an earlier
    /// build deferred), in their order.
    fn submit_first(&'static self, tasks: impl IntoIterator<Item = Task>) {
        let tasks: Vec<Task> = tasks.into_iter().collect();
        let mut queue = lock(&self.tasks);
        for t in tasks.into_iter().rev() {
            queue.push_front(t);
        }
        drop(queue);
        self.more.notify_all();
    }

    /// Starts one more worker; false when no thread could be had.
    fn add_worker(&'static self) -> bool {
        self.workers.fetch_add(1, Ordering::SeqCst);
        let spawned = std::thread::Builder::new()
            .name("marque-build".into())
            .spawn(move || self.work());
        if let Err(e) = spawned {
            self.workers.fetch_sub(1, Ordering::SeqCst);
            tracing::error!(error = %e, "cannot start a build thread");
            return false;
        }
        true
    }

    /// Takes a place for a job left behind, if one is free.
    fn leave_behind(&self) -> bool {
        let most = match self.priority {
            Priority::Published => MAX_LEFT_BEHIND,
            Priority::Preview => 1,
        };
        self.left_behind
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < most).then_some(n + 1)
            })
            .is_ok()
    }

    /// A worker: takes jobs until one it runs is left behind (a
    /// replacement took its place by then), then ends with that job.
    fn work(&'static self) {
        if self.priority == Priority::Preview {
            lower_priority();
        }
        loop {
            let task = {
                let mut tasks = lock(&self.tasks);
                loop {
                    match tasks.pop_front() {
                        Some(t) => break t,
                        None => {
                            tasks = self
                                .more
                                .wait(tasks)
                                .unwrap_or_else(|poisoned| poisoned.into_inner())
                        }
                    }
                }
            };
            if run_task(task, self) {
                self.workers.fetch_sub(1, Ordering::SeqCst);
                return;
            }
        }
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, usize::from)
}

/// Spreads one brand's independent pieces (a resolver's contexts) over
/// the machine's cores: scoped threads, each under the job's watch, for
/// as long as the pieces last. A thread that cannot be had is done
/// without.
pub struct Cores;

impl stop::Spread for Cores {
    fn spread(&self, pieces: usize, watch: Option<Arc<dyn Watch>>, worker: &(dyn Fn() + Sync)) {
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..cores().min(pieces))
                .filter_map(|_| {
                    let watch = watch.clone();
                    std::thread::Builder::new()
                        .name("marque-spread".into())
                        .spawn_scoped(scope, move || match watch {
                            Some(w) => stop::under(w, worker),
                            None => worker(),
                        })
                        .ok()
                })
                .collect();
            let mine = std::panic::catch_unwind(std::panic::AssertUnwindSafe(worker));
            let theirs: Vec<_> = helpers.into_iter().map(|h| h.join()).collect();
            for outcome in std::iter::once(mine).chain(theirs) {
                if let Err(payload) = outcome {
                    std::panic::resume_unwind(payload);
                }
            }
        });
    }
}

/// Most jobs of the published content left behind at once (previews: one).
/// Each ends within its time limit; past this a build waits for its slow
/// job as it would without patience.
pub const MAX_LEFT_BEHIND: usize = 4;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A job's panic is caught inside it, never while a lock is held.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// How often a build looks at its running jobs' patience.
const TICK: Duration = Duration::from_millis(20);

/// Runs every job; returns, in the same order, each one's outcome or its
/// handle when it was left behind.
pub fn run(jobs: Vec<Job>, schedule: &Schedule) -> Vec<Ran> {
    let n = jobs.len();
    let pool = Pool::get(schedule.priority);
    let (tx, rx) = mpsc::channel::<usize>();
    let handles: Vec<Arc<Handle>> = (0..n)
        .map(|_| {
            Arc::new(Handle {
                stop: Stop::new(schedule.limit),
                slot: Mutex::default(),
            })
        })
        .collect();
    let tasks = jobs.into_iter().enumerate().map(|(i, job)| Task {
        i,
        job,
        handle: handles[i].clone(),
        done: tx.clone(),
    });
    if pool.workers.load(Ordering::SeqCst) == 0 && !pool.add_worker() {
        // No worker and no thread to be had: run them here, one by one.
        for task in tasks {
            run_task(task, pool);
        }
    } else if schedule.defer_after.is_some() {
        pool.submit_first(tasks);
    } else {
        pool.submit(tasks);
    }
    drop(tx);
    let began = Instant::now();
    let mut out: Vec<Option<Ran>> = (0..n).map(|_| None).collect();
    let mut left = n;
    let mut looked = Instant::now();
    while left > 0 {
        match rx.recv_timeout(TICK) {
            Ok(i) => {
                if out[i].is_none() {
                    let outcome = handles[i].outcome().unwrap_or(Outcome::Cancelled);
                    out[i] = Some(Ran::Finished(outcome));
                    left -= 1;
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        let hurried = schedule
            .hurry
            .as_ref()
            .is_some_and(|h| h.load(Ordering::Relaxed));
        if schedule
            .defer_after
            .is_some_and(|d| hurried || began.elapsed() > d)
        {
            defer(&handles, &mut out, schedule);
            break;
        }
        let Some(patience) = schedule.patience else {
            continue;
        };
        // Once a tick, not per job ended: a scan is one look at each job.
        if looked.elapsed() < TICK {
            continue;
        }
        looked = Instant::now();
        for (i, h) in handles.iter().enumerate() {
            let overdue = h.stop.started().is_some_and(|s| s.elapsed() > patience);
            if out[i].is_some() || !overdue {
                continue;
            }
            let mut slot = lock(&h.slot);
            if let Some(outcome) = slot.outcome.clone() {
                // It ended just now; its message is on the way.
                out[i] = Some(Ran::Finished(outcome));
                left -= 1;
                continue;
            }
            if !pool.leave_behind() {
                continue;
            }
            // Its worker ends with it: another takes its place first, or
            // the build waits for it after all.
            if !pool.add_worker() {
                pool.left_behind.fetch_sub(1, Ordering::SeqCst);
                continue;
            }
            slot.left_behind = Some(schedule.wake.clone());
            out[i] = Some(Ran::LeftBehind(h.clone()));
            left -= 1;
        }
    }
    out.into_iter()
        .map(|o| o.unwrap_or(Ran::Finished(Outcome::Cancelled)))
        .collect()
}

/// Runs one job on this worker: true when it was left behind (the worker
/// then ends, a replacement having taken its place).
fn run_task(task: Task, pool: &Pool) -> bool {
    let Task {
        i,
        job,
        handle,
        done,
    } = task;
    let stop = handle.stop.clone();
    let outcome = match catch_unwind(AssertUnwindSafe(|| {
        // Called off while it waited: not started at all.
        if stop.is_cancelled() {
            std::panic::resume_unwind(Box::new(Stopped));
        }
        stop.run(job)
    })) {
        Ok(_) if stop.is_cancelled() => Outcome::Cancelled,
        // A step that has no checkpoint ran past the limit.
        Ok(_) if stop.over() => Outcome::TimedOut,
        Ok(r) => Outcome::Done(r),
        Err(p) if p.is::<Stopped>() && stop.is_cancelled() => Outcome::Cancelled,
        Err(p) if p.is::<Stopped>() => Outcome::TimedOut,
        Err(p) => Outcome::Panicked(panic_message(&p)),
    };
    let (left_behind, deferred) = {
        let mut slot = lock(&handle.slot);
        slot.outcome = Some(outcome);
        (slot.left_behind.clone(), slot.deferred.clone())
    };
    let _ = done.send(i);
    match (left_behind, deferred) {
        (Some(wake), _) => {
            pool.left_behind.fetch_sub(1, Ordering::SeqCst);
            if let Some(Wake(wake)) = wake {
                wake();
            }
            true
        }
        (None, Some(wake)) => {
            if let Some(Wake(wake)) = wake {
                wake();
            }
            false
        }
        (None, None) => false,
    }
}

/// Defers every job of a build that has not ended (see
/// [`Schedule::defer_after`]): each wakes the build's loop when it ends.
fn defer(handles: &[Arc<Handle>], out: &mut [Option<Ran>], schedule: &Schedule) {
    for (i, h) in handles.iter().enumerate() {
        if out[i].is_some() {
            continue;
        }
        let mut slot = lock(&h.slot);
        out[i] = Some(match slot.outcome.clone() {
            Some(outcome) => Ran::Finished(outcome),
            None => {
                slot.deferred = Some(schedule.wake.clone());
                Ran::LeftBehind(h.clone())
            }
        });
    }
}

/// Lowers the calling thread's scheduling priority (nice 10): a preview's
/// build runs only on CPU the published site leaves over. On Linux,
/// `setpriority` with a thread id applies to that thread alone.
fn lower_priority() {
    let tid = rustix::thread::gettid();
    if let Err(e) = rustix::process::setpriority_process(Some(tid), 10) {
        tracing::debug!(error = %e, "cannot lower a preview build's priority");
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

#[cfg(test)]
mod tests;
