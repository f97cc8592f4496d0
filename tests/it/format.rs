//! `cici fmt`: the layout is idempotent, keeps every comment in order and
//! never changes what a file means.

use proptest::prelude::*;

use cici::planted::{generate, Config};
use cici::sema::{self, Family};
use cici::span::SourceId;
use cici::syntax;

use super::common::{cici, root, tempdir};

/// What a text means: every scenario resolved and printed canonically, or
/// the codes of the errors it has.
fn meaning(text: &str) -> Result<Vec<String>, Vec<String>> {
    let (file, errors) = syntax::parse(SourceId(0), text);
    if !errors.is_empty() {
        return Err(errors.iter().map(|e| e.to_string()).collect());
    }
    let mut out = Vec::new();
    let mut failures = Vec::new();
    for ast in &file.scenarios {
        match sema::resolve(ast) {
            Ok(sc) => out.push(cici::printer::print(&sc)),
            Err(errors) => failures.extend(errors.iter().map(|e| {
                use miette::Diagnostic;
                format!(
                    "{} {e}",
                    e.code().map(|c| c.to_string()).unwrap_or_default()
                )
            })),
        }
    }
    if failures.is_empty() {
        Ok(out)
    } else {
        Err(failures)
    }
}

/// The comments of a text, in order: `#` outside strings to the line end
/// (`\n`, `\r\n` or a lone `\r`).
fn comments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(['#', '"']) {
        if rest[i..].starts_with('#') {
            let end = rest[i..].find(['\n', '\r']).map_or(rest.len(), |n| i + n);
            out.push(rest[i..end].trim_end().to_string());
            rest = &rest[end..];
        } else if rest[i..].starts_with("\"\"\"") {
            let end = rest[i + 3..]
                .find("\"\"\"")
                .map_or(rest.len(), |n| i + 6 + n);
            rest = &rest[end..];
        } else {
            let mut j = i + 1;
            let bytes = rest.as_bytes();
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            rest = &rest[(j + 1).min(rest.len())..];
        }
    }
    out
}

/// Formats, and asserts the three promises of the formatter.
fn assert_formats_faithfully(name: &str, text: &str) -> String {
    let once = syntax::format(text).unwrap_or_else(|e| panic!("{name} does not format: {e:?}"));
    let twice = syntax::format(&once).expect("formatted text parses");
    assert_eq!(once, twice, "{name}: formatting twice changed the text");
    assert_eq!(
        meaning(text),
        meaning(&once),
        "{name}: formatting changed the meaning"
    );
    assert_eq!(
        comments(text),
        comments(&once),
        "{name}: formatting lost or reordered comments"
    );
    once
}

fn seed_like_files() -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for dir in [
        "seeds",
        "tests/fixtures/syntax/ok",
        "tests/fixtures/resolve/ok",
        "tests/fixtures/resolve/err",
        "tests/fixtures/check/ok",
        "tests/fixtures/check/err",
        "tests/fixtures/format",
        "templates/starters",
    ] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "cici") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_seed_and_fixture_formats_faithfully() {
    let files = seed_like_files();
    assert!(files.len() > 40, "found only {} files", files.len());
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        assert_formats_faithfully(&p.display().to_string(), &text);
    }
}

#[test]
fn a_messy_file_takes_the_canonical_layout() {
    let text = std::fs::read_to_string(root().join("tests/fixtures/format/messy.cici")).unwrap();
    let out = assert_formats_faithfully("messy.cici", &text);
    insta::assert_snapshot!(out);
}

#[test]
fn text_that_does_not_parse_is_refused_with_its_syntax_errors() {
    let errors =
        syntax::format("scenario s { family meeting_allocation titel \"x\" }").unwrap_err();
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].to_string().contains("found `titel`"),
        "{}",
        errors[0]
    );
}

/// Planted seeds, printed, then laid out badly: random blanks and line
/// breaks between tokens, and comments at line ends.
fn scrambled(family: Family, seed: u64, noise: &[u8]) -> String {
    let sc = generate(&Config {
        family,
        people: 5,
        size: 3,
        soft: 2,
        irrelevant: 2,
        seed,
        id: None,
        norms: seed % 2 == 1,
    });
    let text = cici::printer::print(&sc);
    let mut out = String::new();
    let mut noise = noise.iter().cycle();
    let (mut in_string, mut escaped) = (false, false);
    let mut comment = 0;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        let n = *noise.next().unwrap();
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            // Inside a slot (`mon 09:00`) only blanks may stand.
            ' ' if chars.get(i + 1).is_some_and(|d| d.is_ascii_digit())
                && i >= 3
                && chars[i - 3..i].iter().all(|d| d.is_ascii_lowercase()) =>
            {
                out.push_str([" ", "\t", "   "][n as usize % 3]);
            }
            ' ' => out.push_str([" ", "  ", "\n", "\n\n    ", "\t", " "][n as usize % 6]),
            '\n' => {
                if n.is_multiple_of(4) {
                    comment += 1;
                    out.push_str(&format!(" # note {comment}"));
                }
                out.push_str(["\n", "\n\n", "\n\n\n  "][n as usize % 3]);
            }
            c => out.push(c),
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn formatting_is_idempotent_and_keeps_meaning_and_comments(
        family in prop_oneof![
            Just(Family::MeetingAllocation),
            Just(Family::JiraAllocation),
            Just(Family::SeverityClassification),
        ],
        seed in 0u64..1000,
        noise in proptest::collection::vec(any::<u8>(), 1..64),
    ) {
        let text = scrambled(family, seed, &noise);
        prop_assert!(meaning(&text).is_ok(), "the scrambled text resolves:\n{}", text);
        assert_formats_faithfully("scrambled", &text);
    }
}

#[test]
fn fmt_check_reports_and_fmt_rewrites_in_place() {
    let dir = tempdir("fmt");
    let messy = std::fs::read_to_string(root().join("tests/fixtures/format/messy.cici")).unwrap();
    let file = dir.join("messy.cici");
    std::fs::write(&file, &messy).unwrap();
    let broken = dir.join("broken.cici");
    std::fs::write(
        &broken,
        "scenario s { family meeting_allocation titel \"x\" }\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();

    let out = cici(&["fmt", "--check", path]);
    assert_eq!(out.status.code(), Some(1));
    let diff = String::from_utf8_lossy(&out.stdout);
    assert!(
        diff.contains("-scenario   a") && diff.contains("+scenario a {"),
        "{diff}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        messy,
        "--check wrote"
    );

    let out = cici(&["fmt", path]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        syntax::format(&messy).unwrap()
    );
    let out = cici(&["fmt", "--check", path]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());

    // A file that does not parse is reported and left as it was.
    let out = cici(&["fmt", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cici::syntax::unexpected"), "{stderr}");
    assert!(std::fs::read_to_string(&broken).unwrap().contains("titel"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The project's own seeds and starters are in the canonical layout (the
/// language reference's worked examples are three of the seeds, as they
/// are formatted).
#[test]
fn the_project_seeds_are_formatted() {
    let mut checked = 0;
    for dir in ["seeds", "templates/starters"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            let text = std::fs::read_to_string(&p).unwrap();
            assert_eq!(
                syntax::format(&text).unwrap(),
                text,
                "{} is not formatted: run `cici fmt {}`",
                p.display(),
                p.display()
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 15, "eleven seeds and four starters");
}
