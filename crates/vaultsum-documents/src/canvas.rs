//! JSON Canvas (`.canvas`, Obsidian's boards) parsed into typed nodes and edges, and rendered as
//! Markdown: text cards, link URLs, group labels, connections with their labels.
//!
//! File cards are not read here: they render as `![[file#subpath]]` embeds and are listed by
//! [`Canvas::file_refs`], so the note reader expands them with the same expander (and the same
//! cycle and depth guards) as any other embed.

use std::collections::HashMap;

use serde::Deserialize;

use super::error::DocumentError;
use super::limits::{check_bytes, DocLimits};
use super::{DocumentText, Section};

const FORMAT: &str = "canvas";

/// A parsed canvas: its nodes in file order and its edges.
#[derive(Debug, Clone, PartialEq)]
pub struct Canvas {
    /// Cards and groups, in the order the file lists them.
    pub nodes: Vec<CanvasNode>,
    /// Connections between nodes.
    pub edges: Vec<CanvasEdge>,
}

/// One card or group on the board.
#[derive(Debug, Clone, PartialEq)]
pub struct CanvasNode {
    /// The node's id, which edges refer to.
    pub id: String,
    /// Left edge in canvas units.
    pub x: f64,
    /// Top edge in canvas units.
    pub y: f64,
    /// Width in canvas units.
    pub width: f64,
    /// Height in canvas units.
    pub height: f64,
    /// What the node shows.
    pub content: NodeContent,
}

/// What a canvas node shows.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeContent {
    /// A text card (Markdown).
    Text(String),
    /// A file in the vault, optionally a heading or block of it.
    File(FileRef),
    /// A web page.
    Link(String),
    /// A group box around other nodes, with an optional label.
    Group(Option<String>),
    /// A node type this version does not know (kept so edges to it still resolve).
    Other(String),
}

/// A file card's target, for a later expander: vault path and optional `#heading`/`#^block`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRef {
    /// The vault-relative path as the canvas stores it.
    pub file: String,
    /// `#Heading` or `#^block`, with its `#`, when the card shows part of the file.
    pub subpath: Option<String>,
}

impl FileRef {
    /// The embed a note would write for this card: `![[file#subpath]]`.
    pub fn embed(&self) -> String {
        format!(
            "![[{}{}]]",
            self.file,
            self.subpath.as_deref().unwrap_or("")
        )
    }
}

/// A connection between two nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CanvasEdge {
    /// The edge's id.
    pub id: String,
    /// The node it starts at.
    pub from_node: String,
    /// The node it ends at.
    pub to_node: String,
    /// Its label, if any.
    pub label: Option<String>,
}

#[derive(Deserialize)]
struct RawCanvas {
    #[serde(default)]
    nodes: Vec<RawNode>,
    #[serde(default)]
    edges: Vec<RawEdge>,
}

#[derive(Deserialize)]
struct RawNode {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    x: f64,
    #[serde(default)]
    y: f64,
    #[serde(default)]
    width: f64,
    #[serde(default)]
    height: f64,
    text: Option<String>,
    file: Option<String>,
    subpath: Option<String>,
    url: Option<String>,
    label: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawEdge {
    id: String,
    from_node: String,
    to_node: String,
    label: Option<String>,
}

/// Parses a `.canvas` file. Invalid JSON, or a node of a known type without its required field
/// (a text card without `text`), is [`DocumentError::Corrupt`].
pub fn parse_canvas(bytes: &[u8]) -> Result<Canvas, DocumentError> {
    let corrupt = |reason: String| DocumentError::Corrupt {
        format: FORMAT,
        reason,
    };
    let raw: RawCanvas = serde_json::from_slice(bytes).map_err(|e| corrupt(e.to_string()))?;
    let mut nodes = Vec::with_capacity(raw.nodes.len());
    for node in raw.nodes {
        let missing =
            |field: &str| corrupt(format!("{} node {} has no {field}", node.kind, node.id));
        let content = match node.kind.as_str() {
            "text" => NodeContent::Text(node.text.clone().ok_or_else(|| missing("text"))?),
            "file" => NodeContent::File(FileRef {
                file: node.file.clone().ok_or_else(|| missing("file"))?,
                subpath: node.subpath.clone().filter(|s| !s.is_empty()),
            }),
            "link" => NodeContent::Link(node.url.clone().ok_or_else(|| missing("url"))?),
            "group" => NodeContent::Group(node.label.clone().filter(|l| !l.trim().is_empty())),
            other => NodeContent::Other(other.to_string()),
        };
        nodes.push(CanvasNode {
            id: node.id,
            x: node.x,
            y: node.y,
            width: node.width,
            height: node.height,
            content,
        });
    }
    let edges = raw
        .edges
        .into_iter()
        .map(|e| CanvasEdge {
            id: e.id,
            from_node: e.from_node,
            to_node: e.to_node,
            label: e.label.filter(|l| !l.trim().is_empty()),
        })
        .collect();
    Ok(Canvas { nodes, edges })
}

impl Canvas {
    /// The file cards' targets, in reading order, for the expander.
    pub fn file_refs(&self) -> Vec<&FileRef> {
        self.reading_order()
            .into_iter()
            .filter_map(|n| match &n.content {
                NodeContent::File(f) => Some(f),
                _ => None,
            })
            .collect()
    }

    /// Nodes top to bottom, then left to right: how people read a board.
    fn reading_order(&self) -> Vec<&CanvasNode> {
        let mut nodes: Vec<&CanvasNode> = self.nodes.iter().collect();
        nodes.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));
        nodes
    }

    /// The canvas's groups, in the order of its nodes (for [`Canvas::group_of`]).
    fn groups(&self) -> Vec<&CanvasNode> {
        self.nodes
            .iter()
            .filter(|g| matches!(g.content, NodeContent::Group(_)))
            .collect()
    }

    /// The smallest of `groups` ([`Canvas::groups`]) whose box contains `node`'s box, if any.
    /// The groups are found once for all the nodes: looking through every node for each node
    /// took seconds on a canvas of tens of thousands of cards.
    fn group_of<'c>(groups: &[&'c CanvasNode], node: &CanvasNode) -> Option<&'c CanvasNode> {
        groups
            .iter()
            .copied()
            .filter(|g| g.id != node.id)
            .filter(|g| {
                node.x >= g.x
                    && node.y >= g.y
                    && node.x + node.width <= g.x + g.width
                    && node.y + node.height <= g.y + g.height
            })
            .min_by(|a, b| (a.width * a.height).total_cmp(&(b.width * b.height)))
    }

    /// A short name for a node in a connection line.
    fn node_name(&self, id: &str, by_id: &HashMap<&str, &CanvasNode>) -> String {
        let Some(node) = by_id.get(id) else {
            return format!("(missing node {id})");
        };
        match &node.content {
            NodeContent::Text(text) => {
                let first = text
                    .lines()
                    .map(|l| l.trim_start_matches('#').trim())
                    .find(|l| !l.is_empty())
                    .unwrap_or("(empty card)");
                let short: String = first.chars().take(60).collect();
                format!("\"{short}\"")
            }
            NodeContent::File(f) => format!("{}{}", f.file, f.subpath.as_deref().unwrap_or("")),
            NodeContent::Link(url) => url.clone(),
            NodeContent::Group(label) => format!("group {}", label.as_deref().unwrap_or(id)),
            NodeContent::Other(kind) => format!("{kind} node {id}"),
        }
    }
}

fn node_markdown(node: &CanvasNode) -> Option<String> {
    match &node.content {
        NodeContent::Text(text) => Some(text.trim().to_string()),
        NodeContent::File(f) => Some(f.embed()),
        NodeContent::Link(url) => Some(format!("<{url}>")),
        NodeContent::Group(_) | NodeContent::Other(_) => None,
    }
}

/// A canvas as Markdown sections: `Canvas` for cards outside any group, `Group: label` for each
/// group's cards (the smallest enclosing group), `Connections` listing edges as
/// `- from → to: label`. File cards are `![[file#subpath]]` embeds for the caller to expand.
pub fn canvas_to_markdown(bytes: &[u8], limits: &DocLimits) -> Result<DocumentText, DocumentError> {
    check_bytes(FORMAT, bytes, limits)?;
    let canvas = parse_canvas(bytes)?;
    let mut ungrouped = Vec::new();
    let mut groups: Vec<(&CanvasNode, Vec<String>)> = canvas
        .reading_order()
        .into_iter()
        .filter(|n| matches!(n.content, NodeContent::Group(_)))
        .map(|g| (g, Vec::new()))
        .collect();
    let all_groups = canvas.groups();
    // Each group's place by its id, the first of the same id (a card goes to the first group
    // of that id, as a search from the start would find it).
    let mut group_index: HashMap<&str, usize> = HashMap::new();
    for (i, (g, _)) in groups.iter().enumerate() {
        group_index.entry(g.id.as_str()).or_insert(i);
    }
    for node in canvas.reading_order() {
        let Some(markdown) = node_markdown(node) else {
            continue;
        };
        let group = Canvas::group_of(&all_groups, node);
        match group
            .and_then(|g| group_index.get(g.id.as_str()))
            .and_then(|&i| groups.get_mut(i))
        {
            Some((_, cards)) => cards.push(markdown),
            None => ungrouped.push(markdown),
        }
    }
    let mut sections = Vec::new();
    if !ungrouped.is_empty() {
        sections.push(Section::new("Canvas", ungrouped.join("\n\n")));
    }
    for (group, cards) in groups {
        let label = match &group.content {
            NodeContent::Group(Some(label)) => format!("Group: {label}"),
            _ => "Group".to_string(),
        };
        let markdown = if cards.is_empty() {
            "_(empty group)_".to_string()
        } else {
            cards.join("\n\n")
        };
        sections.push(Section::new(label, markdown));
    }
    if !canvas.edges.is_empty() {
        let by_id: HashMap<&str, &CanvasNode> =
            canvas.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
        let lines: Vec<String> = canvas
            .edges
            .iter()
            .map(|e| {
                let from = canvas.node_name(&e.from_node, &by_id);
                let to = canvas.node_name(&e.to_node, &by_id);
                match &e.label {
                    Some(label) => format!("- {from} → {to}: {label}"),
                    None => format!("- {from} → {to}"),
                }
            })
            .collect();
        sections.push(Section::new("Connections", lines.join("\n")));
    }
    if sections.is_empty() {
        sections.push(Section::new("Canvas", "_(empty canvas)_"));
    }
    Ok(DocumentText {
        sections,
        notes: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture_bytes;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn canvas_parses_every_node_type() {
        let canvas = parse_canvas(&fixture_bytes("board.canvas")).unwrap();
        assert_eq!(canvas.nodes.len(), 5);
        assert!(canvas
            .nodes
            .iter()
            .any(|n| n.content == NodeContent::Group(Some("Research".into()))));
        assert!(canvas
            .nodes
            .iter()
            .any(|n| n.content == NodeContent::Link("https://example.org/spec".into())));
        assert_eq!(canvas.edges[0].label.as_deref(), Some("supports"));
        assert_eq!(canvas.edges[1].label, None);
    }

    #[test]
    fn canvas_file_cards_are_references_with_their_subpath() {
        let canvas = parse_canvas(&fixture_bytes("board.canvas")).unwrap();
        let refs: Vec<String> = canvas.file_refs().iter().map(|f| f.embed()).collect();
        assert_eq!(
            refs,
            ["![[Notes/Paper.md#Results]]", "![[papers/attention.pdf]]"]
        );
    }

    #[test]
    fn canvas_renders_group_cards_links_and_labelled_edges() {
        let text =
            canvas_to_markdown(&fixture_bytes("board.canvas"), &DocLimits::default()).unwrap();
        let labels: Vec<&str> = text.sections.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["Group: Research", "Connections"]);
        let group = &text.sections[0].markdown;
        assert!(
            group.starts_with("# Idea\nUse **canvas** boards for planning."),
            "{group}"
        );
        assert!(
            group.contains("![[Notes/Paper.md#Results]]")
                && group.contains("<https://example.org/spec>"),
            "{group}"
        );
        assert_eq!(
            text.sections[1].markdown,
            "- \"Idea\" → Notes/Paper.md#Results: supports\n- Notes/Paper.md#Results → https://example.org/spec"
        );
    }

    #[test]
    fn canvas_cards_outside_groups_have_their_own_section() {
        let json = br#"{"nodes":[{"id":"a","type":"text","x":0,"y":0,"width":10,"height":10,"text":"loose card"}]}"#;
        let text = canvas_to_markdown(json, &DocLimits::default()).unwrap();
        assert_eq!(text.sections, [Section::new("Canvas", "loose card")]);
    }

    #[test]
    fn truncated_canvas_is_an_error() {
        let err = canvas_to_markdown(&fixture_bytes("corrupt.canvas"), &DocLimits::default())
            .unwrap_err();
        assert!(
            err.to_string().starts_with("not a readable canvas file"),
            "{err}"
        );
    }

    #[test]
    fn text_card_without_text_is_an_error() {
        let err = parse_canvas(br#"{"nodes":[{"id":"a","type":"text"}]}"#).unwrap_err();
        assert!(err.to_string().contains("text node a has no text"), "{err}");
    }

    proptest! {
        #[test]
        fn canvas_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
            let _ = canvas_to_markdown(&bytes, &DocLimits::default());
        }
    }
}
