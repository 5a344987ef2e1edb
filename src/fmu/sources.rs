//! The names of the files in an FMU's `sources/` directory, listed once so
//! that `modelDescription.xml` (`<SourceFiles>`) and the packaging step agree.
//!
//! An importer on another platform rebuilds the binary from `sources/` alone
//! (FMPy's `build_platform_binary` compiles exactly the listed files with
//! `sources/` on the include path). FMI 2.0 lists the files "that need to be
//! compiled", so the listing holds every C unit; the headers and the parts
//! of the runtime beside them (`super::files::RUNTIME_PARTS`) are found
//! through the include path.

/// The static FMI runtime (`templates/mofmu_runtime.c`).
pub const RUNTIME_C: &str = "mofmu_runtime.c";
/// The model's system file: tables and the schedule.
pub const SYSTEM_C: &str = "mofmu_system.c";
/// The interface between runtime and generated code.
pub const MODEL_H: &str = "mofmu_model.h";
/// The FMI 2.0 declarations the runtime implements.
pub const FMI2_H: &str = "mofmu_fmi2.h";

/// The FMI 3.0 entry points, the unit an FMI 3 FMU compiles in place of
/// the runtime (which it includes).
pub const FMI3_C: &str = "mofmu_fmi3.c";
/// The FMI 3.0 declarations.
pub const FMI3_H: &str = "mofmu_fmi3.h";
/// FMI 3.0's build description: the C units to compile, their language and
/// the libraries to link (FMI 2.0 has `<SourceFiles>` in the description).
pub const BUILD_DESCRIPTION: &str = "buildDescription.xml";

/// The C units of a model, in the order they are compiled: the runtime, the
/// system file, then one file per class kernel.
pub fn source_files<'a>(kernel_files: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut files = vec![RUNTIME_C.to_string(), SYSTEM_C.to_string()];
    files.extend(kernel_files.into_iter().map(str::to_string));
    files
}
