//! How far a variant reads from its anchor, for its minimality.
//!
//! In: two texts (seeds or items). Out: the characters inserted or
//! deleted between them.

/// Characters inserted or deleted between two texts: a line diff first,
/// then a character diff within each changed run of lines, so that long
/// items with a small change cost little. A replaced run counts its longer
/// side.
pub fn char_distance(a: &str, b: &str) -> usize {
    let lines = similar::TextDiff::from_lines(a, b);
    let old: Vec<&str> = lines.iter_old_slices().collect();
    let new: Vec<&str> = lines.iter_new_slices().collect();
    let (mut x, mut y) = (Vec::new(), Vec::new());
    lines
        .ops()
        .iter()
        .filter(|op| op.tag() != similar::DiffTag::Equal)
        .map(|op| {
            // The characters themselves, compared as numbers: the same
            // Myers diff `TextDiff::from_chars` makes of them (held to it
            // by a test), without a string slice per character.
            x.clear();
            x.extend(old[op.old_range()].iter().flat_map(|l| l.chars()));
            y.clear();
            y.extend(new[op.new_range()].iter().flat_map(|l| l.chars()));
            similar::capture_diff_slices(similar::Algorithm::Myers, &x, &y)
                .iter()
                .map(op_chars)
                .sum::<usize>()
        })
        .sum()
}

/// The characters an operation of a character diff counts.
fn op_chars(op: &similar::DiffOp) -> usize {
    match op.tag() {
        similar::DiffTag::Equal => 0,
        similar::DiffTag::Delete => op.old_range().len(),
        similar::DiffTag::Insert => op.new_range().len(),
        similar::DiffTag::Replace => op.old_range().len().max(op.new_range().len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The distance as it was first written: each changed run diffed by
    /// `TextDiff::from_chars`.
    fn reference(a: &str, b: &str) -> usize {
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
                    .map(op_chars)
                    .sum::<usize>()
            })
            .sum()
    }

    #[test]
    fn counts_the_changed_characters() {
        assert_eq!(char_distance("a\nb\n", "a\nb\n"), 0);
        // `out` and `in` share no letter: a run of three replaced by two.
        assert_eq!(char_distance("Eli is out\n", "Eli is in\n"), 3);
        assert_eq!(char_distance("x\n", "x\ny\n"), 2);
        assert_eq!(char_distance("Zoë\n", "Zoe\n"), 1);
    }

    /// A text of a few lines and its edit: long lines with a few
    /// characters changed, lines added and removed, letters beyond ASCII.
    fn pair() -> impl Strategy<Value = (String, String)> {
        let line = "[a-cë ]{0,160}\n?";
        (
            proptest::collection::vec(line, 1..8),
            proptest::collection::vec((0usize..8, 0usize..160, "[a-dë\n]{0,6}"), 0..6),
        )
            .prop_map(|(lines, edits)| {
                let a: String = lines.concat();
                let mut b: Vec<char> = a.chars().collect();
                for (_, at, put) in edits {
                    let at = at.min(b.len());
                    let cut = (at + put.chars().count()).min(b.len());
                    b.splice(at..cut, put.chars());
                }
                (a, b.into_iter().collect())
            })
    }

    proptest! {
        #[test]
        fn agrees_with_the_character_diff_of_strings((a, b) in pair()) {
            prop_assert_eq!(char_distance(&a, &b), reference(&a, &b));
        }

        #[test]
        fn agrees_on_unrelated_texts(a in "[a-c\n]{0,300}", b in "[a-c\n]{0,300}") {
            prop_assert_eq!(char_distance(&a, &b), reference(&a, &b));
        }
    }
}
