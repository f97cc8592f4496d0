//! A reader that goes away (`cici man | head -c1`): every command that
//! prints ends quietly, with the status it would have had, never with a
//! panic (status 101).

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

use crate::it::common::{root, source_files, tempdir};

/// Every command that prints on stdout, with arguments that make it print
/// (and, for the `--check` ones, print a diff).
fn printing_commands(dir: &Path) -> Vec<Vec<String>> {
    let seed = root().join("seeds/ops_scheduling.cici");
    let seed = seed.to_str().unwrap();
    let unformatted = dir.join("unformatted.cici");
    let text = std::fs::read_to_string(seed).unwrap();
    std::fs::write(&unformatted, text.replace("\n  ", "\n    ")).unwrap();
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let mut commands: Vec<Vec<&str>> = vec![
        vec!["check", seed],
        vec!["check", "--timings", seed],
        vec!["check", "--format", "json", seed],
        vec!["check", "--format", "json", "--no-such-flag"],
        vec!["explain", seed, "eli_hvac"],
        vec!["fmt", "-"],
        vec!["stats", seed],
        vec!["stats", "--format", "json", seed],
        vec!["synth", "jira_allocation"],
        vec!["new", "jira_allocation", "starter", "--out", "-"],
        vec!["man"],
        vec!["--help"],
        vec!["check", "--help"],
        vec!["--version"],
    ];
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        commands.push(vec!["completions", shell]);
    }
    let mut owned: Vec<Vec<String>> = commands
        .into_iter()
        .map(|c| c.into_iter().map(str::to_string).collect())
        .collect();
    let seed = seed.to_string();
    let unformatted = unformatted.to_str().unwrap().to_string();
    owned.push(vec!["fmt".into(), "--check".into(), unformatted]);
    for (command, folder) in [
        (vec!["build"], "build"),
        (vec!["export", "inspect"], "inspect"),
        (vec!["export", "pisas"], "pisas"),
    ] {
        let mut c: Vec<String> = command.into_iter().map(str::to_string).collect();
        c.extend(["--check".into(), "--out".into(), out(folder), seed.clone()]);
        owned.push(c);
    }
    owned.push(vec![
        "counterfactual".into(),
        seed,
        "--out".into(),
        out("counterfactuals"),
    ]);
    owned
}

/// Runs `cici` with `stdout` as its standard output, feeding an
/// unformatted seed to `fmt -`; the exit status and stderr.
fn run_into(args: &[String], stdout: Stdio, read_one: bool) -> (Option<i32>, String) {
    let stdin = if args[0] == "fmt" && args[1] == "-" {
        Stdio::from(std::fs::File::open(root().join("seeds/ops_scheduling.cici")).unwrap())
    } else {
        Stdio::null()
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if read_one {
        // Read one byte (when there is one), then hang up.
        if let Some(mut out) = child.stdout.take() {
            let _ = out.read(&mut [0u8]);
        }
    }
    let mut stderr = child.stderr.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        let _ = tx.send(text);
    });
    let text = rx
        .recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("`cici {}` ended", args.join(" ")));
    let status = child.wait().unwrap();
    (status.code(), text)
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    let dir = tempdir("pipes");
    for args in printing_commands(&dir) {
        let what = format!("cici {}", args.join(" "));
        let (want, _) = run_into(&args, Stdio::null(), false);
        // Closed before the command writes a byte, and after one byte.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let closed = run_into(&args, Stdio::from(writer), false);
        let one_byte = run_into(&args, Stdio::piped(), true);
        for (code, stderr) in [closed, one_byte] {
            assert!(!stderr.contains("panicked"), "{what}: {stderr}");
            assert_eq!(code, want, "{what}: {stderr}");
        }
    }
}

/// `print!` and `println!` panic when stdout is closed: the sources write
/// through `cli::output` or handle the error themselves.
#[test]
fn no_source_prints_with_a_macro_that_panics() {
    // `eprint!` and `eprintln!` write to stderr, which is not the pipe.
    let panicking = |code: &str| {
        ["print!(", "println!("].iter().any(|m| {
            code.match_indices(m)
                .any(|(at, _)| !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        })
    };
    for path in source_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            assert!(!panicking(code), "{}:{}: {line}", path.display(), i + 1);
        }
    }
}
