//! The colours that tell keys apart, wherever a record is drawn (the canvas's tokens, the ledger's
//! chips, the space-time diagram's arrows). None of them is a verdict colour.

use crate::engine::KeyId;

/// Colours for keys; none of them is a verdict colour.
pub const KEY_COLOURS: [&str; 6] = ["#1d4ed8", "#0f766e", "#7c3aed", "#be185d", "#a16207", "#334155"];

pub fn key_colour(k: KeyId) -> &'static str {
    KEY_COLOURS[k.index() % KEY_COLOURS.len()]
}
