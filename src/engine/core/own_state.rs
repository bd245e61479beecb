//! A mechanism's own state: one slot in the live run and one in durable storage, which the
//! engine holds without knowing what is in them (as stateright's `Actor` keeps an actor's state
//! and its storage apart, and a turmoil host's crash drops its state without reading it).
//!
//! - The live slot goes with the rest of the running job: a crash replaces `Live` whole, and so
//!   does the job's end (a cancel, a stop with savepoint), so a mechanism never has to be told what
//!   to forget. Storm's acker keeps its trees and pending tuples there, Spark Streaming its
//!   driver's blocks and batch queue, stop-the-world its paused sources.
//! - The durable slot survives every crash, as checkpoint storage does: Storm's committed offsets,
//!   Spark Streaming's write-ahead log and checkpoint directory.
//!
//! - A task's slot (`TaskRuntime.mechanism`) goes with the task: a restart of the task starts it
//!   empty. The barrier handlers keep a task's alignment there, the barrier tracker its counts.
//!
//! A mechanism puts its types in at the start ([`Mechanism::start`]) or as it goes, and reads them
//! back by type ([`Slot::get`]); the Flink barrier handlers need neither the live nor the durable
//! slot, only the task's.
//!
//! [`Mechanism::start`]: crate::engine::core::seam::Mechanism::start

use std::any::Any;
use std::fmt;

/// What a slot can hold: any state that can be cloned (a run is cloned to explore and compare),
/// compared and printed (natively, where tests compare and print runs).
///
/// In the browser the slot neither compares nor prints what it holds (nothing on the page does),
/// so those methods are left out of the trait there: every method of a trait object's table is
/// kept in the WebAssembly module, and each state's `Debug` and `PartialEq` would cost the first
/// visit some 16 KB uncompressed for code that never runs.
pub trait OwnState: Any {
    fn clone_box(&self) -> Box<dyn OwnState>;
    #[cfg(not(target_arch = "wasm32"))]
    fn eq_dyn(&self, other: &dyn OwnState) -> bool;
    #[cfg(not(target_arch = "wasm32"))]
    fn fmt_dyn(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<T: Any + fmt::Debug + Clone + PartialEq> OwnState for T {
    fn clone_box(&self) -> Box<dyn OwnState> {
        Box::new(self.clone())
    }
    #[cfg(not(target_arch = "wasm32"))]
    fn eq_dyn(&self, other: &dyn OwnState) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    #[cfg(not(target_arch = "wasm32"))]
    fn fmt_dyn(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// One mechanism's state, or nothing.
#[derive(Default)]
pub struct Slot(Option<Box<dyn OwnState>>);

impl Slot {
    /// Puts `state` in the slot, in place of what it held.
    pub fn put<T: OwnState>(&mut self, state: T) {
        self.0 = Some(Box::new(state));
    }
    /// The state, if the slot holds a `T`.
    pub fn get<T: OwnState>(&self) -> Option<&T> {
        self.0.as_deref().and_then(|s| s.as_any().downcast_ref())
    }
    pub fn get_mut<T: OwnState>(&mut self) -> Option<&mut T> {
        self.0.as_deref_mut().and_then(|s| s.as_any_mut().downcast_mut())
    }
    /// The `T` the slot holds, or a new one made by `make` and put in the slot (in place of
    /// anything of another type).
    pub fn get_or_insert_with<T: OwnState>(&mut self, make: impl FnOnce() -> T) -> &mut T {
        if self.get::<T>().is_none() {
            self.put(make());
        }
        self.get_mut().expect("just put")
    }
    /// The `T` the slot holds, taken out and leaving the slot empty; None (and the slot as it
    /// was) if it holds no `T`.
    pub fn take<T: OwnState>(&mut self) -> Option<T> {
        self.get::<T>()?;
        self.0.take()?.into_any().downcast().ok().map(|b| *b)
    }
    /// Does the slot hold anything?
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
}

impl Clone for Slot {
    fn clone(&self) -> Slot {
        Slot(self.0.as_deref().map(OwnState::clone_box))
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl PartialEq for Slot {
    fn eq(&self, other: &Slot) -> bool {
        match (self.0.as_deref(), other.0.as_deref()) {
            (None, None) => true,
            (Some(a), Some(b)) => a.eq_dyn(b),
            _ => false,
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Eq for Slot {}

impl fmt::Debug for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_deref() {
            None => f.write_str("empty"),
            #[cfg(not(target_arch = "wasm32"))]
            Some(s) => s.fmt_dyn(f),
            #[cfg(target_arch = "wasm32")]
            Some(_) => f.write_str("a mechanism's state"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Slot;

    #[test]
    fn a_slot_gives_back_only_the_type_it_holds() {
        let mut s = Slot::default();
        assert!(s.is_empty() && s.get::<u32>().is_none());
        s.put(7u32);
        assert_eq!(s.get::<u32>(), Some(&7));
        assert_eq!(s.get::<u64>(), None, "another type is not there");
        *s.get_mut::<u32>().unwrap() += 1;
        assert_eq!(s.take::<u64>(), None, "taking another type leaves the slot");
        assert_eq!(s.get::<u32>(), Some(&8));
        let c = s.clone();
        assert_eq!(c, s);
        s.put(9u32);
        assert_ne!(c, s, "a clone is its own copy");
        let mut other = Slot::default();
        other.put(8u64);
        assert_ne!(c, other, "equal only when the types are the same");
        assert_ne!(Slot::default(), c);
        assert_eq!(other.take::<u64>(), Some(8));
        assert!(other.is_empty(), "taking empties the slot");
        *other.get_or_insert_with(|| 1u32) += 1;
        assert_eq!(other.get::<u32>(), Some(&2));
        assert_eq!(*other.get_or_insert_with(|| 5u32), 2, "what is there is kept");
    }
}
