//! A person renamed everywhere: the `rename_person` edit, and the symbolic
//! generator's renaming holds, which build the same change.
//!
//! In: a scenario, a person and the new id and name. Out: the scenario
//! with every use renamed.

use crate::sema::{PersonId, Scenario};
use crate::words;

/// Replaces whole words of `old` by `new` (case-sensitive), returning the
/// text and whether anything changed.
pub fn replace_words(text: &str, old: &str, new: &str) -> (String, bool) {
    if old.is_empty() || old == new {
        return (text.to_string(), false);
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut rest = text;
    while let Some(i) = rest.find(old) {
        out.push_str(&rest[..i]);
        if words::stands_alone(&rest[..i], &rest[i + old.len()..]) {
            out.push_str(new);
            changed = true;
        } else {
            out.push_str(old);
        }
        rest = &rest[i + old.len()..];
    }
    out.push_str(rest);
    (out, changed)
}

/// Gives person `p` a new id and display name everywhere: whole-word uses
/// of the first word of the old name in texts become the new one's, and
/// attribute ids that carry the old id carry the new one.
pub fn rename_person(v: &mut Scenario, p: PersonId, new_id: &str, new_name: &str) {
    let old_id = std::mem::replace(&mut v.people[p].id, new_id.to_string());
    let old_name = std::mem::replace(&mut v.people[p].name, new_name.to_string());
    // A blank name has no first word (not the whole blank name, as
    // `first_word` would give): nothing is replaced for it.
    let first = words::leading_word(&old_name).unwrap_or("");
    let new_first = words::leading_word(new_name).unwrap_or("");
    for a in &mut v.attributes {
        if !first.is_empty() && !new_first.is_empty() {
            a.raw.text = replace_words(&a.raw.text, first, new_first).0;
            if let Some(s) = a.sanitized.as_mut() {
                s.text = replace_words(&s.text, first, new_first).0;
            }
        }
        // Attribute ids often carry the holder's id; keep them readable.
        let (id, _) = replace_words(&a.id.replace('_', " "), &old_id, new_id);
        a.id = id.replace(' ', "_");
    }
}
