//! Phase tests of instantiate, through its entry point (`instantiate` over
//! a class database that has compiled the model, as an export drives
//! it). One fixture per feature in `test_data/phases/instantiate/`;
//! the system it gives is rendered as text (every instance with the place
//! of each variable in `R`, then every Real with its kind and start value)
//! and compared with the `.expected` file beside the fixture.
//! `UPDATE_EXPECT=1` rewrites the expectations (review the diff).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use mofmu::classdb::ClassDb;
use mofmu::instantiate::{instantiate, SetLiteral, SetValue, System};
use mofmu::loader::load_paths;
use mofmu::resolve::tree::ClassTree;
use mofmu::source::SourceMap;
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

/// The system of `model` in the fixture `feature` with `sets`, rendered;
/// or the instantiation's diagnostics, one per line.
fn instantiated(feature: &str, model: &str, sets: &[(&str, SetLiteral)]) -> String {
    let fixture = format!("test_data/phases/instantiate/{feature}.mo");
    let paths: Vec<PathBuf> = ["examples/Base.mo", "examples/Thermal", &fixture]
        .iter()
        .map(|p| repo().join(p))
        .collect();
    let (sources, tree) = load(&paths);
    let mut db = ClassDb::new(&tree, &sources);
    let id = tree.find_qualified(model).expect("the model exists");
    db.compile_below(id);
    let sets: Vec<SetValue> = sets
        .iter()
        .map(|(path, value)| SetValue {
            path: path.to_string(),
            value: value.clone(),
        })
        .collect();
    match instantiate(&db, id, &sets) {
        Ok(sys) => render(&sys),
        Err(diags) => diags
            .iter()
            .map(|d| format!("{}: {}\n", d.code, d.message))
            .collect(),
    }
}

/// The system as text: the instance tree with the layout of each
/// instance's variables, its components and its kernel slots; then `R`.
fn render(sys: &System) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "model {}: {} relations, {} indicators",
        sys.model_name, sys.n_relations, sys.n_indicators
    );
    for (i, inst) in sys.instances.iter().enumerate() {
        let class = &sys.classes[inst.class].model;
        let path = if inst.path.is_empty() {
            "<model>"
        } else {
            &inst.path
        };
        let parent = inst.parent.map_or(String::new(), |p| format!(" in {p}"));
        let _ = writeln!(out, "instance {i} {path}: {}{parent}", class.qualified);
        if !inst.ints.is_empty() {
            let _ = writeln!(out, "  ints {:?}", inst.ints);
        }
        for (vi, v) in class.vars.iter().enumerate() {
            let at = match inst.var_offset[vi] {
                Some(o) if inst.var_len[vi] == 1 => format!(" R[{o}]"),
                Some(o) => format!(" R[{o}..{}]", o + inst.var_len[vi]),
                None => String::new(),
            };
            let der = inst.der_offset[vi].map_or(String::new(), |d| format!(", der R[{d}]"));
            let _ = writeln!(out, "  var {}{at}{der}", v.name);
        }
        for (k, sub) in class.subs.iter().enumerate() {
            let shape = if inst.shapes[k].is_empty() {
                String::new()
            } else {
                format!(" shape {:?}", inst.shapes[k])
            };
            let _ = writeln!(out, "  sub {} -> {:?}{shape}", sub.name, inst.elements[k]);
        }
        for &c in &inst.absent_connectors {
            let _ = writeln!(out, "  absent connector {}", class.connectors[c].name);
        }
        let _ = writeln!(out, "  slots {:?}", inst.slot_offsets);
    }
    for (r, real) in sys.reals.iter().enumerate() {
        let start = real
            .start
            .map_or(String::new(), |s| format!(" start {s:?}"));
        let unit = real
            .unit
            .as_deref()
            .map_or(String::new(), |u| format!(" unit {u}"));
        let of = real
            .derivative_of
            .map_or(String::new(), |s| format!(" of R[{s}]"));
        let absent = if sys.absent_reals.contains(&r) {
            " absent"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "R[{r}] {} {:?}{start}{unit}{of}{absent}",
            real.name, real.kind
        );
    }
    for int in &sys.ints {
        let _ = writeln!(out, "int {} = {}", int.name, int.value);
    }
    let _ = writeln!(out, "states {:?}", sys.states);
    let _ = writeln!(out, "derivatives {:?}", sys.derivatives);
    let calcs: Vec<usize> = sys.start_calcs.iter().map(|(r, _)| *r).collect();
    let _ = writeln!(out, "starts computed from Integers {calcs:?}");
    out
}

/// Compares `actual` with `test_data/phases/instantiate/<name>.expected`.
fn expect(name: &str, actual: &str) {
    let path = repo().join(format!("test_data/phases/instantiate/{name}.expected"));
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, actual).expect("the expectation is written");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("no {}: run with UPDATE_EXPECT=1", path.display()));
    if actual != expected {
        let line = actual
            .lines()
            .zip(expected.lines())
            .position(|(a, e)| a != e)
            .unwrap_or_else(|| actual.lines().count().min(expected.lines().count()));
        panic!(
            "{} differs from line {}:\n--- actual\n{actual}\n--- expected\n{expected}",
            path.display(),
            line + 1
        );
    }
}

#[test]
fn parameters_take_their_bindings_and_the_outermost_modifier() {
    expect(
        "parameters_and_modifiers",
        &instantiated("parameters_and_modifiers", "Modifiers.House", &[]),
    );
}

#[test]
fn a_set_overrides_the_parameter_it_names() {
    expect(
        "parameters_and_modifiers.set",
        &instantiated(
            "parameters_and_modifiers",
            "Modifiers.House",
            &[("south.G", SetLiteral::Number(7.0))],
        ),
    );
}

#[test]
fn a_component_array_has_one_instance_per_element_each_with_its_part() {
    expect(
        "component_arrays",
        &instantiated("component_arrays", "Arrays.Chain", &[]),
    );
}

#[test]
fn a_part_per_element_must_match_the_size_of_the_array() {
    expect(
        "component_arrays.n2",
        &instantiated(
            "component_arrays",
            "Arrays.Chain",
            &[("n", SetLiteral::Number(2.0))],
        ),
    );
}

#[test]
fn an_outer_component_is_the_inner_one_of_the_model() {
    expect(
        "inner_outer",
        &instantiated("inner_outer", "Worlds.Moon", &[]),
    );
}

#[test]
fn a_present_conditional_component_is_instantiated() {
    expect(
        "conditional_components",
        &instantiated("conditional_components", "Optional.MaybeHeated", &[]),
    );
}

#[test]
fn an_absent_conditional_component_is_not() {
    expect(
        "conditional_components.absent",
        &instantiated(
            "conditional_components",
            "Optional.MaybeHeated",
            &[("withHeater", SetLiteral::Bool(false))],
        ),
    );
}

#[test]
fn variables_are_laid_out_instance_by_instance_with_derivatives_after_them() {
    expect(
        "layout_offsets",
        &instantiated("layout_offsets", "Layout.Heating", &[]),
    );
}
