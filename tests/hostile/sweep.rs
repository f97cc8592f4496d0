//! A mutation sweep over inputs others wrote: the project's seeds, the
//! release's task-family seeds and bundles in the release's shapes, each
//! mutated thousands of ways (bytes flipped, spans cut or doubled, a line
//! made 70,000 characters wide, a huge token, a BOM, arrays of thousands),
//! and the seeds in the language's own terms too (CR-only and mixed line
//! ends, lint comments in strings and after code, keyword names, clauses
//! and blocks given twice, reporting lines that go round, zero-width
//! characters).
//! Every case gets diagnostics that render, never a panic, and finishes
//! within its bound. Deterministic: the same cases on every run.
//!
//! The bound is a hang guard (10 s for a case that takes milliseconds),
//! not a speed target; speed is measured in `benches/`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use cici::analysis::Options;
use cici::pisas::import::{build::Select, BundleFiles, JsonFile, SeedOptions};

use crate::it::common::{data, root};

const BOUND: Duration = Duration::from_secs(10);

/// One mutation of `text`, drawn from `rng`.
fn mutate(text: &str, rng: &mut ChaCha8Rng) -> String {
    let mut b = text.as_bytes().to_vec();
    let at = |rng: &mut ChaCha8Rng, len: usize| rng.random_range(0..=len);
    match rng.random_range(0..9) {
        0 => {
            let i = at(rng, b.len().saturating_sub(1));
            if let Some(x) = b.get_mut(i) {
                *x = rng.random();
            }
        }
        1 => {
            let i = at(rng, b.len());
            let j = (i + rng.random_range(1..200)).min(b.len());
            b.drain(i..j);
        }
        2 => {
            let i = at(rng, b.len());
            let j = (i + rng.random_range(1..400)).min(b.len());
            let copy = b[i..j].to_vec();
            b.splice(i..i, copy);
        }
        3 => {
            let i = at(rng, b.len());
            b.splice(i..i, "x".repeat(70_000).into_bytes());
        }
        4 => {
            let i = at(rng, b.len());
            b.splice(
                i..i,
                format!("\"{}\"", "y".repeat(rng.random_range(1..300_000))).into_bytes(),
            );
        }
        5 => b.splice(0..0, b"\xEF\xBB\xBF".to_vec()).for_each(drop),
        6 => {
            let i = at(rng, b.len());
            let n = rng.random_range(1..5_000);
            b.splice(i..i, format!("[{}]", vec!["1"; n].join(",")).into_bytes());
        }
        7 => {
            // Nesting.
            let i = at(rng, b.len());
            let n = rng.random_range(1..3_000);
            b.splice(
                i..i,
                format!("{}{}", "[".repeat(n), "]".repeat(n)).into_bytes(),
            );
        }
        _ => {
            let i = at(rng, b.len());
            let j = (i + rng.random_range(1..50)).min(b.len());
            let k = at(rng, b.len());
            let piece = b[i..j].to_vec();
            let k = k.min(b.len());
            b.splice(k..k, piece);
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// The words a seed must not name a person or group with, or that look
/// like a statement's keyword.
const KEYWORD_NAMES: &[&str] = &[
    "manager", "subject", "holder", "executor", "everyone", "share", "with", "for", "person",
    "fact", "scenario", "all",
];

/// Characters that show nothing.
const INVISIBLE: &[char] = &[
    '\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{00AD}', '\u{202E}',
];

/// `text` with every whole word `from` (an identifier) made `to`.
fn replace_word(text: &str, from: &str, to: &str) -> String {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().next_back().is_some_and(ident);
        let after = rest[i + from.len()..].chars().next().is_some_and(ident);
        out.push_str(&rest[..i]);
        out.push_str(if before || after { from } else { to });
        rest = &rest[i + from.len()..];
    }
    out + rest
}

/// The ids of the people a seed declares.
fn person_ids(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("person "))
        .filter_map(|l| l.split_whitespace().next())
        .collect()
}

/// The line that declares person `id`.
fn person_line<'t>(text: &'t str, id: &str) -> &'t str {
    text.lines()
        .find(|l| l.trim_start().starts_with(&format!("person {id} ")))
        .unwrap_or("")
}

/// A random char boundary of `text`.
fn boundary(text: &str, rng: &mut ChaCha8Rng) -> usize {
    let mut i = rng.random_range(0..=text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The block (`name ... { ... }` to its closing brace, at line starts)
/// of a random line that opens one, if any.
fn a_block(text: &str, rng: &mut ChaCha8Rng) -> Option<std::ops::Range<usize>> {
    let opens: Vec<usize> = text
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .filter(|&i| {
            text[i..]
                .lines()
                .next()
                .is_some_and(|l| l.trim_end().ends_with('{'))
        })
        .collect();
    let start = *opens.get(rng.random_range(0..opens.len().max(1)))?;
    let indent = text[start..].len() - text[start..].trim_start().len();
    let close = format!("\n{}}}", " ".repeat(indent));
    let end = start + text[start..].find(&close)? + close.len();
    Some(start..end)
}

/// One mutation in the seed language's own terms: line ends, lint comments
/// in strings and after code, keyword names, clauses and blocks given
/// twice, reporting lines that go round, invisible characters.
fn mutate_language(text: &str, rng: &mut ChaCha8Rng) -> String {
    let lf = text.replace("\r\n", "\n");
    let people = person_ids(&lf);
    let someone = |rng: &mut ChaCha8Rng| people[rng.random_range(0..people.len().max(1))];
    match rng.random_range(0..9) {
        0 => lf.replace('\n', "\r"),
        1 => lf
            .split_inclusive('\n')
            .map(|l| match l.strip_suffix('\n') {
                Some(body) => format!("{body}{}", ["\r", "\r\n", "\n"][rng.random_range(0..3)]),
                None => l.to_string(),
            })
            .collect(),
        2 => {
            // A lint comment inside a string, plain or triple-quoted.
            let quotes: Vec<usize> = lf.match_indices('"').map(|(i, _)| i + 1).collect();
            let at = quotes
                .get(rng.random_range(0..quotes.len().max(1)))
                .copied();
            let comment = ["# cici: allow leak, warnings", "\n# cici: allow warnings\n"];
            let c = comment[rng.random_range(0..2)];
            match at {
                Some(i) => format!("{}{c}{}", &lf[..i], &lf[i..]),
                None => lf,
            }
        }
        3 => {
            // A lint comment after code on a line.
            let lines: Vec<&str> = lf.lines().collect();
            let n = rng.random_range(0..lines.len().max(1));
            let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            if let Some(l) = out.get_mut(n) {
                l.push_str(" # cici: allow warnings");
            }
            out.join("\n")
        }
        4 if !people.is_empty() => {
            let word = KEYWORD_NAMES[rng.random_range(0..KEYWORD_NAMES.len())];
            if rng.random_bool(0.5) {
                replace_word(&lf, someone(rng), word)
            } else {
                let line = person_line(&lf, someone(rng));
                lf.replacen(line, &format!("{line} groups [{word}]"), 1)
            }
        }
        5 if !people.is_empty() => {
            // A person clause given again, or a reporting line that may
            // go round.
            let id = someone(rng);
            let clause = match rng.random_range(0..3) {
                0 => "skills [backend]".to_string(),
                1 => "groups [hr]".to_string(),
                // Half of the reporting lines go to one of the person's own
                // reports, where there is one: a cycle of two.
                _ => match report_of(&lf, id).filter(|_| rng.random_bool(0.5)) {
                    Some(report) => format!("reports_to {report}"),
                    None => format!("reports_to {}", someone(rng)),
                },
            };
            let times = rng.random_range(1..3);
            let line = person_line(&lf, id);
            let mut longer = line.to_string();
            for _ in 0..times {
                longer.push(' ');
                longer.push_str(&clause);
            }
            lf.replacen(line, &longer, 1)
        }
        6 => match a_block(&lf, rng) {
            Some(r) => format!("{}\n{}{}", &lf[..r.end], &lf[r.clone()], &lf[r.end..]),
            None => lf,
        },
        7 if !people.is_empty() => {
            // Two people with one display name.
            let line = lf
                .lines()
                .find(|l| l.trim_start().starts_with("person "))
                .unwrap_or("")
                .to_string();
            let copy = replace_word(&line, someone(rng), "twin_of_someone");
            lf.replacen(&line, &format!("{line}\n{copy}"), 1)
        }
        _ => {
            let mut out = lf;
            for _ in 0..rng.random_range(1..20) {
                let i = boundary(&out, rng);
                out.insert(i, INVISIBLE[rng.random_range(0..INVISIBLE.len())]);
            }
            out
        }
    }
}

/// Someone whose person line says they report to `id`.
fn report_of<'a>(text: &'a str, id: &str) -> Option<&'a str> {
    text.lines().find_map(|l| {
        let words: Vec<&str> = l.split_whitespace().collect();
        let reports = words.windows(2).any(|w| w == ["reports_to", id]);
        (words.first() == Some(&"person") && reports).then(|| words.get(1).copied())?
    })
}

/// Runs one case: no panic, within the bound. The description names it.
fn case(what: &str, f: impl FnOnce()) {
    let started = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(f));
    assert!(result.is_ok(), "{what}: panicked");
    assert!(
        started.elapsed() < BOUND,
        "{what}: took {:?}",
        started.elapsed()
    );
}

/// Renders every diagnostic of JSON files the way the command line does.
fn render_json(files: &[JsonFile]) {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
    for f in files.iter().filter(|f| !f.diagnostics.is_empty()) {
        let text = Arc::<str>::from(f.text.as_str());
        let starts = cici::driver::excerpt::line_starts(&f.text);
        for d in &f.diagnostics {
            let mut out = String::new();
            let shown = cici::driver::excerpt::Shown::new(d, &f.name, &text, &starts);
            handler.render_report(&mut out, &shown).unwrap();
        }
    }
}

#[test]
fn mutated_seeds_give_diagnostics_never_a_panic() {
    let seeds: Vec<String> = [
        "ops_scheduling",
        "payments_sprint",
        "meridian_incident",
        "lab_access",
    ]
    .iter()
    .map(|s| std::fs::read_to_string(root().join(format!("seeds/{s}.cici"))).unwrap())
    .collect();
    let options = Options {
        max_solve: Some(Duration::from_secs(2)),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    for n in 0..5_000 {
        let text = mutate(&seeds[n % seeds.len()], &mut rng);
        case(&format!("seed case {n}"), || {
            let mut run = cici::driver::Run::new();
            run.check_text("mutated.cici", text, &options);
            crate::it::common::render(&run);
        });
    }
}

#[test]
fn seeds_mutated_in_the_languages_terms_give_diagnostics_never_a_panic() {
    let seeds: Vec<String> = std::fs::read_dir(root().join("seeds"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cici"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let options = Options {
        max_solve: Some(Duration::from_secs(2)),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    let mut seen = std::collections::BTreeSet::new();
    for n in 0..1_500 {
        let mut text = mutate_language(&seeds[n % seeds.len()], &mut rng);
        // Every fourth case stacks a second mutation on the first.
        if n % 4 == 3 {
            text = mutate_language(&text, &mut rng);
        }
        case(&format!("language case {n}"), || {
            let mut run = cici::driver::Run::new();
            run.check_text("mutated.cici", text, &options);
            crate::it::common::render(&run);
            seen.extend(run.diagnostics.iter().map(|d| d.diagnostic.code_name()));
        });
    }
    // The operators reach what they are for.
    for code in [
        "reserved_name",
        "duplicate_statement",
        "reports_to_cycle",
        "duplicate_display_name",
        "duplicate_name",
        "lint_comment",
    ] {
        let code = format!("cici::resolve::{code}").replace("resolve::lint", "check::lint");
        assert!(seen.contains(&code), "no case gave {code}: {seen:?}");
    }
}

#[test]
fn mutated_task_family_seeds_give_diagnostics_never_a_panic() {
    let seeds: Vec<String> = [
        "uas_flight_readiness",
        "thesis_readiness",
        "inpatient_discharge",
    ]
    .iter()
    .map(|s| std::fs::read_to_string(data().join(format!("pisas/seeds/{s}/seed.json"))).unwrap())
    .collect();
    let options = SeedOptions {
        select: Select::Count(2),
        seed: 1,
        prefix: None,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    for n in 0..3_000 {
        let text = mutate(&seeds[n % seeds.len()], &mut rng);
        case(&format!("task-family case {n}"), || {
            let file = JsonFile::parse("mutated/seed.json".into(), text);
            let imported = cici::pisas::import::pisas_seed_files(file, None, &options);
            render_json(&imported.files);
        });
    }
}

#[test]
fn mutated_bundles_give_diagnostics_never_a_panic() {
    let dirs = ["jira_sole_owner", "meeting_deadline"];
    let files = [
        "scenario.json",
        "utility.json",
        "visibility.json",
        "appropriateness.json",
    ];
    let bundles: Vec<Vec<String>> = dirs
        .iter()
        .map(|d| {
            files
                .iter()
                .map(|f| {
                    let p = root().join(format!("tests/fixtures/import/bundles/{d}/{f}"));
                    std::fs::read_to_string(p).unwrap()
                })
                .collect()
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    for n in 0..2_000 {
        let mut texts = bundles[n % bundles.len()].clone();
        let which = rng.random_range(0..texts.len());
        texts[which] = mutate(&texts[which], &mut rng);
        case(&format!("bundle case {n} ({})", files[which]), || {
            let parsed: Vec<JsonFile> = files
                .iter()
                .zip(&texts)
                .map(|(f, t)| JsonFile::parse(format!("mutated/{f}"), t.clone()))
                .collect();
            let mut it = parsed.into_iter();
            let bundle = BundleFiles {
                scenario: it.next().unwrap(),
                utility: it.next().unwrap(),
                visibility: it.next().unwrap(),
                appropriateness: it.next().unwrap(),
            };
            let (_, read) = cici::pisas::import::pisas_bundle(bundle, "mutated", None);
            render_json(&read);
        });
    }
}
