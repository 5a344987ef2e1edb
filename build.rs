//! Compiles the small C shim that gives FMUs a variadic logger callback (see
//! `src/harness/logger_shim.c`).

fn main() {
    println!("cargo:rerun-if-changed=src/harness/logger_shim.c");
    cc::Build::new()
        .file("src/harness/logger_shim.c")
        .warnings(true)
        .compile("mofmu_harness_shim");
}
