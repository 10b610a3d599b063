//! Translation between the Registry's types and MCP's: tool definitions and call results.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, MetaObject, Tool as McpTool};
use serde_json::Value;

use crate::tools::{Tool, ToolAnnotations, ToolOutput};

/// The `_meta` key under which a result's `details` travel.
pub(crate) const DETAILS_META_KEY: &str = "details";

/// The MCP definition of a registry tool: the same name, title, description, input schema and
/// annotations as `vaultsum tools --json`. The title goes in both places MCP has for it
/// (`Tool.title` since 2025-06-18, `annotations.title` before), for old and new clients.
pub(crate) fn tool_definition(tool: &dyn Tool) -> McpTool {
    let definition = McpTool::new(
        tool.name(),
        tool.description(),
        Arc::new(schema_object(tool.input_schema())),
    )
    .with_title(tool.title())
    .with_annotations(annotations(tool.title(), tool.annotations()));
    match tool.output_schema() {
        Some(schema) => definition.with_raw_output_schema(Arc::new(schema_object(schema))),
        None => definition,
    }
}

/// MCP requires the input schema to be a JSON object; a tool whose schema is anything else
/// (which schemars never produces) gets the schema of an object with no constraints.
fn schema_object(schema: Value) -> JsonObject {
    match schema {
        Value::Object(object) => object,
        _ => {
            let mut object = JsonObject::new();
            object.insert("type".into(), Value::String("object".into()));
            object
        }
    }
}

fn annotations(title: &str, hints: ToolAnnotations) -> rmcp::model::ToolAnnotations {
    rmcp::model::ToolAnnotations::with_title(title)
        .read_only(hints.read_only)
        .destructive(hints.destructive)
        .idempotent(hints.idempotent)
        .open_world(hints.open_world)
}

/// The MCP result of a tool call: `text` is the content, `is_error` maps to `isError`, and
/// `details` go to `_meta` so they never mix into the text. A tool with an output schema
/// (`has_schema`) also gives its record as `structuredContent` (MCP 2025-06-18), beside the text,
/// never instead of it: Claude Desktop shows only `content`, Claude Code gives the model only
/// `structuredContent`, so both carry the summary, or the error.
pub(crate) fn call_result(output: ToolOutput, has_schema: bool) -> CallToolResult {
    let output = output.with_failure_record(has_schema);
    let content = vec![ContentBlock::text(output.text)];
    let mut result = if output.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    if has_schema {
        result.structured_content = output.record.map(|record| *record);
    }
    let mut meta = MetaObject::new();
    meta.insert(DETAILS_META_KEY.to_string(), output.details);
    result.with_meta(Some(meta))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn details_travel_in_meta_not_in_text() {
        let output = ToolOutput::ok("the note", json!({ "path": "a.md", "chars": 8 }));
        let value = serde_json::to_value(call_result(output, false)).unwrap();
        assert_eq!(
            value["content"],
            json!([{ "type": "text", "text": "the note" }])
        );
        assert_eq!(value["isError"], json!(false));
        assert_eq!(
            value["_meta"]["details"],
            json!({ "path": "a.md", "chars": 8 })
        );
    }

    #[test]
    fn tool_error_becomes_is_error_result() {
        let output = ToolOutput::error("note not found: x.md", json!({ "error": "not_found" }));
        let value = serde_json::to_value(call_result(output, false)).unwrap();
        assert_eq!(value["isError"], json!(true));
        assert_eq!(value["content"][0]["text"], json!("note not found: x.md"));
        assert!(value.get("structuredContent").is_none());
    }

    #[test]
    fn a_record_goes_beside_the_text_never_instead() {
        let record = json!({ "success": true, "path": "a.md", "summary_length": 12 });
        let output = ToolOutput::ok(record.to_string(), json!({})).with_record(record.clone());
        let value = serde_json::to_value(call_result(output, true)).unwrap();
        assert_eq!(value["structuredContent"], record);
        assert_eq!(value["content"][0]["text"], json!(record.to_string()));
    }

    #[test]
    fn a_failure_of_a_tool_with_a_record_keeps_its_error_in_both() {
        let output = ToolOutput::error("internal error in web_search", json!({}));
        let value = serde_json::to_value(call_result(output, true)).unwrap();
        assert_eq!(value["isError"], json!(true));
        assert_eq!(
            value["content"][0]["text"],
            json!("internal error in web_search")
        );
        assert_eq!(
            value["structuredContent"],
            json!({ "success": false, "error": "internal error in web_search" })
        );
    }

    #[test]
    fn annotations_keep_every_hint() {
        let mcp = annotations("Write", ToolAnnotations::WRITES_DESTRUCTIVE);
        assert_eq!(mcp.title.as_deref(), Some("Write"));
        assert_eq!(mcp.read_only_hint, Some(false));
        assert_eq!(mcp.destructive_hint, Some(true));
        assert_eq!(mcp.idempotent_hint, Some(false));
        assert_eq!(mcp.open_world_hint, Some(false));
    }
}
