//! Unified diffs of texts: what `build --check` and `fmt --check` print,
//! and the seed and item diffs of a counterfactual variant.

/// A unified diff of one file, `a/` to `b/`, with `/dev/null` for a side
/// that does not exist.
pub fn unified(rel: &str, old: &str, new: &str, existed: bool) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let old_name = if existed {
        format!("a/{rel}")
    } else {
        "/dev/null".to_string()
    };
    let new_name = if new.is_empty() {
        "/dev/null".to_string()
    } else {
        format!("b/{rel}")
    };
    diff.unified_diff()
        .context_radius(3)
        .header(&old_name, &new_name)
        .to_string()
}
