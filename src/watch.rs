//! `mofmu check --watch`: re-checks the libraries whenever a file under
//! the given paths is saved, and prints what changed since the last check
//! (new diagnostics, fixed ones, or that the libraries are clean).
//!
//! This is part of the binary, not of the library: it is all I/O. Files
//! are watched through their parent directory, so an editor that saves by
//! writing a temporary file and renaming it over the original, or a file
//! that is deleted and written again, keeps being watched. Directories
//! are watched recursively and watched again if they are deleted and come
//! back. Events are debounced so that one save gives one re-check, and a
//! re-check goes through a `CheckSession`, so that only the classes an
//! edit can have changed are checked again.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, Result};
use notify_debouncer_full::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};

use mofmu::diagnostic::Diagnostic;
use mofmu::library::Library;
use mofmu::loader::load_paths;
use mofmu::session::CheckSession;

/// How long the file system must be quiet before a re-check: editors write
/// a file in several steps, which should count as one save.
const DEBOUNCE: Duration = Duration::from_millis(150);

/// How diagnostics are printed: one `path:line:col:` line each (to stdout,
/// for editors) or rendered with their source lines (to stderr).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Human,
    Short,
}

enum Message {
    Files(DebounceEventResult),
    Interrupted,
}

/// A diagnostic as remembered between two checks: identified by its file,
/// code, message and the text of the line at fault, not by its position,
/// so that inserting a line above it does not make it "new".
type Key = (String, &'static str, String, String);

/// What one check reported: each diagnostic by key, with its short form.
type Seen = BTreeMap<Key, String>;

/// Watches `paths` until Ctrl-C; returns success then.
pub fn watch(paths: &[PathBuf], format: Format, check_units: bool) -> Result<ExitCode> {
    let (send, receive) = mpsc::channel();
    let interrupt = send.clone();
    ctrlc::set_handler(move || {
        let _ = interrupt.send(Message::Interrupted);
    })
    .context("installing the Ctrl-C handler")?;
    let files = send;
    let mut debouncer = new_debouncer(DEBOUNCE, None, move |result: DebounceEventResult| {
        let _ = files.send(Message::Files(result));
    })
    .context("starting the file watcher")?;
    let targets: Vec<Target> = paths.iter().map(|p| Target::new(p)).collect();
    for t in &targets {
        t.watch(&mut debouncer)?;
    }
    let mut out = Output { format };
    out.line(&format!(
        "watching {} path{} (Ctrl-C to stop)",
        paths.len(),
        if paths.len() == 1 { "" } else { "s" }
    ));
    let mut session = CheckSession::new();
    let mut previous = check(&mut session, paths, check_units, &mut out, &Seen::new());
    while let Ok(message) = receive.recv() {
        match message {
            Message::Interrupted => break,
            Message::Files(Err(errors)) => {
                for e in errors {
                    out.line(&format!("watch error: {e}"));
                }
            }
            Message::Files(Ok(events)) => {
                // Reading a file is an access event too: ignoring those
                // keeps our own re-check from triggering the next one.
                let changed: BTreeSet<PathBuf> = events
                    .into_iter()
                    .filter(|e| !e.kind.is_access())
                    .flat_map(|e| e.event.paths)
                    .filter(|p| targets.iter().any(|t| t.concerns(p)))
                    .collect();
                if changed.is_empty() {
                    continue;
                }
                for t in &targets {
                    t.watch_again(&mut debouncer);
                }
                for p in &changed {
                    out.line(&format!("changed: {}", p.display()));
                }
                previous = check(&mut session, paths, check_units, &mut out, &previous);
            }
        }
    }
    out.line("stopped");
    Ok(ExitCode::SUCCESS)
}

/// One path given on the command line.
struct Target {
    path: PathBuf,
    /// The directory watched for it: the parent of a file, the directory
    /// itself otherwise.
    dir: PathBuf,
    is_dir: bool,
}

impl Target {
    fn new(path: &Path) -> Target {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let is_dir = path.is_dir();
        let dir = if is_dir {
            path.clone()
        } else {
            match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            }
        };
        Target { path, dir, is_dir }
    }

    fn watch(&self, debouncer: &mut Debouncer<RecommendedWatcher, RecommendedCache>) -> Result<()> {
        let mode = if self.is_dir {
            RecursiveMode::Recursive
        } else {
            RecursiveMode::NonRecursive
        };
        debouncer
            .watch(&self.dir, mode)
            .with_context(|| format!("watching {}", self.dir.display()))?;
        // The parent of a library directory is watched too, so that the
        // directory being deleted and created again is noticed.
        if self.is_dir {
            if let Some(parent) = self.dir.parent() {
                let _ = debouncer.watch(parent, RecursiveMode::NonRecursive);
            }
        }
        Ok(())
    }

    /// After a directory was removed and created again, its old watch is
    /// gone; watching it again is harmless when it is still in place.
    fn watch_again(&self, debouncer: &mut Debouncer<RecommendedWatcher, RecommendedCache>) {
        if self.is_dir && self.dir.is_dir() {
            let _ = debouncer.unwatch(&self.dir);
            let _ = debouncer.watch(&self.dir, RecursiveMode::Recursive);
        }
    }

    /// Whether a changed path can change the result of checking this
    /// target: the file itself, or anything inside the directory (editor
    /// swap files next to a watched file are ignored).
    fn concerns(&self, changed: &Path) -> bool {
        if self.is_dir {
            changed.starts_with(&self.dir)
        } else {
            changed == self.path
        }
    }
}

struct Output {
    format: Format,
}

impl Output {
    fn line(&mut self, text: &str) {
        match self.format {
            Format::Short => {
                let mut o = std::io::stdout().lock();
                let _ = writeln!(o, "{text}");
                let _ = o.flush();
            }
            Format::Human => eprintln!("{text}"),
        }
    }
}

/// Checks once and prints the difference to `previous`; returns what was
/// seen this time.
fn check(
    session: &mut CheckSession,
    paths: &[PathBuf],
    check_units: bool,
    out: &mut Output,
    previous: &Seen,
) -> Seen {
    // A file may be missing or half-written in the middle of an edit:
    // say so and wait for the next save, keeping what was seen before.
    let files = match load_paths(paths) {
        Ok(files) => files,
        Err(e) => {
            out.line(&format!("cannot check yet: {e}"));
            return previous.clone();
        }
    };
    let diags = session.check(files, check_units);
    let lib = session.library().expect("a library was just checked");
    let mut current = Seen::new();
    let mut new = 0;
    for d in &diags {
        let key = key(lib, d);
        let short = d.render_short(&lib.sources);
        if !previous.contains_key(&key) && !current.contains_key(&key) {
            new += 1;
            match out.format {
                Format::Short => out.line(&short),
                Format::Human => {
                    let color = std::io::IsTerminal::is_terminal(&std::io::stderr());
                    eprint!("{}", d.render_human(&lib.sources, color));
                }
            }
        }
        current.insert(key, short);
    }
    let mut fixed = 0;
    for (key, short) in previous {
        if !current.contains_key(key) {
            fixed += 1;
            out.line(&format!("fixed: {short}"));
        }
    }
    if current.is_empty() {
        out.line("check: clean");
    } else {
        out.line(&format!(
            "check: {} diagnostic{} ({new} new, {fixed} fixed)",
            current.len(),
            if current.len() == 1 { "" } else { "s" },
        ));
    }
    // The result is out: now is the time to free the check before it.
    session.release_previous();
    current
}

fn key(lib: &Library, d: &Diagnostic) -> Key {
    let file = lib.sources.get(d.span.file);
    let (line, _) = file.line_col(d.span.start);
    let line_text = file.text.lines().nth(line - 1).unwrap_or("").trim();
    (
        file.name.clone(),
        d.code,
        d.message.clone(),
        line_text.to_string(),
    )
}
