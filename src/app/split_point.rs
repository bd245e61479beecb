//! A split point: code behind it goes into its own part of the WebAssembly, fetched the first
//! time it is called (`wasm_split_helpers`, with the page built by `scripts/wasm-bindgen`). Tests
//! and native builds have no split (the cargo feature `split` is off): the same functions return
//! at once. The parts themselves are declared where they are used: the rooms and the pieces in
//! `room_loader.rs`, saved runs in `sharing_part.rs`, the Storm and Spark bands in
//! `bands_part.rs`, the lessons in `lessons_part.rs`, the narration's words in `words_part.rs`.

use std::fmt;

use yew::prelude::*;

use super::rooms::RoomProps;

/// What a room's part hands back: the function that draws the room.
pub type RoomView = fn(RoomProps) -> Html;

/// The room's part could not be fetched or instantiated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartError;

impl fmt::Display for PartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the room's part of the page could not be loaded")
    }
}

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for PartError {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        PartError
    }
}

/// One split point: `part!(name -> Type { body })` (`pub(crate) name` for one called from
/// another file), or `part!(name, path::to::render)` for a
/// part that draws a room or a piece. With the `split` feature the body, and all that only it
/// reaches, goes into the part `split_<name>.wasm`; without it the same async function returns at
/// once.
macro_rules! part {
    ($vis:vis $name:ident -> $ty:ty $body:block) => {
        #[cfg(feature = "split")]
        #[wasm_split_helpers::wasm_split($name, fallible)]
        $vis fn $name() -> Result<$ty, $crate::app::split_point::PartError> $body
        #[cfg(not(feature = "split"))]
        $vis async fn $name() -> Result<$ty, $crate::app::split_point::PartError> $body
    };
    ($name:ident, $render:path) => {
        part!($name -> $crate::app::split_point::RoomView { Ok($render) });
    };
}

pub(crate) use part;
