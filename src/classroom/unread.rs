//! Text that never reached a room: a file too large to read, or one the browser could not read as
//! text. The page finds it out before a room's session sees the text, and hands the session the
//! reason in its command, so the session words the refusal as it words its own.

use serde::{Deserialize, Serialize};

/// Why a chosen file's text was not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Unread {
    /// The file has this many bytes, more than the room opens.
    TooLarge(usize),
    /// The browser could not read the file as text.
    NotText,
}
