//! How far a variant reads from its anchor, for its minimality.
//!
//! In: two texts (seeds or items). Out: the characters inserted or
//! deleted between them.

/// Characters inserted or deleted between two texts: a line diff first,
/// then a character diff within each changed run of lines, so that long
/// items with a small change cost little.
pub fn char_distance(a: &str, b: &str) -> usize {
    let lines = similar::TextDiff::from_lines(a, b);
    let old: Vec<&str> = lines.iter_old_slices().collect();
    let new: Vec<&str> = lines.iter_new_slices().collect();
    lines
        .ops()
        .iter()
        .filter(|op| op.tag() != similar::DiffTag::Equal)
        .map(|op| {
            let x: String = old[op.old_range()].concat();
            let y: String = new[op.new_range()].concat();
            similar::TextDiff::from_chars(&x, &y)
                .ops()
                .iter()
                .map(|op| match op.tag() {
                    similar::DiffTag::Equal => 0,
                    similar::DiffTag::Delete => op.old_range().len(),
                    similar::DiffTag::Insert => op.new_range().len(),
                    similar::DiffTag::Replace => op.old_range().len().max(op.new_range().len()),
                })
                .sum::<usize>()
        })
        .sum()
}
