//! The work pool: emulation (the calculators, a new game's first reply),
//! audits and table builds run here, on a few threads of their own at a
//! lower priority, apart from the threads that serve requests. A flood of
//! calculator presses then queues here while a probe of tables at hand
//! runs at once on a request thread, at full priority, on the core the
//! pool leaves free.
//!
//! The pool is bounded twice: its threads (the cores less one, at least
//! one) and its queue (a request that finds it full is a 503). A request
//! hands its work over and awaits it without holding a thread (each
//! thread costs a stack and, past a few, a malloc arena of 64 MB of
//! address space); a job whose request has stopped by the time its turn
//! comes (the client gone, the time up) is not run.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;

use crate::{ApiError, RequestScope};

type Job = Box<dyn FnOnce() + Send>;

/// Jobs queued at most, beyond those running.
pub const QUEUE: usize = 1024;

/// Threads for emulation, audits and table builds, apart from the request
/// threads.
pub struct WorkPool {
    jobs: SyncSender<Job>,
    threads: usize,
}

impl WorkPool {
    /// `threads` threads (at least one) and a queue of `queue` jobs.
    pub fn new(threads: usize, queue: usize) -> WorkPool {
        let threads = threads.max(1);
        let (jobs, waiting) = sync_channel::<Job>(queue);
        let waiting = Arc::new(Mutex::new(waiting));
        for number in 0..threads {
            let waiting = Arc::clone(&waiting);
            std::thread::Builder::new()
                .name(format!("work-{number}"))
                .spawn(move || work(&waiting))
                .expect("a thread for the work pool");
        }
        WorkPool { jobs, threads }
    }

    /// The pool `serve` uses: one thread less than the cores (at least
    /// one), so that a core is left to the requests.
    pub fn for_this_machine() -> WorkPool {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        WorkPool::new(cores.saturating_sub(1), QUEUE)
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `job` on the pool; the request waits for its result without
    /// holding a thread. With a `scope`, a job whose request has stopped
    /// when its turn comes is not run.
    pub async fn run<T: Send + 'static>(
        &self,
        scope: Option<RequestScope>,
        job: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let (done, result) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            if scope.is_some_and(|scope| scope.stopped()) {
                let _ = done.send(Err(stopped()));
                return;
            }
            let answer = catch_unwind(AssertUnwindSafe(job)).unwrap_or_else(|_| Err(failed()));
            let _ = done.send(answer);
        });
        match self.jobs.try_send(job) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "the server has {QUEUE} calculations, audits or table builds waiting; \
                         try again"
                    ),
                ));
            }
            Err(TrySendError::Disconnected(_)) => return Err(failed()),
        }
        result.await.unwrap_or_else(|_| Err(failed()))
    }
}

/// A pool thread: at a lower priority, it runs jobs until the pool is
/// dropped.
fn work(waiting: &Mutex<Receiver<Job>>) {
    lower_priority();
    loop {
        let job = waiting.lock().expect("no poisoning").recv();
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

/// Nice 10 for the calling thread: the request threads win a core from it.
#[cfg(target_os = "linux")]
fn lower_priority() {
    // SAFETY: setpriority changes the calling thread's nice value (Linux
    // applies PRIO_PROCESS with a thread id to that thread alone).
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS as _, libc::gettid() as libc::id_t, 10);
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

fn stopped() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "the work was not started: its client has gone or its time is up",
    )
}

fn failed() -> ApiError {
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "the request's work stopped unexpectedly",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_stopped_job_is_not_run_and_a_panic_is_a_500() {
        let pool = WorkPool::new(1, 4);
        let scope = RequestScope::default();
        scope.stop();
        let refused = pool
            .run(Some(scope), || -> Result<(), ApiError> {
                panic!("must not run")
            })
            .await
            .unwrap_err();
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        let failed = pool
            .run(None, || -> Result<(), ApiError> { panic!("a bug") })
            .await
            .unwrap_err();
        assert_eq!(failed.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            pool.run(None, || Ok(1)).await.unwrap(),
            1,
            "the thread lives on"
        );
    }
}
