//! `cici report`: the page has an SVG with axis labels per figure and
//! nothing to fetch, the JSON figures agree with counts taken here apart
//! from the report's code, and bad input gets its diagnostic.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use super::common::root;

fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn ok(out: &std::process::Output) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A counterfactual folder grown from three seeds: two of one family (so
/// its baselines have halves to split), one of another.
fn grown() -> &'static Path {
    static DIR: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DIR.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("cf");
        let seeds = root().join("seeds");
        let args: Vec<String> = ["payments_sprint", "security_audit", "lab_access"]
            .iter()
            .map(|s| seeds.join(format!("{s}.cici")).display().to_string())
            .chain([
                "--out".into(),
                out.display().to_string(),
                "--per-seed".into(),
                "1".into(),
            ])
            .collect();
        let mut full = vec!["counterfactual".to_string()];
        full.extend(args);
        let refs: Vec<&str> = full.iter().map(String::as_str).collect();
        ok(&run_in(tmp.path(), &refs));
        (tmp, out)
    })
    .1
}

/// Runs the report on `dir` into a fresh folder: the page and the JSON.
fn report(dir: &Path, extra: &[&str]) -> (String, Value) {
    let tmp = tempfile::tempdir().unwrap();
    let (html, json) = (tmp.path().join("r.html"), tmp.path().join("r.json"));
    let mut args = vec![
        "report",
        dir.to_str().unwrap(),
        "--out",
        html.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ];
    args.extend(extra);
    ok(&run_in(tmp.path(), &args));
    let page = std::fs::read_to_string(&html).unwrap();
    let figures = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (page, figures)
}

fn figures(report: &Value) -> Vec<&Value> {
    let families = report["families"].as_array().unwrap();
    families
        .iter()
        .flat_map(|f| f["figures"].as_array().unwrap())
        .chain(report["models"].as_array().unwrap())
        .collect()
}

fn figure<'a>(report: &'a Value, id: &str) -> &'a Value {
    figures(report)
        .into_iter()
        .find(|f| f["id"] == id)
        .unwrap_or_else(|| panic!("no figure {id}"))
}

/// Category to value, for a figure's series of that name.
fn bars(fig: &Value, series: &str) -> Vec<(String, f64)> {
    let s = fig["series"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == series)
        .unwrap();
    fig["categories"]
        .as_array()
        .unwrap()
        .iter()
        .zip(s["values"].as_array().unwrap())
        .map(|(c, v)| (c.as_str().unwrap().to_string(), v.as_f64().unwrap()))
        .collect()
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[test]
fn the_page_has_an_svg_with_axis_labels_per_figure_and_fetches_nothing() {
    let (page, json) = report(grown(), &[]);
    let figs = figures(&json);
    assert!(figs.len() >= 12, "{}", figs.len());
    assert_eq!(page.matches("<svg").count(), figs.len());
    for f in &figs {
        let id = f["id"].as_str().unwrap();
        let at = page
            .find(&format!("<figure id=\"fig-{}\">", escape(id)))
            .expect(id);
        let svg = &page[at..at + page[at..].find("</svg>").unwrap()];
        for key in ["title", "x_label", "y_label"] {
            // plotters escapes an apostrophe as `&apos;`.
            let text = escape(f[key].as_str().unwrap()).replace("&#39;", "&apos;");
            assert!(
                svg.contains(&format!(">\n{text}\n</text>")),
                "{id}: no {key} `{text}` in its SVG"
            );
        }
    }
    let lower = page.to_lowercase();
    for banned in [
        "<script",
        "<link",
        "src=",
        "url(",
        "@import",
        "href=\"http",
        "href='http",
    ] {
        assert!(!lower.contains(banned), "{banned}");
    }
    // Both families are there; the one-seed family says why it has no baselines.
    let families: Vec<&str> = json["families"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["family"].as_str().unwrap())
        .collect();
    assert_eq!(families, ["jira_allocation", "policy_decision"]);
    assert!(figs.iter().any(|f| f["id"] == "jira_allocation.baselines"));
    assert!(!figs.iter().any(|f| f["id"] == "policy_decision.baselines"));
}

/// Every row of the folder, as JSON values.
fn rows(dir: &Path) -> Vec<Value> {
    let mut out = Vec::new();
    for kind in ["decision", "flow"] {
        for e in std::fs::read_dir(dir.join(kind)).unwrap() {
            let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
            out.extend(
                text.lines()
                    .map(|l| serde_json::from_str::<Value>(l).unwrap()),
            );
        }
    }
    out
}

#[test]
fn the_figures_are_the_counts_of_the_rows_and_of_the_seeds() {
    let dir = grown();
    let (_, json) = report(dir, &[]);
    let rows = rows(dir);
    for family in ["jira_allocation", "policy_decision"] {
        let of: Vec<&Value> = rows.iter().filter(|r| r["family"] == family).collect();
        let flows: Vec<&&Value> = of.iter().filter(|r| r["kind"] == "flow").collect();
        for (series, label) in [("yes", "yes"), ("no", "no")] {
            let want: Vec<(String, f64)> = ["anchor", "flipped", "held"]
                .iter()
                .map(|s| {
                    (
                        s.to_string(),
                        flows
                            .iter()
                            .filter(|r| r[format!("{s}_answer")] == label)
                            .count() as f64,
                    )
                })
                .collect();
            assert_eq!(
                bars(figure(&json, &format!("{family}.flow_labels")), series),
                want
            );
        }
        // Edit kinds: rows whose flipped side uses each operation.
        let fig = figure(&json, &format!("{family}.edit_kinds"));
        for (op, n) in bars(fig, "flipped") {
            let want = of
                .iter()
                .filter(|r| {
                    let edits: Vec<Value> =
                        serde_json::from_str(r["flipped_edits"].as_str().unwrap()).unwrap();
                    edits.iter().any(|e| e["op"] == op.as_str())
                })
                .count();
            assert_eq!(n, want as f64, "{family} {op}");
        }
    }
    // Classes and forms, from the seeds the folder grew from, checked here.
    let mut run = cici::driver::Run::new();
    let seeds =
        ["payments_sprint", "security_audit"].map(|s| root().join(format!("seeds/{s}.cici")));
    run.check_paths(&seeds, &cici::analysis::Options::default())
        .unwrap();
    let mut classes = std::collections::BTreeMap::new();
    let (mut raw, mut sanitized) = (0.0, 0.0);
    for c in &run.checked {
        for (a, f) in c.scenario.attributes.iter().zip(&c.report.attributes) {
            *classes.entry(f.class.name().to_string()).or_insert(0.0) += 1.0;
            raw += 1.0;
            sanitized += f64::from(u8::from(a.sanitized.is_some()));
        }
    }
    let fig = figure(&json, "jira_allocation.classes");
    assert_eq!(
        bars(fig, "attributes"),
        classes.into_iter().collect::<Vec<_>>()
    );
    let fig = figure(&json, "jira_allocation.raw_sanitized");
    assert_eq!(
        bars(fig, "forms"),
        [("raw".into(), raw), ("sanitized".into(), sanitized)]
    );
}

/// A folder of one flow row whose items are cut to a few words.
fn tiny(dir: &Path) -> PathBuf {
    let source = rows(grown())
        .into_iter()
        .find(|r| r["kind"] == "flow")
        .unwrap();
    let mut row = source.clone();
    for (side, item, answer) in [
        ("anchor", "A b a b", "yes"),
        ("flipped", "c", "no"),
        ("held", "a b", "yes"),
    ] {
        row[format!("{side}_item")] = item.into();
        row[format!("{side}_answer")] = answer.into();
    }
    let out = dir.join("tiny");
    std::fs::create_dir_all(out.join("flow")).unwrap();
    std::fs::write(out.join("flow/test.jsonl"), format!("{row}\n")).unwrap();
    out
}

#[test]
fn a_hand_counted_folder_gives_its_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tiny(tmp.path());
    let (_, json) = report(&dir, &[]);
    let family = json["families"][0]["family"].as_str().unwrap().to_string();
    let labels = figure(&json, &format!("{family}.flow_labels"));
    assert_eq!(
        bars(labels, "yes"),
        [
            ("anchor".into(), 1.0),
            ("flipped".into(), 0.0),
            ("held".into(), 1.0)
        ]
    );
    assert_eq!(
        bars(labels, "no"),
        [
            ("anchor".into(), 0.0),
            ("flipped".into(), 1.0),
            ("held".into(), 0.0)
        ]
    );
    // Bigrams a-b, b-a, a-b, then a-b: 2 distinct of 4. Trigrams a-b-a,
    // b-a-b: 2 of 2. "c" has neither.
    let variety = figure(&json, &format!("{family}.distinct_n"));
    assert_eq!(
        bars(variety, "flow items"),
        [("distinct-2".into(), 0.5), ("distinct-3".into(), 1.0)]
    );
    assert_eq!(json["rows"], 1);
    assert_eq!(json["scenarios"], 1);
}

#[test]
fn logs_give_leakage_and_utility_per_model_with_wilson_intervals() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let log = |model: &str, leaks: &[f64], right: &[&str]| {
        let samples: Vec<Value> = leaks
            .iter()
            .zip(right)
            .map(|(l, u)| serde_json::json!({"scores": {"leakage": {"value": l}, "utility": {"value": u}}}))
            .collect();
        serde_json::json!({"eval": {"model": model, "task": "t"}, "samples": samples}).to_string()
    };
    std::fs::write(
        logs.join("a.json"),
        log("m/one", &[1.0, 0.0, 0.0], &["C", "C", "I"]),
    )
    .unwrap();
    std::fs::write(logs.join("b.json"), log("m/one", &[0.0], &["C"])).unwrap();
    std::fs::write(logs.join("c.json"), log("m/two", &[1.0, 1.0], &["I", "I"])).unwrap();
    let (page, json) = report(grown(), &["--logs", logs.to_str().unwrap()]);
    assert_eq!(json["logs"], 3);
    let leakage = figure(&json, "models.leakage");
    assert_eq!(
        bars(leakage, "leakage"),
        [("m/one".into(), 0.25), ("m/two".into(), 1.0)]
    );
    // Wilson 95% for 1/4: [0.0456, 0.6994] (cici_inspect.metrics.wilson).
    let lo = leakage["series"][0]["intervals"][0][0].as_f64().unwrap();
    let hi = leakage["series"][0]["intervals"][0][1].as_f64().unwrap();
    assert!(
        (lo - 0.04558).abs() < 1e-4 && (hi - 0.69936).abs() < 1e-4,
        "{lo} {hi}"
    );
    assert_eq!(
        bars(figure(&json, "models.utility"), "utility"),
        [("m/one".into(), 0.75), ("m/two".into(), 0.0)]
    );
    assert!(page.contains("<figure id=\"fig-models.leakage\">"));
}

#[test]
fn eval_logs_are_read_as_inspect_writes_them() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let fixture = root().join("tests/data/inspect/flow.eval");
    std::fs::copy(&fixture, logs.join("flow.eval")).unwrap();
    // The same model in JSON beside it: its samples are pooled with the
    // archive's.
    let more = serde_json::json!({"eval": {"model": "mockllm/model", "task": "flow"},
        "samples": [{"scores": {"yes_no": {"value": "C"}}}]});
    std::fs::write(logs.join("more.json"), more.to_string()).unwrap();
    let (page, json) = report(grown(), &["--logs", logs.to_str().unwrap()]);
    assert_eq!(json["logs"], 2);
    // flow.eval: 1 of its 3 samples right (tests/data/README.md); more.json: 1 of 1.
    let fig = figure(&json, "models.yes_no");
    assert_eq!(bars(fig, "yes_no"), [("mockllm/model".into(), 0.5)]);
    assert!(fig["note"].as_str().unwrap().contains("mockllm/model: 2/4"));
    assert!(page.contains("<figure id=\"fig-models.yes_no\">"));
}

/// A `.eval` archive with a header and one sample entry of `size` bytes,
/// deflated (a run of spaces packs small however large it claims to be).
fn eval_archive(path: &Path, size: usize) {
    use std::io::Write as _;
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("header.json", options).unwrap();
    zip.write_all(br#"{"eval": {"model": "m", "task": "t"}}"#)
        .unwrap();
    zip.start_file("samples/1_epoch_1.json", options).unwrap();
    let spaces = vec![b' '; 1 << 20];
    for _ in 0..size >> 20 {
        zip.write_all(&spaces).unwrap();
    }
    zip.write_all(b"{}").unwrap();
    zip.finish().unwrap();
}

fn diagnostic(dir: &Path, args: &[&str]) -> String {
    let out = run_in(dir, args);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn bad_input_gets_a_diagnostic_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tiny(tmp.path());
    let good = std::fs::read_to_string(dir.join("flow/test.jsonl")).unwrap();
    std::fs::write(
        dir.join("flow/test.jsonl"),
        format!("{good}{{\"id\": \"x\", \"kind\": 3}}\n"),
    )
    .unwrap();
    let bad_row = diagnostic(tmp.path(), &["report", "tiny", "--out", "r.html"]);
    std::fs::create_dir_all(tmp.path().join("empty")).unwrap();
    let empty = diagnostic(tmp.path(), &["report", "empty", "--out", "r.html"]);
    std::fs::write(dir.join("flow/test.jsonl"), &good).unwrap();
    std::fs::write(tmp.path().join("run.eval"), b"PK\x03\x04").unwrap();
    let eval = diagnostic(
        tmp.path(),
        &["report", "tiny", "--out", "r.html", "--logs", "run.eval"],
    );
    // An archive that reads, but with a sample over the bound of an entry.
    eval_archive(&tmp.path().join("big.eval"), 65 << 20);
    assert!(
        std::fs::metadata(tmp.path().join("big.eval"))
            .unwrap()
            .len()
            < 1 << 20
    );
    let big = diagnostic(
        tmp.path(),
        &["report", "tiny", "--out", "r.html", "--logs", "big.eval"],
    );
    std::fs::write(
        tmp.path().join("log.json"),
        "{\"eval\": {\"model\": \"m\"}}",
    )
    .unwrap();
    let log = diagnostic(
        tmp.path(),
        &["report", "tiny", "--out", "r.html", "--logs", "log.json"],
    );
    // A build folder whose record is cut short, a row whose seed is broken.
    std::fs::create_dir_all(tmp.path().join("build/one")).unwrap();
    std::fs::write(
        tmp.path().join("build/one/scenario.json"),
        "{\"id\": \"one\",\n \"family\": ",
    )
    .unwrap();
    let record = diagnostic(tmp.path(), &["report", "build", "--out", "r.html"]);
    let mut row: Value = serde_json::from_str(good.trim()).unwrap();
    row["anchor_seed"] = "scenario broken {".into();
    std::fs::write(dir.join("flow/test.jsonl"), format!("{row}\n")).unwrap();
    let seed = diagnostic(tmp.path(), &["report", "tiny", "--out", "r.html"]);
    assert!(!tmp.path().join("r.html").exists());
    for (text, code) in [
        (&bad_row, "cici::report::bad_row"),
        (&empty, "cici::report::not_an_output"),
        (&eval, "cici::report::bad_eval"),
        (&big, "cici::report::eval_too_large"),
        (&log, "cici::report::bad_log"),
        (&record, "cici::report::bad_scenario"),
        (&seed, "cici::report::bad_seed"),
    ] {
        assert!(
            text.contains(code) && text.contains("\nhelp: "),
            "{code}: {text}"
        );
    }
    insta::assert_snapshot!(
        "report_diagnostics",
        [bad_row, empty, eval, big, log, record, seed].join("\n")
    );
    // A log that is not there cannot be read: an I/O error, exit 2.
    std::fs::write(dir.join("flow/test.jsonl"), &good).unwrap();
    let out = run_in(
        tmp.path(),
        &[
            "report",
            "tiny",
            "--out",
            "r.html",
            "--logs",
            "nowhere.json",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("cici::report::unreadable") && err.contains("nowhere.json"),
        "{err}"
    );
    assert!(!tmp.path().join("r.html").exists());
}
