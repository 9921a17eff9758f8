//! Work spread over the machine's cores: independent items (agents, databases) each on a scoped
//! thread, results in the items' order. Hand-written over `std::thread::scope` rather than a
//! thread-pool crate: the items are few and long (a database each), so one queue and a few
//! threads for the length of one call is all it takes.

use std::sync::Mutex;

/// A worker's stack: the main thread's usual 8 MiB. Store JSON can nest as deep as
/// OpenClaw writes it (docs/openclaw/HOSTILE.md §10); parsing grows its own stack, but a
/// parsed tree is dropped and cloned one frame per level, which a 2 MiB thread default would
/// not hold. Reserved address space, touched only as deep as a run goes.
const WORKER_STACK: usize = 8 << 20;

/// How many threads run at once on this machine (at least 1).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `f` over every item on up to `threads` scoped threads, each taking the next item not yet
/// begun; the results in the items' order. One item, or one thread, runs on the caller's
/// thread. A panic in `f` is resumed on the caller's thread once every thread has stopped.
pub fn map_in_order<T: Send, R: Send>(
    items: Vec<T>,
    threads: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.min(items.len());
    if threads <= 1 {
        return items.into_iter().map(f).collect();
    }
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let queue = Mutex::new(items.into_iter().enumerate());
    let next = || queue.lock().unwrap_or_else(|e| e.into_inner()).next();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(WORKER_STACK)
                    .spawn_scoped(scope, || {
                        while let Some((i, item)) = next() {
                            let r = f(item);
                            *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                        }
                    })
                    .expect("a thread could not be started")
            })
            .collect();
        let panics: Vec<_> = workers.into_iter().filter_map(|w| w.join().err()).collect();
        if let Some(p) = panics.into_iter().next() {
            std::panic::resume_unwind(p);
        }
    });
    slots
        .into_iter()
        .map(|s| {
            s.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .expect("every item was mapped: no thread panicked")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn results_keep_the_items_order_and_every_item_runs_once() {
        let runs = AtomicUsize::new(0);
        let out = map_in_order((0..50).collect(), 4, |i: u64| {
            runs.fetch_add(1, Ordering::SeqCst);
            // Unequal lengths, so the threads finish out of order.
            std::thread::sleep(std::time::Duration::from_micros((50 - i) * 20));
            i * 2
        });
        assert_eq!(out, (0..50).map(|i| i * 2).collect::<Vec<_>>());
        assert_eq!(runs.load(Ordering::SeqCst), 50);
        assert_eq!(map_in_order(vec!["a"], 8, str::len), [1]);
        assert!(map_in_order(Vec::<u8>::new(), 8, |b| b).is_empty());
    }

    #[test]
    fn a_panic_reaches_the_caller() {
        let caught = std::panic::catch_unwind(|| {
            map_in_order((0..8).collect(), 3, |i: i32| {
                assert_ne!(i, 5, "item five");
                i
            })
        });
        assert!(caught.is_err());
    }
}
