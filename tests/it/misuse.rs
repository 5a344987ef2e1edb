//! The negative suite against real exported FMUs, under AddressSanitizer
//! and UndefinedBehaviorSanitizer.
//!
//! Every example (and the tearing, input/output and event fixtures) is
//! exported and packaged; the `sources/` of the packaged FMU are compiled
//! together with `test_data/misuse/driver.c` into one executable with
//! `-fsanitize=address,undefined`. The driver calls every FMI function in
//! every Model Exchange state (fmi2Error where FMI 2.0 forbids it), passes
//! NULL pointers, unknown value references, wrong sizes and non-finite
//! values, and simulates the model: after fmi2Reset, after fmi2SetFMUstate
//! and in four threads at once the results must be bit-identical. It does
//! the same for a Co-Simulation instance: every function in every
//! Co-Simulation state, fmi2DoStep's arguments and status queries, and
//! save-step-restore-step and serialization round trips bit for bit. Any
//! sanitizer report makes the executable fail. Where the C compiler cannot
//! build or run sanitized programs, the suite runs without them and says
//! why.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::runtime::{c_compiler, repo_path, run};
use std::sync::OnceLock;

use mofmu::export::{export_model_options, ExportError, ExportOptions, FmiVersion};
use mofmu::harness::unzip::extract;
use mofmu::instantiate::SetValue;
use mofmu::library::load_library;
use mofmu::loader::load_paths;
use mofmu::package::{build_fmu, ObjectCache};

struct Case {
    name: &'static str,
    libraries: &'static [&'static str],
    model: &'static str,
    sets: &'static [(&'static str, f64)],
    stop_time: f64,
}

const SIGNALS: &[&str] = &["examples/Base.mo", "examples/Signals.mo"];
const THERMAL: &[&str] = &["examples/Base.mo", "examples/Thermal"];

const CASES: &[Case] = &[
    Case {
        name: "StepIntegrator",
        libraries: SIGNALS,
        model: "Signals.Examples.StepIntegrator",
        sets: &[],
        stop_time: 2.0,
    },
    Case {
        name: "FirstOrderStep",
        libraries: SIGNALS,
        model: "Signals.Examples.FirstOrderStep",
        sets: &[],
        stop_time: 4.0,
    },
    Case {
        name: "SineRampAdd",
        libraries: SIGNALS,
        model: "Signals.Examples.SineRampAdd",
        sets: &[],
        stop_time: 5.0,
    },
    Case {
        name: "PIControlLoop",
        libraries: SIGNALS,
        model: "Signals.Examples.PIControlLoop",
        sets: &[],
        stop_time: 10.0,
    },
    Case {
        name: "TwoCapacitors",
        libraries: THERMAL,
        model: "Thermal.Examples.TwoCapacitors",
        sets: &[],
        stop_time: 100.0,
    },
    Case {
        name: "CapacitorCooling",
        libraries: THERMAL,
        model: "Thermal.Examples.CapacitorCooling",
        sets: &[],
        stop_time: 100.0,
    },
    Case {
        name: "HeatedCapacitor",
        libraries: THERMAL,
        model: "Thermal.Examples.HeatedCapacitor",
        sets: &[],
        stop_time: 100.0,
    },
    Case {
        name: "RodHeating",
        libraries: THERMAL,
        model: "Thermal.Examples.RodHeating",
        sets: &[],
        stop_time: 100.0,
    },
    Case {
        name: "RodHeating_n10",
        libraries: THERMAL,
        model: "Thermal.Examples.RodHeating",
        sets: &[("rod.n", 10.0)],
        stop_time: 100.0,
    },
    Case {
        name: "Fall",
        libraries: &["test_data/tearing/Slide.mo"],
        model: "Slide.Fall",
        sets: &[],
        stop_time: 1.0,
    },
    Case {
        name: "InOut",
        libraries: &["examples/Base.mo", "test_data/dependencies/InOut.mo"],
        model: "InOut.Plant",
        sets: &[],
        stop_time: 2.0,
    },
    Case {
        name: "Switch",
        libraries: &["examples/Base.mo", "test_data/events/Switch.mo"],
        model: "Switch.RiseThenDecay",
        sets: &[],
        stop_time: 2.0,
    },
];

const SANITIZE: &[&str] = &[
    "-fsanitize=address,undefined",
    "-fno-omit-frame-pointer",
    "-fno-sanitize-recover=all",
    "-g",
];

/// The sanitizer flags when this machine can build and run a sanitized
/// program, else the reason it cannot.
fn sanitizer_flags() -> &'static Result<Vec<&'static str>, String> {
    static FLAGS: OnceLock<Result<Vec<&'static str>, String>> = OnceLock::new();
    FLAGS.get_or_init(|| {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let source = dir.path().join("probe.c");
        let exe = dir.path().join("probe");
        std::fs::write(&source, "int main(void) { return 0; }\n").map_err(|e| e.to_string())?;
        let mut build = c_compiler(1).to_command();
        build.args(SANITIZE).arg(&source).arg("-o").arg(&exe);
        let out = build.output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!(
                "the C compiler cannot build with {}: {}",
                SANITIZE.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let ran = Command::new(&exe).output().map_err(|e| e.to_string())?;
        if !ran.status.success() {
            return Err(format!(
                "a sanitized program does not run here: {}",
                String::from_utf8_lossy(&ran.stderr).trim()
            ));
        }
        Ok(SANITIZE.to_vec())
    })
}

fn export_fmu(case: &Case, dir: &Path, version: FmiVersion) -> PathBuf {
    let paths: Vec<_> = case.libraries.iter().map(|p| repo_path(p)).collect();
    let lib = load_library(load_paths(&paths).expect("libraries load"));
    let sets: Vec<SetValue> = case
        .sets
        .iter()
        .map(|(path, value)| SetValue {
            path: path.to_string(),
            value: (*value).into(),
        })
        .collect();
    let options = ExportOptions {
        fmi_version: version,
        ..ExportOptions::default()
    };
    let out = match export_model_options(&lib, case.model, &sets, case.stop_time, options) {
        Ok(o) => o,
        Err(ExportError::Diagnostics(d)) => panic!("{}: export failed: {d:?}", case.name),
        Err(e) => panic!("{}: export failed: {e:?}", case.name),
    };
    let cache = ObjectCache::new(Path::new(env!("CARGO_TARGET_TMPDIR")).join("misuse-cache"));
    let fmu = dir.join(format!("{}-{version:?}.fmu", case.name));
    build_fmu(&out.build_spec(), &fmu, Some(&cache)).expect("packaging works");
    fmu
}

/// Builds the driver with the FMU's own sources and runs it; returns its
/// standard output.
fn drive(case: &Case, flags: &[&str], work: &Path) -> String {
    drive_version(case, flags, work, FmiVersion::Fmi2)
}

/// `drive` for an FMU of `version`: FMI 2.0 with test_data/misuse/driver.c,
/// FMI 3.0 with driver3.c (whose FMU compiles mofmu_fmi3.c, which includes
/// mofmu_runtime.c, in place of the runtime).
fn drive_version(case: &Case, flags: &[&str], work: &Path, version: FmiVersion) -> String {
    let fmu = export_fmu(case, work, version);
    let (driver, tag) = match version {
        FmiVersion::Fmi2 => ("test_data/misuse/driver.c", "fmi2"),
        FmiVersion::Fmi3 => ("test_data/misuse/driver3.c", "fmi3"),
    };
    let unpacked = extract(&fmu).expect("the FMU unpacks");
    let sources = unpacked.path().join("sources");
    let mut c_files: Vec<PathBuf> = std::fs::read_dir(&sources)
        .expect("sources/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .filter(|p| version == FmiVersion::Fmi2 || !p.ends_with("mofmu_runtime.c"))
        .collect();
    c_files.sort();
    assert!(
        c_files.len() >= 3,
        "{}: sources/ holds only {c_files:?}",
        case.name
    );

    // The driver is held to strict warnings; generated code is compiled as
    // the packager compiles it.
    let driver_object = work.join(format!("{}-{tag}-driver.o", case.name));
    let mut build_driver = c_compiler(1).to_command();
    build_driver
        .args(["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-c"])
        .args(flags)
        .arg("-I")
        .arg(&sources)
        .arg(repo_path(driver))
        .arg("-o")
        .arg(&driver_object);
    run(build_driver, "compiling the misuse driver");

    let exe = work.join(format!("{}-{tag}-misuse", case.name));
    let mut link = c_compiler(1).to_command();
    link.args(["-std=c99"])
        .args(flags)
        .arg("-I")
        .arg(&sources)
        .args(&c_files)
        .arg(&driver_object)
        .arg("-o")
        .arg(&exe)
        .args(["-lm", "-pthread"]);
    run(link, &format!("compiling {} with the driver", case.name));

    let mut command = Command::new(&exe);
    command
        .arg(case.stop_time.to_string())
        .arg(format!(
            "file://{}",
            unpacked.path().join("resources").display()
        ))
        .env(
            "ASAN_OPTIONS",
            "detect_leaks=1:abort_on_error=0:exitcode=23",
        )
        .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1");
    let output = run(command, &format!("the misuse driver on {}", case.name));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
#[ignore = "slow tier (about 30 s): scripts/test-all runs it with --include-ignored"]
fn every_example_refuses_misuse_under_sanitizers() {
    let flags: Vec<&str> = match sanitizer_flags() {
        Ok(flags) => flags.clone(),
        Err(reason) => {
            println!("running WITHOUT sanitizers: {reason}");
            Vec::new()
        }
    };
    let work = tempfile::tempdir().expect("temporary directory");
    let mut total_checks = 0usize;
    for case in CASES {
        let stdout = drive(case, &flags, work.path());
        let summary = stdout.lines().last().unwrap_or_default();
        assert!(
            summary.ends_with(" checks, 0 failures"),
            "{}: {stdout}",
            case.name
        );
        let checks: usize = summary
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        // 40 functions in 6 states alone make several hundred checks.
        assert!(checks > 500, "{}: only {checks} checks ran", case.name);
        assert!(
            stdout.contains("4 threaded runs bit-identical"),
            "{}: {stdout}",
            case.name
        );
        assert!(
            stdout.contains("save-step-restore-step and serialization"),
            "{}: {stdout}",
            case.name
        );
        // Every model here can be driven into the error state.
        assert!(
            stdout.contains("makes initialization fail"),
            "{}: no error state: {stdout}",
            case.name
        );
        println!(
            "{}: {checks} checks; {}",
            case.name,
            stdout
                .lines()
                .filter(|l| {
                    l.starts_with("error state")
                        || l.starts_with("simulated")
                        || l.starts_with("Co-Simulation:")
                })
                .collect::<Vec<_>>()
                .join("; ")
        );
        total_checks += checks;
    }
    println!(
        "{} models, {total_checks} checks, sanitizers: {}",
        CASES.len(),
        if flags.is_empty() { "off" } else { "on" }
    );
}

#[test]
#[ignore = "slow tier (about 30 s): scripts/test-all runs it with --include-ignored"]
fn every_example_refuses_fmi3_misuse_under_sanitizers() {
    let flags: Vec<&str> = match sanitizer_flags() {
        Ok(flags) => flags.clone(),
        Err(reason) => {
            println!("running WITHOUT sanitizers: {reason}");
            Vec::new()
        }
    };
    let work = tempfile::tempdir().expect("temporary directory");
    let mut total_checks = 0usize;
    for case in CASES {
        let stdout = drive_version(case, &flags, work.path(), FmiVersion::Fmi3);
        let summary = stdout.lines().last().unwrap_or_default();
        assert!(
            summary.ends_with(" checks, 0 failures"),
            "{}: {stdout}",
            case.name
        );
        let checks: usize = summary
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        // 31 functions in 5 states alone make over 200 checks.
        assert!(checks > 200, "{}: only {checks} checks ran", case.name);
        assert!(
            stdout.contains("again after fmi3Reset: bit-identical"),
            "{}: {stdout}",
            case.name
        );
        println!(
            "{}: {checks} checks; {}",
            case.name,
            stdout.lines().next().unwrap_or("")
        );
        total_checks += checks;
    }
    println!(
        "FMI 3: {} models, {total_checks} checks, sanitizers: {}",
        CASES.len(),
        if flags.is_empty() { "off" } else { "on" }
    );
}
