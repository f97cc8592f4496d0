//! Names for imported casts, identifiers from foreign names, and the
//! placeholders of PiSAs texts.

use std::collections::HashMap;

use crate::sema::Category;

const FIRST: &[&str] = &[
    "Amara", "Bruno", "Chen", "Dalia", "Emeka", "Farida", "Goran", "Hana", "Ibrahim", "Jana",
    "Kofi", "Leila", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Samir", "Tamsin",
    "Umar", "Vera", "Wen", "Ximena", "Yusuf", "Zofia", "Anika", "Bastian", "Carmen", "Deniz",
    "Elena", "Felix", "Gita", "Hugo", "Ines", "Jonas", "Kira", "Luca", "Maren", "Nikhil",
];

const LAST: &[&str] = &[
    "Abara",
    "Bergstrom",
    "Castillo",
    "Dube",
    "Eriksen",
    "Fontaine",
    "Garcia",
    "Haddad",
    "Ivanova",
    "Jensen",
    "Kowalczyk",
    "Lindqvist",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Petrov",
    "Quispe",
    "Rahman",
    "Sato",
    "Tremblay",
    "Uddin",
    "Varga",
    "Wojcik",
    "Xu",
    "Yilmaz",
    "Zuberi",
    "Achebe",
    "Brennan",
    "Costa",
    "Dimitriou",
    "Esposito",
    "Ferreira",
    "Gunawardena",
    "Horvath",
    "Iqbal",
];

/// `n` distinct full names, drawn deterministically from `seed`.
pub fn cast_names(n: usize, seed: u64) -> Vec<String> {
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        // splitmix64: a fixed, portable stream.
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut out: Vec<String> = Vec::with_capacity(n);
    let mut firsts: Vec<&str> = Vec::new();
    while out.len() < n {
        let f = FIRST[(next() % FIRST.len() as u64) as usize];
        let l = LAST[(next() % LAST.len() as u64) as usize];
        // Distinct first names while the pool lasts, so that no two people
        // in one scenario are easily confused; then distinct full names.
        if firsts.contains(&f) && firsts.len() < FIRST.len() {
            continue;
        }
        let name = format!("{f} {l}");
        if !out.contains(&name) {
            firsts.push(f);
            out.push(name);
        }
    }
    out
}

/// A stable 64-bit hash of text (FNV-1a), for seeding from names.
pub fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A cici identifier from a foreign name: letters, digits and `_`, not
/// starting with a digit, at most 64 characters; `None` if nothing is left.
pub fn identifier(name: &str) -> Option<String> {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_').to_string();
    if out.is_empty() {
        return None;
    }
    let out = if out.starts_with(|c: char| c.is_ascii_digit()) {
        format!("n_{out}")
    } else {
        out
    };
    Some(out.chars().take(crate::sema::MAX_NAME).collect())
}

/// A person's id from a foreign name or role key: its [`identifier`],
/// with `_person` after a word the norms read as a recipient (the
/// release's `executor` and `subject` roles), which names no person.
pub fn person_identifier(name: &str) -> Option<String> {
    let id = identifier(name)?;
    Some(
        if crate::sema::norm::RECIPIENT_WORDS.contains(&id.as_str()) {
            format!("{id}_person")
        } else {
            id
        },
    )
}

/// Fills `{name}` placeholders from `values`; the names of unknown ones
/// are returned and their text kept as written.
pub fn fill(text: &str, values: &HashMap<String, String>) -> (String, Vec<String>) {
    let mut out = String::with_capacity(text.len());
    let mut unknown = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close)
                if after[..close]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && close > 0 =>
            {
                let name = &after[..close];
                match values.get(name) {
                    Some(v) => out.push_str(v),
                    None => {
                        out.push_str(&rest[open..open + close + 2]);
                        if !unknown.iter().any(|u| u == name) {
                            unknown.push(name.to_string());
                        }
                    }
                }
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    (out, unknown)
}

/// The category a personal-context topic most likely belongs to.
pub fn category_of_topic(topic: &str) -> Option<Category> {
    let t = topic.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| t.contains(w));
    Some(
        if has(&["mental", "recovery", "therapy", "anxiety", "grief"]) {
            Category::MentalHealth
        } else if has(&["health", "medical", "illness", "pregnan", "diagnos"]) {
            Category::Health
        } else if has(&[
            "financ", "debt", "rent", "loan", "bankrupt", "mortgage", "money",
        ]) {
            Category::Financial
        } else if has(&[
            "legal",
            "court",
            "immigration",
            "probate",
            "complaint",
            "lawsuit",
        ]) {
            Category::Legal
        } else if has(&["relationship", "wedding", "dating", "divorce", "partner"]) {
            Category::Relationships
        } else if has(&["family", "caring", "child", "parent", "sibling"]) {
            Category::Family
        } else if has(&["job", "employ", "grievance", "career", "workplace"]) {
            Category::Employment
        } else if has(&["housing", "home", "living", "address"]) {
            Category::Location
        } else if has(&["religio", "belief", "politic"]) {
            Category::Beliefs
        } else if has(&["performance", "probation"]) {
            Category::Performance
        } else {
            return None;
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_fill_and_unknown_ones_stay() {
        let mut v = HashMap::new();
        v.insert("operator".to_string(), "Lucia Tanaka".to_string());
        let (text, unknown) = fill("{operator}'s plan; {nobody} and {} and {a b}", &v);
        assert_eq!(text, "Lucia Tanaka's plan; {nobody} and {} and {a b}");
        assert_eq!(unknown, vec!["nobody".to_string()]);
    }

    #[test]
    fn identifiers_are_cleaned() {
        assert_eq!(
            identifier("Flight-Release Coordinator").as_deref(),
            Some("flight_release_coordinator")
        );
        assert_eq!(identifier("3rd party").as_deref(), Some("n_3rd_party"));
        assert_eq!(identifier("  ").as_deref(), None);
        assert_eq!(
            person_identifier("Subject").as_deref(),
            Some("subject_person")
        );
        assert_eq!(
            person_identifier("executor").as_deref(),
            Some("executor_person")
        );
        assert_eq!(person_identifier("Avi Shah").as_deref(), Some("avi_shah"));
    }

    #[test]
    fn names_are_distinct_and_deterministic() {
        let a = cast_names(12, 7);
        assert_eq!(a, cast_names(12, 7));
        let set: std::collections::HashSet<&String> = a.iter().collect();
        assert_eq!(set.len(), 12);
    }
}
