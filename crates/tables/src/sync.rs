//! Locks that a panic does not poison for good: the tables a lock guards
//! are whole values (a map of finished tables, a list of deep positions),
//! never left half-written by a panic, so a panic in one build or probe
//! must not make every later one in a long-running server panic too.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `mutex`, taking it over from a thread that panicked while
/// holding it.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
