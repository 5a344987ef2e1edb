//! The static FMI 2.0 runtime (`templates/`), tested without the code
//! generator: the runtime is compiled together with a hand-written system
//! file (`test_data/runtime/fake_system.c`) into a shared object, and a C
//! driver (`test_data/runtime/driver.c`) loads it with `dlopen`, simulates
//! the model against its closed-form solution and misuses every function.
//! The driver prints one line per failed check; it also runs instances in
//! several threads, hence `-pthread`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mofmu::fmu::image::system_image::{
    ClassRecord, InstanceRecord, RealRecord, StepRecord, SystemImage, RESOURCE_NAME,
};

/// The GUID of the fake system (`GUID` in `test_data/runtime/driver.c`).
const FAKE_GUID: &str = "{6d6f666d-7566-616b-6573-797374656d31}";

/// The tables of the model `test_data/runtime/fake_system.c` computes (its
/// header comment lists them): one instance of its one class, whose one
/// block is the whole model.
fn fake_system_image() -> SystemImage<'static> {
    const CONSTANT: u8 = 0;
    const PARAMETER: u8 = 1;
    const CALCULATED_PARAMETER: u8 = 2;
    const STATE: u8 = 3;
    const STATE_CALCULATED: u8 = 4;
    const DERIVATIVE: u8 = 5;
    const INPUT: u8 = 6;
    const OUTPUT: u8 = 7;
    const LOCAL: u8 = 8;
    let reals = [
        ("x", STATE, Some(1.0)),
        ("v", STATE_CALCULATED, None),
        ("k", PARAMETER, Some(2.0)),
        ("x0v", PARAMETER, Some(0.5)),
        ("k2", CALCULATED_PARAMETER, None),
        ("der(x)", DERIVATIVE, None),
        ("der(v)", DERIVATIVE, None),
        ("y", OUTPUT, None),
        ("high", OUTPUT, None),
        ("u", INPUT, Some(0.0)),
        ("w", LOCAL, None),
        ("c", CONSTANT, Some(3.0)),
    ];
    SystemImage {
        model_identifier: "FakeSystem".into(),
        classes: vec![ClassRecord {
            name: "FakeSystem".into(),
            n_blocks: 1,
            n_slots: 0,
            n_ints: 0,
            n_own: 0,
        }],
        reals: reals
            .iter()
            .map(|&(name, kind, start)| RealRecord {
                start,
                kind,
                name: name.into(),
            })
            .collect(),
        integers: vec![2],
        booleans: Vec::new(),
        integer_reals: Vec::new(),
        boolean_reals: Vec::new(),
        states: vec![0, 1],
        derivatives: vec![5, 6],
        n_event_indicators: 1,
        n_relations: 2,
        instances: vec![InstanceRecord {
            class: 0,
            name: "source".into(),
            relation_base: 0,
            indicator_base: 0,
            off: Vec::new(),
            ints: Vec::new(),
            own: Vec::new(),
        }],
        steps: vec![StepRecord::Block {
            instance: 0,
            stride: 0,
            block: 0,
        }],
        balances: Vec::new(),
        passes: Vec::new(),
        // Full rows: always a correct pattern (the Co-Simulation solver then
        // fills J column by column and factorises it dense).
        jacobian: vec![None, None],
        start_calcs: Vec::new(),
    }
}

pub(crate) fn repo_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// The system C compiler as the `cc` crate finds it, for this host, with
/// optimisation level `opt_level`.
pub(crate) fn c_compiler(opt_level: u32) -> cc::Tool {
    let target = format!(
        "{}-unknown-{}-gnu",
        std::env::consts::ARCH,
        std::env::consts::OS
    );
    cc::Build::new()
        .target(&target)
        .host(&target)
        .opt_level(opt_level)
        .cargo_metadata(false)
        .try_get_compiler()
        .expect("a C compiler should be available")
}

pub(crate) fn run(mut command: Command, what: &str) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("could not run {what}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Flags every runtime build must pass without a single warning.
const STRICT: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"];

#[test]
fn runtime_passes_the_driver_with_the_fake_system() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let templates = repo_path("templates");
    let data = repo_path("test_data/runtime");
    let library = dir.path().join("FakeSystem.so");
    let driver = dir.path().join("driver");

    let mut build_library = c_compiler(2).to_command();
    build_library
        .args(STRICT)
        .args(["-fPIC", "-fvisibility=hidden", "-shared", "-I"])
        .arg(&templates)
        .arg(templates.join("mofmu_runtime.c"))
        .arg(data.join("fake_system.c"))
        .arg("-o")
        .arg(&library)
        .arg("-lm");
    run(build_library, "compiling the runtime with the fake system");

    let mut build_driver = c_compiler(2).to_command();
    build_driver
        .args(STRICT)
        .arg("-I")
        .arg(&templates)
        .arg(data.join("driver.c"))
        .arg("-o")
        .arg(&driver)
        .args(["-ldl", "-lm", "-pthread"]);
    run(build_driver, "compiling the driver");

    let resources = dir.path().join("resources");
    std::fs::create_dir(&resources).expect("resources directory");
    std::fs::write(
        resources.join(RESOURCE_NAME),
        fake_system_image().to_bytes(FAKE_GUID),
    )
    .expect("writing the fake system resource");
    let mut drive = Command::new(&driver);
    drive
        .arg(&library)
        .arg(format!("file://{}", resources.display()));
    let output = run(drive, "the runtime driver");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(
        summary.ends_with(" checks, 0 failures"),
        "unexpected driver summary: {stdout}"
    );
    let checks: usize = summary
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    // The state table alone makes thousands of checks; far fewer means the
    // driver stopped early.
    assert!(checks > 5000, "only {checks} checks ran: {stdout}");
}

/// `max` and `min` in generated code are `mofmu_max` and `mofmu_min`
/// (inline, so a loop keeps its registers around them): they must mean what
/// C99's `fmax` and `fmin` mean, a NaN argument yielding the other, at -O2
/// with the kernels' flags.
#[test]
fn inline_max_and_min_agree_with_fmax_and_fmin() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let templates = repo_path("templates");
    let program = dir.path().join("max_min");
    let mut build = c_compiler(2).to_command();
    build
        .args(STRICT)
        .arg("-ffp-contract=off")
        .arg("-I")
        .arg(&templates)
        .arg(repo_path("test_data/runtime/max_min.c"))
        .arg("-o")
        .arg(&program)
        .arg("-lm");
    run(build, "compiling the max and min check");
    let output = run(Command::new(&program), "the max and min check");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("196 pairs agree"), "{stdout}");
}
