use std::collections::BTreeSet;

use super::*;
use crate::authoring::lsp::complete::complete;
use crate::syntax::ast::Item;

fn seeds() -> Vec<(String, String)> {
    // The repository's seeds, two folders above this crate's.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../seeds");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cici"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            (p.display().to_string(), text)
        })
        .collect();
    out.sort();
    out
}

/// Every word completion may offer for a seed: the names, slots, features
/// and evidence values it declares, and the language's own words.
fn offerable(text: &str) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = BTreeSet::new();
    for v in views(text) {
        out.extend(v.decls.iter().map(|d| d.name.clone()));
        out.extend(v.meetings.iter().flat_map(|m| m.slots.iter().cloned()));
        out.extend(v.features.iter().cloned());
        out.extend(v.evidence.iter().flat_map(|(_, vals)| vals.iter().cloned()));
    }
    out.extend(crate::syntax::keywords().iter().map(|k| k.to_string()));
    out.extend(Family::ALL.iter().map(|f| f.name().to_string()));
    out.extend(crate::sema::PREDICATES.iter().map(|p| p.name.to_string()));
    out.extend(
        crate::sema::Category::ALL
            .iter()
            .map(|c| c.name().to_string()),
    );
    out.extend(crate::sema::norm::KIND_WORDS.iter().map(|k| k.to_string()));
    out.extend(
        crate::sema::norm::RECIPIENT_WORDS
            .iter()
            .map(|k| k.to_string()),
    );
    out
}

/// Each statement of the seed's scenarios: its kind and its span.
fn statements(text: &str) -> Vec<(String, usize, usize)> {
    let (file, _) = crate::syntax::parse(SourceId(0), text);
    file.scenarios
        .iter()
        .chain(&file.partial)
        .flat_map(|s| &s.items)
        .map(|i: &Item| {
            let kind = format!("{i:?}");
            let kind = kind.split('(').next().unwrap_or_default().to_string();
            (kind, i.span().start as usize, i.span().end as usize)
        })
        .collect()
}

/// The lines of a seed strictly inside its scenario blocks that hold
/// something to cut: (start, end of content).
fn inner_lines(text: &str) -> Vec<(usize, usize)> {
    crate::syntax::lex::lines(text)
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with("scenario") && !l.starts_with('}')
        })
        .map(|(s, l)| (s, s + l.trim_end().len()))
        .collect()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]
    /// A seed with one line cut short anywhere: the parser keeps every
    /// other statement, and completion where the line stops offers only
    /// what the seed declares.
    #[test]
    fn a_line_cut_short_loses_only_its_statement(pick in 0usize..1 << 20, at in 0.0f64..1.0) {
        let seeds = seeds();
        let (name, seed) = &seeds[pick % seeds.len()];
        let lines = inner_lines(seed);
        let (start, end) = lines[(pick / seeds.len()) % lines.len()];
        let indent = start + (seed[start..end].len() - seed[start..end].trim_start().len());
        let mut cut = indent + ((end - indent) as f64 * at) as usize;
        while !seed.is_char_boundary(cut) {
            cut -= 1;
        }
        let text = format!("{}{}", &seed[..cut], &seed[end..]);
        let removed = end - cut;
        let got: BTreeSet<(String, usize, usize)> = statements(&text).into_iter().collect();
        for (kind, s, e) in statements(seed) {
            if e < start || s > end {
                let shift = if s > end { removed } else { 0 };
                let moved = (kind.clone(), s - shift, e - shift);
                proptest::prop_assert!(got.contains(&moved), "{name}: cut at {cut} lost {kind} at {s}");
            }
        }
        let allowed = offerable(seed);
        for item in complete(&text, &views(&text), cut) {
            proptest::prop_assert!(allowed.contains(&item.label), "{name}: cut at {cut} offered {}", item.label);
        }
    }
}

#[test]
fn a_fact_typed_in_the_middle_of_each_seed_offers_its_family_predicates() {
    for (name, seed) in seeds() {
        let family = views(&seed)[0].family.expect("a seed names its family");
        let at = seed.find("\n  attribute ").expect("an attribute") + 1;
        let text = format!(
            "{}  attribute typing {{\n    fact \n{}",
            &seed[..at],
            &seed[at..]
        );
        let cursor = at + "  attribute typing {\n    fact ".len();
        let got: BTreeSet<String> = complete(&text, &views(&text), cursor)
            .into_iter()
            .map(|i| i.label)
            .collect();
        let want: BTreeSet<String> = family.predicates().map(|p| p.name.to_string()).collect();
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn declarations_below_a_broken_line_are_kept() {
    let text = "scenario s {\n  family meeting_allocation\n  person maya \"Maya\" role \"Lead\"\n  persn zed \"Z\n  person eli \"Eli # not a comment\" role \"x\"\n  room cedar capacity 3 features [video, quiet]\n  meeting m1 \"Sync\" {\n    attendees [eli]\n    slots [mon 09:00-10:00, tue 10:00-11:00]\n    rooms [cedar]\n  }\n  attribute a {\n    holder \n    fact avoid_room(\n";
    let v = views(text);
    let s = at(&v, text.len()).expect("the block");
    assert_eq!(s.id.as_deref(), Some("s"));
    assert_eq!(s.family, Some(Family::MeetingAllocation));
    assert_eq!(s.names(Kind::Person), ["maya", "eli"]);
    assert_eq!(s.names(Kind::Room), ["cedar"]);
    assert_eq!(s.slots(Some("m1")), ["mon 09:00-10:00", "tue 10:00-11:00"]);
    assert_eq!(s.features, ["video", "quiet"]);
    // The attribute being typed does not parse: it is not declared yet.
    assert!(s.names(Kind::Attribute).is_empty());
}

#[test]
fn the_block_around_the_cursor_is_the_one_read() {
    let text = "scenario a {\n person x \"X\" role \"r\"\n}\nscenario b {\n person y \"Y\" role \"r\"\n outcomes [go, stop]\n evidence tests [green, red]\n";
    let v = views(text);
    let b = at(&v, text.len()).expect("b");
    assert_eq!(b.names(Kind::Person), ["y"]);
    assert_eq!(b.names(Kind::Level), ["go", "stop"]);
    assert_eq!(
        b.evidence,
        [(
            "tests".to_string(),
            vec!["green".to_string(), "red".to_string()]
        )]
    );
    assert_eq!(at(&v, 5).expect("a").names(Kind::Person), ["x"]);
}
