//! A reader that closes the pipe early (`cici explain … | head -c1`, a
//! pager quit at once): every command that prints ends quietly with its
//! usual status, never a panic (`println!` exited 101 on EPIPE).

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::files::workspace;

/// Runs `args` in `dir` with stdout a pipe that is closed after `keep`
/// bytes (before the first write when `keep` is 0); the exit status and
/// stderr.
fn with_closed_stdout(dir: &std::path::Path, args: &[&str], keep: usize) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdout = child.stdout.take().unwrap();
    let mut first = vec![0u8; keep];
    let _ = stdout.read_exact(&mut first);
    drop(stdout);
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{args:?} hangs on a closed pipe"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().code(), err)
}

#[test]
fn every_command_that_prints_ends_quietly_on_a_closed_pipe() {
    let (dir, seed) = workspace("pipes");
    // Output the checks print: a stale build, an unformatted seed.
    let built = Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(["build", "seeds", "--out", "out"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(built.status.success());
    std::fs::write(
        dir.join("out/ops_scheduling/brief.md"),
        "stale\n".repeat(5000),
    )
    .unwrap();
    let exported = Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(["export", "inspect", "seeds", "--out", "agents"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(exported.status.success());
    let messy = std::fs::read_to_string(&seed)
        .unwrap()
        .replace("  ", "      ");
    std::fs::write(dir.join("messy.cici"), messy).unwrap();
    let commands: &[&[&str]] = &[
        &["check", "seeds"],
        &["check", "--format", "json", "seeds"],
        &["explain", "seeds/ops.cici", "eli_infusion"],
        &["fmt", "--check", "messy.cici"],
        &["fmt", "-"],
        &["build", "seeds", "--out", "out", "--check"],
        &["export", "inspect", "seeds", "--out", "agents", "--check"],
        &["stats", "seeds"],
        &["synth", "jira_allocation", "--seed", "1"],
        &["new", "meeting_allocation", "demo", "--out", "-"],
        &["man"],
        &["completions", "bash"],
        &["--help"],
    ];
    for args in commands {
        for keep in [0, 1] {
            let (code, err) = with_closed_stdout(&dir, args, keep);
            assert_ne!(code, Some(101), "{args:?} (after {keep} bytes): {err}");
            assert!(
                !err.contains("panicked"),
                "{args:?} (after {keep} bytes): {err}"
            );
        }
    }
}
