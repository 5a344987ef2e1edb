//! Phase tests of the schedule, through its entry point (`schedule` of an
//! instantiated system, as an export drives it). One fixture per feature in
//! `test_data/phases/schedule/`; the order of the blocks and copies it gives
//! is rendered as text (a block by its instance and what it writes, a copy
//! by its connect, a run of one block over an array of components or of the
//! copies of one `for` loop as one line) and compared with the `.expected`
//! file beside the fixture. `UPDATE_EXPECT=1` rewrites the expectations
//! (review the diff).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use mofmu::classdb::ClassDb;
use mofmu::diagnostic::Diagnostic;
use mofmu::instantiate::{instantiate, System};
use mofmu::loader::load_paths;
use mofmu::resolve::tree::ClassTree;
use mofmu::schedule::{schedule, Schedule, Step};
use mofmu::source::{SourceMap, Span};
use mofmu::syntax::parse;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The fixture's files parsed into a class tree, as `library::load_library`
/// does, without the library's check: the phase is driven on its own.
fn load(paths: &[PathBuf]) -> (SourceMap, ClassTree) {
    let mut sources = SourceMap::new();
    let mut parsed = Vec::new();
    for (name, text) in load_paths(paths).expect("the fixture loads") {
        let id = sources.add(name, text);
        let (def, diags) = parse(id, &sources.get(id).text);
        assert!(diags.is_empty(), "the fixture parses: {diags:?}");
        parsed.push(def);
    }
    let (tree, diags) = ClassTree::build(&parsed);
    assert!(diags.is_empty(), "the fixture's classes: {diags:?}");
    (sources, tree)
}

/// The schedule of `model` in the fixture `feature`, rendered; or its
/// diagnostics with the source lines they point at.
fn scheduled(feature: &str, model: &str) -> String {
    let fixture = format!("test_data/phases/schedule/{feature}.mo");
    let paths: Vec<PathBuf> = vec![repo().join(&fixture)];
    let (sources, tree) = load(&paths);
    let mut db = ClassDb::new(&tree, &sources);
    let id = tree.find_qualified(model).expect("the model exists");
    db.compile_below(id);
    let sys = instantiate(&db, id, &[]).expect("the fixture instantiates");
    match schedule(&sys) {
        Ok(schedule) => render(&sys, &schedule),
        Err(diags) => diags.iter().map(|d| diagnostic(&sources, d)).collect(),
    }
}

/// One line per step, a run of repeats rolled into one.
fn render(sys: &System, schedule: &Schedule) -> String {
    let steps = &schedule.steps;
    let mut out = String::new();
    let mut i = 0;
    while i < steps.len() {
        let run = repeats(sys, &steps[i..]);
        let times = if run > 1 {
            format!(" (x{run})")
        } else {
            String::new()
        };
        match (&steps[i], &steps[i + run - 1]) {
            (Step::Block { instance, block }, Step::Block { instance: last, .. }) => {
                let inst = &sys.instances[*instance];
                let class = &sys.classes[inst.class].causalized.causal;
                let writes: Vec<&str> = class.blocks[*block]
                    .writes
                    .iter()
                    .map(|s| sys.reals[inst.slot_offsets[*s]].name.as_str())
                    .collect();
                let name = |i: usize| match sys.instances[i].path.as_str() {
                    "" => "<model>".to_string(),
                    path => path.to_string(),
                };
                let who = if run > 1 {
                    format!("{} .. {}", name(*instance), name(*last))
                } else {
                    name(*instance)
                };
                let _ = writeln!(
                    out,
                    "block {who} #{block}{times}: writes {}",
                    writes.join(", ")
                );
            }
            (Step::Copy(first), Step::Copy(last)) => {
                let what = if run > 1 {
                    format!("{} .. {}", first.text(sys), last.text(sys))
                } else {
                    first.text(sys)
                };
                let _ = writeln!(out, "copy{times}: {what}");
            }
            _ => unreachable!("a run is of blocks or of copies"),
        }
        i += run;
    }
    out
}

/// How many steps from the first are repeats of it: one block over the
/// following instances of its class, or the copies of one connect in a
/// `for` loop.
fn repeats(sys: &System, steps: &[Step]) -> usize {
    let same = |k: usize| match (&steps[0], &steps[k]) {
        (
            Step::Block { instance, block },
            Step::Block {
                instance: next,
                block: next_block,
            },
        ) => {
            next_block == block
                && *next == instance + k
                && sys.instances[*next].class == sys.instances[*instance].class
        }
        (Step::Copy(first), Step::Copy(next)) => {
            next.span == first.span && unindexed(&next.text(sys)) == unindexed(&first.text(sys))
        }
        _ => false,
    };
    (1..steps.len()).take_while(|k| same(*k)).count() + 1
}

/// A copy's text with the indices of arrays left out: the copies of one
/// `for` loop of connects read the same.
fn unindexed(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ if depth > 0 => continue,
            _ => {}
        }
        out.push(c);
    }
    out
}

/// A diagnostic with the source line of its primary span and of each note.
fn diagnostic(sources: &SourceMap, d: &Diagnostic) -> String {
    let line = |span: Span| {
        let file = sources.get(span.file);
        let (line, _) = file.line_col(span.start);
        let text = file.text.lines().nth(line - 1).unwrap_or("").trim();
        format!("{line}: `{text}`")
    };
    let mut out = format!(
        "{} at {}: {}\n  label: {}\n",
        d.code,
        line(d.span),
        d.message,
        d.label
    );
    for (span, note) in &d.notes {
        let _ = writeln!(out, "  note at {}: {note}", line(*span));
    }
    out
}

/// Compares `actual` with `test_data/phases/schedule/<name>.expected`.
fn expect(name: &str, actual: &str) {
    let path = repo().join(format!("test_data/phases/schedule/{name}.expected"));
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, actual).expect("the expectation is written");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("no {}: run with UPDATE_EXPECT=1", path.display()));
    assert!(
        actual == expected,
        "{} differs:\n--- actual\n{actual}\n--- expected\n{expected}",
        path.display()
    );
}

#[test]
fn positions_go_down_the_chain_and_forces_come_back_up() {
    expect("chain", &scheduled("chain", "Chain.Hang"));
}

#[test]
fn one_position_fans_out_to_two_readers_and_their_forces_add_up() {
    expect("fan_out", &scheduled("fan_out", "Fan.Two"));
}

#[test]
fn a_linear_response_balance_is_known_and_its_residual_computed() {
    expect(
        "linear_response",
        &scheduled("linear_response", "Slide.Fall"),
    );
}

#[test]
fn an_algebraic_loop_is_refused_with_its_connections_named() {
    expect("algebraic_loop", &scheduled("algebraic_loop", "Loop.Ring"));
}

#[test]
fn the_blocks_of_an_array_of_components_run_in_a_row() {
    expect(
        "repeats_rolled",
        &scheduled("repeats_rolled", "Repeats.Row"),
    );
}
