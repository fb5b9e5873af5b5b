//! The ICM derivers' turn: a chain's batch decides where its messages are counted (`finish`)
//! and is written while it holds the turn, so whichever of a message's two sides is written
//! second sees the first in the store. One turn per process: a store has one writing process,
//! and derivers of other stores in the same process (tests) merely wait a write's time.

use std::sync::{Condvar, Mutex, PoisonError};

static TAKEN: Mutex<bool> = Mutex::new(false);
static FREE: Condvar = Condvar::new();

/// The turn, held until dropped.
#[derive(Debug)]
pub(crate) struct Turn(());

impl Turn {
    /// Waits for the turn and takes it.
    pub(crate) fn take() -> Self {
        let mut taken = TAKEN.lock().unwrap_or_else(PoisonError::into_inner);
        while *taken {
            taken = FREE.wait(taken).unwrap_or_else(PoisonError::into_inner);
        }
        *taken = true;
        Turn(())
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        *TAKEN.lock().unwrap_or_else(PoisonError::into_inner) = false;
        FREE.notify_one();
    }
}
