//! `CheckSession`, the incremental check of `mofmu check --watch`: after
//! every edit of a sequence, what the session returns must equal a full
//! check of the same texts (same diagnostics, same order, same places),
//! and its counters must show that only the classes an edit can have
//! changed were checked again.

use std::path::{Path, PathBuf};

use mofmu::diagnostic::Diagnostic;
use mofmu::library::{check_library_with, load_library};
use mofmu::session::CheckSession;

type Files = Vec<(String, String)>;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn examples(paths: &[&str]) -> Files {
    let paths: Vec<PathBuf> = paths.iter().map(|p| root().join(p)).collect();
    mofmu::loader::load_paths(&paths).expect("the bundled libraries load")
}

fn short(files: &Files, diags: &[Diagnostic]) -> String {
    let lib = load_library(files.clone());
    diags
        .iter()
        .map(|d| {
            format!(
                "  {} @{}..{}",
                d.render_short(&lib.sources),
                d.span.start,
                d.span.end
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Checks `files` in the session and in full, asserts both agree, and
/// returns the diagnostics.
fn recheck(session: &mut CheckSession, files: &Files, units: bool, what: &str) -> Vec<Diagnostic> {
    let incremental = session.check(files.clone(), units);
    let full = check_library_with(&load_library(files.clone()), units);
    assert!(
        incremental == full,
        "{what}: the incremental check differs from a full check\nincremental:\n{}\nfull:\n{}",
        short(files, &incremental),
        short(files, &full)
    );
    incremental
}

/// `files` with the one occurrence of `from` in the file named `file`
/// replaced by `to`.
fn edit(files: &Files, file: &str, from: &str, to: &str) -> Files {
    let mut out = files.clone();
    let (_, text) = out
        .iter_mut()
        .find(|(name, _)| name.ends_with(file))
        .unwrap_or_else(|| panic!("no file {file}"));
    assert_eq!(text.matches(from).count(), 1, "`{from}` once in {file}");
    *text = text.replacen(from, to, 1);
    out
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_leaf_edit_rechecks_that_class_and_the_models_that_use_it() {
    let mut s = CheckSession::new();
    let files = examples(&["examples/Base.mo", "examples/Signals.mo"]);
    assert!(recheck(&mut s, &files, true, "first check").is_empty());
    assert_eq!(s.stats().parsed_files, 2);

    // `Gain` is used by `SineRampAdd` only.
    let edited = edit(
        &files,
        "Signals.mo",
        "      y = k*u;\n",
        "      y = 2*k*u;\n",
    );
    assert!(recheck(&mut s, &edited, true, "Gain's body edited").is_empty());
    let stats = s.stats();
    assert_eq!(stats.parsed_files, 1, "Base.mo keeps its syntax tree");
    let changed = names(&["Signals.Continuous.Gain", "Signals.Examples.SineRampAdd"]);
    assert_eq!(stats.rechecked, changed);
    assert_eq!(stats.units_rechecked, changed);
    assert!(!stats.whole);

    // A comment inside the class is an edit of the class too.
    let commented = edit(
        &edited,
        "Signals.mo",
        "      y = 2*k*u;\n",
        "      // doubled\n      y = 2*k*u;\n",
    );
    recheck(&mut s, &commented, true, "comment in Gain");
    assert_eq!(s.stats().rechecked, changed);

    // The same texts again: nothing to do.
    recheck(&mut s, &commented, true, "no edit");
    assert_eq!(s.stats().parsed_files, 0);
    assert!(s.stats().rechecked.is_empty());
    assert!(s.stats().units_rechecked.is_empty());
}

#[test]
fn lines_inserted_above_classes_move_their_diagnostics_without_a_recheck() {
    let mut s = CheckSession::new();
    let files = examples(&["examples/Base.mo", "examples/Signals.mo"]);
    // An error in a block that several models use: its equation no longer
    // determines the output, so the block and the models report.
    let broken = edit(
        &files,
        "Signals.mo",
        "      y = offset + (if time < startTime then 0 else height);\n",
        "",
    );
    let before = recheck(&mut s, &broken, true, "Step broken");
    assert!(!before.is_empty());

    // Lines above every class of the file (before the package).
    let above = edit(
        &broken,
        "Signals.mo",
        "encapsulated package Signals",
        "\n// a note\n\nencapsulated package Signals",
    );
    let after = recheck(&mut s, &above, true, "lines above the package");
    assert!(s.stats().rechecked.is_empty(), "{:?}", s.stats().rechecked);
    assert!(s.stats().units_rechecked.is_empty());
    let moved = (above[1].1.len() - broken[1].1.len()) as u32;
    assert_eq!(before.len(), after.len());
    assert!(after
        .iter()
        .zip(&before)
        .all(|(a, b)| a.span.start == b.span.start + moved));

    // Lines inside a package, above the blocks: only the package's own
    // text changed (a package is not compiled, so nothing else is).
    let inside = edit(
        &above,
        "Signals.mo",
        "    block Constant ",
        "    // Sources first.\n\n    block Constant ",
    );
    recheck(&mut s, &inside, true, "lines inside Sources");
    assert_eq!(s.stats().rechecked, names(&["Signals.Sources"]));

    // The fix: the error goes away everywhere.
    let fixed = edit(
        &inside,
        "Signals.mo",
        "    equation\n    end Step;",
        "    equation\n      y = offset + (if time < startTime then 0 else height);\n    end Step;",
    );
    assert!(recheck(&mut s, &fixed, true, "Step fixed").is_empty());
}

#[test]
fn an_error_comes_and_goes_through_the_classes_that_depend_on_it() {
    let mut s = CheckSession::new();
    let files = examples(&["examples/Base.mo", "examples/Thermal"]);
    assert!(recheck(&mut s, &files, true, "first check").is_empty());
    // A misspelt type: the class fails to elaborate, and so do the models
    // that use it.
    let misspelt = edit(
        &files,
        "Components.mo",
        "parameter SI.Temperature T = 293.15",
        "parameter SI.Temprature T = 293.15",
    );
    let diags = recheck(&mut s, &misspelt, true, "misspelt type");
    assert!(diags.iter().any(|d| d.code == "MC005"), "{diags:?}");
    // An equation error in a leaf: the class and its users report it.
    let undetermined = edit(
        &misspelt,
        "Components.mo",
        "    port.Q_flow = -Q_flow;\n",
        "",
    );
    recheck(&mut s, &undetermined, true, "undetermined flow");
    let fixed = edit(
        &undetermined,
        "Components.mo",
        "parameter SI.Temprature T = 293.15",
        "parameter SI.Temperature T = 293.15",
    );
    recheck(&mut s, &fixed, true, "type fixed");
    assert!(recheck(&mut s, &files, true, "all fixed").is_empty());
}

/// A small library with a base class two blocks extend, and a model that
/// uses both.
const SISO: &str = r#"package P
  connector RealInput = input Real;
  connector RealOutput = output Real;
  partial block SISO
    RealInput u;
    RealOutput y;
  end SISO;
  block Source
    RealOutput y;
  equation
    y = 1;
  end Source;
  block Gain
    extends SISO;
    parameter Real k = 2;
  equation
    y = k*u;
  end Gain;
  block Twice
    extends SISO;
  equation
    y = 2*u;
  end Twice;
  block Other
    parameter Real k = 2;
    RealInput u;
    RealOutput y;
  equation
    y = k*u;
  end Other;
  model Chain
    Source s;
    Gain g;
    Twice t;
  equation
    connect(s.y, g.u);
    connect(g.y, t.u);
  end Chain;
end P;
"#;

#[test]
fn a_changed_base_class_rechecks_what_extends_it() {
    let mut s = CheckSession::new();
    let files: Files = vec![("P.mo".into(), SISO.into())];
    assert!(recheck(&mut s, &files, true, "first check").is_empty());
    // The base gets an output nobody determines: every class that extends
    // it now reports, and so does the model that uses them.
    let extra = edit(
        &files,
        "P.mo",
        "    RealOutput y;\n  end SISO;",
        "    RealOutput y;\n    output Real z;\n  end SISO;",
    );
    let diags = recheck(&mut s, &extra, true, "base class with an extra output");
    assert!(!diags.is_empty());
    assert_eq!(
        s.stats().rechecked,
        names(&["P.SISO", "P.Gain", "P.Twice", "P.Chain"]),
        "`Source` and `Other` do not use the base"
    );
    assert!(recheck(&mut s, &files, true, "base class restored").is_empty());
}

#[test]
fn renaming_removing_and_shadowing_a_class_rechecks_its_users() {
    let mut s = CheckSession::new();
    let files = examples(&["examples/Base.mo", "examples/Signals.mo"]);
    assert!(recheck(&mut s, &files, true, "first check").is_empty());

    let renamed = edit(
        &files,
        "Signals.mo",
        "    block Gain \"Output",
        "    block Amplifier \"Output",
    );
    let renamed = edit(
        &renamed,
        "Signals.mo",
        "    end Gain;",
        "    end Amplifier;",
    );
    let diags = recheck(&mut s, &renamed, true, "Gain renamed");
    assert!(diags.iter().any(|d| d.code == "MC005"), "{diags:?}");
    assert!(s
        .stats()
        .rechecked
        .contains(&"Signals.Examples.SineRampAdd".to_string()));

    let start = renamed[1].1.find("    block Amplifier").expect("the block");
    let end =
        renamed[1].1.find("    end Amplifier;\n").expect("its end") + "    end Amplifier;\n".len();
    let mut removed = renamed.clone();
    removed[1].1.replace_range(start..end, "");
    recheck(&mut s, &removed, true, "Gain removed");

    // A class added before a use changes what the name there resolves to
    // (`Sources.Step` now starts at `Examples.Sources`), although the
    // models' own texts did not change.
    let shadowed = edit(&files, "Signals.mo", "  package Examples \"Small systems of signal blocks\"\n", "  package Examples \"Small systems of signal blocks\"\n    package Sources\n    end Sources;\n");
    let diags = recheck(&mut s, &shadowed, true, "Sources shadowed");
    assert!(!diags.is_empty());
    assert!(s
        .stats()
        .rechecked
        .contains(&"Signals.Examples.StepIntegrator".to_string()));
    assert!(recheck(&mut s, &files, true, "back to the original").is_empty());
}

#[test]
fn files_added_before_and_after_move_nothing_that_does_not_change() {
    let mut s = CheckSession::new();
    let files = examples(&["examples/Base.mo", "examples/Signals.mo"]);
    // An error, so that there are places to move to another file index.
    let broken = edit(
        &files,
        "Signals.mo",
        "      y = k*u;\n",
        "      y = k*u + undeclared;\n",
    );
    let before = recheck(&mut s, &broken, true, "error in Gain");
    assert!(!before.is_empty());

    let mut added = broken.clone();
    added.push((
        "Extra.mo".into(),
        "model Extra\n  Signals.Continuous.Gain g(k = 2);\n  Signals.Sources.Constant c;\nequation\n  connect(c.y, g.u);\nend Extra;\n".into(),
    ));
    recheck(&mut s, &added, true, "a file added last");
    assert_eq!(s.stats().parsed_files, 1);
    assert_eq!(s.stats().rechecked, names(&["Extra"]));

    // A file loaded first moves every other file to the next index.
    let mut first = vec![(
        "First.mo".to_string(),
        "package First \"Loaded before everything\"\nend First;\n".to_string(),
    )];
    first.extend(added.clone());
    recheck(&mut s, &first, true, "a file added first");
    assert_eq!(s.stats().rechecked, names(&["First"]));
    recheck(&mut s, &broken, true, "both removed");
}

#[test]
fn turning_units_off_and_on_gives_what_a_full_check_gives() {
    let mut s = CheckSession::new();
    let files = examples(&["examples/Base.mo", "examples/Signals.mo"]);
    let bad_unit = edit(
        &files,
        "Signals.mo",
        "parameter Real k(unit = \"1\") = 1 \"Gain\";",
        "parameter Real k(unit = \"furlong\") = 1 \"Gain\";",
    );
    let with = recheck(&mut s, &bad_unit, true, "a unit error");
    assert!(with.iter().any(|d| d.code.starts_with("UC")), "{with:?}");
    let without = recheck(&mut s, &bad_unit, false, "units off");
    assert!(without.is_empty(), "{without:?}");
    assert!(
        s.stats().rechecked.is_empty(),
        "units do not change the other phases"
    );
    recheck(&mut s, &bad_unit, true, "units on again");
    assert!(recheck(&mut s, &files, true, "the unit fixed").is_empty());
}

#[test]
fn a_library_that_refers_to_itself_is_checked_whole() {
    let mut s = CheckSession::new();
    let text = std::fs::read_to_string(root().join("test_data/check/MC006_recursive.mo"))
        .expect("fixture");
    let files: Files = vec![("MC006_recursive.mo".into(), text.clone())];
    recheck(&mut s, &files, true, "a recursive class");
    assert!(s.stats().whole);
    let ok = std::fs::read_to_string(root().join("test_data/check/MC006_recursive.ok.mo"))
        .expect("fixture");
    recheck(
        &mut s,
        &vec![("MC006_recursive.mo".into(), ok)],
        true,
        "fixed",
    );
    assert!(!s.stats().whole);
}

/// A model with a nested class of its own that it does not use.
const NESTED: &str = r#"package N
  model M
    block Helper
      parameter Real k = 1;
    end Helper;
    Real x "Never determined";
  end M;
end N;
"#;

#[test]
fn a_syntax_error_in_a_nested_class_stops_the_enclosing_class_from_compiling() {
    let mut s = CheckSession::new();
    let files: Files = vec![("N.mo".into(), NESTED.into())];
    let diags = recheck(&mut s, &files, true, "an undetermined variable");
    assert!(!diags.is_empty());
    // `M`'s own text and what it refers to are unchanged, but a syntax
    // error now lies inside it, so it is not compiled: its own fault is
    // no longer reported.
    let broken = edit(
        &files,
        "N.mo",
        "parameter Real k = 1;",
        "parameter Real k = ;",
    );
    let diags = recheck(&mut s, &broken, true, "syntax error in Helper");
    assert!(diags.iter().all(|d| d.code.starts_with("MS")), "{diags:?}");
    recheck(&mut s, &files, true, "fixed");
}

/// A generated library in the style of `benches/check.rs`: numbered
/// blocks, and models that each use a few of them.
fn generated(groups: usize) -> String {
    let mut out = String::from("package G\n  connector RealInput = input Real;\n  connector RealOutput = output Real;\n  package Blocks\n");
    for i in 0..groups {
        out += &format!(
            "    block Sine{i}\n      parameter Real a = {i};\n      RealOutput y;\n    equation\n      y = a;\n    end Sine{i};\n    block Gain{i}\n      parameter Real k(unit = \"1\") = {i};\n      RealInput u;\n      RealOutput y;\n    equation\n      y = k*u;\n    end Gain{i};\n"
        );
    }
    out += "  end Blocks;\n  package Examples\n";
    for j in 0..2 * groups {
        let (a, b) = (j % groups, (j * 7 + 3) % groups);
        out += &format!(
            "    model Loop{j}\n      Blocks.Sine{a} s;\n      Blocks.Gain{b} g;\n    equation\n      connect(s.y, g.u);\n    end Loop{j};\n"
        );
    }
    out + "  end Examples;\nend G;\n"
}

#[test]
fn in_a_generated_library_an_edit_rechecks_one_block_and_its_users() {
    let groups = 40;
    let text = generated(groups);
    let files: Files = vec![("G.mo".into(), text.clone())];
    let mut s = CheckSession::new();
    assert!(recheck(&mut s, &files, true, "first check").is_empty());
    assert!(s.stats().rechecked.len() > 4 * groups);
    let edited = edit(
        &files,
        "G.mo",
        "      y = k*u;\n    end Gain5;",
        "      y = 3*k*u;\n    end Gain5;",
    );
    recheck(&mut s, &edited, true, "Gain5 edited");
    let mut expected = vec!["G.Blocks.Gain5".to_string()];
    expected.extend(
        (0..2 * groups)
            .filter(|j| (j * 7 + 3) % groups == 5)
            .map(|j| format!("G.Examples.Loop{j}")),
    );
    assert!(expected.len() > 1);
    assert_eq!(s.stats().rechecked, expected);
    assert_eq!(s.stats().units_rechecked, expected);
}

/// A deterministic sequence of pseudo-random numbers (a linear
/// congruential generator: reproducible without a dependency).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// One random line edit of one file: delete, duplicate or swap lines,
/// insert a blank or comment line, change a digit, or move a few lines
/// (often a whole class) elsewhere.
fn random_edit(files: &mut Files, rng: &mut Lcg) -> String {
    let f = rng.below(files.len());
    let (name, text) = &mut files[f];
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.is_empty() {
        lines.push(String::new());
    }
    let i = rng.below(lines.len());
    let what = match rng.below(7) {
        0 => {
            lines.remove(i);
            "deleted"
        }
        1 => {
            lines.insert(i, lines[i].clone());
            "duplicated"
        }
        2 if i + 1 < lines.len() => {
            lines.swap(i, i + 1);
            "swapped with the next"
        }
        3 => {
            lines.insert(i, "  // inserted".to_string());
            "inserted a comment above"
        }
        4 => {
            lines.insert(i, String::new());
            "inserted a blank line above"
        }
        5 => {
            lines[i] = lines[i].replace('1', "2");
            "changed 1s to 2s in"
        }
        _ => {
            let end = (i + 1 + rng.below(12)).min(lines.len());
            let moved: Vec<String> = lines.drain(i..end).collect();
            let to = rng.below(lines.len() + 1);
            for (k, line) in moved.into_iter().enumerate() {
                lines.insert(to + k, line);
            }
            "moved a few lines from"
        }
    };
    *text = lines.join("\n") + "\n";
    format!("{what} line {} of {name}", i + 1)
}

fn fixture_libraries() -> Vec<(String, Files)> {
    let mut out = Vec::new();
    for dir in ["test_data/check", "test_data/check/real"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .expect("fixture directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "mo"))
            .collect();
        paths.sort();
        for p in paths {
            let name = p
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&p).expect("readable fixture");
            out.push((name.clone(), vec![(name, text)]));
        }
    }
    out
}

/// Every compliance fixture (each fault the checker knows, and its passing
/// twin) checked in one session one after the other, and each then edited
/// at random a few times; and the bundled libraries edited at random many
/// times: after every step the session gives what a full check gives.
#[test]
fn random_edits_check_as_a_full_check_does() {
    let mut rng = Lcg(0x5eed);
    let mut s = CheckSession::new();
    for (name, files) in fixture_libraries() {
        let mut files = files;
        recheck(&mut s, &files, true, &name);
        for _ in 0..4 {
            let what = random_edit(&mut files, &mut rng);
            recheck(&mut s, &files, true, &format!("{name}: {what}"));
        }
    }
    for (libraries, edits) in [
        (&["examples/Base.mo", "examples/Signals.mo"][..], 60),
        (&["examples/Base.mo", "examples/Thermal"], 60),
        (
            &["examples/Base.mo", "examples/Signals.mo", "examples/Planar"],
            40,
        ),
        (&["examples/Mechanical.mo"], 40),
    ] {
        let mut files = examples(libraries);
        let mut s = CheckSession::new();
        recheck(&mut s, &files, true, &format!("{libraries:?}"));
        let mut log = Vec::new();
        for k in 0..edits {
            log.push(random_edit(&mut files, &mut rng));
            recheck(
                &mut s,
                &files,
                k % 7 != 3,
                &format!("{libraries:?} after:\n{}", log.join("\n")),
            );
        }
    }
}

#[test]
fn a_changed_package_constant_or_redeclaration_rechecks_the_classes_that_read_it() {
    let mut s = CheckSession::new();
    let files = examples(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/Acc2.mo",
    ]);
    assert!(recheck(&mut s, &files, true, "first check").is_empty());
    let rechecked = |s: &CheckSession| s.stats().rechecked.clone();

    // Water's constant: the vessel (its default medium) and the model
    // that uses it; the specialisation with oil reads nothing of water.
    let water = edit(&files, "Acc2.mo", "cp = 4184", "cp = 4185");
    recheck(&mut s, &water, true, "water's cp");
    let r = rechecked(&s);
    for class in ["Acc2.Media.Water", "Acc2.Vessel", "Acc2.TwoVessels"] {
        assert!(r.contains(&class.to_string()), "{class} in {r:?}");
    }
    assert!(!r.iter().any(|c| c.contains("Oil")), "{r:?}");

    // Oil's constant: the specialisation with oil and the model, not the
    // vessel as written.
    let oil = edit(&water, "Acc2.mo", "cp = 1900", "cp = 1901");
    recheck(&mut s, &oil, true, "oil's cp");
    let r = rechecked(&s);
    for class in [
        "Acc2.Media.Oil",
        "Acc2.Vessel(Medium = Acc2.Media.Oil)",
        "Acc2.TwoVessels",
    ] {
        assert!(r.contains(&class.to_string()), "{class} in {r:?}");
    }
    assert!(!r.contains(&"Acc2.Vessel".to_string()), "{r:?}");

    // The redeclaration itself: only the model that writes it.
    let redeclared = edit(
        &oil,
        "Acc2.mo",
        "redeclare package Medium = Media.Oil",
        "redeclare package Medium = Media.Water",
    );
    recheck(&mut s, &redeclared, true, "redeclared to water");
    assert_eq!(rechecked(&s), names(&["Acc2.TwoVessels"]));

    // A redeclaration outside the constraining class is reported at it,
    // as a full check does.
    let wrong = edit(
        &redeclared,
        "Acc2.mo",
        "redeclare package Medium = Media.Water",
        "redeclare package Medium = Media",
    );
    let ds = recheck(&mut s, &wrong, true, "redeclared to a package without cp");
    assert_eq!(ds.len(), 1);
    assert_eq!(ds[0].code, "MC082");
}

/// A package constant that only a function's algorithm reads is part of
/// the function's key, and so of every class that calls the function:
/// renaming it away must re-check both (and report what a full check does).
#[test]
fn a_package_constant_read_only_in_a_function_body_rechecks_the_function_and_its_callers() {
    let library = "package Lib
  package Consts
    constant Real k = 2;
  end Consts;
  package Fns
    function twice
      input Real x;
      output Real y;
    algorithm
      y := Consts.k*x;
    end twice;
  end Fns;
  model M
    Real y;
  equation
    y = Fns.twice(time);
  end M;
end Lib;
";
    let mut s = CheckSession::new();
    let files: Files = vec![("Lib.mo".into(), library.into())];
    assert!(recheck(&mut s, &files, true, "first check").is_empty());

    let changed = edit(&files, "Lib.mo", "k = 2", "k = 3");
    recheck(&mut s, &changed, true, "k's value");
    let r = s.stats().rechecked.clone();
    for class in ["Lib.Consts", "Lib.Fns.twice", "Lib.M"] {
        assert!(r.contains(&class.to_string()), "{class} in {r:?}");
    }

    let renamed = edit(&changed, "Lib.mo", "constant Real k", "constant Real kk");
    let ds = recheck(&mut s, &renamed, true, "k renamed away");
    assert!(!ds.is_empty(), "a full check reports `Consts.k`");
}

/// A plain name in a class nested in a package that extends another is
/// looked up outwards past that package when it does not declare the name
/// (`Elaborator` goes on to the next enclosing class): so the class depends
/// on every enclosing class that may declare it, not only on the first. A
/// component `k` added to the outer package after the class turns the
/// class's unknown `k` (MC022) into a use before the declaration (MC085).
#[test]
fn a_name_looked_up_past_a_package_that_extends_rechecks_with_the_outer_package() {
    let text = "package P
  package Base
    constant Real c = 1;
  end Base;
  package Q
    extends Base;
    block B
      output Real y;
    equation
      y = k;
    end B;
  end Q;
  // k
end P;
";
    let files: Files = vec![("P.mo".to_string(), text.to_string())];
    let mut s = CheckSession::new();
    let first = recheck(&mut s, &files, true, "first check");
    assert_eq!(first.iter().map(|d| d.code).collect::<Vec<_>>(), ["MC022"]);
    let added = edit(&files, "P.mo", "  // k", "  Real k;");
    let after = recheck(&mut s, &added, true, "k added to P after Q");
    assert_eq!(after.iter().map(|d| d.code).collect::<Vec<_>>(), ["MC085"]);
}
