//! Tool input schemas every MCP client accepts.
//!
//! schemars writes JSON Schema 2020-12 as it likes: a `$schema` URI, `$defs` reached by `$ref`,
//! enums as `oneOf` of `const`s, `Option<T>` as a union type (`["integer","null"]`) or an
//! `anyOf` with `{"type":"null"}`, and Rust-specific formats (`uint`, `uint32`, `int64`,
//! `double`). Strict clients reject each of these: Gemini refuses `$schema` and `$defs`
//! references and union types, and others stumble on unknown formats. [`portable`] rewrites a
//! schema into the plain subset they all read: every `$ref` inlined, `Option` flattened (an
//! optional property is one that is not `required`), enums as `enum`, only standard formats,
//! and no `$schema` or type name. Every tool's schema goes through it (see `tool.rs:
//! schema_for`); [`portability_problems`] says what is still not portable, for the tests that
//! walk every schema.

use serde_json::{Map, Value};

/// The `format`s of JSON Schema 2020-12 itself (§7.3), which every validator knows.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// How deep `$ref`s are followed: a recursive type cannot be inlined, and is left with its
/// `$ref` for [`portability_problems`] to report.
const MAX_REF_DEPTH: usize = 16;

/// The portable form of a schemars schema (see the module documentation).
pub fn portable(schema: Value) -> Value {
    let Value::Object(mut root) = schema else {
        return schema;
    };
    let mut definitions = Map::new();
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = root.remove(key) {
            definitions.extend(defs);
        }
    }
    root.remove("$schema");
    // The Rust type's name (`ReadFileArgs`) tells a client nothing.
    root.remove("title");
    let mut root = Value::Object(root);
    normalize(&mut root, &definitions, 0);
    root
}

/// Rewrites one schema node in place, then its subschemas.
fn normalize(node: &mut Value, definitions: &Map<String, Value>, depth: usize) {
    let Value::Object(object) = node else {
        return;
    };
    // Each step can uncover work for the others: `anyOf: [{$ref}, null]` leaves a `$ref`,
    // whose definition may be an `allOf` or a union again.
    loop {
        merge_single_all_of(object);
        flatten_union(object);
        if !inline_ref(object, definitions, depth) {
            break;
        }
    }
    drop_null_type(object);
    if let Some(Value::String(format)) = object.get("format") {
        if !STANDARD_FORMATS.contains(&format.as_str()) {
            object.remove("format");
        }
    }
    // `default: null` described the `null` the union allowed; the type no longer does.
    if object.get("default") == Some(&Value::Null) {
        object.remove("default");
    }
    for key in ["properties", "patternProperties", "$defs", "definitions"] {
        if let Some(Value::Object(children)) = object.get_mut(key) {
            for child in children.values_mut() {
                normalize(child, definitions, depth);
            }
        }
    }
    for key in [
        "items",
        "additionalProperties",
        "contains",
        "not",
        "propertyNames",
    ] {
        if let Some(child) = object.get_mut(key) {
            match child {
                Value::Array(children) => children
                    .iter_mut()
                    .for_each(|c| normalize(c, definitions, depth)),
                child => normalize(child, definitions, depth),
            }
        }
    }
    for key in ["prefixItems", "anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(children)) = object.get_mut(key) {
            children
                .iter_mut()
                .for_each(|c| normalize(c, definitions, depth));
        }
    }
}

/// Replaces `$ref` by the definition it names; the node's own keywords (a property's
/// `description`, `default`) win over the definition's. False when there was nothing to inline.
fn inline_ref(
    object: &mut Map<String, Value>,
    definitions: &Map<String, Value>,
    depth: usize,
) -> bool {
    let Some(Value::String(reference)) = object.get("$ref") else {
        return false;
    };
    if depth >= MAX_REF_DEPTH {
        return false;
    }
    let name = reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"));
    let Some(definition) = name.and_then(|name| definitions.get(name)) else {
        return false;
    };
    let mut inlined = definition.clone();
    normalize(&mut inlined, definitions, depth + 1);
    object.remove("$ref");
    merge_into(object, inlined);
    true
}

/// `allOf: [X]` (schemars' way of attaching a description to a reference) is X.
fn merge_single_all_of(object: &mut Map<String, Value>) {
    let single = matches!(object.get("allOf"), Some(Value::Array(all)) if all.len() == 1);
    if !single {
        return;
    }
    if let Some(Value::Array(mut all)) = object.remove("allOf") {
        merge_into(object, all.remove(0));
    }
}

/// `anyOf`/`oneOf`: a `{"type":"null"}` branch is what `Option` adds, and goes; one branch
/// left is the node itself; branches that are all constants are an `enum`.
fn flatten_union(object: &mut Map<String, Value>) {
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = object.remove(key) else {
            continue;
        };
        let mut branches: Vec<Value> = branches.into_iter().filter(|b| !is_null_only(b)).collect();
        if branches.len() == 1 {
            merge_into(object, branches.remove(0));
        } else if let Some((values, kind)) = constants(&branches) {
            object.insert("enum".into(), Value::Array(values));
            if let Some(kind) = kind {
                object.entry("type").or_insert(Value::String(kind));
            }
        } else {
            // Not expressible without a union: left for `portability_problems` to report.
            object.insert(key.into(), Value::Array(branches));
        }
    }
}

/// `type: ["integer","null"]` is `integer`; `enum` loses its `null`.
fn drop_null_type(object: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = object.get("type") {
        let kept: Vec<Value> = types
            .iter()
            .filter(|t| t.as_str() != Some("null"))
            .cloned()
            .collect();
        let replacement = match kept.len() {
            1 => kept.into_iter().next().unwrap_or(Value::Null),
            _ => Value::Array(kept),
        };
        object.insert("type".into(), replacement);
    }
    if let Some(Value::Array(values)) = object.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
}

/// Adds `branch`'s keywords to `object`, keeping the ones `object` already has.
fn merge_into(object: &mut Map<String, Value>, branch: Value) {
    if let Value::Object(branch) = branch {
        for (key, value) in branch {
            object.entry(key).or_insert(value);
        }
    }
}

fn is_null_only(branch: &Value) -> bool {
    branch.get("type").and_then(Value::as_str) == Some("null")
        || branch.get("const") == Some(&Value::Null)
}

/// The values of branches that are each a `const` (or an `enum`), and their common JSON type.
fn constants(branches: &[Value]) -> Option<(Vec<Value>, Option<String>)> {
    let mut values = Vec::new();
    for branch in branches {
        if let Some(value) = branch.get("const") {
            values.push(value.clone());
        } else if let Some(Value::Array(many)) = branch.get("enum") {
            values.extend(many.iter().cloned());
        } else {
            return None;
        }
    }
    let mut kinds = values.iter().map(json_type);
    let first = kinds.next()?;
    let kind = kinds.all(|k| k == first).then(|| first.to_string());
    Some((values, kind))
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// What in `schema` a strict client would refuse or misread, one line each with the JSON
/// path where it is (`$.properties.limit: format "uint"`); empty when the schema is portable.
/// Checks every subschema: no `$schema`, `$ref`, `$defs`/`definitions`,
/// `oneOf`/`anyOf`/`allOf`, union `type` arrays or non-standard `format`; and every property
/// has a `type` and a `description`.
pub fn portability_problems(schema: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    check(schema, "$", &mut problems);
    problems
}

fn check(node: &Value, at: &str, problems: &mut Vec<String>) {
    let Value::Object(object) = node else {
        if !node.is_boolean() {
            problems.push(format!("{at}: not a schema object: {node}"));
        }
        return;
    };
    for key in [
        "$schema",
        "$ref",
        "$defs",
        "definitions",
        "oneOf",
        "anyOf",
        "allOf",
    ] {
        if object.contains_key(key) {
            problems.push(format!("{at}: has {key}"));
        }
    }
    match object.get("type") {
        Some(Value::String(_)) | None => {}
        Some(other) => problems.push(format!("{at}: type is not one name: {other}")),
    }
    if let Some(format) = object.get("format") {
        if !format
            .as_str()
            .is_some_and(|f| STANDARD_FORMATS.contains(&f))
        {
            problems.push(format!("{at}: non-standard format {format}"));
        }
    }
    if let Some(Value::Object(properties)) = object.get("properties") {
        for (name, property) in properties {
            let path = format!("{at}.properties.{name}");
            if property.get("type").is_none() {
                problems.push(format!("{path}: no type"));
            }
            let described = property
                .get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| !d.trim().is_empty());
            if !described {
                problems.push(format!("{path}: no description"));
            }
            check(property, &path, problems);
        }
    }
    for key in ["items", "additionalProperties", "contains", "not"] {
        match object.get(key) {
            Some(Value::Array(children)) => {
                for (i, child) in children.iter().enumerate() {
                    check(child, &format!("{at}.{key}[{i}]"), problems);
                }
            }
            Some(child) => check(child, &format!("{at}.{key}"), problems),
            None => {}
        }
    }
    if let Some(Value::Array(children)) = object.get("prefixItems") {
        for (i, child) in children.iter().enumerate() {
            check(child, &format!("{at}.prefixItems[{i}]"), problems);
        }
    }
}

#[cfg(test)]
mod tests {
    use schemars::JsonSchema;
    use serde_json::json;

    use super::*;

    /// How a page is summarized.
    #[derive(serde::Deserialize, JsonSchema)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Kind {
        /// Paragraphs.
        Summary,
        /// Bullet points.
        Takeaway,
    }

    /// Every shape schemars makes that strict clients refuse.
    #[derive(serde::Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        /// A note.
        path: String,
        /// How many.
        #[serde(default)]
        limit: Option<u32>,
        /// Where to start.
        #[serde(default)]
        offset: usize,
        /// The kind.
        #[serde(default)]
        kind: Option<Kind>,
        /// The other kind.
        other: Kind,
        /// A language.
        #[serde(default)]
        language: Option<String>,
        /// A ratio.
        ratio: f64,
        /// Tags.
        tags: Vec<Option<String>>,
    }

    fn raw() -> Value {
        serde_json::to_value(schemars::schema_for!(Args)).unwrap()
    }

    #[test]
    fn the_raw_schemars_schema_is_not_portable() {
        let problems = portability_problems(&raw());
        for needle in ["has $schema", "has $defs", "type is not one name", "format"] {
            assert!(
                problems.iter().any(|p| p.contains(needle)),
                "{needle}: {problems:?}"
            );
        }
    }

    #[test]
    fn refs_unions_and_formats_are_rewritten_into_the_portable_subset() {
        let schema = portable(raw());
        assert_eq!(
            portability_problems(&schema),
            Vec::<String>::new(),
            "{schema:#}"
        );
        let properties = &schema["properties"];
        assert_eq!(properties["limit"]["type"], "integer");
        assert_eq!(properties["limit"]["minimum"], 0);
        assert!(properties["limit"].get("format").is_none());
        assert!(properties["limit"].get("default").is_none());
        assert_eq!(properties["offset"]["default"], 0);
        assert_eq!(properties["kind"]["type"], "string");
        assert_eq!(properties["kind"]["enum"], json!(["summary", "takeaway"]));
        assert_eq!(properties["kind"]["description"], "The kind.");
        assert_eq!(properties["other"]["enum"], json!(["summary", "takeaway"]));
        assert_eq!(properties["other"]["description"], "The other kind.");
        assert_eq!(properties["language"]["type"], "string");
        assert_eq!(properties["ratio"]["type"], "number");
        assert_eq!(properties["tags"]["items"]["type"], "string");
        assert_eq!(
            schema["required"],
            json!(["path", "other", "ratio", "tags"])
        );
        assert!(schema.get("title").is_none());
        assert!(schema.get("$defs").is_none());
    }

    #[test]
    fn a_property_without_description_or_with_a_real_union_is_reported() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": { "type": "string" },
                "b": { "description": "b", "type": ["string", "integer"] },
                "c": { "description": "c", "anyOf": [{ "type": "string" }, { "type": "integer" }] }
            }
        });
        let problems = portability_problems(&portable(schema));
        assert_eq!(
            problems,
            [
                "$.properties.a: no description",
                "$.properties.b: type is not one name: [\"string\",\"integer\"]",
                "$.properties.c: no type",
                "$.properties.c: has anyOf",
            ]
        );
    }
}
