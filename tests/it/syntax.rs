//! Golden tests for the lexer and parser: every `test_data/syntax/*.mo` is
//! parsed and rendered (diagnostics in short form, then the tree) and
//! compared with the `.expected` file beside it. `UPDATE_EXPECT=1` rewrites
//! the expected files; review the diff before committing.

use mofmu::diagnostic::Diagnostic;
use mofmu::source::{FileId, SourceFile};
use mofmu::syntax::{dump, parse};
use std::path::{Path, PathBuf};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/syntax")
}

fn fixtures() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .expect("test_data/syntax exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "mo"))
        .collect();
    files.sort();
    files
}

/// Check the invariants every diagnostic must keep, whatever the input.
fn assert_well_formed(text: &str, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        let (start, end) = (d.span.start as usize, d.span.end as usize);
        assert!(start <= end && end <= text.len(), "span out of text: {d:?}");
        assert!(
            text.is_char_boundary(start) && text.is_char_boundary(end),
            "span inside a character: {d:?}"
        );
        assert!(d.code.starts_with("MS"), "not a syntax code: {d:?}");
        assert!(!d.message.is_empty() && !d.label.is_empty() && !d.help.is_empty());
    }
}

/// Parse `text` and render what a golden file holds.
fn render(text: &str) -> String {
    let (definition, diagnostics) = parse(FileId(0), text);
    assert_well_formed(text, &diagnostics);
    let file = SourceFile::new("test.mo", text);
    let mut out = String::new();
    for d in &diagnostics {
        let (line, col) = file.line_col(d.span.start);
        out.push_str(&format!("{line}:{col}: error[{}]: {}\n", d.code, d.message));
    }
    if !diagnostics.is_empty() {
        out.push_str("---\n");
    }
    out.push_str(&dump(&definition));
    out
}

fn check(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).expect("fixture is readable UTF-8");
    let actual = render(&text);
    let expected_path = path.with_extension("expected");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&expected_path, &actual).expect("expected file is writable");
        return Ok(());
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if expected == actual {
        Ok(())
    } else {
        Err(format!(
            "{} differs from {}:\n--- actual ---\n{actual}",
            path.display(),
            expected_path.display()
        ))
    }
}

#[test]
fn golden_files() {
    let failures: Vec<String> = fixtures().iter().filter_map(|p| check(p).err()).collect();
    assert!(
        failures.is_empty(),
        "{} golden file(s) differ (rerun with UPDATE_EXPECT=1 to accept):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_code_has_a_fixture() {
    let names: Vec<String> = fixtures()
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    for code in [
        "MS001", "MS002", "MS003", "MS004", "MS005", "MS006", "MS007", "MS008", "MS009", "MS010",
    ] {
        assert!(
            names.iter().any(|n| n.starts_with(code)),
            "no fixture for {code}"
        );
        let fixture_reports_it = fixtures()
            .iter()
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(code))
            })
            .any(|p| {
                let text = std::fs::read_to_string(p).expect("fixture is readable");
                parse(FileId(0), &text).1.iter().any(|d| d.code == code)
            });
        assert!(
            fixture_reports_it,
            "the {code} fixture does not report {code}"
        );
    }
}

#[test]
fn recovery_reports_each_independent_error_once() {
    let text = std::fs::read_to_string(fixture_dir().join("recovery.mo")).expect("fixture");
    let (definition, diagnostics) = parse(FileId(0), &text);
    assert_eq!(diagnostics.len(), 3, "{diagnostics:#?}");
    // The three models are all still there.
    assert_eq!(definition.classes.len(), 1);
    assert!(dump(&definition).contains("model C"));
}

#[test]
fn deep_nesting_is_reported_not_overflowed() {
    for (open, close) in [("(", ")"), ("{", "}"), ("[", "]"), ("f(", ")"), ("-(", ")")] {
        let depth = 20_000;
        let text = format!(
            "model M\n  Real x = {}1{};\n  Real y;\nend M;\n",
            open.repeat(depth),
            close.repeat(depth)
        );
        let (definition, diagnostics) = parse(FileId(0), &text);
        assert_well_formed(&text, &diagnostics);
        assert_eq!(diagnostics.len(), 1, "{open}: {diagnostics:?}");
        assert_eq!(diagnostics[0].code, "MS007");
        // The element after the deep one is still parsed.
        assert!(dump(&definition).contains("Real y"));
    }
    let classes = 5_000;
    let mut text = String::new();
    for i in 0..classes {
        text.push_str(&format!("package P{i}\n"));
    }
    for i in (0..classes).rev() {
        text.push_str(&format!("end P{i};\n"));
    }
    let (_, diagnostics) = parse(FileId(0), &text);
    assert_well_formed(&text, &diagnostics);
    assert!(diagnostics.iter().any(|d| d.code == "MS007"));
    let equations = format!(
        "model M\nequation\n{}x = 1;\n{}end M;\n",
        "if c then\n".repeat(5_000),
        "end if;\n".repeat(5_000)
    );
    let (_, diagnostics) = parse(FileId(0), &equations);
    assert_well_formed(&equations, &diagnostics);
    assert!(diagnostics.iter().any(|d| d.code == "MS007"));
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const SNIPPETS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    "=",
    ":=",
    "end",
    "end for;",
    "model",
    "equation",
    "if",
    "then",
    "else",
    "for",
    "loop",
    "when",
    "\"",
    "'",
    "/*",
    "*/",
    "//",
    "1e",
    "..",
    ".*",
    "^",
    "é",
    "€",
    "\u{1F600}",
    "\0",
    "annotation(",
    "connect(",
    "initial",
    "algorithm",
    "extends",
    "import",
    "der(",
    " ",
    "\n",
    "1:",
    "end M;",
    "package",
    "protected",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let len = chars.len();
    let at = rng.below(len + 1);
    let mut out: Vec<char> = chars.clone();
    match rng.below(6) {
        0 => out.truncate(at),
        1 => {
            let to = (at + 1 + rng.below(40)).min(len);
            out.drain(at..to.max(at));
        }
        2 => {
            let snippet = SNIPPETS[rng.below(SNIPPETS.len())];
            out.splice(at..at, snippet.chars());
        }
        3 => {
            let from = rng.below(len + 1);
            let to = (from + rng.below(60)).min(len);
            let piece: Vec<char> = chars[from..to].to_vec();
            out.splice(at..at, piece);
        }
        4 => {
            for _ in 0..1 + rng.below(8) {
                if out.is_empty() {
                    break;
                }
                let i = rng.below(out.len());
                out[i] = (b' ' + rng.below(95) as u8) as char;
            }
        }
        _ => {
            let noise: String = (0..rng.below(30))
                .map(|_| SNIPPETS[rng.below(SNIPPETS.len())])
                .collect::<Vec<_>>()
                .join(" ");
            out.splice(at..at, noise.chars());
        }
    }
    out.into_iter().collect()
}

#[test]
fn mutated_inputs_never_panic_and_keep_spans_in_text() {
    let texts: Vec<String> = fixtures()
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("fixture is readable"))
        .collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..2_000 {
        let base = &texts[rng.below(texts.len())];
        let mut text = mutate(&mut rng, base);
        if round % 3 == 0 {
            text = mutate(&mut rng, &text);
        }
        let (_, diagnostics) = parse(FileId(0), &text);
        assert_well_formed(&text, &diagnostics);
        let file = SourceFile::new("mutant.mo", text.as_str());
        for d in &diagnostics {
            file.line_col(d.span.start);
            file.line_col(d.span.end);
        }
    }
}
