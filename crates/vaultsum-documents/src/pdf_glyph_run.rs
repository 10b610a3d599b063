//! One run of glyphs as pdf_oxide merged it (a span), in the form every repair made from a
//! page's runs reads it: the word gaps, the CJK cell gaps and the shifted-run marks. Built once
//! per page in `pdf.rs: repaired_from_runs`.

/// A run's text and geometry, in user-space points.
#[derive(Debug, Clone, Copy)]
pub(super) struct GlyphRun<'a> {
    pub text: &'a str,
    /// Left and right edges across the page.
    pub left: f32,
    pub right: f32,
    /// The run's line as pdf_oxide gives it: the same for a raised or lowered run as for the run
    /// it is set against.
    pub baseline: f32,
    pub font_size: f32,
    /// Where each glyph starts and how far it advances, one entry per character of `text`
    /// (empty where unknown).
    pub glyph_left: &'a [f32],
    pub glyph_width: &'a [f32],
}
