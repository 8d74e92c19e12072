//! Running brand jobs: each on the thread pool, each contained. A job that
//! panics is reported as panicked; one that is still running when the time
//! budget after its start runs out is reported as timed out and left behind
//! (it finishes on its own: every step of a job is bounded), so the build
//! goes on for every other brand.

use super::Published;
use crate::spec::Diagnostic;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What one job produces: the render (when valid) and every diagnostic.
pub type Result = (Option<Arc<Published>>, Arc<Vec<Diagnostic>>);

pub type Job = Box<dyn FnOnce() -> Result + Send + 'static>;

pub enum Outcome {
    Done(Result),
    Panicked(String),
    TimedOut,
}

/// How often the budget of running jobs is looked at.
const TICK: Duration = Duration::from_millis(25);

/// Runs every job and returns their outcomes in the same order.
pub fn run(jobs: Vec<Job>, budget: Duration) -> Vec<Outcome> {
    let n = jobs.len();
    if n == 0 {
        return Vec::new();
    }
    let epoch = Instant::now();
    // Start time of each job in µs since `epoch`, plus one; 0 while queued.
    let started: Arc<Vec<AtomicU64>> = Arc::new((0..n).map(|_| AtomicU64::new(0)).collect());
    let (tx, rx) = mpsc::channel::<(usize, Outcome)>();
    for (i, job) in jobs.into_iter().enumerate() {
        let (tx, started) = (tx.clone(), started.clone());
        rayon::spawn(move || {
            started[i].store(epoch.elapsed().as_micros() as u64 + 1, Ordering::Relaxed);
            let outcome = match catch_unwind(AssertUnwindSafe(job)) {
                Ok(r) => Outcome::Done(r),
                Err(panic) => Outcome::Panicked(panic_message(&panic)),
            };
            let _ = tx.send((i, outcome));
        });
    }
    drop(tx);
    let mut out: Vec<Option<Outcome>> = (0..n).map(|_| None).collect();
    let mut left = n;
    while left > 0 {
        match rx.recv_timeout(TICK) {
            Ok((i, outcome)) => {
                if out[i].is_none() {
                    out[i] = Some(outcome);
                    left -= 1;
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        let now = epoch.elapsed().as_micros() as u64 + 1;
        for (i, slot) in out.iter_mut().enumerate() {
            let start = started[i].load(Ordering::Relaxed);
            if slot.is_none() && start > 0 && now.saturating_sub(start) > budget.as_micros() as u64
            {
                *slot = Some(Outcome::TimedOut);
                left -= 1;
            }
        }
    }
    out.into_iter()
        .map(|o| o.unwrap_or(Outcome::TimedOut))
        .collect()
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_and_a_stall_do_not_hold_up_the_others() {
        let jobs: Vec<Job> = vec![
            Box::new(|| (None, Default::default())),
            Box::new(|| panic!("boom")),
            Box::new(|| {
                std::thread::sleep(Duration::from_secs(4));
                (None, Default::default())
            }),
        ];
        let started = Instant::now();
        // The budget leaves room for the panic hook to print a backtrace.
        let out = run(jobs, Duration::from_secs(1));
        assert!(started.elapsed() < Duration::from_secs(3));
        assert!(matches!(out[0], Outcome::Done(_)));
        assert!(matches!(&out[1], Outcome::Panicked(m) if m == "boom"));
        assert!(matches!(out[2], Outcome::TimedOut));
    }
}
