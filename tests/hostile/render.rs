//! Diagnostics on lines of any width render: miette 7.6's graphical handler
//! panicked ("Formatting argument out of range") on a label past column
//! 65,535, which minified JSON and multi-megabyte strings reach.

use std::process::Command;

use crate::it::common::{check, render, tempdir};

/// A seed whose unknown room stands past column 70,000 of its line.
fn wide_seed() -> String {
    let pad = "x".repeat(70_000);
    format!(
        "scenario s {{\n  family meeting_allocation\n  task \"T\" executor a\n  person a \"A\" role \"R\"\n  person b \"B\" role \"R\"\n  person c \"C\" role \"R\"\n  room r \"R\" capacity 3\n  title \"{pad}\" meeting m \"M\" {{ attendees [a] slots [mon 09:00-10:00] rooms [nowhere] }}\n  oracle {{ m -> mon 09:00-10:00 @ r }}\n}}\n"
    )
}

#[test]
fn a_label_past_column_70000_renders_in_a_window_with_ellipses() {
    let seed = wide_seed();
    let run = check("long.cici", &seed);
    assert!(run.errors() > 0);
    let shown = render(&run);
    assert!(shown.contains("nowhere"), "{shown}");
    assert!(shown.contains('…'), "the cut is marked: {shown}");
    // The header gives the file's own line and column.
    let line8 = seed.lines().nth(7).unwrap();
    let column = line8.find("nowhere").unwrap() + 1;
    assert!(shown.contains(&format!("long.cici:8:{column}]")), "{shown}");
    assert!(
        shown.lines().all(|l| l.chars().count() < 1_000),
        "a line was not cut"
    );
    // The binary, with its own handler, renders it too (no exit 101).
    let dir = tempdir("render-wide");
    let path = dir.join("long.cici");
    std::fs::write(&path, &seed).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(["check", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("nowhere") && stderr.contains('…'),
        "{stderr}"
    );
    assert!(stderr.lines().all(|l| l.chars().count() < 1_000));
}

#[test]
fn a_thousand_diagnostics_on_one_minified_json_line_render_from_excerpts() {
    // One line of 4 MB with a bad rule every few kilobytes.
    let mut rules = Vec::new();
    for i in 0..1_000 {
        rules.push(format!(
            "{{\"id\":\"r{i}\",\"when\":{{\"nope\":\"{}\"}},\"outcome\":\"x\"}}",
            "y".repeat(4_000)
        ));
    }
    let seed = format!(
        "{{\"schema_version\":\"2.1\",\"task_family\":\"t\",\"decision_policy\":{{\"rules\":[{}]}}}}",
        rules.join(",")
    );
    let dir = tempdir("render-minified");
    let path = dir.join("seed.json");
    std::fs::write(&path, &seed).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(["import", "pisas-seed", path.to_str().unwrap(), "--out"])
        .arg(dir.join("out"))
        .output()
        .unwrap();
    let code = out.status.code();
    assert!(
        matches!(code, Some(1) | Some(2)),
        "{code:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.lines().all(|l| l.chars().count() < 1_000),
        "a long line reached stderr"
    );
}
