//! What a vault-wide scan left out, as results carry it: `details.left_out`, the count by
//! reason (`{"outside the vault": 1}`), and `details.left_out_entries`, each entry with its
//! reason, which front ends name on request (`-v`). Which entries are left out and why is the
//! vault layer's (`vault/walk.rs`); this file only puts it into details.

use serde_json::{json, Value};

pub use crate::vault::walk::count_by_reason;
use crate::vault::VaultError;
pub use crate::vault::{LeftOut, LeftOutReason};

/// The entry at `relative` left out because reading it failed with `error`.
pub fn left_out_by_read(relative: &str, error: &VaultError) -> LeftOut {
    LeftOut {
        path: relative.to_string(),
        reason: LeftOutReason::of_read_error(error),
    }
}

/// Sets `details.left_out` (counts by reason, `{}` when nothing was) and
/// `details.left_out_entries` (`[{"path","reason"}]`).
pub fn put_left_out(details: &mut Value, left_out: &[LeftOut]) {
    details["left_out"] = json!(count_by_reason(left_out));
    details["left_out_entries"] = entries(left_out);
}

/// `[{"path": "Projects/link-out.md", "reason": "outside the vault"}]`.
pub fn entries(left_out: &[LeftOut]) -> Value {
    Value::Array(
        left_out
            .iter()
            .map(|entry| json!({ "path": entry.path, "reason": entry.reason.describe() }))
            .collect(),
    )
}
