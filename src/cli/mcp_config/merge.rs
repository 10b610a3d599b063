//! Putting our entry into a client's file without disturbing anything else: every other
//! server, every other key in its order, and (TOML) every comment. A file that cannot be
//! parsed is refused, never rewritten.

use serde_json::{Map, Value};

use super::clients::{Entry, SERVER_NAME};

/// Why a client's file was left alone.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// Not valid JSON, and the client reads JSON with comments: it probably has comments or
    /// trailing commas, which a rewrite would lose.
    #[error("it is not plain JSON ({reason}); it may hold comments or trailing commas, which rewriting it would lose")]
    Commented { reason: String },
    /// Not valid JSON.
    #[error("it is not valid JSON ({reason})")]
    NotJson { reason: String },
    /// Not valid TOML.
    #[error("it is not valid TOML ({reason})")]
    NotToml { reason: String },
    /// Valid, but not the shape the client documents (e.g. the top level is an array).
    #[error("{0}")]
    Shape(String),
}

/// `existing` (the file's text, `None` when there is no file) with `entry` as the
/// `vaultsum` server under `servers_key`: replaced in place when present, added last otherwise.
/// Every byte outside the entry stays as it was; a new file is indented by two spaces.
pub fn merge_json(
    existing: Option<&str>,
    servers_key: &str,
    entry: Value,
    comments_possible: bool,
) -> Result<String, MergeError> {
    let existing = existing.filter(|text| !text.trim().is_empty());
    let mut document = match existing {
        None => Value::Object(Map::new()),
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(document) => document,
            // Zed's settings.json starts with comments; VS Code's mcp.json may hold them.
            Err(_) if comments_possible => return merge_jsonc(text, servers_key, &entry),
            Err(e) => {
                return Err(MergeError::NotJson {
                    reason: e.to_string(),
                })
            }
        },
    };
    let Value::Object(top) = &mut document else {
        return Err(MergeError::Shape(
            "its top level is not a JSON object".to_string(),
        ));
    };
    let servers = top
        .entry(servers_key.to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(servers) = servers else {
        return Err(MergeError::Shape(format!(
            "its \"{servers_key}\" is not a JSON object"
        )));
    };
    servers.insert(SERVER_NAME.to_string(), entry.clone());
    // An existing file is edited in its syntax tree, so its indentation, spacing and one-line
    // arrays stay as written; the edit is kept only if it reads back, as strict JSON, as the
    // document merged above (else the file is re-indented whole, which loses nothing).
    if let Some(text) = existing {
        if let Ok(edited) = merge_jsonc(text, servers_key, &entry) {
            if serde_json::from_str::<Value>(&edited).is_ok_and(|read| read == document) {
                return Ok(edited);
            }
        }
    }
    let indent = existing.map_or_else(|| "  ".to_string(), detect_indent);
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    serde::Serialize::serialize(&document, &mut serializer)
        .map_err(|e| MergeError::Shape(e.to_string()))?;
    out.push(b'\n');
    Ok(String::from_utf8(out).expect("serde_json writes UTF-8"))
}

/// `text`, JSON with comments (and trailing commas), with `entry` set as the `vaultsum` server
/// under `servers_key`, edited in its syntax tree: the comments, trailing commas, key order and
/// formatting of everything else stay as written; only the entry is (re)written.
fn merge_jsonc(text: &str, servers_key: &str, entry: &Value) -> Result<String, MergeError> {
    use jsonc_parser::cst::CstRootNode;
    use jsonc_parser::ParseOptions;

    let root =
        CstRootNode::parse(text, &ParseOptions::default()).map_err(|e| MergeError::Commented {
            reason: e.to_string(),
        })?;
    let top = root
        .object_value_or_create()
        .ok_or_else(|| MergeError::Shape("its top level is not a JSON object".to_string()))?;
    let servers = top
        .object_value_or_create(servers_key)
        .ok_or_else(|| MergeError::Shape(format!("its \"{servers_key}\" is not a JSON object")))?;
    let value = cst_value(entry);
    match servers.get(SERVER_NAME) {
        Some(old) => old.set_value(value),
        None => {
            servers.append(SERVER_NAME, value);
        }
    }
    Ok(root.to_string())
}

/// A JSON value as the syntax tree takes it (object keys in their order).
fn cst_value(value: &Value) -> jsonc_parser::cst::CstInputValue {
    use jsonc_parser::cst::CstInputValue;
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(cst_value).collect()),
        Value::Object(map) => CstInputValue::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), cst_value(value)))
                .collect(),
        ),
    }
}

/// The indentation of the first indented line (tabs or spaces), else two spaces.
fn detect_indent(text: &str) -> String {
    text.lines()
        .map(|line| {
            line.chars()
                .take_while(|c| *c == ' ' || *c == '\t')
                .collect::<String>()
        })
        .find(|indent| !indent.is_empty())
        .unwrap_or_else(|| "  ".to_string())
}

/// `existing` Codex TOML with `[mcp_servers.vaultsum]` (and its `env` table) set to `entry`;
/// everything else, comments included, stays as written.
pub fn merge_codex_toml(existing: Option<&str>, entry: &Entry) -> Result<String, MergeError> {
    use toml_edit::{value, Array, DocumentMut, Item, Table};

    let mut document = match existing {
        None => DocumentMut::new(),
        Some(text) => text
            .parse::<DocumentMut>()
            .map_err(|e| MergeError::NotToml {
                reason: e.to_string().trim().replace('\n', " "),
            })?,
    };
    if !document.contains_key("mcp_servers") {
        let mut servers = Table::new();
        // No bare `[mcp_servers]` header: only `[mcp_servers.vaultsum]` is written.
        servers.set_implicit(true);
        document.insert("mcp_servers", Item::Table(servers));
    }
    let servers = document["mcp_servers"]
        .as_table_like_mut()
        .ok_or_else(|| MergeError::Shape("its mcp_servers is not a table".to_string()))?;

    let mut server = Table::new();
    server.insert("command", value(entry.command.as_str()));
    let args: Array = entry.args.iter().map(String::as_str).collect();
    server.insert("args", value(args));
    let mut env = Table::new();
    for (name, val) in &entry.env {
        env.insert(name, value(val.as_str()));
    }
    server.insert("env", Item::Table(env));
    // A replaced entry keeps its place in the file; a new one goes last.
    if let Some(Item::Table(old)) = servers.get(SERVER_NAME) {
        server.set_position(old.position());
    }
    servers.insert(SERVER_NAME, Item::Table(server));
    Ok(document.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn jsonc_strings_are_escaped_as_json() {
        let written = merge_jsonc(
            "{\n  // mine\n}\n",
            "servers",
            &json!({ "command": "C:\\vaultsum \"x\".exe" }),
        )
        .unwrap();
        assert!(written.contains("// mine"), "{written}");
        assert!(
            written.contains(r#""command": "C:\\vaultsum \"x\".exe""#),
            "{written}"
        );
    }
}
