//! What a room's session is to the page: a command in, and whether anything changed out. The
//! main screen has its [`Session`](crate::classroom::Session); the Batch room and Side by side each
//! have one of their own (`batch_room`, `compare_room`), plain Rust tested natively, which the
//! page holds once and drives with commands (`app/rooms/held.rs`).

/// A room's session, driven by serializable commands.
pub trait RoomSession {
    type Command;
    /// Carries out `command`. False when it changed nothing at all (nothing to draw again).
    fn handle(&mut self, command: Self::Command) -> bool;
}
