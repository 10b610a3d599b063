//! How a result says what the output policy changed in the text it wrote (`details.defused`),
//! for the tools' rendered lines (`-v`): `; defused: links 2, remote_images 1`.

use serde_json::Value;

/// `"; defused: links 2, remote_images 1"`, or nothing when the policy changed nothing.
pub fn defused_suffix(details: &Value) -> String {
    let Some(counts) = details.get("defused").and_then(Value::as_object) else {
        return String::new();
    };
    // In the order of the names, whatever order the map keeps.
    let mut parts: Vec<String> = counts
        .iter()
        .filter_map(|(kind, n)| n.as_u64().filter(|n| *n > 0).map(|n| format!("{kind} {n}")))
        .collect();
    parts.sort();
    if parts.is_empty() {
        String::new()
    } else {
        format!("; defused: {}", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::defused_suffix;
    use serde_json::json;

    #[test]
    fn names_each_kind_with_its_count_or_nothing() {
        let details = json!({"defused": {"remote_images": 1, "links": 2}});
        assert_eq!(
            defused_suffix(&details),
            "; defused: links 2, remote_images 1"
        );
        assert_eq!(defused_suffix(&json!({"defused": {}})), "");
        assert_eq!(defused_suffix(&json!({})), "");
    }
}
