//! The job runner's tests: limits, panics, deferral, priorities and
//! pieces spread over the cores.
use super::*;
use crate::spec::limits::checkpoint;

fn wait_all(limit: Duration) -> Schedule {
    Schedule {
        limit,
        patience: None,
        priority: Priority::Published,
        wake: None,
        defer_after: None,
        hurry: None,
    }
}

/// Work that checks in often, as every step of a brand's build does.
fn busy(for_: Duration) -> Result {
    let started = Instant::now();
    while started.elapsed() < for_ {
        checkpoint();
        std::hint::spin_loop();
    }
    (None, Default::default(), Default::default())
}

#[test]
fn a_panic_and_a_runaway_do_not_hold_up_the_others() {
    let jobs: Vec<Job> = vec![
        Box::new(|| (None, Default::default(), Default::default())),
        Box::new(|| panic!("boom")),
        Box::new(|| busy(Duration::from_secs(30))),
    ];
    let started = Instant::now();
    let out = run(jobs, &wait_all(Duration::from_millis(300)));
    // The runaway is stopped at its limit, not left running.
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(matches!(out[0], Ran::Finished(Outcome::Done(_))));
    assert!(matches!(&out[1], Ran::Finished(Outcome::Panicked(m)) if m == "boom"));
    assert!(matches!(out[2], Ran::Finished(Outcome::TimedOut)));
}

#[test]
fn a_jobs_pieces_are_spread_answered_in_order_and_stopped_with_it() {
    use crate::spec::limits::stop::each;
    use std::sync::atomic::AtomicUsize;
    let threads = Arc::new(Mutex::new(std::collections::HashSet::new()));
    let seen = threads.clone();
    let jobs: Vec<Job> = vec![
        Box::new(move || {
            let items: Vec<usize> = (0..64).collect();
            let answers = each(
                &items,
                |i| {
                    lock(&seen).insert(std::thread::current().id());
                    busy(Duration::from_millis(1));
                    i * 10
                },
                |_| false,
            );
            let answers: Vec<usize> = answers.into_iter().map(Option::unwrap).collect();
            assert_eq!(answers, items.iter().map(|i| i * 10).collect::<Vec<_>>());
            // Past `enough`, no more are taken: what is left is a tail.
            let taken = AtomicUsize::new(0);
            let some = each(
                &items,
                |i| *i,
                |_| taken.fetch_add(1, Ordering::SeqCst) >= 3,
            );
            let answered = some.iter().take_while(|a| a.is_some()).count();
            // Four answered, and at most what the other threads had
            // taken by then.
            assert!((4..=3 + cores()).contains(&answered), "{answered}");
            assert!(some[answered..].iter().all(Option::is_none));
            (None, Default::default(), Default::default())
        }),
        // A piece that runs away on any thread is stopped with its job.
        Box::new(|| {
            each(&[0, 1, 2], |_| busy(Duration::from_secs(30)), |_| false);
            (None, Default::default(), Default::default())
        }),
    ];
    let started = Instant::now();
    let out = run(jobs, &wait_all(Duration::from_millis(1000)));
    match &out[0] {
        Ran::Finished(Outcome::Panicked(m)) => panic!("the spread job failed: {m}"),
        r => assert!(matches!(r, Ran::Finished(Outcome::Done(_)))),
    }
    assert!(matches!(out[1], Ran::Finished(Outcome::TimedOut)));
    assert!(started.elapsed() < Duration::from_secs(5));
    if cores() > 1 {
        assert!(lock(&threads).len() > 1, "the pieces ran on one thread");
    }
}

#[test]
fn a_slow_job_is_left_behind_and_wakes_its_build_when_it_ends() {
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    let schedule = Schedule {
        limit: Duration::from_secs(5),
        patience: Some(Duration::from_millis(50)),
        priority: Priority::Published,
        wake: Some(Wake(Arc::new(move || {
            let _ = lock(&tx).send(());
        }))),
        defer_after: None,
        hurry: None,
    };
    let jobs: Vec<Job> = vec![
        Box::new(|| busy(Duration::from_secs(2))),
        Box::new(|| (None, Default::default(), Default::default())),
    ];
    let out = run(jobs, &schedule);
    let Ran::LeftBehind(handle) = &out[0] else {
        panic!("the slow job is left behind");
    };
    assert!(matches!(out[1], Ran::Finished(Outcome::Done(_))));
    assert!(handle.outcome().is_none());
    rx.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(matches!(handle.outcome(), Some(Outcome::Done(_))));
}

#[test]
fn a_later_build_defers_what_it_has_not_finished_and_the_next_goes_first() {
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    let schedule = Schedule {
        limit: Duration::from_secs(10),
        patience: Some(Duration::from_secs(5)),
        priority: Priority::Published,
        wake: Some(Wake(Arc::new(move || {
            let _ = lock(&tx).send(());
        }))),
        defer_after: Some(Duration::from_millis(100)),
        hurry: None,
    };
    // Many short jobs, more than the workers get through in 100 ms.
    let many: Vec<Job> = (0..200)
        .map(|_| Box::new(|| busy(Duration::from_millis(10))) as Job)
        .collect();
    let started = Instant::now();
    let out = run(many, &schedule);
    assert!(
        started.elapsed() < Duration::from_millis(600),
        "{:?}",
        started.elapsed()
    );
    let deferred: Vec<&Arc<Handle>> = out
        .iter()
        .filter_map(|r| match r {
            Ran::LeftBehind(h) => Some(h),
            Ran::Finished(_) => None,
        })
        .collect();
    assert!(deferred.len() > 100, "{} deferred", deferred.len());
    // A newer build's job runs before the deferred ones.
    let quick = Instant::now();
    let next = run(
        vec![Box::new(|| (None, Default::default(), Default::default()))],
        &Schedule {
            defer_after: Some(Duration::from_secs(5)),
            ..schedule.clone()
        },
    );
    assert!(matches!(next[0], Ran::Finished(Outcome::Done(_))));
    assert!(
        quick.elapsed() < Duration::from_millis(200),
        "{:?}",
        quick.elapsed()
    );
    // Every deferred job ends, each waking the build's loop, and its
    // worker goes on to the next.
    for _ in 0..deferred.len() {
        rx.recv_timeout(Duration::from_secs(10)).unwrap();
    }
    assert!(deferred
        .iter()
        .all(|h| matches!(h.outcome(), Some(Outcome::Done(_)))));
}

/// The nice value of the calling thread, from /proc (field 19 of stat).
fn nice() -> i64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
    let after = stat.rsplit(')').next().unwrap();
    after.split_whitespace().nth(16).unwrap().parse().unwrap()
}

#[test]
fn preview_jobs_run_at_a_lower_priority_than_published_ones() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    for priority in [Priority::Published, Priority::Preview] {
        let seen = seen.clone();
        let job: Job = Box::new(move || {
            lock(&seen).push((priority, nice()));
            (None, Default::default(), Default::default())
        });
        let schedule = Schedule {
            priority,
            ..wait_all(Duration::from_secs(5))
        };
        run(vec![job], &schedule);
    }
    let seen = lock(&seen).clone();
    let of = |p| seen.iter().find(|(q, _)| *q == p).unwrap().1;
    assert_eq!(
        of(Priority::Preview) - of(Priority::Published),
        10,
        "{seen:?}"
    );
}

#[test]
fn a_cancelled_job_stops_at_its_next_checkpoint() {
    let schedule = Schedule {
        patience: Some(Duration::from_millis(20)),
        ..wait_all(Duration::from_secs(30))
    };
    let out = run(vec![Box::new(|| busy(Duration::from_secs(30)))], &schedule);
    let Ran::LeftBehind(handle) = &out[0] else {
        panic!("left behind");
    };
    let cancelled = Instant::now();
    handle.cancel();
    while handle.outcome().is_none() {
        // Microseconds on an idle machine; the bound leaves room for a busy one.
        assert!(cancelled.elapsed() < Duration::from_millis(500));
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(matches!(handle.outcome(), Some(Outcome::Cancelled)));
}
