//! The static FMI 2.0 runtime (`templates/`), tested without the code
//! generator: the runtime is compiled together with a hand-written system
//! file (`test_data/runtime/fake_system.c`) into a shared object, and a C
//! driver (`test_data/runtime/driver.c`) loads it with `dlopen`, simulates
//! the model against its closed-form solution and misuses every function.
//! The driver prints one line per failed check; it also runs instances in
//! several threads, hence `-pthread`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

    let mut drive = Command::new(&driver);
    drive.arg(&library);
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
