//! Locking the emulator's mutexes, poisoned or not: a handler that panicked while holding a lock does not stop
//! the others from taking it.

use std::sync::{Mutex, MutexGuard};

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
