//! User functions through every phase: the function compiler on the
//! fixtures of `test_data/functions/` (one entry point: the resolved
//! function from the class database, then `codegen::function::unit`),
//! exact directional derivatives through calls, and a failure inside a
//! function reported like a kernel's.

use std::path::Path;

use mofmu::classdb::ClassDb;
use mofmu::codegen::function::unit;
use mofmu::export::check_library;
use mofmu::harness::Fmu;

use super::directional::check_fmu;
use super::export::{export, library, package, shared_cache};

const LIBS: [&str; 2] = ["examples/Base.mo", "test_data/functions/Functions.mo"];

#[test]
fn function_fixtures_check_clean() {
    let lib = library(&LIBS);
    let diags = check_library(&lib);
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn each_function_compiles_to_a_function_and_its_tangent_twin() {
    let lib = library(&LIBS);
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    for name in ["square", "drag", "logOf"] {
        let id = lib
            .tree
            .find_qualified(&format!("Functions.{name}"))
            .expect("declared");
        let f = db.function(id).unwrap_or_else(|d| panic!("{name}: {d:?}"));
        let u = unit(&f);
        let symbol = format!("F_Functions_{name}");
        assert_eq!(u.symbol, symbol);
        assert!(u.text.contains(&format!("double {symbol}(mofmu_ctx *ctx")));
        assert!(u
            .text
            .contains(&format!("double {symbol}_t(mofmu_ctx *ctx")));
        assert!(!u.text.contains("fmi2"), "{name}: generated code calls FMI");
        // Same function, same text (and file name).
        assert_eq!(unit(&f), u);
    }
    // `drag` takes its scalar and its record's two fields, declares the
    // function it calls, and runs its loop, branch and while loop.
    let drag = db
        .function(lib.tree.find_qualified("Functions.drag").unwrap())
        .unwrap();
    assert_eq!(drag.inputs().count(), 3);
    let text = unit(&drag).text;
    assert!(text.contains("double F_Functions_square(mofmu_ctx *ctx"));
    assert!(text.contains("for (int64_t i0"));
    assert!(text.contains("while ("));
    assert!(text.contains("goto mofmu_end_;"));
}

#[test]
fn a_function_used_by_several_classes_is_one_unit() {
    let lib = library(&LIBS);
    let out = export(&lib, "Functions.Coast", &[]);
    let names: Vec<&str> = out.functions.iter().map(|f| f.file_name.as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names[0].starts_with("F_Functions_square_"),
        "callee first: {names:?}"
    );
    assert!(names[1].starts_with("F_Functions_drag_"));
    for n in &names {
        assert!(
            out.table.source_files.iter().any(|s| s == n),
            "{n} not in SourceFiles"
        );
    }
}

#[test]
fn directional_derivatives_through_function_calls_match_central_differences() {
    let lib = library(&LIBS);
    let out = export(&lib, "Functions.Coast", &[]);
    let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("functions")
        .join("Coast.fmu");
    package(&out, &path, &shared_cache());
    let entries = check_fmu(&path, "Functions.Coast").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(entries, 4, "a 2x2 Jacobian");
}

#[test]
fn a_failure_inside_a_function_stops_the_evaluation_with_its_message() {
    let lib = library(&LIBS);
    let out = export(&lib, "Functions.Fails", &[]);
    let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("functions")
        .join("Fails.fmu");
    package(&out, &path, &shared_cache());
    let fmu = Fmu::load(&path).expect("loads");
    let mut inst = fmu.instantiate("fails", false).expect("instantiates");
    inst.setup_experiment(None, 0.0, None).expect("setup");
    inst.enter_initialization_mode().expect("enters");
    let err = inst
        .exit_initialization_mode()
        .expect_err("log(-1) inside the function must fail");
    let text = format!("{err}");
    assert!(text.contains("Error"), "{text}");
}

const MEDIUM: [&str; 3] = [
    "examples/Base.mo",
    "examples/Thermal",
    "test_data/language/AccMedium.mo",
];

#[test]
fn a_record_output_compiles_to_one_function_per_field() {
    let lib = library(&MEDIUM);
    let diags = check_library(&lib);
    assert!(diags.is_empty(), "{diags:?}");
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let id = lib
        .tree
        .find_qualified("AccMedium.Medium.setState_pT")
        .expect("declared");
    let f = db.function(id).expect("resolves");
    assert_eq!(
        f.outputs().count(),
        2,
        "the record output is its two fields"
    );
    assert!(f.returns_record());
    let text = unit(&f).text;
    for field in ["state_p", "state_T"] {
        let sym = format!("F_AccMedium_Medium_setState_pT__{field}");
        assert!(
            text.contains(&format!("double {sym}(mofmu_ctx *ctx")),
            "{text}"
        );
        assert!(
            text.contains(&format!("double {sym}_t(mofmu_ctx *ctx")),
            "{text}"
        );
    }
    // `density` takes the record's two fields and returns one number.
    let density = db
        .function(lib.tree.find_qualified("AccMedium.Medium.density").unwrap())
        .unwrap();
    assert_eq!(density.inputs().count(), 2);
    assert_eq!(density.outputs().count(), 1);
    assert!(unit(&density)
        .text
        .contains("double F_AccMedium_Medium_density(mofmu_ctx *ctx"));
}

#[test]
fn directional_derivatives_through_a_record_returning_function_match_central_differences() {
    let lib = library(&MEDIUM);
    let out = export(&lib, "AccMedium.HeatedGas", &[]);
    let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("functions")
        .join("HeatedGas.fmu");
    package(&out, &path, &shared_cache());
    let entries = check_fmu(&path, "AccMedium.HeatedGas").unwrap_or_else(|e| panic!("{e}"));
    assert!(entries > 0, "no directional derivative checked");
}
