//! User functions through every phase: the function compiler on the
//! fixtures of `test_data/functions/` (one entry point: the resolved
//! function from the class database, then `codegen::function::unit`),
//! exact directional derivatives through calls, and a failure inside a
//! function reported like a kernel's.

use std::path::Path;

use mofmu::classdb::ClassDb;
use mofmu::codegen::function::unit;
use mofmu::harness::Fmu;
use mofmu::library::check_library;

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

/// The function compiler's output on its own: the C units of `square` and
/// `drag` (which calls `square`), compiled with a small driver and called
/// directly. Values match the closed form of the algorithm, and the
/// tangent twin matches the closed-form derivative and central differences
/// in every input (the record's fields included).
#[test]
fn compiled_functions_compute_the_closed_form_and_their_twins_its_derivative() {
    let lib = library(&LIBS);
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut units = Vec::new();
    for name in ["square", "drag"] {
        let id = lib
            .tree
            .find_qualified(&format!("Functions.{name}"))
            .unwrap();
        let u = unit(&db.function(id).unwrap());
        std::fs::write(dir.path().join(&u.file_name), &u.text).unwrap();
        units.push(dir.path().join(&u.file_name));
    }
    std::fs::write(dir.path().join("mofmu_model.h"), mofmu::fmu::files::MODEL_H).unwrap();
    // Each line: v R k dv dR dk, then the driver prints f and its tangent.
    let driver = r#"#include <stdio.h>
#include <string.h>
#include "mofmu_model.h"
double F_Functions_drag(mofmu_ctx *ctx, const char *instance, double a0, double a1, double a2);
double F_Functions_drag_t(mofmu_ctx *ctx, const char *instance, double a0, double a1, double a2,
                          double t0, double t1, double t2);
void mofmu_fail(mofmu_ctx *ctx, const char *instance, const char *message) {
    (void)ctx; (void)instance;
    fprintf(stderr, "failed: %s\n", message);
}
int main(void) {
    double v, R, k, dv, dR, dk;
    mofmu_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    while (scanf("%lf %lf %lf %lf %lf %lf", &v, &R, &k, &dv, &dR, &dk) == 6) {
        printf("%.17g %.17g\n", F_Functions_drag(&ctx, "t", v, R, k),
               F_Functions_drag_t(&ctx, "t", v, R, k, dv, dR, dk));
    }
    return 0;
}
"#;
    let driver_path = dir.path().join("driver.c");
    std::fs::write(&driver_path, driver).unwrap();
    let exe = dir.path().join("driver");
    let status = std::process::Command::new("cc")
        .arg("-O1")
        .arg("-I")
        .arg(dir.path())
        .args(&units)
        .arg(&driver_path)
        .arg("-lm")
        .arg("-o")
        .arg(&exe)
        .status()
        .expect("cc runs");
    assert!(status.success(), "the function units compile");

    // Points on both sides of the `v < 0` branch (not at 0, where the
    // derivative jumps by the 0.001 sin(v) term).
    let points: [[f64; 3]; 3] = [[0.7, 287.0, 1.4], [2.5, 300.0, 1.3], [-1.2, 287.0, 1.4]];
    let directions: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.3, -2.0, 0.05]];
    let h = 1e-6;
    let mut input = String::new();
    for p in &points {
        for d in &directions {
            input += &format!("{} {} {} {} {} {}\n", p[0], p[1], p[2], d[0], d[1], d[2]);
            // The same point moved by ±h along the direction (tangent
            // printed too, unused).
            for sign in [1.0, -1.0] {
                let q: Vec<f64> = (0..3).map(|i| p[i] + sign * h * d[i]).collect();
                input += &format!("{} {} {} 0 0 0\n", q[0], q[1], q[2]);
            }
        }
    }
    let mut child = std::process::Command::new(&exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the driver runs");
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let rows: Vec<(f64, f64)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let mut it = l.split_whitespace().map(|x| x.parse::<f64>().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect();
    assert_eq!(rows.len(), points.len() * directions.len() * 3);

    // The algorithm in closed form: s = v^2 (1 + 1/2 + 1/3); for v < 0 it
    // returns -s k/R, else s k/R + log(1 + v^2) + 0.001 sin(v) (the while
    // loop adds 0.001 sin(v) i for i = 0, 1).
    let closed = |v: f64, r: f64, k: f64| {
        let s = v * v * 11.0 / 6.0;
        if v < 0.0 {
            -s * k / r
        } else {
            s * k / r + (1.0 + v * v).ln() + 0.001 * v.sin()
        }
    };
    let closed_tangent = |v: f64, r: f64, k: f64, d: &[f64; 3]| {
        let s = v * v * 11.0 / 6.0;
        let ds = v * 11.0 / 3.0 * d[0];
        let sign = if v < 0.0 { -1.0 } else { 1.0 };
        let law = sign * (ds * k / r + s * d[2] / r - s * k * d[1] / (r * r));
        if v < 0.0 {
            law
        } else {
            law + 2.0 * v / (1.0 + v * v) * d[0] + 0.001 * v.cos() * d[0]
        }
    };
    let mut row = rows.iter();
    for p in &points {
        for d in &directions {
            let (f, tangent) = *row.next().unwrap();
            let (plus, _) = *row.next().unwrap();
            let (minus, _) = *row.next().unwrap();
            let expected = closed(p[0], p[1], p[2]);
            assert!(
                (f - expected).abs() <= 1e-14 * expected.abs().max(1.0),
                "drag{p:?} = {f}, closed form {expected}"
            );
            let exact = closed_tangent(p[0], p[1], p[2], d);
            assert!(
                (tangent - exact).abs() <= 1e-12 * exact.abs().max(1.0),
                "tangent of drag{p:?} along {d:?} = {tangent}, closed form {exact}"
            );
            let central = (plus - minus) / (2.0 * h);
            assert!(
                (tangent - central).abs() <= 1e-6 * tangent.abs().max(1.0),
                "tangent of drag{p:?} along {d:?} = {tangent}, central difference {central}"
            );
        }
    }
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

const MEDIUM_FUNCTIONS: [&str; 3] = [
    "examples/Base.mo",
    "examples/Thermal",
    "test_data/language/AccMediumFunctions.mo",
];

/// Functions through a replaceable package: each vessel's specialisation
/// calls its medium's functions, the partial ones implemented by
/// `redeclare function extends` and the inherited one (`heatCapacity`)
/// specialised to each medium's `cp`; each concrete function is one C unit
/// under its own symbol, and the partial package's own functions none.
#[test]
fn functions_through_a_replaceable_package_compile_once_per_medium() {
    let lib = library(&MEDIUM_FUNCTIONS);
    let diags = check_library(&lib);
    assert!(diags.is_empty(), "{diags:?}");
    let out = export(&lib, "AccMediumFunctions.TwoVessels", &[]);
    let mut names: Vec<String> = out
        .functions
        .iter()
        .map(|f| {
            f.file_name
                .rsplit_once('_')
                .expect("hash suffix")
                .0
                .to_string()
        })
        .collect();
    names.sort();
    let expected: Vec<String> = ["Oil", "Water"]
        .iter()
        .flat_map(|m| {
            ["heatCapacity", "specificEnthalpy", "temperature"]
                .map(|f| format!("F_AccMediumFunctions_Media_{m}_{f}"))
        })
        .collect();
    assert_eq!(names, expected);
}

#[test]
fn directional_derivatives_through_a_replaceable_packages_functions_match_central_differences() {
    let lib = library(&MEDIUM_FUNCTIONS);
    let out = export(&lib, "AccMediumFunctions.TwoVessels", &[]);
    let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("functions")
        .join("MediumFunctions.fmu");
    package(&out, &path, &shared_cache());
    let entries =
        check_fmu(&path, "AccMediumFunctions.TwoVessels").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(entries, 4, "a 2x2 Jacobian");
}

const OUTPUTS: [&str; 3] = [
    "examples/Base.mo",
    "examples/Thermal",
    "test_data/language/AccOutputs.mo",
];

/// `(rx, ry) := rotate(x, y, w)` in a function: one assignment per place,
/// each a call of the C function of its output (and its tangent twin).
#[test]
fn an_output_list_in_an_algorithm_reads_one_output_per_place() {
    let lib = library(&OUTPUTS);
    let diags = check_library(&lib);
    assert!(diags.is_empty(), "{diags:?}");
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let field = db
        .function(
            lib.tree
                .find_qualified("AccOutputs.field")
                .expect("declared"),
        )
        .expect("resolves");
    let rotate = db
        .function(
            lib.tree
                .find_qualified("AccOutputs.rotate")
                .expect("declared"),
        )
        .expect("resolves");
    assert_eq!(rotate.outputs().count(), 3);
    let text = unit(&field).text;
    for out in ["rx", "ry"] {
        let sym = format!("F_AccOutputs_rotate__{out}");
        assert!(text.contains(&format!("{sym}(ctx")), "{text}");
        assert!(text.contains(&format!("{sym}_t(ctx")), "{text}");
    }
    assert!(!text.contains("F_AccOutputs_rotate__length(ctx"), "{text}");
}

/// `(vx, vy) = field(x, y, w, d)` and `(, , r) = rotate(x, y, w)` in
/// equations: the model exports, and its Jacobian through both output
/// lists matches central differences.
#[test]
fn directional_derivatives_through_output_lists_match_central_differences() {
    let lib = library(&OUTPUTS);
    let out = export(&lib, "AccOutputs.Spiral", &[]);
    let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("functions")
        .join("Spiral.fmu");
    package(&out, &path, &shared_cache());
    let entries = check_fmu(&path, "AccOutputs.Spiral").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(entries, 4, "a 2x2 Jacobian");
}
