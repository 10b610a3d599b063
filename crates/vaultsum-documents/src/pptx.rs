//! PPTX (PowerPoint) as Markdown: one section per slide in presentation order, its title as a
//! heading, its body text, and its speaker notes.

use std::collections::HashMap;

use super::archive::Archive;
use super::error::DocumentError;
use super::limits::{check_bytes, DocLimits};
use super::xml::{attr, walk, XmlStep};
use super::{DocumentText, Section};

const FORMAT: &str = "PPTX";

/// The slides of a PPTX file, one `Slide N` section each, in the order the presentation lists
/// them (not the part names' order, which reordering slides does not change): `## title`, body
/// paragraphs, then `Speaker notes:` and the notes when the slide has any.
pub fn pptx_to_markdown(bytes: &[u8], limits: &DocLimits) -> Result<DocumentText, DocumentError> {
    check_bytes(FORMAT, bytes, limits)?;
    let mut archive = Archive::open(FORMAT, bytes, limits)?;
    let presentation = required(&mut archive, "ppt/presentation.xml")?;
    let rels = relationships(
        &required(&mut archive, "ppt/_rels/presentation.xml.rels")?,
        "ppt",
    )?;
    let mut sections = Vec::new();
    let mut notes = Vec::new();
    for (n, rel_id) in slide_ids(&presentation)?.iter().enumerate() {
        let number = n + 1;
        let Some(rel) = rels.get(rel_id) else {
            notes.push(format!(
                "slide {number} refers to a missing part ({rel_id})"
            ));
            continue;
        };
        let Some(slide_xml) = archive.read_text(&rel.target)? else {
            notes.push(format!("slide {number}: {} is missing", rel.target));
            continue;
        };
        let slide = shapes_text(&rel.target, &slide_xml)?;
        let speaker_notes = match notes_part(&mut archive, &rel.target)? {
            Some((part, xml)) => shapes_text(&part, &xml)?.notes_body(),
            None => Vec::new(),
        };
        sections.push(Section::new(
            format!("Slide {number}"),
            slide.markdown(&speaker_notes),
        ));
    }
    Ok(DocumentText { sections, notes })
}

fn required(archive: &mut Archive<'_>, part: &str) -> Result<String, DocumentError> {
    archive
        .read_text(part)?
        .ok_or_else(|| DocumentError::Corrupt {
            format: FORMAT,
            reason: format!("{part} is missing"),
        })
}

/// The relationship ids of the slides, in presentation order (`p:sldIdLst`).
fn slide_ids(xml: &str) -> Result<Vec<String>, DocumentError> {
    let mut ids = Vec::new();
    walk(FORMAT, "ppt/presentation.xml", xml, |step| {
        if let XmlStep::Start("sldId", tag) = step {
            ids.extend(attr(tag, "r:id"));
        }
    })?;
    Ok(ids)
}

/// One relationship of a part: where it points (a part name inside the zip) and its type.
struct Relationship {
    target: String,
    kind: String,
}

/// The relationships in a `.rels` part, by id, targets resolved against `base` (the folder of
/// the part the relationships belong to).
fn relationships(xml: &str, base: &str) -> Result<HashMap<String, Relationship>, DocumentError> {
    let mut rels = HashMap::new();
    walk(FORMAT, "relationships", xml, |step| {
        if let XmlStep::Start("Relationship", tag) = step {
            let (Some(id), Some(target)) = (attr(tag, "Id"), attr(tag, "Target")) else {
                return;
            };
            if attr(tag, "TargetMode").as_deref() == Some("External") {
                return;
            }
            let kind = attr(tag, "Type").unwrap_or_default();
            rels.insert(
                id,
                Relationship {
                    target: resolve(base, &target),
                    kind,
                },
            );
        }
    })?;
    Ok(rels)
}

/// A relationship target as a part name: `../notesSlides/n1.xml` from `ppt/slides` is
/// `ppt/notesSlides/n1.xml`; `/ppt/x.xml` is absolute.
fn resolve(base: &str, target: &str) -> String {
    let mut parts: Vec<&str> = if target.starts_with('/') {
        Vec::new()
    } else {
        base.split('/').filter(|p| !p.is_empty()).collect()
    };
    for piece in target.split('/') {
        match piece {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(piece),
        }
    }
    parts.join("/")
}

/// The notes slide of the slide at `slide_part`, from the slide's own relationships.
fn notes_part(
    archive: &mut Archive<'_>,
    slide_part: &str,
) -> Result<Option<(String, String)>, DocumentError> {
    let (folder, file) = slide_part.rsplit_once('/').unwrap_or(("", slide_part));
    let Some(xml) = archive.read_text(&format!("{folder}/_rels/{file}.rels"))? else {
        return Ok(None);
    };
    let rels = relationships(&xml, folder)?;
    let Some(rel) = rels.values().find(|r| r.kind.ends_with("/notesSlide")) else {
        return Ok(None);
    };
    Ok(archive
        .read_text(&rel.target)?
        .map(|xml| (rel.target.clone(), xml)))
}

/// The text of one shape: its placeholder type (`title`, `body`, …) and paragraphs.
struct Shape {
    placeholder: Option<String>,
    paragraphs: Vec<String>,
}

/// The shapes of a slide or notes slide that hold text, in drawing order.
struct ShapesText {
    shapes: Vec<Shape>,
}

impl ShapesText {
    fn is_title(shape: &Shape) -> bool {
        matches!(shape.placeholder.as_deref(), Some("title" | "ctrTitle"))
    }

    fn markdown(&self, speaker_notes: &[String]) -> String {
        let mut out = Vec::new();
        let title: Vec<&str> = self
            .shapes
            .iter()
            .filter(|s| Self::is_title(s))
            .flat_map(|s| s.paragraphs.iter().map(String::as_str))
            .collect();
        if !title.is_empty() {
            out.push(format!("## {}", title.join(" ")));
        }
        for shape in self.shapes.iter().filter(|s| !Self::is_title(s)) {
            if !shape.paragraphs.is_empty() {
                out.push(shape.paragraphs.join("\n"));
            }
        }
        if !speaker_notes.is_empty() {
            out.push(format!("Speaker notes:\n{}", speaker_notes.join("\n")));
        }
        if out.is_empty() {
            out.push("_(no text on this slide)_".to_string());
        }
        out.join("\n\n")
    }

    /// The notes text of a notes slide: its body placeholder, not the slide image, header or
    /// slide number that share the page.
    fn notes_body(self) -> Vec<String> {
        self.shapes
            .into_iter()
            .filter(|s| s.placeholder.as_deref() == Some("body"))
            .flat_map(|s| s.paragraphs)
            .collect()
    }
}

fn shapes_text(part: &str, xml: &str) -> Result<ShapesText, DocumentError> {
    let mut shapes = Vec::new();
    let mut shape: Option<Shape> = None;
    let mut paragraph: Option<String> = None;
    let mut in_text = false;
    walk(FORMAT, part, xml, |step| match step {
        // `p:sp` is a shape; `p:graphicFrame` holds tables, read the same way cell by cell.
        XmlStep::Start("sp" | "graphicFrame", _) => {
            shape = Some(Shape {
                placeholder: None,
                paragraphs: Vec::new(),
            })
        }
        XmlStep::Start("ph", tag) => {
            if let Some(s) = shape.as_mut() {
                // A placeholder without a type is a body placeholder.
                s.placeholder = Some(attr(tag, "type").unwrap_or_else(|| "body".to_string()));
            }
        }
        XmlStep::Start("p", _) => paragraph = Some(String::new()),
        XmlStep::Start("t", _) => in_text = true,
        XmlStep::End("t") => in_text = false,
        XmlStep::Text(text) if in_text => {
            if let Some(p) = paragraph.as_mut() {
                p.push_str(text);
            }
        }
        XmlStep::Start("br", _) => {
            if let Some(p) = paragraph.as_mut() {
                p.push('\n');
            }
        }
        XmlStep::End("p") => {
            if let (Some(s), Some(p)) = (shape.as_mut(), paragraph.take()) {
                let p = p.trim();
                if !p.is_empty() {
                    s.paragraphs.push(p.to_string());
                }
            }
        }
        XmlStep::End("sp" | "graphicFrame") => shapes.extend(shape.take()),
        _ => {}
    })?;
    Ok(ShapesText { shapes })
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture_bytes;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn pptx_slides_come_in_order_with_titles_and_body() {
        let text = pptx_to_markdown(&fixture_bytes("deck.pptx"), &DocLimits::default()).unwrap();
        let labels: Vec<&str> = text.sections.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["Slide 1", "Slide 2", "Slide 3"]);
        assert!(
            text.sections[0]
                .markdown
                .starts_with("## Kickoff\n\nGoals for the launch"),
            "{:?}",
            text.sections[0]
        );
        assert!(
            text.sections[1]
                .markdown
                .starts_with("## Timeline\n\nBeta in March"),
            "{:?}",
            text.sections[1]
        );
        assert!(
            text.sections[2].markdown.contains("Twelve thousand euros"),
            "{:?}",
            text.sections[2]
        );
    }

    #[test]
    fn pptx_speaker_notes_follow_their_slide() {
        let text = pptx_to_markdown(&fixture_bytes("deck.pptx"), &DocLimits::default()).unwrap();
        assert!(
            text.sections[1]
                .markdown
                .ends_with("Speaker notes:\nStress that March is firm."),
            "{:?}",
            text.sections[1]
        );
        assert!(text.sections[2]
            .markdown
            .contains("Ask finance about the reserve."));
        // The notes page's slide number placeholder is not part of the notes.
        assert!(!text.sections[0]
            .markdown
            .contains("Speaker notes:\nWelcome everyone and introduce the team.\n"));
    }

    #[test]
    fn truncated_pptx_is_an_error() {
        let err =
            pptx_to_markdown(&fixture_bytes("truncated.pptx"), &DocLimits::default()).unwrap_err();
        assert!(
            err.to_string().starts_with("not a readable PPTX file"),
            "{err}"
        );
    }

    #[test]
    fn relationship_targets_resolve_against_their_folder() {
        assert_eq!(
            resolve("ppt/slides", "../notesSlides/notesSlide1.xml"),
            "ppt/notesSlides/notesSlide1.xml"
        );
        assert_eq!(resolve("ppt", "slides/slide1.xml"), "ppt/slides/slide1.xml");
        assert_eq!(
            resolve("ppt", "/ppt/slides/slide2.xml"),
            "ppt/slides/slide2.xml"
        );
        assert_eq!(resolve("ppt", "../../../etc/passwd"), "etc/passwd");
    }

    proptest! {
        #[test]
        fn pptx_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
            let _ = pptx_to_markdown(&bytes, &DocLimits::default());
        }
    }
}
