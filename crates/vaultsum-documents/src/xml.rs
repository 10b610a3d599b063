//! A flat walk over an XML part of an office document, the one shape DOCX and PPTX need:
//! element starts and ends by local name, and text with entities resolved.

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use quick_xml::XmlVersion;

use super::error::DocumentError;

/// One step of the walk. `<a/>` is reported as `Start` then `End`.
pub(super) enum XmlStep<'e, 'x> {
    /// An element opens; its local name (no prefix) and the tag for attributes.
    Start(&'e str, &'e BytesStart<'x>),
    /// An element closes; its local name.
    End(&'e str),
    /// Character data, entities and character references resolved.
    Text(&'e str),
}

/// Calls `visit` for every element and text of `xml`. Malformed XML is [`DocumentError::Corrupt`].
pub(super) fn walk(
    format: &'static str,
    part: &str,
    xml: &str,
    mut visit: impl FnMut(XmlStep<'_, '_>),
) -> Result<(), DocumentError> {
    let mut reader = Reader::from_str(xml);
    let corrupt = |e: &dyn std::fmt::Display| DocumentError::Corrupt {
        format,
        reason: format!("{part}: {e}"),
    };
    loop {
        match reader.read_event().map_err(|e| corrupt(&e))? {
            Event::Start(tag) => {
                let name = tag.local_name();
                visit(XmlStep::Start(name.as_ref(), &tag));
            }
            Event::Empty(tag) => {
                let name = tag.local_name();
                visit(XmlStep::Start(name.as_ref(), &tag));
                visit(XmlStep::End(name.as_ref()));
            }
            Event::End(tag) => visit(XmlStep::End(tag.local_name().as_ref())),
            Event::Text(text) => visit(XmlStep::Text(&text.xml10_content())),
            Event::CData(data) => visit(XmlStep::Text(&data)),
            Event::GeneralRef(reference) => {
                if let Ok(Some(c)) = reference.resolve_char_ref() {
                    visit(XmlStep::Text(c.encode_utf8(&mut [0; 4])));
                } else if let Some(s) =
                    quick_xml::escape::resolve_predefined_entity(&reference.xml10_content())
                {
                    visit(XmlStep::Text(s));
                }
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

/// The value of attribute `name` (with its prefix, e.g. `w:val`), if present and well-formed.
pub(super) fn attr(tag: &BytesStart<'_>, name: &str) -> Option<String> {
    let attribute = tag.try_get_attribute(name).ok()??;
    attribute
        .normalized_value(XmlVersion::Implicit1_0)
        .ok()
        .map(|v| v.into_owned())
}
