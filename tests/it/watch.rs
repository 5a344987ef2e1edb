//! `mofmu check --watch`: the binary runs on a temporary copy of a library
//! while the test edits it like an editor would (write in place, write a
//! temporary file and rename it over, delete and write again), and reads
//! what the binary prints after each save. Every wait is bounded, and the
//! child is killed when the test ends, whatever happens.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Longest wait for one expected line (debouncing takes 150 ms; a loaded
/// machine may take much longer).
const WAIT: Duration = Duration::from_secs(30);

/// A running `mofmu check --watch` whose standard output is read line by
/// line on a thread. Dropping it kills the process.
struct Watcher {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Watcher {
    fn start(paths: &[PathBuf]) -> Watcher {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mofmu"))
            .args(["check", "--watch", "--message-format", "short"])
            .args(paths)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the mofmu binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Watcher {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Reads lines until one satisfies `want`; returns the lines read.
    fn until(&mut self, what: &str, want: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut read = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    let done = want(&line);
                    read.push(line);
                    if done {
                        return read;
                    }
                }
                Err(_) => panic!(
                    "waited {WAIT:?} for {what}; the watcher printed:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Sends SIGINT, as Ctrl-C in a terminal does, and waits for the exit.
    fn interrupt(&mut self) -> std::process::ExitStatus {
        let status = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -INT failed");
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("waiting for the child") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the watcher did not stop on SIGINT; it printed:\n{}",
                self.seen.join("\n")
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("test_data/check")
        .join(name);
    std::fs::read_to_string(path).expect("fixture is readable")
}

/// Writes like an editor that saves through a temporary file.
fn save_by_rename(path: &Path, text: &str) {
    let tmp = path.with_extension("mo.tmp~");
    std::fs::write(&tmp, text).expect("temporary file is writable");
    std::fs::rename(&tmp, path).expect("rename over the original");
}

#[test]
fn watch_reports_new_and_fixed_diagnostics_of_a_file() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = dir.path().join("Lib.mo");
    let good = fixture("MC056_unconnected.ok.mo");
    let bad = good.replace("connect(c.y, g.u);", "");
    assert_ne!(good, bad, "the fixture has the connection to remove");
    std::fs::write(&file, &good).expect("writable");
    let mut w = Watcher::start(std::slice::from_ref(&file));
    w.until("the first check", |l| l == "check: clean");

    // An error appears: it is printed once in the short form.
    std::fs::write(&file, &bad).expect("writable");
    let read = w.until("the new diagnostic", |l| l.starts_with("check: "));
    assert!(
        read.iter()
            .any(|l| l.contains("error[MC056]") && !l.starts_with("fixed:")),
        "{read:?}"
    );
    assert_eq!(
        read.last().map(String::as_str),
        Some("check: 1 diagnostic (1 new, 0 fixed)")
    );

    // Fixed through a rename, as many editors save.
    save_by_rename(&file, &good);
    let read = w.until("the fix", |l| l == "check: clean");
    assert!(
        read.iter()
            .any(|l| l.starts_with("fixed: ") && l.contains("error[MC056]")),
        "{read:?}"
    );

    // Deleted mid-edit, then written again with the error.
    std::fs::remove_file(&file).expect("removable");
    w.until("the missing file", |l| l.starts_with("cannot check yet:"));
    std::fs::write(&file, &bad).expect("writable");
    w.until("the error after the file came back", |l| {
        l.contains("error[MC056]")
    });
    w.until("the summary", |l| l.starts_with("check: 1 diagnostic"));

    let status = w.interrupt();
    assert!(status.success(), "exit status on Ctrl-C: {status:?}");
    w.until("the goodbye", |l| l == "stopped");
}

#[test]
fn watch_follows_a_library_directory_recursively() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let dir = tempfile::tempdir().expect("temporary directory");
    let base = dir.path().join("Base.mo");
    std::fs::copy(root.join("Base.mo"), &base).expect("copy Base.mo");
    let thermal = dir.path().join("Thermal");
    std::fs::create_dir(&thermal).expect("create Thermal");
    for entry in std::fs::read_dir(root.join("Thermal")).expect("examples/Thermal") {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().expect("a file name").to_owned();
        std::fs::copy(&path, thermal.join(name)).expect("copy a Thermal file");
    }
    let components = thermal.join("Components.mo");
    let good = std::fs::read_to_string(&components).expect("readable");
    let mut w = Watcher::start(&[base, thermal.clone()]);
    w.until("the first check", |l| l == "check: clean");

    // An error inside the directory: a misspelt type name.
    let bad = good.replacen("SI.Temperature T = 293.15", "SI.Temprature T = 293.15", 1);
    assert_ne!(good, bad);
    std::fs::write(&components, &bad).expect("writable");
    let read = w.until("the new diagnostic", |l| l.starts_with("check: "));
    assert!(
        read.iter()
            .any(|l| l.contains("Components.mo:") && l.contains("error[MC005]")),
        "{read:?}"
    );
    std::fs::write(&components, &good).expect("writable");
    w.until("the fix", |l| l == "check: clean");
}
