//! The whole pipeline on the bundled examples: text to kernels, kernels to a
//! packaged FMU, the FMU back through the harness, and the `mofmu` binary's
//! contract. The reference round trip repeats the mofmu leg of
//! `fmu-tests/roundtrip.py` on purpose, so that `cargo test` alone catches a
//! regression in any example.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mofmu::diagnostic::Diagnostic;
use mofmu::export::{export_model, ExportError, ExportOutput};
use mofmu::harness::{simulate, SimOptions};
use mofmu::instantiate::{SetLiteral, SetValue};
use mofmu::library::{load_library, Library};
use mofmu::loader::load_paths;
use mofmu::package::{build_fmu, BuildReport, ObjectCache};

const THERMAL: &[&str] = &["examples/Base.mo", "examples/Thermal"];
const SIGNALS: &[&str] = &["examples/Base.mo", "examples/Signals.mo"];
const ROD_HEATING: &str = "Thermal.Examples.RodHeating";
const ROD_CLASS: &str = "Thermal.Components.Rod";

/// The relative tolerance of every round-trip simulation (the one FMPy's
/// CVode uses in `fmu-tests/roundtrip.py`, which the case tolerances assume).
const ROUND_TRIP_RTOL: f64 = 1e-8;

pub(crate) fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn library(paths: &[&str]) -> Library {
    let paths: Vec<PathBuf> = paths.iter().map(|p| repo().join(p)).collect();
    let files = load_paths(&paths).expect("the bundled examples load");
    let lib = load_library(files);
    assert!(
        lib.diagnostics.is_empty(),
        "the bundled examples parse cleanly: {:?}",
        lib.diagnostics
    );
    lib
}

pub(crate) fn set(path: &str, value: f64) -> SetValue {
    SetValue {
        path: path.to_string(),
        value: value.into(),
    }
}

pub(crate) fn export(lib: &Library, model: &str, sets: &[SetValue]) -> ExportOutput {
    match export_model(lib, model, sets, 1.0) {
        Ok(out) => out,
        Err(e) => panic!("exporting {model} with {sets:?} failed: {e:?}"),
    }
}

/// [`export`] with the schedule interpreted: the system file and every
/// kernel are the same at every size of the model, whatever shape its
/// schedule takes (a compiled schedule is generated per shape, and the
/// roll-up of a small or two-dimensional array can give another one).
pub(crate) fn export_interpreted(lib: &Library, model: &str, sets: &[SetValue]) -> ExportOutput {
    let options = mofmu::export::ExportOptions {
        schedule: mofmu::fmu::image::compiled::ScheduleTier::Interpreted,
        ..Default::default()
    };
    match mofmu::export::export_model_options(lib, model, sets, 1.0, options) {
        Ok(out) => out,
        Err(e) => panic!("exporting {model} with {sets:?} failed: {e:?}"),
    }
}

/// Takes a Model Exchange instance from instantiation to continuous-time
/// mode at t = 0: initialization, then event iterations until none is
/// needed.
pub(crate) fn continuous_time(inst: &mut mofmu::harness::fmi2::Instance<'_>) {
    inst.setup_experiment(None, 0.0, None).expect("setup");
    inst.enter_initialization_mode().expect("init");
    inst.exit_initialization_mode().expect("exit init");
    while inst
        .new_discrete_states()
        .expect("event iteration")
        .new_discrete_states_needed
        != 0
    {}
    inst.enter_continuous_time_mode().expect("continuous time");
}

/// A cache kept under cargo's scratch directory, shared by the tests that
/// do not care whether their objects are compiled or reused.
pub(crate) fn shared_cache() -> ObjectCache {
    ObjectCache::new(Path::new(env!("CARGO_TARGET_TMPDIR")).join("export-object-cache"))
}

pub(crate) fn package(out: &ExportOutput, path: &Path, cache: &ObjectCache) -> BuildReport {
    build_fmu(&out.build_spec(), path, Some(cache))
        .unwrap_or_else(|e| panic!("packaging {} failed: {e}", out.model_identifier))
}

fn rod_kernel(out: &ExportOutput) -> &mofmu::codegen::kernel::Kernel {
    out.kernels
        .iter()
        .find(|k| k.qualified == ROD_CLASS)
        .unwrap_or_else(|| panic!("no kernel of {ROD_CLASS} among {:?}", kernel_names(out)))
}

fn kernel_names(out: &ExportOutput) -> Vec<&str> {
    out.kernels.iter().map(|k| k.qualified.as_str()).collect()
}

/// Whether `number` occurs in `text` as a numeric token of its own (not as
/// part of a longer number or identifier such as a hash).
fn contains_number_token(text: &str, number: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    text.match_indices(number).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + number.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

// --- Class kernels do not depend on the system -------------------------------

#[test]
fn rod_kernel_is_the_same_for_every_size() {
    let lib = library(THERMAL);
    let sizes = [5.0, 17.0, 10000.0];
    let outs: Vec<ExportOutput> = sizes
        .iter()
        .map(|&n| export(&lib, ROD_HEATING, &[set("rod.n", n)]))
        .collect();
    let first = rod_kernel(&outs[0]);
    for (n, out) in sizes.iter().zip(&outs).skip(1) {
        let kernel = rod_kernel(out);
        assert_eq!(kernel.file_name, first.file_name, "rod.n={n}");
        assert!(
            kernel.text == first.text,
            "the Rod kernel text changed with rod.n={n}"
        );
    }
    for size in ["17", "10000"] {
        assert!(
            !contains_number_token(&first.text, size),
            "the Rod kernel mentions the size {size}:\n{}",
            first.text
        );
    }
    // Nothing compiled depends on the size: the system file is the same
    // for every size, and the sizes live in the system resource instead.
    let systems: BTreeSet<&str> = outs.iter().map(|o| o.system_c.as_str()).collect();
    assert_eq!(systems.len(), 1, "the system file changed with the size");
    let resources: BTreeSet<&[u8]> = outs.iter().map(|o| o.system_resource.as_slice()).collect();
    assert_eq!(
        resources.len(),
        sizes.len(),
        "each size has its own system resource"
    );
    let n = 10000i64.to_le_bytes();
    assert!(
        outs[2].system_resource.windows(8).any(|w| w == n),
        "the resource of rod.n=10000 holds the size"
    );
    // What an FMU describes grows linearly with the size: dependencies of
    // unknowns that depend on very many knowns are left out, not listed
    // (10,000 derivatives of a dense 10,000-state pattern would be 10^8
    // entries).
    let per_variable = outs[2].model_description().len() / outs[2].table.variables.len();
    assert!(
        per_variable < 400,
        "the model description takes {per_variable} bytes per variable for rod.n=10000"
    );
}

#[test]
fn number_token_matching_ignores_longer_numbers_and_names() {
    assert!(contains_number_token("n = 17;", "17"));
    assert!(contains_number_token("f(17)", "17"));
    assert!(!contains_number_token("x = 170;", "17"));
    assert!(!contains_number_token("K_Rod_e17a", "17"));
    assert!(!contains_number_token("0.17", "17"));
}

// --- Same input, same FMU ----------------------------------------------------

#[test]
fn exporting_twice_gives_the_same_bytes_and_other_sets_another_guid() {
    let lib = library(THERMAL);
    let temp = tempfile::tempdir().expect("temporary directory");
    let first_cache = ObjectCache::new(temp.path().join("cache-a"));
    let second_cache = ObjectCache::new(temp.path().join("cache-b"));

    let out_a = export(&lib, ROD_HEATING, &[]);
    let out_b = export(&lib, ROD_HEATING, &[]);
    assert_eq!(out_a.table.guid, out_b.table.guid);

    let cold = temp.path().join("cold.fmu");
    let warm = temp.path().join("warm.fmu");
    let other_cold = temp.path().join("other-cold.fmu");
    let cold_report = package(&out_a, &cold, &first_cache);
    let warm_report = package(&out_b, &warm, &first_cache);
    package(&out_b, &other_cold, &second_cache);
    assert_eq!(cold_report.objects_from_cache, 0, "a fresh cache is empty");
    assert!(!cold_report.library_from_cache);
    assert_eq!(
        warm_report.objects_compiled, 0,
        "a re-export of an unchanged model compiles nothing"
    );
    assert!(
        warm_report.library_from_cache,
        "a re-export of an unchanged model copies its library from the cache"
    );

    let read = |p: &Path| std::fs::read(p).expect("the FMU was written");
    let cold_bytes = read(&cold);
    assert!(read(&warm) == cold_bytes, "cold and warm builds differ");
    assert!(
        read(&other_cold) == cold_bytes,
        "builds with two fresh caches differ"
    );

    let other = export(&lib, ROD_HEATING, &[set("rod.T0", 310.0)]);
    assert_ne!(other.table.guid, out_a.table.guid);
    let resized = export(&lib, ROD_HEATING, &[set("rod.n", 6.0)]);
    assert_ne!(resized.table.guid, out_a.table.guid);
    // The GUID in the description is the one the table holds.
    assert!(out_a.model_description().contains(&out_a.table.guid));
}

// --- Every example against its independent reference -------------------------

pub(crate) struct Case {
    pub(crate) name: String,
    pub(crate) libraries: Vec<String>,
    pub(crate) model: String,
    pub(crate) sets: Vec<SetValue>,
    pub(crate) stop_time: f64,
    pub(crate) output_interval: f64,
    pub(crate) reference: PathBuf,
    pub(crate) variables: Vec<String>,
    pub(crate) abs_tol: f64,
    pub(crate) rel_tol: f64,
    /// The solver's relative tolerance: the case's `solver_rtol`, or 1e-8.
    pub(crate) solver_rtol: f64,
    /// The model's own experiment stop time when the model ends the run earlier
    /// (a `terminate` at `stop_time`): the case's `experiment_stop_time`.
    pub(crate) experiment_stop_time: Option<f64>,
}

pub(crate) fn cases() -> Vec<Case> {
    let dir = repo().join("fmu-tests");
    let text = std::fs::read_to_string(dir.join("cases.toml")).expect("fmu-tests/cases.toml");
    let manifest: toml::Table = toml::from_str(&text).expect("cases.toml is TOML");
    let entries = manifest
        .get("case")
        .and_then(|c| c.as_array())
        .expect("cases.toml has [[case]] tables");
    entries
        .iter()
        .map(|entry| {
            let name = entry["name"].as_str().expect("case name").to_string();
            let field = |key: &str| {
                entry
                    .get(key)
                    .unwrap_or_else(|| panic!("case {name}: no `{key}`"))
            };
            let number = |key: &str| {
                let v = field(key);
                v.as_float()
                    .or_else(|| v.as_integer().map(|i| i as f64))
                    .unwrap_or_else(|| panic!("case {name}: `{key}` is not a number"))
            };
            let strings = |key: &str| -> Vec<String> {
                entry
                    .get(key)
                    .and_then(|v| v.as_array())
                    .map(|items| {
                        items
                            .iter()
                            .map(|s| s.as_str().expect("a string").to_string())
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let sets = strings("set")
                .iter()
                .map(|s| {
                    let (path, value) = s.split_once('=').expect("set is PATH=VALUE");
                    SetValue {
                        path: path.to_string(),
                        value: SetLiteral::parse(value).expect("a --set value"),
                    }
                })
                .collect();
            Case {
                libraries: strings("libraries"),
                model: field("model").as_str().expect("model").to_string(),
                sets,
                stop_time: number("stop_time"),
                output_interval: number("output_interval"),
                reference: dir.join(field("reference").as_str().expect("reference")),
                variables: strings("variables"),
                abs_tol: number("abs_tol"),
                rel_tol: number("rel_tol"),
                solver_rtol: entry
                    .get("solver_rtol")
                    .and_then(|v| v.as_float())
                    .unwrap_or(ROUND_TRIP_RTOL),
                experiment_stop_time: entry
                    .get("experiment_stop_time")
                    .map(|_| number("experiment_stop_time")),
                name,
            }
        })
        .collect()
}

/// A CSV of `"time"` and named columns, as the references are written.
fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let mut reader =
        csv::Reader::from_path(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let names = reader
        .headers()
        .expect("a header")
        .iter()
        .map(str::to_string)
        .collect();
    let rows = reader
        .records()
        .map(|r| {
            r.expect("a CSV record")
                .iter()
                .map(|v| v.trim().parse::<f64>().expect("a number"))
                .collect()
        })
        .collect();
    (names, rows)
}

/// `values` (sampled at the increasing `times`, possibly with an instant
/// listed twice at an event) linearly interpolated at `t`; `None` outside.
fn interpolate(times: &[f64], values: &[f64], t: f64) -> Option<f64> {
    // The reference's grid is k*h, as FMPy samples it; its last time may lie
    // an ulp past the stop time that the harness ends at (2000 * 2e-9 is
    // 4.000000000000001e-6): within the grid check's 1e-12 (make_references
    // .py, time_grid), that is the result's last row.
    if let (Some(&last), Some(&value)) = (times.last(), values.last()) {
        if t > last && t - last <= 1e-12 * t.abs() {
            return Some(value);
        }
    }
    let upper = times.partition_point(|&s| s < t);
    if upper < times.len() && times[upper] == t {
        return Some(values[upper]);
    }
    if upper == 0 || upper == times.len() {
        return None;
    }
    let (t0, t1) = (times[upper - 1], times[upper]);
    let w = (t - t0) / (t1 - t0);
    Some(values[upper - 1] + w * (values[upper] - values[upper - 1]))
}

/// True when `t` is listed twice in `times` (an event's left and right limits).
fn is_event_instant(times: &[f64], t: f64) -> bool {
    let first = times.partition_point(|&s| s < t);
    first + 1 < times.len() && times[first] == t && times[first + 1] == t
}

/// Runs one case; returns a description of every failure.
fn run_case(case: &Case, dir: &Path, cache: &ObjectCache) -> Vec<String> {
    let libraries: Vec<&str> = case.libraries.iter().map(String::as_str).collect();
    let lib = library(&libraries);
    let out = match export_model(&lib, &case.model, &case.sets, case.stop_time) {
        Ok(out) => out,
        Err(e) => return vec![format!("export failed: {e:?}")],
    };
    let fmu = dir.join(format!("{}.fmu", case.name));
    if let Err(e) = build_fmu(&out.build_spec(), &fmu, Some(cache)) {
        return vec![format!("packaging failed: {e}")];
    }
    let options = SimOptions {
        start_time: Some(0.0),
        stop_time: Some(case.stop_time),
        output_interval: Some(case.output_interval),
        relative_tolerance: Some(case.solver_rtol),
        start_values: Vec::new(),
        output: case.variables.clone(),
        ..SimOptions::default()
    };
    let result = match simulate(&fmu, &options) {
        Ok(r) => r,
        Err(e) => return vec![format!("simulation failed: {e}")],
    };
    let times = result.column("time").expect("a time column");
    let end = times.last().copied().unwrap_or(f64::NAN);
    let mut failures = Vec::new();
    if (end - case.stop_time).abs() > 1e-9 * case.stop_time.max(1.0) {
        failures.push(format!("the result ends at {end}, not {}", case.stop_time));
    }

    let (names, rows) = read_csv(&case.reference);
    let reference_times: Vec<f64> = rows.iter().map(|row| row[0]).collect();
    for variable in &case.variables {
        let Some(column) = names.iter().position(|n| n == variable) else {
            failures.push(format!("the reference has no column {variable}"));
            continue;
        };
        let Some(values) = result.column(variable) else {
            failures.push(format!("the result has no column {variable}"));
            continue;
        };
        let mut worst: Option<(f64, f64, f64, f64)> = None;
        for row in &rows {
            let (t, expected) = (row[0], row[column]);
            // At an event instant the result lists the values before and after
            // it; which one a reference row means is ambiguous (a relation's
            // Boolean jumps there), so such instants are left out, as in
            // fmu-tests/roundtrip.py; so are the instants the reference lists
            // twice (a clocked partition's tick on the grid, before and after).
            if is_event_instant(&times, t) || is_event_instant(&reference_times, t) {
                continue;
            }
            let Some(actual) = interpolate(&times, &values, t) else {
                failures.push(format!("{variable}: no result at t = {t}"));
                break;
            };
            let allowed = case.abs_tol + case.rel_tol * expected.abs();
            let error = (actual - expected).abs();
            // A NaN error fails too: it is not within any tolerance.
            let within = error <= allowed;
            if !within && worst.map_or(true, |(_, _, _, e)| error > e || e.is_nan()) {
                worst = Some((t, actual, expected, error));
            }
        }
        if let Some((t, actual, expected, error)) = worst {
            failures.push(format!(
                "{variable}: worst at t = {t}: {actual} vs reference {expected} (error {error:e}, tolerance {:e} + {:e}*|ref|)",
                case.abs_tol, case.rel_tol
            ));
        }
    }
    failures
}

#[test]
fn every_example_case_matches_its_reference() {
    let cases = cases();
    assert!(cases.len() >= 9, "cases.toml lists the bundled examples");
    let temp = tempfile::tempdir().expect("temporary directory");
    let cache = shared_cache();
    // The cases are independent; two threads halve the wall time on the
    // small machines this runs on without crowding them.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut report: Vec<(usize, String)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut lines = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(case) = cases.get(i) else { break };
                        for failure in run_case(case, temp.path(), &cache) {
                            lines.push((i, format!("{}: {failure}", case.name)));
                        }
                    }
                    lines
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a case worker panicked"))
            .collect()
    });
    report.sort();
    let lines: Vec<String> = report.into_iter().map(|(_, l)| l).collect();
    assert!(lines.is_empty(), "failing cases:\n{}", lines.join("\n"));
}

#[test]
fn interpolation_uses_exact_points_and_stays_inside() {
    let times = [0.0, 1.0, 1.0, 3.0];
    let values = [0.0, 2.0, 2.0, 6.0];
    assert_eq!(interpolate(&times, &values, 0.5), Some(1.0));
    assert_eq!(interpolate(&times, &values, 1.0), Some(2.0));
    assert_eq!(interpolate(&times, &values, 2.0), Some(4.0));
    assert_eq!(interpolate(&times, &values, 3.0), Some(6.0));
    assert_eq!(interpolate(&times, &values, 3.5), None);
    assert_eq!(interpolate(&times, &values, -0.5), None);
    assert!(is_event_instant(&times, 1.0));
    assert!(!is_event_instant(&times, 0.0));
    assert!(!is_event_instant(&times, 3.0));
    assert!(!is_event_instant(&times, 2.0));
}

// --- The FMU is self-contained ------------------------------------------------

/// The FMI 2.0 functions a Model Exchange importer resolves.
const FMI2_MODEL_EXCHANGE: &[&str] = &[
    "fmi2GetTypesPlatform",
    "fmi2GetVersion",
    "fmi2SetDebugLogging",
    "fmi2Instantiate",
    "fmi2FreeInstance",
    "fmi2SetupExperiment",
    "fmi2EnterInitializationMode",
    "fmi2ExitInitializationMode",
    "fmi2Terminate",
    "fmi2Reset",
    "fmi2GetReal",
    "fmi2GetInteger",
    "fmi2GetBoolean",
    "fmi2GetString",
    "fmi2SetReal",
    "fmi2SetInteger",
    "fmi2SetBoolean",
    "fmi2SetString",
    "fmi2GetFMUstate",
    "fmi2SetFMUstate",
    "fmi2FreeFMUstate",
    "fmi2SerializedFMUstateSize",
    "fmi2SerializeFMUstate",
    "fmi2DeSerializeFMUstate",
    "fmi2GetDirectionalDerivative",
    "fmi2EnterEventMode",
    "fmi2NewDiscreteStates",
    "fmi2EnterContinuousTimeMode",
    "fmi2CompletedIntegratorStep",
    "fmi2SetTime",
    "fmi2SetContinuousStates",
    "fmi2GetDerivatives",
    "fmi2GetEventIndicators",
    "fmi2GetContinuousStates",
    "fmi2GetNominalsOfContinuousStates",
];

/// The libraries an FMU may need at run time.
const ALLOWED_NEEDED: &[&str] = &["libc.so.6", "libm.so.6"];

/// The defined dynamic symbols and the `DT_NEEDED` entries of an ELF shared
/// library, as `nm -D --defined-only` and `readelf -d` show them.
fn dynamic_linkage(elf: &[u8]) -> (BTreeSet<String>, Vec<String>) {
    use object::elf;
    use object::read::elf::{Dyn as _, ElfFile64, FileHeader as _};
    use object::{Object as _, ObjectSymbol as _};

    let file = ElfFile64::<object::Endianness>::parse(elf).expect("an ELF64 shared library");
    let defined = file
        .dynamic_symbols()
        .filter(|s| !s.is_undefined())
        .map(|s| s.name().expect("a symbol name").to_string())
        .filter(|n| !n.is_empty())
        .collect();

    let endian = file.endian();
    let sections = file
        .elf_header()
        .sections(endian, elf)
        .expect("a section table");
    // The index returned with the entries is that of their string table.
    let (entries, string_table) = sections
        .dynamic(endian, elf)
        .expect("a readable dynamic section")
        .expect("a shared library has a dynamic section");
    let strings = sections
        .strings(endian, elf, string_table)
        .expect("the dynamic string table");
    let needed = entries
        .iter()
        .filter(|d| d.tag32(endian) == Some(elf::DT_NEEDED))
        .map(|d| {
            let offset = u32::try_from(d.d_val(endian)).expect("a 32-bit string offset");
            String::from_utf8_lossy(strings.get(offset).expect("a needed name")).into_owned()
        })
        .collect();
    (defined, needed)
}

#[test]
fn fmu_exports_only_fmi_and_needs_only_libc() {
    let temp = tempfile::tempdir().expect("temporary directory");
    let cache = shared_cache();
    for (paths, model) in [
        (THERMAL, ROD_HEATING),
        (SIGNALS, "Signals.Examples.PIControlLoop"),
    ] {
        let out = export(&library(paths), model, &[]);
        let fmu = temp.path().join(format!("{model}.fmu"));
        package(&out, &fmu, &cache);
        let mut archive =
            zip::ZipArchive::new(std::fs::File::open(&fmu).expect("the FMU")).expect("a zip");
        let mut so = Vec::new();
        archive
            .by_name(&format!("binaries/linux64/{}.so", out.model_identifier))
            .expect("the shared library in the FMU")
            .read_to_end(&mut so)
            .expect("readable");

        let (defined, needed) = dynamic_linkage(&so);
        let missing: Vec<&&str> = FMI2_MODEL_EXCHANGE
            .iter()
            .filter(|f| !defined.contains(**f))
            .collect();
        assert!(missing.is_empty(), "{model}: not exported: {missing:?}");
        let internal: Vec<&String> = defined
            .iter()
            .filter(|s| s.starts_with("K_") || s.starts_with("mofmu_"))
            .collect();
        assert!(
            internal.is_empty(),
            "{model}: internal symbols exported: {internal:?}"
        );
        let foreign: Vec<&String> = defined.iter().filter(|s| !s.starts_with("fmi2")).collect();
        assert!(
            foreign.is_empty(),
            "{model}: non-FMI symbols exported: {foreign:?}"
        );
        // The reader found the dynamic section: the runtime uses libc.
        assert!(
            needed.iter().any(|n| n == "libc.so.6"),
            "{model}: DT_NEEDED {needed:?}"
        );
        assert!(
            needed.iter().all(|n| ALLOWED_NEEDED.contains(&n.as_str())),
            "{model}: needs {needed:?}, only {ALLOWED_NEEDED:?} allowed"
        );
    }
}

// --- Export errors -------------------------------------------------------------

fn export_error(lib: &Library, model: &str, sets: &[SetValue]) -> ExportError {
    match export_model(lib, model, sets, 1.0) {
        Ok(_) => panic!("exporting {model} with {sets:?} succeeded"),
        Err(e) => e,
    }
}

#[test]
fn unknown_models_are_named_back() {
    let lib = library(THERMAL);
    for model in ["Thermal.Examples.NoSuchModel", "NoSuchLibrary.Model", ""] {
        match export_error(&lib, model, &[]) {
            ExportError::UnknownModel(name) => assert_eq!(name, model),
            other => panic!("{model:?}: expected UnknownModel, got {other:?}"),
        }
    }
    // A package is a class, but not one that can be exported.
    let error = export_error(&lib, "Thermal.Examples", &[]);
    match &error {
        ExportError::NotAModel { name, kind, models } => {
            assert_eq!(name, "Thermal.Examples");
            assert_eq!(*kind, "package");
            assert!(models.contains(&"Thermal.Examples.RodHeating".to_string()));
        }
        other => panic!("expected NotAModel for a package, got {other:?}"),
    }
    // The name stands in backticks on its own; the note follows them.
    let text = error.to_string();
    assert!(
        text.starts_with("`Thermal.Examples` is a package, not a model; models in it: "),
        "{text}"
    );
}

#[test]
fn bad_sets_are_diagnostics() {
    let lib = library(THERMAL);
    // (set, expected code, text the message must contain)
    let cases: &[(SetValue, &str, &str)] = &[
        (set("rod.m", 3.0), "MX001", "rod.m"),
        (set("nobody.n", 3.0), "MX001", "nobody.n"),
        (set("rod.n", 0.0), "MX004", "size 0"),
        (set("rod.n", -4.0), "MX004", "rod.T"),
        (set("rod.n", 2.5), "MX003", "whole number"),
        // `n(min = 2)`: a rod of one volume would only fail at simulation.
        (
            set("rod.n", 1.0),
            "MX009",
            "`rod.n` = 1 (from --set) is below its min = 2",
        ),
    ];
    for (value, code, text) in cases {
        let diagnostics: Vec<Diagnostic> =
            match export_error(&lib, ROD_HEATING, std::slice::from_ref(value)) {
                ExportError::Diagnostics(d) => d,
                other => panic!("{value:?}: expected diagnostics, got {other:?}"),
            };
        assert!(
            diagnostics
                .iter()
                .any(|d| d.code == *code && d.message.contains(text)),
            "{value:?}: expected {code} mentioning {text:?}, got {diagnostics:?}"
        );
        assert!(
            diagnostics.iter().all(|d| !d.help.is_empty()),
            "{value:?}: every diagnostic says what to do: {diagnostics:?}"
        );
    }
}

// --- The command line ----------------------------------------------------------

fn mofmu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mofmu"))
        .args(args)
        .current_dir(repo())
        .env(
            "MOFMU_CACHE_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-object-cache"),
        )
        .output()
        .expect("the mofmu binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `^[^:]+:\d+:\d+: error\[[A-Z]+\d+\]: .+$`, written out.
fn is_short_error_line(line: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut parts = line.splitn(4, ':');
    let (Some(path), Some(row), Some(col), Some(rest)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let Some(rest) = rest.strip_prefix(" error[") else {
        return false;
    };
    let Some((code, message)) = rest.split_once("]: ") else {
        return false;
    };
    let letters = code.bytes().take_while(|b| b.is_ascii_uppercase()).count();
    !path.is_empty()
        && digits(row)
        && digits(col)
        && letters > 0
        && digits(&code[letters..])
        && !message.is_empty()
}

#[test]
fn short_error_line_shape() {
    assert!(is_short_error_line(
        "a.mo:2:3: error[MC029]: `x` is never determined"
    ));
    assert!(!is_short_error_line("a.mo:2: error[MC029]: no column"));
    assert!(!is_short_error_line("a.mo:2:3: error[029]: no letters"));
    assert!(!is_short_error_line("a.mo:2:3: error[MC]: no digits"));
    assert!(!is_short_error_line("a.mo:2:3: error[MC029]: "));
    assert!(!is_short_error_line(
        "a.mo:2:3: warning[MC029]: not an error"
    ));
}

#[test]
fn cli_check_passes_the_examples_and_reports_a_bad_file_in_short_form() {
    for paths in [THERMAL, SIGNALS] {
        let mut args = vec!["check"];
        args.extend_from_slice(paths);
        let output = mofmu(&args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "check {paths:?}: {}",
            text(&output.stderr)
        );
    }

    let temp = tempfile::tempdir().expect("temporary directory");
    let bad = temp.path().join("Bad.mo");
    std::fs::write(
        &bad,
        "model Bad\n  Real x;\n  Real y;\nequation\n  x = ;\n  y = y + 1;\nend Bad;\n",
    )
    .expect("writable");
    let bad = bad.to_str().expect("a UTF-8 temporary path");
    let output = mofmu(&["check", "--message-format", "short", bad]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(!lines.is_empty(), "no diagnostics printed");
    for line in &lines {
        assert!(
            is_short_error_line(line),
            "not a short diagnostic: {line:?}"
        );
        assert!(line.starts_with(bad), "names another file: {line:?}");
    }
}

#[test]
fn cli_export_then_simulate() {
    let temp = tempfile::tempdir().expect("temporary directory");
    let fmu = temp.path().join("RodHeating.fmu");
    let fmu_arg = fmu.to_str().expect("a UTF-8 temporary path");
    let mut args = vec!["export"];
    args.extend_from_slice(THERMAL);
    args.extend_from_slice(&["--model", ROD_HEATING, "-o", fmu_arg, "--set", "rod.n=4"]);
    let output = mofmu(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains(fmu_arg),
        "export does not say where the FMU went: {}",
        text(&output.stdout)
    );
    let archive = zip::ZipArchive::new(std::fs::File::open(&fmu).expect("the FMU was created"))
        .expect("the FMU is a zip");
    assert!(archive.file_names().any(|n| n == "modelDescription.xml"));

    let csv = temp.path().join("result.csv");
    let csv_arg = csv.to_str().expect("a UTF-8 temporary path");
    let output = mofmu(&["simulate", fmu_arg, "--stop-time", "10", "-o", csv_arg]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains(csv_arg));
    let written = std::fs::read_to_string(&csv).expect("simulate wrote the CSV");
    let header = written.lines().next().unwrap_or_default();
    assert!(header.starts_with("\"time\""), "header: {header}");
    assert!(header.contains("\"rod.T[3]\""), "header: {header}");
    assert!(written.lines().count() > 2, "the CSV has rows");

    // --stats: the integrator's counters, a step count that is not zero.
    let output = mofmu(&[
        "simulate",
        fmu_arg,
        "--stop-time",
        "10",
        "-o",
        csv_arg,
        "--stats",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let steps = stdout
        .lines()
        .find_map(|l| l.strip_prefix("steps: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok());
    assert!(steps.is_some_and(|n| n > 0), "{stdout}");
    assert!(stdout.contains("right-hand sides: "), "{stdout}");
    assert!(stdout.contains("Jacobians: "), "{stdout}");
}

#[test]
fn cli_failed_export_leaves_the_output_alone() {
    let temp = tempfile::tempdir().expect("temporary directory");
    let absent = temp.path().join("absent.fmu");
    let existing = temp.path().join("existing.fmu");
    std::fs::write(&existing, b"an older FMU").expect("writable");
    let failures: &[&[&str]] = &[
        &["--model", "Thermal.Examples.NoSuchModel"],
        &["--model", ROD_HEATING, "--set", "rod.n=0"],
        &["--model", ROD_HEATING, "--set", "rod.m=3"],
    ];
    for extra in failures {
        for target in [&absent, &existing] {
            let mut args = vec!["export"];
            args.extend_from_slice(THERMAL);
            args.extend_from_slice(extra);
            args.extend_from_slice(&["-o", target.to_str().expect("a UTF-8 temporary path")]);
            let output = mofmu(&args);
            assert_eq!(
                output.status.code(),
                Some(1),
                "{extra:?}: {}",
                text(&output.stderr)
            );
        }
        assert!(!absent.exists(), "{extra:?} created {}", absent.display());
        assert_eq!(
            std::fs::read(&existing).expect("still there"),
            b"an older FMU",
            "{extra:?} touched the existing file"
        );
    }
    // Nothing but the existing file is there (no temporary archive left).
    let left: Vec<_> = std::fs::read_dir(temp.path())
        .expect("readable")
        .map(|e| e.expect("an entry").file_name())
        .collect();
    assert_eq!(left.len(), 1, "left behind: {left:?}");
}

#[test]
fn integer_and_boolean_parameters_have_their_own_value_references() {
    let text = "package Bo\n  block B\n    parameter Boolean on = true;\n    parameter Integer n = 3;\n    parameter Boolean off = false;\n    output Real y;\n  equation\n    y = if on and not off then n else 0;\n  end B;\nend Bo;\n";
    let lib = mofmu::library::load_library(vec![("bool.mo".into(), text.into())]);
    let out = export(&lib, "Bo.B", &[]);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("booleans");
    let fmu_path = dir.join("bool.fmu");
    package(&out, &fmu_path, &shared_cache());
    let fmu = mofmu::harness::Fmu::load(&fmu_path).expect("loads");
    let md = fmu.model_description().clone();
    let vr = |name: &str| md.variable(name).expect(name).value_reference;
    let mut inst = fmu.instantiate("b", false).expect("instantiates");
    inst.setup_experiment(None, 0.0, None).expect("setup");
    inst.enter_initialization_mode().expect("init");
    inst.exit_initialization_mode().expect("exit init");
    assert_eq!(
        inst.get_boolean(&[vr("on"), vr("off")]).expect("booleans"),
        vec![true, false]
    );
    assert_eq!(inst.get_integer(&[vr("n")]).expect("integers"), vec![3]);
    assert_eq!(inst.get_real(&[vr("y")]).expect("y"), vec![3.0]);
}

/// Output piped into a reader that stops early (`| head -1`) ends mofmu
/// quietly: no panic message, no exit code 101.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mofmu"))
        .args([
            "units",
            "examples/Base.mo",
            "examples/Signals.mo",
            "examples/Planar",
        ])
        .current_dir(repo())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the mofmu binary runs");
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut first = String::new();
    BufReader::new(stdout)
        .read_line(&mut first)
        .expect("the first line arrives");
    // The reader is dropped here, as `head -1` exits after one line.
    assert!(first.contains(": "), "{first}");
    let out = child.wait_with_output().expect("mofmu ends");
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(out.status.code(), Some(101), "{stderr}");
}

// --- The system resource ---------------------------------------------------------

pub(crate) fn zip_entry(fmu: &Path, name: &str) -> Vec<u8> {
    let mut archive = zip::ZipArchive::new(std::fs::File::open(fmu).expect("the FMU opens"))
        .expect("the FMU is a zip");
    let mut entry = archive.by_name(name).expect("the entry exists");
    let mut bytes = Vec::new();
    entry.read_to_end(&mut bytes).expect("the entry reads");
    bytes
}

/// The message `fmi2Instantiate` logged when it refused the unpacked FMU.
fn refusal(fmu: &mofmu::harness::Fmu) -> String {
    match fmu.instantiate("refused", false) {
        Ok(_) => panic!("the FMU instantiated"),
        Err(mofmu::harness::HarnessError::InstantiateFailed { log }) => log.join("\n"),
        Err(other) => panic!("unexpected error: {other}"),
    }
}

#[test]
fn the_library_is_the_same_for_every_size_and_its_resource_is_checked() {
    let lib = library(THERMAL);
    let dir = tempfile::tempdir().expect("temporary directory");
    let cache = ObjectCache::new(dir.path().join("cache"));
    let small = dir.path().join("rod5.fmu");
    let large = dir.path().join("rod20000.fmu");
    package(
        &export(&lib, ROD_HEATING, &[set("rod.n", 5.0)]),
        &small,
        &cache,
    );
    let report = package(
        &export(&lib, ROD_HEATING, &[set("rod.n", 20000.0)]),
        &large,
        &cache,
    );
    assert_eq!(
        (report.objects_compiled, report.library_from_cache),
        (0, true),
        "another size compiled something"
    );
    let so = "binaries/linux64/Thermal_Examples_RodHeating.so";
    assert!(
        zip_entry(&small, so) == zip_entry(&large, so),
        "the library differs between rod.n = 5 and rod.n = 20000"
    );
    let resource = "resources/mofmu_system.bin";
    assert_ne!(zip_entry(&small, resource), zip_entry(&large, resource));

    let fmu = mofmu::harness::Fmu::load(&large).expect("loads");
    let path = fmu.directory().join(resource);
    let good = std::fs::read(&path).expect("the resource is unpacked");
    let mut damaged = good.clone();
    damaged[good.len() / 2] ^= 0x10;
    std::fs::write(&path, &damaged).expect("writes");
    let log = refusal(&fmu);
    assert!(
        log.contains("mofmu_system.bin: its checksum does not match"),
        "{log}"
    );
    std::fs::write(&path, &good[..good.len() / 3]).expect("writes");
    assert!(refusal(&fmu).contains("checksum does not match"));
    std::fs::write(&path, b"MOFMU").expect("writes");
    assert!(refusal(&fmu).contains("it is too short"));
    // Another export's resource fits the library but not the model
    // description's GUID.
    std::fs::write(&path, zip_entry(&small, resource)).expect("writes");
    let log = refusal(&fmu);
    assert!(log.contains("does not match this FMU's GUID"), "{log}");
    std::fs::remove_file(&path).expect("removes");
    let log = refusal(&fmu);
    assert!(
        log.contains("cannot open") && log.contains("mofmu_system.bin"),
        "{log}"
    );
    // Put back, it works again.
    std::fs::write(&path, &good).expect("writes");
    let mut inst = fmu.instantiate("restored", false).expect("instantiates");
    inst.setup_experiment(None, 0.0, None).expect("setup");
    inst.enter_initialization_mode().expect("init");
    inst.exit_initialization_mode().expect("exit init");
    let mut x = vec![0.0; 20000];
    inst.get_continuous_states(&mut x).expect("states");
    assert!(x.iter().all(|&t| t == 300.0), "start values are not read");
}

/// Issue 21's scale bar for component arrays: Acc4's chain of `n`
/// conductor–capacitor pairs exported at n = 10 and n = 10^4 ships the same
/// shared library, and the second export compiles nothing (n instances of a
/// class add no class code; the sizes live in the system resource). The
/// large chain loads back with its 10^4 states at their start value.
#[test]
fn a_component_array_ships_the_same_library_at_every_size() {
    let lib = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/Acc4.mo",
    ]);
    let dir = tempfile::tempdir().expect("temporary directory");
    let cache = ObjectCache::new(dir.path().join("cache"));
    let small = dir.path().join("chain10.fmu");
    let large = dir.path().join("chain10000.fmu");
    let first = package(
        &export(&lib, "Acc4.Chain", &[set("n", 10.0)]),
        &small,
        &cache,
    );
    assert!(
        first.objects_compiled > 0,
        "the first export compiles the kernels"
    );
    let report = package(
        &export(&lib, "Acc4.Chain", &[set("n", 10_000.0)]),
        &large,
        &cache,
    );
    assert_eq!(
        (report.objects_compiled, report.library_from_cache),
        (0, true),
        "the chain at n = 10^4 compiled something"
    );
    let so = "binaries/linux64/Acc4_Chain.so";
    assert!(
        zip_entry(&small, so) == zip_entry(&large, so),
        "the library differs between n = 10 and n = 10^4"
    );
    let resource = "resources/mofmu_system.bin";
    assert_ne!(zip_entry(&small, resource), zip_entry(&large, resource));

    repeats_are_checked_when_loaded(&small);

    let fmu = mofmu::harness::Fmu::load(&large).expect("loads");
    assert_eq!(fmu.model_description().derivatives.len(), 10_000);
    let mut inst = fmu.instantiate("chain", false).expect("instantiates");
    inst.setup_experiment(None, 0.0, None).expect("setup");
    inst.enter_initialization_mode().expect("init");
    inst.exit_initialization_mode().expect("exit init");
    let mut x = vec![0.0; 10_000];
    inst.get_continuous_states(&mut x).expect("states");
    assert!(x.iter().all(|&t| t == 300.0), "start values are not read");
}

/// The chain's right-hand side as the runtime runs it for an array of
/// components (each array's block through the kernel's batched entry, the
/// `for` loops' connection copies as strided loops, all of them in one
/// fused loop whose 300 rounds span three tiles, so that the flow balances
/// skewed by one element meet the tiles' edges) against the textbook
/// equations of n conductors (Q_i = G (T_{i-1} - T_i), T_0 the source's
/// 400 K) and capacitors (C der(T_i) = Q_i - Q_{i+1}, Q_{n+1} = 0), at
/// distinct temperatures: bit for bit, since both compute the same
/// operations (the flow balance -((-Q_i) + Q_{i+1}) is Q_i - Q_{i+1}
/// exactly). The tangent along a seed of every state is checked the same
/// way against the equations' linearisation.
#[test]
fn an_array_of_components_runs_its_batched_blocks_as_the_equations_say() {
    let lib = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/Acc4.mo",
    ]);
    let dir = tempfile::tempdir().expect("temporary directory");
    let n = 300;
    let path = dir.path().join("chain.fmu");
    package(
        &export(&lib, "Acc4.Chain", &[set("n", n as f64)]),
        &path,
        &shared_cache(),
    );
    let fmu = mofmu::harness::Fmu::load(&path).expect("loads");
    let (state_vr, der_vr) = fmu
        .model_description()
        .state_and_derivative_references()
        .expect("states");
    assert_eq!(state_vr.len(), n);
    let mut inst = fmu.instantiate("chain", false).expect("instantiates");
    continuous_time(&mut inst);
    let (g, c, source) = (2.0f64, 50.0f64, 400.0f64);
    let t: Vec<f64> = (0..n)
        .map(|i| 300.0 + 1.7 * i as f64 + (i * i % 7) as f64)
        .collect();
    inst.set_continuous_states(&t).expect("states");
    let mut ours = vec![0.0; n];
    inst.get_derivatives(&mut ours).expect("derivatives");
    let flow = |x: &[f64], left: f64, i: usize| -> f64 {
        let before = if i == 0 { left } else { x[i - 1] };
        g * (before - x[i])
    };
    let expected: Vec<f64> = (0..n)
        .map(|i| {
            let next = if i + 1 < n {
                flow(&t, source, i + 1)
            } else {
                0.0
            };
            (flow(&t, source, i) - next) / c
        })
        .collect();
    assert_eq!(ours, expected, "the chain's derivatives");
    let seed: Vec<f64> = (0..n).map(|i| 0.25 + (i % 5) as f64).collect();
    let tangent = inst
        .get_directional_derivative(&der_vr, &state_vr, &seed)
        .expect("tangent");
    let expected: Vec<f64> = (0..n)
        .map(|i| {
            let next = if i + 1 < n {
                flow(&seed, 0.0, i + 1)
            } else {
                0.0
            };
            (flow(&seed, 0.0, i) - next) / c
        })
        .collect();
    assert_eq!(tangent, expected, "the chain's tangent");
}

/// The chain at n = 10 runs each array's block as a repeat of 10 rounds
/// (`u8 3, u32 10, u32 1` then the block's tag): the capacitors' first, the
/// conductors' next. One more round names an instance past the last
/// (capacitors are the last instances) or one of another class (after the
/// conductors come the capacitors); the loader refuses both.
fn repeats_are_checked_when_loaded(chain10: &Path) {
    let fmu = mofmu::harness::Fmu::load(chain10).expect("loads");
    let path = fmu.directory().join("resources/mofmu_system.bin");
    let good = std::fs::read(&path).expect("the resource is unpacked");
    let mut pattern = vec![3u8];
    pattern.extend_from_slice(&10u32.to_le_bytes());
    pattern.extend_from_slice(&1u32.to_le_bytes());
    pattern.push(1);
    let repeats: Vec<usize> = (0..good.len() - pattern.len())
        .filter(|&i| good[i..i + pattern.len()] == pattern[..])
        .collect();
    assert!(repeats.len() >= 2, "the block repeats are in the resource");
    let with_count = |at: usize, count: u32| {
        let mut bytes = good.clone();
        bytes[at + 1..at + 5].copy_from_slice(&count.to_le_bytes());
        let end = bytes.len() - 8;
        let sum = mofmu::fmu::image::system_image::fnv1a(&bytes[..end]);
        bytes[end..].copy_from_slice(&sum.to_le_bytes());
        bytes
    };
    std::fs::write(&path, with_count(repeats[0], 11)).expect("writes");
    let log = refusal(&fmu);
    assert!(log.contains("names an unknown instance"), "{log}");
    std::fs::write(&path, with_count(repeats[1], 11)).expect("writes");
    let log = refusal(&fmu);
    assert!(
        log.contains("a repeat of the schedule mixes classes"),
        "{log}"
    );
    std::fs::write(&path, with_count(repeats[1], 0)).expect("writes");
    let log = refusal(&fmu);
    assert!(log.contains("has no rounds"), "{log}");
    // The fused loop of the chain's ten units: a skew that takes it past
    // 32 bits of rounds is refused.
    let mut fused = vec![4u8];
    fused.extend_from_slice(&10u32.to_le_bytes());
    let at = (0..good.len() - fused.len())
        .find(|&i| good[i..i + fused.len()] == fused[..])
        .expect("the chain's units are fused");
    std::fs::write(&path, with_count(at + 4, u32::MAX)).expect("writes");
    let log = refusal(&fmu);
    assert!(
        log.contains("a fused loop of the schedule has too many rounds"),
        "{log}"
    );
    std::fs::write(&path, &good).expect("writes");
    fmu.instantiate("restored", false)
        .expect("instantiates again");
}

/// An array of components whose class has a state event: the runtime runs
/// the array's blocks as one repeat of the schedule, each round with its
/// element's own relations and event indicator. Element `i` integrates
/// `max(exp(-t), lower_i)`, which is `1 - lower + lower (t - t*)` after
/// its event at `t* = -ln(lower)`; the four events fall at different times
/// and each must be located for its own element, in Model Exchange and in
/// Co-Simulation.
#[test]
fn an_array_of_components_with_events_locates_each_elements_event() {
    let lib = library_with(
        "encapsulated package Clips
  import B = Base;

  model Clip \"Integrates exp(-t), clipped from below\"
    parameter Real lower = 0.5 \"Lower limit\";
    Real u \"Signal\";
    Real y \"Clipped signal\";
    B.ContinuousState x(start = 0) \"Integral of y\";
  equation
    u = exp(-time);
    if u < lower then
      y = lower;
    else
      y = u;
    end if;
    der(x) = y;
  end Clip;

  model Row \"Four clips with different limits\"
    Clip c[4](lower = {0.8, 0.6, 0.4, 0.2});
  end Row;
end Clips;
",
    );
    let out = export(&lib, "Clips.Row", &[]);
    assert_eq!(out.table.number_of_event_indicators, 4);
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("row.fmu");
    package(&out, &path, &ObjectCache::new(dir.path().join("cache")));
    let stop = 3.0;
    for interface in [
        mofmu::harness::Interface::ModelExchange,
        mofmu::harness::Interface::CoSimulation,
    ] {
        let options = SimOptions {
            stop_time: Some(stop),
            relative_tolerance: Some(1e-9),
            interface: Some(interface),
            ..SimOptions::default()
        };
        let result = simulate(&path, &options).expect("simulates");
        for (i, lower) in [0.8f64, 0.6, 0.4, 0.2].into_iter().enumerate() {
            let x = result
                .column(&format!("c[{}].x", i + 1))
                .expect("the state is recorded");
            let at_stop = *x.last().expect("rows");
            let exact = 1.0 - lower + lower * (stop + lower.ln());
            assert!(
                ((at_stop - exact) / exact).abs() < 1e-5,
                "{interface:?}: c[{}].x({stop}) = {at_stop}, closed form {exact}",
                i + 1
            );
        }
    }
}

/// Issue 21's Acc2: a replaceable medium redeclared per instance checks
/// clean, exports one kernel per specialisation (the vessel with water as
/// written, with oil specialised) and matches the closed form of its
/// linear ODE at 600 s when loaded back.
#[test]
fn acc2_a_redeclared_medium_exports_one_kernel_per_specialisation() {
    let lib = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/Acc2.mo",
    ]);
    assert!(mofmu::library::check_library(&lib).is_empty());
    let out = export(&lib, "Acc2.TwoVessels", &[]);
    let mut classes: Vec<&str> = out.kernels.iter().map(|k| k.qualified.as_str()).collect();
    classes.sort();
    assert_eq!(
        classes,
        [
            "Acc2.TwoVessels",
            "Acc2.Vessel",
            "Acc2.Vessel(Medium = Acc2.Media.Oil)"
        ]
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("Acc2.fmu");
    package(&out, &path, &shared_cache());
    let options = mofmu::harness::SimOptions {
        stop_time: Some(600.0),
        relative_tolerance: Some(ROUND_TRIP_RTOL),
        ..mofmu::harness::SimOptions::default()
    };
    let result = mofmu::harness::simulate(&path, &options).expect("simulates");
    // T(t) = T_inf + (T0 - T_inf) exp(-G t/(rho V cp)), T_inf = T_amb + Q/G.
    let closed = |cp: f64, rho: f64| {
        let t_inf = 293.15 + 500.0 / 20.0;
        t_inf + (293.15 - t_inf) * (-20.0 * 600.0 / (rho * 0.01 * cp)).exp()
    };
    for (name, expected) in [
        ("w.T", closed(4184.0, 995.0)),
        ("a.T", closed(1900.0, 870.0)),
    ] {
        let last = *result.column(name).expect("recorded").last().expect("rows");
        let error = (last - expected).abs() / expected;
        assert!(error < 1e-6, "{name}: {last} vs {expected}");
    }
}
/// Functions through a replaceable package (`AccMediumFunctions`): one
/// kernel per specialisation, and each vessel's enthalpy, reached through
/// `Medium.temperature(h)` of its own liquid, matches the closed form of
/// m*cp*T' = Q - G*(T - T_amb) at 3000 s when loaded back.
#[test]
fn medium_functions_through_a_replaceable_package_match_the_closed_form() {
    let lib = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/AccMediumFunctions.mo",
    ]);
    assert!(mofmu::library::check_library(&lib).is_empty());
    let out = export(&lib, "AccMediumFunctions.TwoVessels", &[]);
    let mut classes: Vec<&str> = out.kernels.iter().map(|k| k.qualified.as_str()).collect();
    classes.sort();
    assert_eq!(
        classes,
        [
            "AccMediumFunctions.TwoVessels",
            "AccMediumFunctions.Vessel",
            "AccMediumFunctions.Vessel(Medium = AccMediumFunctions.Media.Oil)"
        ]
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("AccMediumFunctions.fmu");
    package(&out, &path, &shared_cache());
    let options = mofmu::harness::SimOptions {
        stop_time: Some(3000.0),
        relative_tolerance: Some(ROUND_TRIP_RTOL),
        output: ["w.T", "w.h", "o.T", "o.h"].map(String::from).to_vec(),
        ..mofmu::harness::SimOptions::default()
    };
    let result = mofmu::harness::simulate(&path, &options).expect("simulates");
    let temperature = |cp: f64| {
        let t_inf = 293.15 + 500.0 / 20.0;
        t_inf + (293.15 - t_inf) * (-20.0 * 3000.0 / (10.0 * cp)).exp()
    };
    for (name, cp) in [("w", 4184.0), ("o", 1900.0)] {
        let t = temperature(cp);
        for (var, expected) in [("T", t), ("h", cp * (t - 273.15))] {
            let column = format!("{name}.{var}");
            let last = *result
                .column(&column)
                .expect("recorded")
                .last()
                .expect("rows");
            let error = (last - expected).abs() / expected;
            assert!(error < 1e-6, "{column}: {last} vs {expected}");
        }
    }
}

/// Arrays of connectors: `AccConnArrays` checks clean, exports with every
/// element a connector of its own (`hub.ports[2].T`), and matches the
/// reference of `make_references.py` (matrix exponential of the textbook
/// equations) at the end of its case when loaded back. Growing the plate
/// past the hub's three ports leaves elements unconnected: MC056 at the
/// plate, naming the array.
#[test]
fn connector_arrays_connect_element_by_element() {
    let lib = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/AccConnArrays.mo",
    ]);
    assert!(mofmu::library::check_library(&lib).is_empty());
    let dir = tempfile::tempdir().expect("temp dir");
    for (model, reference) in [
        ("AccConnArrays.Star", "AccConnArrays_Star.csv"),
        ("AccConnArrays.Pair", "AccConnArrays_Pair.csv"),
    ] {
        let out = export(&lib, model, &[]);
        let names: Vec<&str> = out
            .table
            .variables
            .iter()
            .map(|v| v.name.as_str())
            .collect();
        for port in 1..=3 {
            assert!(names.contains(&format!("hub.ports[{port}].Q_flow").as_str()));
        }
        let path = dir.path().join(format!("{model}.fmu"));
        package(&out, &path, &shared_cache());
        let options = mofmu::harness::SimOptions {
            stop_time: Some(100.0),
            relative_tolerance: Some(ROUND_TRIP_RTOL),
            ..mofmu::harness::SimOptions::default()
        };
        let result = mofmu::harness::simulate(&path, &options).expect("simulates");
        let (header, last) = reference_last_row(reference);
        assert_eq!(last[0], 100.0);
        for (name, expected) in header.iter().zip(&last).skip(1) {
            let got = *result.column(name).expect("recorded").last().expect("rows");
            let error = (got - expected).abs() / expected.abs();
            assert!(error < 1e-6, "{model} {name}: {got} vs {expected}");
        }
    }
    match export_error(&lib, "AccConnArrays.Star", &[set("plate.n", 4.0)]) {
        ExportError::Diagnostics(ds) => {
            assert_eq!(ds[0].code, "MC056", "{ds:?}");
            assert!(ds[0].message.contains("`ports`"), "{}", ds[0].message);
        }
        other => panic!("expected MC056, got {other:?}"),
    }
}

// --- The experiment annotation ---------------------------------------------------

/// A library from one file's text, after `examples/Base.mo`.
fn library_with(text: &str) -> Library {
    let base = std::fs::read_to_string(repo().join("examples/Base.mo")).expect("Base.mo");
    let lib = load_library(vec![
        ("Base.mo".to_string(), base),
        ("Experiments.mo".to_string(), text.to_string()),
    ]);
    assert!(lib.diagnostics.is_empty(), "{:?}", lib.diagnostics);
    lib
}

const EXPERIMENTS: &str = r#"
encapsulated package Experiments
  import B = Base;
  annotation(experiment(StopTime = 99));
  model Decay
    parameter Real T(unit = "s") = 1;
    B.ContinuousState x(start = 1, unit = "1");
  equation
    der(x) = -x/T;
    annotation(experiment(StartTime = -1, StopTime = 2.5e1, Tolerance = 1e-7, Interval = 0.05));
  end Decay;
  model Plain "No annotation: the defaults, not the package's experiment"
    parameter Real T(unit = "s") = 1;
    B.ContinuousState x(start = 1, unit = "1");
  equation
    der(x) = -x/T;
  end Plain;
  model Partly
    parameter Real T(unit = "s") = 1;
    B.ContinuousState x(start = 1, unit = "1");
    annotation(Documentation(info = "kept out"), experiment(StopTime = 3, Tolerance = 1e-3*2));
  equation
    der(x) = -x/T;
  end Partly;
  model Backwards
    parameter Real T(unit = "s") = 1;
    B.ContinuousState x(start = 1, unit = "1");
  equation
    der(x) = -x/T;
    annotation(experiment(StartTime = 5, StopTime = 2));
  end Backwards;
end Experiments;
"#;

fn experiment_of(
    lib: &Library,
    model: &str,
    stop_time: Option<f64>,
) -> (f64, f64, f64, Option<f64>) {
    let out = export_model(lib, model, &[], stop_time)
        .unwrap_or_else(|e| panic!("exporting {model} failed: {e:?}"));
    let e = &out.table.default_experiment;
    (e.start_time, e.stop_time, e.tolerance, e.step_size)
}

#[test]
fn the_experiment_annotation_is_the_default_experiment() {
    let lib = library_with(EXPERIMENTS);
    // Every value as written, wherever the class annotation stands.
    assert_eq!(
        experiment_of(&lib, "Experiments.Decay", None),
        (-1.0, 25.0, 1e-7, Some(0.05))
    );
    // An explicit stop time (`--stop-time`) wins; the rest stays.
    assert_eq!(
        experiment_of(&lib, "Experiments.Decay", Some(7.0)),
        (-1.0, 7.0, 1e-7, Some(0.05))
    );
    // A class without an annotation does not inherit its package's.
    assert_eq!(
        experiment_of(&lib, "Experiments.Plain", None),
        (0.0, 1.0, 1e-6, None)
    );
    // Other annotations are dropped; a value that is no number literal too.
    assert_eq!(
        experiment_of(&lib, "Experiments.Partly", None),
        (0.0, 3.0, 1e-6, None)
    );
    let out = export_model(&lib, "Experiments.Decay", &[], None).expect("exports");
    let description = out.model_description();
    assert!(
        description.contains(
            r#"<DefaultExperiment startTime="-1" stopTime="25" tolerance="1e-7" stepSize="0.05"/>"#
        ),
        "{description}"
    );
}

#[test]
fn an_experiment_no_importer_can_run_is_mx030_at_the_annotation() {
    let lib = library_with(EXPERIMENTS);
    let diagnostics = match export_model(&lib, "Experiments.Backwards", &[], None) {
        Err(ExportError::Diagnostics(d)) => d,
        other => panic!("expected MX030, got {other:?}"),
    };
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert_eq!(d.code, "MX030");
    assert!(
        d.message
            .contains("stop time 2 is not after its start time 5"),
        "{d:?}"
    );
    assert!(!d.help.is_empty());
    let file = &lib.sources.get(d.span.file).text;
    assert_eq!(
        &file[d.span.start as usize..d.span.end as usize],
        "experiment(StartTime = 5, StopTime = 2)"
    );
    // A later explicit stop time makes it valid; an earlier one does not
    // repair Decay's start.
    assert_eq!(
        experiment_of(&lib, "Experiments.Backwards", Some(6.0)),
        (5.0, 6.0, 1e-6, None)
    );
    match export_model(&lib, "Experiments.Decay", &[], Some(-2.0)) {
        Err(ExportError::Diagnostics(d)) => {
            assert_eq!(d[0].code, "MX030");
            assert!(d[0].message.contains("the one given to export"), "{d:?}");
        }
        other => panic!("expected MX030, got {other:?}"),
    }
}

#[test]
fn every_bundled_example_states_its_experiment() {
    // The examples carry the horizons of their round-trip cases; the
    // published wheel examples' stop times are the published ones.
    // The language snippets of test_data/language are kept exactly as the
    // issue gives them, without an experiment; their cases set the horizon.
    let bundled = |c: &&Case| c.libraries.iter().all(|l| l.starts_with("examples/"));
    for case in cases().iter().filter(|c| c.sets.is_empty()).filter(bundled) {
        let libraries: Vec<&str> = case.libraries.iter().map(String::as_str).collect();
        let lib = library(&libraries);
        let (start, stop, tolerance, step) = experiment_of(&lib, &case.model, None);
        assert_eq!(
            (start, stop, step),
            (
                0.0,
                case.experiment_stop_time.unwrap_or(case.stop_time),
                Some(case.output_interval)
            ),
            "{}",
            case.model
        );
        assert!(tolerance <= 1e-6, "{}: tolerance {tolerance}", case.model);
    }
}

#[test]
fn cli_export_and_simulate_default_to_the_experiment() {
    let temp = tempfile::tempdir().expect("temporary directory");
    let fmu = temp.path().join("StepIntegrator.fmu");
    let fmu_arg = fmu.to_str().expect("a UTF-8 temporary path");
    let mut args = vec!["export"];
    args.extend_from_slice(SIGNALS);
    args.extend_from_slice(&["--model", "Signals.Examples.StepIntegrator", "-o", fmu_arg]);
    let output = mofmu(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let description = text(&zip_entry(&fmu, "modelDescription.xml"));
    assert!(
        description.contains(r#"stopTime="2" tolerance="1e-6" stepSize="0.01""#),
        "{description}"
    );
    // `mofmu simulate` without options runs the FMU's DefaultExperiment.
    let csv = temp.path().join("result.csv");
    let csv_arg = csv.to_str().expect("a UTF-8 temporary path");
    let output = mofmu(&["simulate", fmu_arg, "-o", csv_arg]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let written = std::fs::read_to_string(&csv).expect("simulate wrote the CSV");
    let last = written.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("2,") || last.starts_with("2.0,"),
        "last row: {last}"
    );
    // An explicit --stop-time wins over the annotation.
    args.extend_from_slice(&["--stop-time", "0.5"]);
    let output = mofmu(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let description = text(&zip_entry(&fmu, "modelDescription.xml"));
    assert!(description.contains(r#"stopTime="0.5""#), "{description}");
}

// --- Reductions and matrices over parameter-sized arrays ---------------------------

/// A node of `n` ports heats through `der(T) = sum(ports.Q_flow)/C`, the
/// ports connected to `n` sinks `G*(T - 300)`: closed form
/// `T = 300 + 100 exp(-n G t / C)`. Exported at n = 3 and n = 50, the
/// shipped library is byte-identical (the sum is a loop over the run-time
/// size) and each size matches its closed form.
#[test]
fn reductions_over_parameter_sized_arrays_compile_once() {
    let lib = library_with(
        r#"
encapsulated package Red
  import B = Base;
  connector PortOut
    output Real T;
    flow Real Q_flow;
  end PortOut;
  connector PortIn
    input Real T;
    flow Real Q_flow;
  end PortIn;
  model Node
    parameter Integer n = 3;
    parameter Real C = 100;
    PortOut ports[n];
    B.ContinuousState T(start = 400);
    Real qmax "The largest heat flow into the node";
    Real Tmin "The coldest port";
  equation
    for i in 1:n loop
      ports[i].T = T;
    end for;
    der(T) = sum(ports.Q_flow)/C;
    qmax = max(ports.Q_flow);
    Tmin = min(ports.T);
  end Node;
  model Sink
    parameter Real G = 2;
    PortIn port;
  equation
    port.Q_flow = G*(port.T - 300);
  end Sink;
  model Star
    parameter Integer n = 3;
    Node node(n = n);
    Sink s[n];
  equation
    for i in 1:n loop
      connect(node.ports[i], s[i].port);
    end for;
  end Star;
end Red;
"#,
    );
    assert!(mofmu::library::check_library(&lib).is_empty());
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = shared_cache();
    let mut libraries = Vec::new();
    for n in [3usize, 50] {
        let path = dir.path().join(format!("star{n}.fmu"));
        package(
            &export(&lib, "Red.Star", &[set("n", n as f64)]),
            &path,
            &cache,
        );
        libraries.push(zip_entry(&path, "binaries/linux64/Red_Star.so"));
        let options = mofmu::harness::SimOptions {
            stop_time: Some(20.0),
            relative_tolerance: Some(ROUND_TRIP_RTOL),
            output: ["node.T", "node.qmax", "node.Tmin"]
                .map(String::from)
                .to_vec(),
            ..mofmu::harness::SimOptions::default()
        };
        let result = mofmu::harness::simulate(&path, &options).expect("simulates");
        let last = |name: &str| *result.column(name).expect("recorded").last().expect("rows");
        let t = 300.0 + 100.0 * (-(n as f64) * 2.0 * 20.0 / 100.0).exp();
        let error = (last("node.T") - t).abs() / t;
        assert!(error < 1e-6, "n = {n}: {} vs {t}", last("node.T"));
        // Every port passes -G (T - 300) into the node, and has T.
        let q = -2.0 * (t - 300.0);
        assert!((last("node.qmax") - q).abs() < 1e-6 * (1.0 + q.abs()));
        assert!((last("node.Tmin") - t).abs() < 1e-6 * t);
    }
    assert!(
        libraries[0] == libraries[1],
        "the library differs between n = 3 and n = 50"
    );
}

/// `fill`, `zeros` and `ones` with parameter sizes, and a parameter-sized
/// start value naming another array (`start = x0`), compile to one kernel:
/// re-exporting `AccFill.Decay` at another `n` compiles nothing and ships the
/// same library, and both sizes match the closed form when loaded back.
#[test]
fn fill_bindings_and_array_starts_compile_once() {
    let lib = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/AccFill.mo",
    ]);
    assert!(mofmu::library::check_library(&lib).is_empty());
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = ObjectCache::new(dir.path().join("cache"));
    let mut libraries = Vec::new();
    for (n, k) in [(3usize, 0.5), (40, 0.25)] {
        let path = dir.path().join(format!("decay{n}.fmu"));
        let sets = [
            set("n", n as f64),
            set("k", k),
            set(&format!("x0[{n}]"), 2.0),
        ];
        let report = package(&export(&lib, "AccFill.Decay", &sets), &path, &cache);
        if n != 3 {
            assert_eq!(report.objects_compiled, 0, "n = {n} compiled new objects");
        }
        libraries.push(zip_entry(&path, "binaries/linux64/AccFill_Decay.so"));
        let last_x = format!("x[{n}]");
        let options = mofmu::harness::SimOptions {
            stop_time: Some(2.0),
            relative_tolerance: Some(ROUND_TRIP_RTOL),
            output: vec!["x[1]".into(), last_x.clone(), "z[1]".into()],
            ..mofmu::harness::SimOptions::default()
        };
        let result = mofmu::harness::simulate(&path, &options).expect("simulates");
        let last = |name: &str| *result.column(name).expect("recorded").last().expect("rows");
        let decay = (-4.0f64).exp();
        let z = 1.0 / k + (3.0 - 1.0 / k) * (-2.0 * k).exp();
        for (name, want) in [("x[1]", decay), (last_x.as_str(), 2.0 * decay), ("z[1]", z)] {
            let got = last(name);
            assert!(
                (got - want).abs() < 1e-6 * want.abs(),
                "n = {n} {name}: {got} vs {want}"
            );
        }
    }
    assert!(
        libraries[0] == libraries[1],
        "the library differs between n = 3 and n = 40"
    );
}

/// Issue 21's item 11: `AccMatrix` (parameter-sized matrices, `der(x) =
/// A*x + b*u`, `y = C*x + D*u`, `transpose`, `identity(n)`) checks clean
/// and matches its matrix-exponential references at t = 5 when loaded back.
#[test]
fn matrix_equations_over_parameter_sized_arrays() {
    let lib = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/AccMatrix.mo",
    ]);
    assert!(mofmu::library::check_library(&lib).is_empty());
    let dir = tempfile::tempdir().expect("temp dir");
    for (model, reference) in [
        ("AccMatrix.Linear", "AccMatrix_Linear.csv"),
        ("AccMatrix.Shifted", "AccMatrix_Shifted.csv"),
    ] {
        let path = dir.path().join(format!("{model}.fmu"));
        package(&export(&lib, model, &[]), &path, &shared_cache());
        let (header, last) = reference_last_row(reference);
        assert_eq!(last[0], 5.0);
        let options = mofmu::harness::SimOptions {
            stop_time: Some(5.0),
            relative_tolerance: Some(ROUND_TRIP_RTOL),
            output: header[1..].to_vec(),
            ..mofmu::harness::SimOptions::default()
        };
        let result = mofmu::harness::simulate(&path, &options).expect("simulates");
        for (name, expected) in header.iter().zip(&last).skip(1) {
            let got = *result.column(name).expect("recorded").last().expect("rows");
            assert!(
                (got - expected).abs() < 1e-6 * (1.0 + expected.abs()),
                "{model} {name}: {got} vs {expected}"
            );
        }
    }
}

/// `--set A[1,3]=v` and `--set cap[2].C=v` set one element at export: the
/// simulation matches the exact solution with those elements changed, and
/// an index outside the array is a diagnostic naming the array's size.
#[test]
fn one_element_of_an_array_is_set_at_export() {
    let lib = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/AccMatrix.mo",
        "test_data/language/Acc4.mo",
    ]);
    let dir = tempfile::tempdir().expect("temp dir");
    let runs: [(&str, Vec<SetValue>, &str, f64); 2] = [
        (
            "AccMatrix.Linear",
            vec![set("A[1,3]", 0.7), set("b[2]", -1.0)],
            "AccMatrix_Linear_SetElements.csv",
            5.0,
        ),
        (
            "Acc4.Chain",
            vec![set("cap[2].C", 80.0), set("link[3].G", 1.5)],
            "Acc4_Chain_SetElements.csv",
            100.0,
        ),
    ];
    for (model, sets, reference, stop) in runs {
        let path = dir.path().join(format!("{model}.fmu"));
        package(&export(&lib, model, &sets), &path, &shared_cache());
        let (header, last) = reference_last_row(reference);
        assert_eq!(last[0], stop);
        let options = mofmu::harness::SimOptions {
            stop_time: Some(stop),
            relative_tolerance: Some(ROUND_TRIP_RTOL),
            output: header[1..].to_vec(),
            ..mofmu::harness::SimOptions::default()
        };
        let result = mofmu::harness::simulate(&path, &options).expect("simulates");
        for (name, expected) in header.iter().zip(&last).skip(1) {
            let got = *result.column(name).expect("recorded").last().expect("rows");
            assert!(
                (got - expected).abs() < 1e-6 * (1.0 + expected.abs()),
                "{model} {name}: {got} vs {expected}"
            );
        }
    }
    let bad: &[(&str, SetValue, &str, &str)] = &[
        (
            "AccMatrix.Linear",
            set("A[4,1]", 1.0),
            "MX037",
            "`A` has size [3, 3]",
        ),
        (
            "AccMatrix.Linear",
            set("A[1]", 1.0),
            "MX037",
            "`A` has size [3, 3]",
        ),
        (
            "AccMatrix.Linear",
            set("b[0]", 1.0),
            "MX037",
            "`b` has size [3]",
        ),
        (
            "AccMatrix.Linear",
            set("u[1]", 1.0),
            "MX037",
            "`u` is a scalar",
        ),
        (
            "Acc4.Chain",
            set("cap[4].C", 1.0),
            "MX038",
            "`cap` has 3 element(s)",
        ),
        (
            "Acc4.Chain",
            set("source[1].T", 1.0),
            "MX038",
            "not an array",
        ),
    ];
    for (model, value, code, text) in bad {
        let diagnostics = match export_error(&lib, model, std::slice::from_ref(value)) {
            ExportError::Diagnostics(d) => d,
            other => panic!("{value:?}: expected diagnostics, got {other:?}"),
        };
        assert!(
            diagnostics.len() == 1 && diagnostics[0].code == *code,
            "{value:?}: expected one {code}, got {diagnostics:?}"
        );
        assert!(
            diagnostics[0].message.contains(text),
            "{value:?}: expected {text:?} in {}",
            diagnostics[0].message
        );
    }
}

/// A committed reference's column names and its last row.
fn reference_last_row(reference: &str) -> (Vec<String>, Vec<f64>) {
    let table = std::fs::read_to_string(repo().join("fmu-tests/references").join(reference))
        .expect("the reference is committed");
    let header = table
        .lines()
        .next()
        .expect("a header")
        // Quoted names, which may hold a comma (`"cap[1,2].T"`).
        .split("\",\"")
        .map(|h| h.trim_matches('"').to_string())
        .collect();
    let last = table
        .lines()
        .last()
        .expect("rows")
        .split(',')
        .map(|x| x.parse().expect("a number"))
        .collect();
    (header, last)
}

// --- export --expose ---------------------------------------------------------

/// `--expose states` and `interface` leave internal variables out of the
/// description and nothing else: the kept variables keep their names and
/// value references, the generated code is the same, and the FMU simulates
/// to the same numbers (the harness reads the renumbered ModelStructure for
/// its Jacobian pattern, so that is exercised too).
#[test]
fn expose_leaves_internal_variables_out_and_simulates_the_same() {
    use mofmu::export::{export_model_options, ExportOptions};
    use mofmu::fmu::description::expose::Expose;
    use mofmu::fmu::description::table::Causality;
    let planar = ["examples/Base.mo", "examples/Signals.mo", "examples/Planar"];
    let temp = tempfile::tempdir().expect("temporary directory");
    let cache = shared_cache();
    for (paths, model, stop) in [
        (THERMAL, ROD_HEATING, 10.0),
        (&planar[..], "Planar.Examples.DoublePendulum", 2.0),
    ] {
        let lib = library(paths);
        let with = |expose| {
            let options = ExportOptions {
                expose,
                ..ExportOptions::default()
            };
            export_model_options(&lib, model, &[], stop, options)
                .unwrap_or_else(|e| panic!("exporting {model} with {expose:?}: {e:?}"))
        };
        let all = with(Expose::All);
        assert_eq!(all.description_bytes, None);
        let mut states_names = Vec::new();
        for expose in [Expose::States, Expose::Interface] {
            let out = with(expose);
            assert_eq!(
                out.system_c, all.system_c,
                "{model}: the system file changed"
            );
            let (before, after) = out.description_bytes.expect("sizes are reported");
            assert_eq!(before as usize, all.model_description().len());
            assert_eq!(after as usize, out.model_description().len());
            assert!(after < before, "{model} {expose:?}: {after} >= {before}");
            // Exactly the variables the choice keeps, with their references.
            let is_state: BTreeSet<usize> = all
                .table
                .variables
                .iter()
                .filter_map(|v| v.derivative_of)
                .collect();
            let expected: Vec<(String, u32)> = all
                .table
                .variables
                .iter()
                .enumerate()
                .filter(|(i, v)| {
                    is_state.contains(i)
                        || v.derivative_of.is_some()
                        || matches!(
                            v.causality,
                            Causality::Input | Causality::Output | Causality::Independent
                        )
                        || (expose == Expose::Interface
                            && matches!(
                                v.causality,
                                Causality::Parameter | Causality::CalculatedParameter
                            ))
                })
                .map(|(_, v)| (v.name.clone(), v.value_reference))
                .collect();
            let listed: Vec<(String, u32)> = out
                .table
                .variables
                .iter()
                .map(|v| (v.name.clone(), v.value_reference))
                .collect();
            assert_eq!(listed, expected, "{model} {expose:?}");
            assert_eq!(out.table.derivatives.len(), all.table.derivatives.len());
            if expose == Expose::States {
                states_names = out
                    .table
                    .derivatives
                    .iter()
                    .map(|&d| out.table.variables[d].derivative_of.unwrap())
                    .map(|s| out.table.variables[s].name.clone())
                    .collect();
                let fmu_all = temp.path().join("all.fmu");
                let fmu_states = temp.path().join("states.fmu");
                package(&all, &fmu_all, &cache);
                package(&out, &fmu_states, &cache);
                let options = SimOptions {
                    start_time: Some(0.0),
                    stop_time: Some(stop),
                    output_interval: Some(stop / 100.0),
                    relative_tolerance: Some(ROUND_TRIP_RTOL),
                    output: states_names.clone(),
                    ..SimOptions::default()
                };
                let a = simulate(&fmu_all, &options).expect("the full FMU simulates");
                let b = simulate(&fmu_states, &options).expect("the exposed FMU simulates");
                assert_eq!(a.names, b.names);
                assert!(a.rows.len() > 100, "{model}: {} rows", a.rows.len());
                assert_eq!(a.rows, b.rows, "{model}: the results differ");
            }
        }
        assert!(!states_names.is_empty());
    }
}

// --- export --fmi-version 3 --------------------------------------------------

/// The FMI 3.0 export: an FMI 3.0 description whose value references are
/// unique across types, the library under `binaries/x86_64-linux`,
/// exporting every fmi3 function FMPy binds (and, as it wraps them, the
/// fmi2 functions) and needing only libc and libm. FMPy's validation and
/// simulation against the references are in fmu-tests/fmi3_roundtrip.py.
#[test]
fn fmi3_export_has_an_fmi3_description_and_the_fmi3_functions() {
    use mofmu::export::{export_model_options, ExportOptions, FmiVersion};
    let lib = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/AccDiscrete.mo",
    ]);
    let options = ExportOptions {
        fmi_version: FmiVersion::Fmi3,
        ..ExportOptions::default()
    };
    let out = export_model_options(&lib, "AccDiscrete.CooledBody", &[], 100.0, options)
        .unwrap_or_else(|e| panic!("FMI 3 export: {e:?}"));
    let two = export_model_options(
        &lib,
        "AccDiscrete.CooledBody",
        &[],
        100.0,
        ExportOptions::default(),
    )
    .unwrap_or_else(|e| panic!("FMI 2 export: {e:?}"));
    assert_ne!(out.table.guid, two.table.guid, "the FMI version is hashed");
    let temp = tempfile::tempdir().expect("temporary directory");
    let fmu = temp.path().join("CooledBody.fmu");
    package(&out, &fmu, &shared_cache());
    let mut archive =
        zip::ZipArchive::new(std::fs::File::open(&fmu).expect("the FMU")).expect("a zip archive");
    let mut description = String::new();
    archive
        .by_name("modelDescription.xml")
        .expect("a description")
        .read_to_string(&mut description)
        .expect("UTF-8");
    assert!(description.contains(r#"fmiVersion="3.0""#));
    assert!(description.contains(&format!(r#"instantiationToken="{}""#, out.table.guid)));
    for element in [
        "<Float64 ",
        "<Boolean ",
        "<Int32 ",
        "<ContinuousStateDerivative ",
    ] {
        assert!(
            description.contains(element),
            "no {element} in\n{description}"
        );
    }
    // Value references are unique across all variables.
    let mut seen = BTreeSet::new();
    for line in description.lines() {
        let line = line.trim_start();
        let is_variable = ["<Float64 ", "<Int32 ", "<Boolean ", "<Enumeration "]
            .iter()
            .any(|e| line.starts_with(e));
        if let (true, Some(at)) = (is_variable, line.find(r#"valueReference=""#)) {
            let rest = &line[at + 16..];
            let vr: u32 = rest[..rest.find('"').unwrap()].parse().unwrap();
            assert!(seen.insert(vr), "value reference {vr} twice");
        }
    }
    assert_eq!(
        seen.len(),
        out.table.variables.len() + 1,
        "variables and the indicators"
    );
    let mut library = Vec::new();
    archive
        .by_name("binaries/x86_64-linux/AccDiscrete_CooledBody.so")
        .expect("the FMI 3 binary folder")
        .read_to_end(&mut library)
        .expect("the library");
    let (defined, needed) = dynamic_linkage(&library);
    for f in [
        "fmi3InstantiateModelExchange",
        "fmi3InstantiateCoSimulation",
        "fmi3GetFloat64",
        "fmi3GetBoolean",
        "fmi3UpdateDiscreteStates",
        "fmi3GetContinuousStateDerivatives",
        "fmi3DoStep",
        "fmi3GetDirectionalDerivative",
        "fmi3SerializeFMUState",
    ] {
        assert!(defined.contains(f), "{f} is not exported");
    }
    assert!(
        defined
            .iter()
            .all(|s| s.starts_with("fmi2") || s.starts_with("fmi3")),
        "{defined:?}"
    );
    for lib in &needed {
        assert!(
            lib.starts_with("libc.so") || lib.starts_with("libm.so"),
            "needs {lib}"
        );
    }
}

/// Issue 21's item 5 in two dimensions: `AccGrid.Plate` (`cap[n, m]`,
/// `right[n, m - 1]`, `down[n - 1, m]`, connected in nested `for` loops)
/// checks clean, exports, and matches its matrix-exponential references at
/// t = 1000 when loaded back, at the default 3 x 4 and resized to 4 x 5 with
/// one element set (`--set cap[2,3].C=80`). The resized export compiles
/// nothing and ships the same library: the instance count is data. A
/// `--set` of an element the plate does not have is MX038, naming its size.
#[test]
fn a_two_dimensional_component_array_ships_one_library() {
    let lib = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/AccGrid.mo",
    ]);
    assert!(mofmu::library::check_library(&lib).is_empty());
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = ObjectCache::new(dir.path().join("cache"));
    let runs: [(Vec<SetValue>, &str); 2] = [
        (Vec::new(), "AccGrid_Plate.csv"),
        (
            vec![set("n", 4.0), set("m", 5.0), set("cap[2,3].C", 80.0)],
            "AccGrid_Plate_Set.csv",
        ),
    ];
    let mut libraries = Vec::new();
    for (i, (sets, reference)) in runs.into_iter().enumerate() {
        let path = dir.path().join(format!("plate{i}.fmu"));
        // The plate's rows do not roll up (only its inner dimension does),
        // so its compiled schedule grows with it: the interpreted tier
        // ships one library at every size.
        let report = package(
            &export_interpreted(&lib, "AccGrid.Plate", &sets),
            &path,
            &cache,
        );
        if i > 0 {
            assert_eq!(
                (report.objects_compiled, report.library_from_cache),
                (0, true),
                "the resized plate compiled something"
            );
        }
        libraries.push(zip_entry(&path, "binaries/linux64/AccGrid_Plate.so"));
        let (header, last) = reference_last_row(reference);
        let options = mofmu::harness::SimOptions {
            stop_time: Some(last[0]),
            relative_tolerance: Some(ROUND_TRIP_RTOL),
            output: header[1..].to_vec(),
            ..mofmu::harness::SimOptions::default()
        };
        let result = mofmu::harness::simulate(&path, &options).expect("simulates");
        for (name, expected) in header.iter().zip(&last).skip(1) {
            let got = *result.column(name).expect("recorded").last().expect("rows");
            assert!(
                (got - expected).abs() < 1e-6 * expected.abs(),
                "{reference} {name}: {got} vs {expected}"
            );
        }
    }
    assert!(
        libraries[0] == libraries[1],
        "the library differs between 3 x 4 and 4 x 5"
    );
    let diags = match export_error(&lib, "AccGrid.Plate", &[set("cap[3,5].C", 1.0)]) {
        ExportError::Diagnostics(d) => d,
        other => panic!("expected diagnostics, got {other:?}"),
    };
    assert!(
        diags
            .iter()
            .any(|d| d.code == "MX038" && d.message.contains("has size [3, 4]")),
        "{diags:?}"
    );
}

/// An FMI 3.0 export with `--cross-check` is refused before anything is
/// written (the directory and its reference run are FMI 2.0's), and
/// `mofmu simulate` runs the FMI 3.0 FMU.
#[test]
fn fmi3_cross_check_is_refused_with_what_to_do_and_simulate_runs() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let export_rod_fmi3 = |destination: &[&str]| {
        let mut args = vec![
            "export",
            "examples/Base.mo",
            "examples/Thermal",
            "--model",
            "Thermal.Examples.RodHeating",
            "--fmi-version",
            "3",
        ];
        args.extend_from_slice(destination);
        mofmu(&args)
    };
    let xc = dir.path().join("xc");
    let out = export_rod_fmi3(&["--cross-check", xc.to_str().unwrap()]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--cross-check writes an FMI 2.0 cross-check directory"),
        "{stderr}"
    );
    assert!(!xc.exists(), "nothing is written");

    let fmu = dir.path().join("Rod3.fmu");
    let fmu_arg = fmu.to_str().unwrap();
    let out = export_rod_fmi3(&["-o", fmu_arg]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // mofmu's harness runs FMI 3.0 FMUs: the rod's array elements are
    // columns of their own, as an FMI 2.0 export names them.
    let csv = dir.path().join("rod3.csv");
    let out = mofmu(&["simulate", fmu_arg, "-o", csv.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let header = std::fs::read_to_string(&csv).expect("the result");
    assert!(
        header.starts_with("\"time\",\"rod.T[1]\",\"rod.T[2]\""),
        "{}",
        header.lines().next().unwrap_or("")
    );
}

/// The value reference of every variable of `out`, by name.
fn references(out: &ExportOutput) -> std::collections::HashMap<String, u32> {
    out.table
        .variables
        .iter()
        .map(|v| (v.name.clone(), v.value_reference))
        .collect()
}

/// Arrays of components lie by column: the same variable of every element
/// side by side, and two arrays declared one after the other with
/// elements of one structure as one (the grid's conductors `right` and
/// `down`, which the schedule runs as one repeat), while the states keep
/// their order; in FMI 2.0 and FMI 3.0 alike.
#[test]
fn arrays_of_components_lie_by_column_in_fmi2_and_fmi3() {
    let lib = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/Acc4.mo",
    ]);
    let out = export(&lib, "Acc4.Chain", &[set("n", 5.0)]);
    let vr = references(&out);
    for i in 1..5 {
        assert_eq!(
            vr[&format!("cap[{}].T", i + 1)],
            vr[&format!("cap[{i}].T")] + 1,
            "cap[{i}].T and the next element's are side by side"
        );
    }
    let states: Vec<&str> = out
        .table
        .variables
        .iter()
        .filter(|v| v.name.starts_with("der("))
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(
        states,
        (1..=5)
            .map(|i| format!("der(cap[{i}].T)"))
            .collect::<Vec<_>>(),
        "the derivatives in the elements' order"
    );
    let lib = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/AccGrid.mo",
    ]);
    let out = export(&lib, "AccGrid.Plate", &[]);
    let vr = references(&out);
    assert_eq!(
        vr["down[1,1].G"],
        vr["right[3,3].G"] + 1,
        "right and down are one column"
    );
    use mofmu::export::{export_model_options, ExportOptions, FmiVersion};
    let options = ExportOptions {
        fmi_version: FmiVersion::Fmi3,
        ..ExportOptions::default()
    };
    let out3 = export_model_options(&lib, "AccGrid.Plate", &[], 1.0, options)
        .unwrap_or_else(|e| panic!("FMI 3 export: {e:?}"));
    let vr3 = references(&out3);
    assert_eq!(
        vr3["right[1,2].G"],
        vr3["right[1,1].G"] + 1,
        "FMI 3.0 lays the elements out by column too"
    );
    assert_eq!(vr3["down[1,1].G"], vr3["right[3,3].G"] + 1);
}
