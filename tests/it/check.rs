//! Golden tests for the compliance diagnostics (MC…, MX…): every
//! `test_data/check/*.mo` is loaded as a one-file library, checked with
//! `check_library`, and, when its first lines say `// export: Pkg.Model`,
//! exported with `export_model` as well (`// set: path=value` lines add
//! `--set` overrides).
//!
//! * A failing fixture `CODE_name.mo` must report exactly the diagnostics of
//!   `CODE_name.expected` (short form), among them its own `CODE`.
//! * Its passing twin `CODE_name.ok.mo` must report nothing (and export).
//! * The line at fault carries a marker comment `// <- CODE`: every
//!   diagnostic must start on a line marked with its code, and every marker
//!   must be hit.
//! * Every diagnostic has a message, a label and a help line.
//! * Every `"MC…"`/`"MX…"` code literal in `src/` has a failing fixture and
//!   a passing twin, so a new code without fixtures fails this test.
//!
//! `UPDATE_EXPECT=1` rewrites the `.expected` files; review the diff.

use mofmu::diagnostic::Diagnostic;
use mofmu::export::{export_model, ExportError};
use mofmu::instantiate::{SetLiteral, SetValue};
use mofmu::library::{check_library, load_library};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/check")
}

fn fixtures() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .expect("test_data/check exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "mo"))
        .collect();
    files.sort();
    files
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .expect("a fixture has a file name")
        .to_string_lossy()
        .into_owned()
}

fn is_twin(path: &Path) -> bool {
    file_name(path).ends_with(".ok.mo")
}

/// The code a fixture is named after: `MC021` for `MC021_twice.mo`.
fn fixture_code(path: &Path) -> String {
    file_name(path)
        .split('_')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Directives in the leading comment lines of a fixture.
struct Directives {
    export: Option<String>,
    sets: Vec<SetValue>,
}

fn directives(text: &str) -> Directives {
    let mut d = Directives {
        export: None,
        sets: Vec::new(),
    };
    for line in text.lines() {
        let Some(comment) = line.trim().strip_prefix("//") else {
            break;
        };
        let comment = comment.trim();
        if let Some(model) = comment.strip_prefix("export:") {
            d.export = Some(model.trim().to_string());
        } else if let Some(set) = comment.strip_prefix("set:") {
            let (path, value) = set.split_once('=').expect("`// set: path=value`");
            d.sets.push(SetValue {
                path: path.trim().to_string(),
                value: SetLiteral::parse(value).expect("a value after `=`"),
            });
        }
    }
    d
}

/// The result of running one fixture through the pipeline.
struct Outcome {
    diagnostics: Vec<Diagnostic>,
    rendered: String,
    /// Whether an export was asked for and succeeded.
    exported: Option<bool>,
    /// Diagnostics that break the invariants of the one diagnostic shape.
    malformed: Vec<String>,
}

fn run(path: &Path) -> Outcome {
    let text = std::fs::read_to_string(path).expect("fixture is readable UTF-8");
    let name = file_name(path);
    let lib = load_library(vec![(name.clone(), text.clone())]);
    let mut diagnostics = check_library(&lib);
    let dirs = directives(&text);
    let mut exported = None;
    if let Some(model) = &dirs.export {
        match export_model(&lib, model, &dirs.sets, 1.0) {
            Ok(_) => {
                assert!(
                    diagnostics.is_empty(),
                    "{name}: a library with diagnostics was exported"
                );
                exported = Some(true);
            }
            Err(e @ (ExportError::UnknownModel(_) | ExportError::NotAModel { .. })) => {
                panic!("{name}: {e}")
            }
            Err(ExportError::Diagnostics(ds)) => {
                assert!(!ds.is_empty(), "{name}: export failed without a diagnostic");
                for d in ds {
                    if !diagnostics.contains(&d) {
                        diagnostics.push(d);
                    }
                }
                exported = Some(false);
            }
        }
    }
    let mut rendered = String::new();
    let mut malformed = Vec::new();
    for d in &diagnostics {
        if let Err(e) = well_formed(&name, &text, d) {
            malformed.push(e);
        }
        rendered.push_str(&d.render_short(&lib.sources));
        rendered.push('\n');
    }
    Outcome {
        diagnostics,
        rendered,
        exported,
        malformed,
    }
}

fn well_formed(name: &str, text: &str, d: &Diagnostic) -> Result<(), String> {
    let (start, end) = (d.span.start as usize, d.span.end as usize);
    if !(start <= end && end <= text.len()) {
        return Err(format!("{name}: span out of the file: {d:?}"));
    }
    if !(text.is_char_boundary(start) && text.is_char_boundary(end)) {
        return Err(format!("{name}: span inside a character: {d:?}"));
    }
    if d.message.is_empty() || d.label.is_empty() || d.help.is_empty() {
        return Err(format!(
            "{name}: {} needs a message, a label and a help line: {d:?}",
            d.code
        ));
    }
    Ok(())
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: u32) -> usize {
    text[..(offset as usize).min(text.len())]
        .bytes()
        .filter(|b| *b == b'\n')
        .count()
        + 1
}

/// `line -> codes` from the `// <- CODE CODE` markers of a fixture.
fn markers(text: &str) -> BTreeMap<usize, Vec<String>> {
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if let Some((_, codes)) = line.split_once("// <-") {
            let codes: Vec<String> = codes
                .split_whitespace()
                .take_while(|w| is_code(w))
                .map(str::to_string)
                .collect();
            out.insert(i + 1, codes);
        }
    }
    out
}

fn is_code(w: &str) -> bool {
    w.len() == 5
        && w.starts_with('M')
        && matches!(w.as_bytes()[1], b'C' | b'X' | b'S')
        && w[2..].bytes().all(|b| b.is_ascii_digit())
}

fn check_fixture(path: &Path) -> Result<(), String> {
    let name = file_name(path);
    let text = std::fs::read_to_string(path).expect("fixture is readable UTF-8");
    let outcome = run(path);
    if !outcome.malformed.is_empty() {
        return Err(outcome.malformed.join("\n"));
    }
    if is_twin(path) {
        if !outcome.diagnostics.is_empty() {
            return Err(format!(
                "{name}: a passing twin reported:\n{}",
                outcome.rendered
            ));
        }
        if outcome.exported == Some(false) {
            return Err(format!("{name}: the export failed"));
        }
        return Ok(());
    }
    let code = fixture_code(path);
    let expected_path = path.with_extension("expected");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&expected_path, &outcome.rendered).expect("expected file is writable");
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if expected != outcome.rendered {
        return Err(format!(
            "{name} differs from its .expected:\n--- actual ---\n{}",
            outcome.rendered
        ));
    }
    if !outcome.diagnostics.iter().any(|d| d.code == code) {
        return Err(format!("{name}: no {code} diagnostic was reported"));
    }
    if outcome.exported == Some(true) {
        return Err(format!("{name}: a failing fixture was exported"));
    }
    // Each diagnostic starts on a line marked with its code, and each
    // marker is hit by a diagnostic.
    let marks = markers(&text);
    let mut hit: BTreeSet<(usize, String)> = BTreeSet::new();
    for d in &outcome.diagnostics {
        let line = line_of(&text, d.span.start);
        let ok = marks
            .get(&line)
            .is_some_and(|codes| codes.iter().any(|c| c == d.code));
        if !ok {
            return Err(format!(
                "{name}: {} is reported on line {line}, which has no `// <- {}` marker ({})",
                d.code, d.code, d.message
            ));
        }
        hit.insert((line, d.code.to_string()));
    }
    for (line, codes) in &marks {
        for c in codes {
            if !hit.contains(&(*line, c.clone())) {
                return Err(format!("{name}: line {line} expects {c}, not reported"));
            }
        }
    }
    Ok(())
}

#[test]
fn golden_files() {
    let files = fixtures();
    assert!(!files.is_empty(), "no fixtures in test_data/check");
    let failures: Vec<String> = files
        .iter()
        .filter_map(|p| check_fixture(p).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} fixtures failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_failing_fixture_has_a_passing_twin() {
    for path in fixtures().iter().filter(|p| !is_twin(p)) {
        let twin = path.with_extension("ok.mo");
        assert!(twin.exists(), "{} has no passing twin", file_name(path));
    }
    for path in fixtures().iter().filter(|p| is_twin(p)) {
        let name = file_name(path);
        let failing = fixture_dir().join(name.replace(".ok.mo", ".mo"));
        assert!(failing.exists(), "{name} is a twin of nothing");
    }
}

/// Codes of the compliance and export phases written in `src/`.
fn code_inventory() -> BTreeSet<String> {
    fn walk(dir: &Path, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).expect("src is readable") {
            let path = entry.expect("readable directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("source is UTF-8");
                for (i, _) in text.match_indices("\"M") {
                    let Some(w) = text.get(i + 1..i + 6) else {
                        continue;
                    };
                    let closed = text.as_bytes().get(i + 6) == Some(&b'"');
                    if closed && is_code(w) && !w.starts_with("MS") {
                        out.insert(w.to_string());
                    }
                }
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut out);
    out
}

/// Codes that no input can reach through the public entry points today,
/// each with the reason. They stay in `src/` as defensive diagnostics.
const UNREACHABLE: &[(&str, &str)] = &[];

#[test]
fn every_code_has_fixtures() {
    let mut inventory = code_inventory();
    for (code, _why) in UNREACHABLE {
        assert!(
            inventory.remove(*code),
            "{code} is listed as unreachable but src/ no longer has it"
        );
    }
    assert!(
        inventory.len() > 50,
        "the inventory looks wrong: {inventory:?}"
    );
    let files = fixtures();
    let failing: BTreeSet<String> = files
        .iter()
        .filter(|p| !is_twin(p))
        .map(|p| fixture_code(p))
        .collect();
    let missing: Vec<&String> = inventory.iter().filter(|c| !failing.contains(*c)).collect();
    assert!(
        missing.is_empty(),
        "codes without a fixture in test_data/check: {missing:?}"
    );
    let stale: Vec<&String> = failing.iter().filter(|c| !inventory.contains(*c)).collect();
    assert!(
        stale.is_empty(),
        "fixtures for codes that src/ no longer emits: {stale:?}"
    );
}

/// Real non-compliant input (`test_data/check/real/*.mo`): libraries in the
/// plain acausal style and files in the style of the Modelica compliance
/// suite. Each says `// first: CODE`; its first diagnostic must have that
/// code, on a line marked `// <- CODE`, and the whole short output must
/// match `<name>.expected` (rewritten with `UPDATE_EXPECT=1`).
#[test]
fn real_inputs_give_their_first_diagnostic() {
    let dir = fixture_dir().join("real");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("test_data/check/real exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "mo"))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "real inputs are missing: {files:?}");
    let mut failures = Vec::new();
    for path in &files {
        let name = file_name(path);
        let text = std::fs::read_to_string(path).expect("fixture is readable UTF-8");
        let first = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("// first:"))
            .map(|c| c.trim().to_string())
            .unwrap_or_else(|| panic!("{name} has no `// first: CODE` line"));
        let outcome = run(path);
        if !outcome.malformed.is_empty() {
            failures.push(outcome.malformed.join("\n"));
            continue;
        }
        let expected_path = path.with_extension("expected");
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(&expected_path, &outcome.rendered).expect("expected file is writable");
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != outcome.rendered {
            failures.push(format!(
                "{name} differs from its .expected:\n{}",
                outcome.rendered
            ));
        }
        let Some(d) = outcome.diagnostics.first() else {
            failures.push(format!("{name}: no diagnostic, expected {first} first"));
            continue;
        };
        let line = line_of(&text, d.span.start);
        let marked = markers(&text)
            .get(&line)
            .is_some_and(|codes| codes.contains(&first));
        if d.code != first || !marked {
            failures.push(format!(
                "{name}: first diagnostic is {} on line {line} ({}), expected {first} on a line marked `// <- {first}`",
                d.code, d.message
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `check` finds every compliance fault that `export` would: every class of
/// every fixture and bundled library that checks clean exports without an
/// `MC…` diagnostic (export-only `MX…` codes are about the chosen model and
/// its options: sizes, `--set`, its own unset parameters or connectors).
#[test]
fn check_finds_every_compliance_fault_export_finds() {
    use mofmu::syntax::ast::{ClassBody, ClassKind};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut libraries: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for dir in [fixture_dir(), fixture_dir().join("real")] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("fixture directory exists")
            .map(|e| e.expect("readable directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "mo"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).expect("fixture is readable UTF-8");
            libraries.push((file_name(&path), vec![(file_name(&path), text)]));
        }
    }
    let examples = |paths: &[&str]| -> Vec<(String, String)> {
        let paths: Vec<PathBuf> = paths.iter().map(|p| root.join(p)).collect();
        mofmu::loader::load_paths(&paths).expect("bundled libraries load")
    };
    libraries.push((
        "Signals".into(),
        examples(&["examples/Base.mo", "examples/Signals.mo"]),
    ));
    libraries.push((
        "Thermal".into(),
        examples(&["examples/Base.mo", "examples/Thermal"]),
    ));
    libraries.push((
        "Planar".into(),
        examples(&["examples/Base.mo", "examples/Signals.mo", "examples/Planar"]),
    ));
    libraries.push((
        "EnergyFlows".into(),
        examples(&[
            "examples/Base.mo",
            "examples/Signals.mo",
            "examples/Thermal",
            "examples/EnergyFlows",
        ]),
    ));
    libraries.push(("Mechanical".into(), examples(&["examples/Mechanical.mo"])));
    libraries.push((
        "ThermoFluidStream".into(),
        examples(&[
            "examples/Base.mo",
            "examples/Signals.mo",
            "examples/Thermal",
            "examples/ThermoFluidStream",
        ]),
    ));

    let mut clean = 0;
    let mut exported_classes = 0;
    let mut missed = Vec::new();
    for (name, files) in libraries {
        let lib = load_library(files);
        if !check_library(&lib).is_empty() {
            continue;
        }
        clean += 1;
        for node in &lib.tree.classes {
            let exportable = matches!(node.def.kind, ClassKind::Model | ClassKind::Block)
                && node.def.prefixes.partial.is_none()
                && !matches!(node.def.body, ClassBody::Short(_))
                && !mofmu::resolve::elaborate::is_linear_response(node);
            if !exportable {
                continue;
            }
            exported_classes += 1;
            if let Err(ExportError::Diagnostics(ds)) = export_model(&lib, &node.qualified, &[], 1.0)
            {
                for d in ds.iter().filter(|d| d.code.starts_with("MC")) {
                    missed.push(format!(
                        "{name}: export of {} found {} that check did not: {}",
                        node.qualified, d.code, d.message
                    ));
                }
            }
        }
    }
    assert!(clean > 80, "only {clean} libraries check clean");
    assert!(
        exported_classes > 200,
        "only {exported_classes} classes exported"
    );
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// One pass builds each class's artifact once, and an export goes on with
/// it: per check of every example library, and per export of each of its
/// example models afterwards from the check's database, every class is
/// elaborated, causalised and unit-checked at most once and its kernel
/// generated at most once; export adds none of the first three and
/// generates in that database every kernel it writes.
#[test]
fn each_class_is_compiled_once_per_check_and_export() {
    use mofmu::classdb::{ClassDb, Work};
    use mofmu::export::export_checked;
    use mofmu::fmu::description::table::Interfaces;
    use mofmu::library::check_library_into;
    use mofmu::resolve::ClassId;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for libraries in [
        &["examples/Base.mo", "examples/Thermal"][..],
        &["examples/Base.mo", "examples/Signals.mo"],
        &["examples/Base.mo", "examples/Signals.mo", "examples/Planar"],
        &[
            "examples/Base.mo",
            "examples/Signals.mo",
            "examples/Thermal",
            "examples/EnergyFlows",
        ],
        &["examples/Mechanical.mo"],
    ] {
        let paths: Vec<PathBuf> = libraries.iter().map(|p| root.join(p)).collect();
        let lib = load_library(mofmu::loader::load_paths(&paths).expect("the examples load"));
        let name = |id: &ClassId| lib.tree.get(*id).qualified.clone();
        let at_most_once = |work: &BTreeMap<ClassId, Work>, after: &str| {
            for (id, w) in work {
                for (what, n) in [
                    ("elaborated", w.elaborated),
                    ("causalised", w.causalized),
                    ("unit-checked", w.unit_checked),
                    ("given a kernel", w.kernel_generated),
                ] {
                    assert!(
                        n <= 1,
                        "{libraries:?}: after {after}, {} was {what} {n} times",
                        name(id)
                    );
                }
            }
        };
        let mut db = ClassDb::new(&lib.tree, &lib.sources);
        let diags = check_library_into(&lib, true, &mut db);
        assert!(diags.is_empty(), "{libraries:?}: {diags:?}");
        let checked = db.work();
        let causalised = checked.values().filter(|w| w.causalized == 1).count();
        assert!(
            causalised >= 5,
            "{libraries:?}: only {causalised} classes compiled"
        );
        at_most_once(&checked, "the check");
        assert!(
            checked.values().all(|w| w.kernel_generated == 0),
            "{libraries:?}: the check generated a kernel"
        );
        let mut written = BTreeSet::new();
        for node in &lib.tree.classes {
            if node.qualified.contains(".Examples.")
                && node.def.prefixes.partial.is_none()
                && node.def.kind == mofmu::syntax::ast::ClassKind::Model
            {
                let out =
                    export_checked(&lib, &mut db, &node.qualified, &[], 1.0, Interfaces::BOTH)
                        .unwrap_or_else(|e| panic!("{}: {e:?}", node.qualified));
                assert!(
                    out.kernels.iter().any(|k| k.qualified == node.qualified),
                    "{}: no kernel of its own",
                    node.qualified
                );
                written.extend(out.kernels.iter().map(|k| k.qualified.clone()));
            }
        }
        assert!(!written.is_empty(), "{libraries:?} has no example models");
        let exported = db.work();
        at_most_once(&exported, "the check and every export");
        for (id, w) in &exported {
            let before = checked.get(id).copied().unwrap_or_default();
            assert_eq!(
                (w.elaborated, w.causalized, w.unit_checked),
                (before.elaborated, before.causalized, before.unit_checked),
                "{libraries:?}: export did again what the check did for {}",
                name(id)
            );
        }
        let generated: BTreeSet<String> = exported
            .iter()
            .filter(|(_, w)| w.kernel_generated == 1)
            .map(|(id, _)| name(id))
            .collect();
        assert_eq!(
            generated, written,
            "{libraries:?}: kernels not taken from the check's database"
        );
    }
}

/// The syntax-level check phase (`check::check_file`) of one file: the
/// parse diagnostics and the compliance ones.
fn check_phase(text: &str) -> Vec<Diagnostic> {
    let (def, mut diags) = mofmu::syntax::parse(mofmu::source::FileId(0), text);
    diags.extend(mofmu::check::check_file(&def));
    diags
}

fn repo_file(relative: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(relative))
        .unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// Each event form the methodology writes otherwise is MC116 at its line:
/// `terminal()`, the event `sample(start, interval)`, a `when` on it (a
/// `when` on a clock is MC183); its help line shows the form to write
/// (DESIGN §2.2b, §2.2c).
#[test]
fn each_discrete_form_is_refused_with_its_clocked_form() {
    let name = "MC116_forms.mo";
    let text = repo_file(&format!("test_data/check/{name}"));
    let lib = load_library(vec![(name.to_string(), text.clone())]);
    let diags = check_library(&lib);
    // (line, the help line's form). `pre`, `edge`, `change`, `initial()`,
    // `reinit` and a `when` on a condition are admitted (DESIGN §2.2c).
    let expected: [(usize, &str); 3] = [
        (7, "`terminal()` has no form under the methodology"),
        (8, "the event `sample(0, Ts)` is the clock `Clock(Ts)`"),
        (9, "is `y = f(sample(x, Clock(Ts)));`, `pre(y)` is `previous(y)`, and continuous-time equations read `hold(y)`"),
    ];
    assert_eq!(diags.len(), expected.len(), "{diags:#?}");
    for (d, (line, help)) in diags.iter().zip(expected) {
        assert_eq!(d.code, "MC116");
        assert_eq!(line_of(&text, d.span.start), line, "{d:?}");
        assert!(d.help.contains(help), "line {line}: {d:?}");
        assert!(
            d.help.contains("docs/language.md"),
            "line {line}: the help names the docs: {}",
            d.help
        );
        assert!(d.suggestions.is_empty(), "line {line}: no fix: {d:?}");
    }
}

/// The clocked built-ins pass the check phase: the snippets of the clocked
/// language and every built-in (`Clock` of an interval and of a counter
/// and resolution, a named clock, `subSample`, `superSample`, `hold`,
/// `previous`, `interval()`, `firstTick()`); the event form
/// `sample(start, interval)` does not, whether its interval is a literal, an
/// expression or a parameter the class declares.
#[test]
fn clocked_builtins_pass_the_check_phase() {
    let text = repo_file("test_data/clocked_fix/ClockedForms.mo");
    let diags = check_phase(&text);
    assert!(diags.is_empty(), "{diags:#?}");
    for (equation, refused) in [
        ("y = sample(x, Clock(Ts));", false),
        ("y = sample(x, c);", false),
        ("y = sample(x, subSample(c, 2));", false),
        ("y = sample(x, superSample(Clock(1, 100), 2));", false),
        ("y = if sample(0, Ts) then 1 else 0;", true),
        ("y = if sample(0, 0.1) then 1 else 0;", true),
        ("y = if sample(0, 2*Ts) then 1 else 0;", true),
    ] {
        let model = format!(
            "model M\n  parameter Real Ts = 0.1;\n  Clock c = Clock(Ts);\n  Real x = time, y;\nequation\n  {equation}\nend M;\n"
        );
        let diags = check_phase(&model);
        let mc116 = diags.iter().filter(|d| d.code == "MC116").count();
        assert_eq!(mc116, usize::from(refused), "{equation}: {diags:#?}");
        if refused {
            assert_eq!(line_of(&model, diags[0].span.start), 6, "{equation}");
            assert!(
                diags[0].help.contains("Clock(Ts)"),
                "{equation}: {:?}",
                diags[0]
            );
        }
    }
}

/// `check --fix` rewrites the periodic `when`s of `WhenSample.mo` as
/// clocked partitions: the fixed text is `WhenSample.fixed.mo` (with
/// `UPDATE_EXPECT=1` rewritten), it passes the check phase, and nothing
/// of MC116 is left.
#[test]
fn check_fix_rewrites_a_periodic_when_as_a_clocked_partition() {
    let base = (
        "examples/Base.mo".to_string(),
        repo_file("examples/Base.mo"),
    );
    let name = "test_data/clocked_fix/WhenSample.mo";
    let before = repo_file(name);
    let fixed = mofmu::fix::fix(vec![base, (name.to_string(), before.clone())], true);
    let after = &fixed.files[1].2;
    let expected_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/clocked_fix/WhenSample.fixed.mo");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&expected_path, after).expect("expected file is writable");
    }
    assert_eq!(
        after,
        &std::fs::read_to_string(&expected_path).expect("WhenSample.fixed.mo"),
        "the fixed text differs from WhenSample.fixed.mo"
    );
    // The before text: one MC116 per `when`, each with the whole rewrite of
    // its class as machine-applicable edits.
    let lib = load_library(vec![
        (
            "examples/Base.mo".to_string(),
            repo_file("examples/Base.mo"),
        ),
        (name.to_string(), before.clone()),
    ]);
    let whens: Vec<Diagnostic> = check_library(&lib)
        .into_iter()
        .filter(|d| d.code == "MC116")
        .collect();
    assert_eq!(whens.len(), 5, "{whens:#?}");
    assert!(whens
        .iter()
        .all(|d| !d.suggestions.is_empty() && d.suggestions.iter().all(|s| s.machine_applicable)));
    assert_eq!(before.matches("when sample").count(), 5);
    // The fixed text: no `when`, no `pre`, the clocked forms in their place.
    assert!(
        !after.contains("when sample")
            && !after.contains("end when")
            && !after.replace("previous(", "").contains("pre(")
            && !after.contains("discrete Real")
    );
    for form in [
        "u = K*(r - sample(x, Clock(Ts)));",
        "der(x) = -a*x + b*hold(u);",
        "e = w_ref - sample(w, Clock(Ts));",
        "I = previous(I) + Ts*e;",
        "der(i) = (hold(v) - R*i - kt*w)/Lm;",
        "Clock clock = Clock(n, 1);",
        "on = if sample(T, clock) > hi then false elseif sample(T, clock) < lo then true else previous(on);",
        "Real load = if hold(on) then 1 else 0;",
        "y1 = k*sample(x, Clock(2*Ts));",
        "y2 = y1 + previous(y2);",
        "der(x) = -x + hold(y1) - hold(y2)/10;",
        "// The integral by the forward rectangle rule",
    ] {
        assert!(after.contains(form), "the fixed text lacks `{form}`:\n{after}");
    }
    let diags = check_phase(after);
    assert!(
        diags.is_empty(),
        "the fixed text passes the check phase: {diags:#?}"
    );
    assert!(
        fixed.remaining.iter().all(|d| d.code != "MC116"),
        "{:#?}",
        fixed.remaining
    );
}

/// Where the clocked form is not mechanical (a start other than 0, an
/// interval that is not a parameter expression, `reinit`, `elsewhen`, an
/// output determined, a variable read before it is determined, an
/// equation tied to no sampled value, two intervals, `pre` outside the
/// `when`), the `when` keeps its help line and gets no fix.
#[test]
fn a_when_that_is_not_mechanical_gets_the_help_line_only() {
    let name = "test_data/clocked_fix/NotMechanical.mo";
    let text = repo_file(name);
    let lib = load_library(vec![
        (
            "examples/Base.mo".to_string(),
            repo_file("examples/Base.mo"),
        ),
        (name.to_string(), text.clone()),
    ]);
    let diags = check_library(&lib);
    let marks: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("// <-"))
        .map(|(i, _)| i + 1)
        .collect();
    let lines: Vec<usize> = diags.iter().map(|d| line_of(&text, d.span.start)).collect();
    assert_eq!(lines, marks, "{diags:#?}");
    for d in &diags {
        assert_eq!(d.code, "MC116");
        assert!(d.suggestions.is_empty(), "{d:?}");
        assert!(d.help.contains("Clock(Ts)"), "{d:?}");
    }
    let fixed = mofmu::fix::fix(
        vec![
            (
                "examples/Base.mo".to_string(),
                repo_file("examples/Base.mo"),
            ),
            (name.to_string(), text.clone()),
        ],
        true,
    );
    assert_eq!(fixed.edits, 0);
    assert_eq!(fixed.files[1].2, text);
}
