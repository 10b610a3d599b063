//! A rollup (`summarize_notes`): one summary over many notes. What it draws on
//! ([`selection`], counted in [`days`]) and the document the notes make ([`document`]).

pub mod answer;
pub mod days;
pub mod document;
pub mod selection;
