//! The optional Windows binary (`mofmu export --platform win64`): the same
//! C units cross-compiled with the MinGW-w64 toolchain into
//! `binaries/win64/<modelIdentifier>.dll` (FMI 3.0:
//! `binaries/x86_64-windows/`), next to the Linux binary.
//!
//! A module-definition file exports exactly the FMI 2.0 functions, and for
//! FMI 3.0 the fmi3 functions beside them, as the Linux library does (the
//! runtime's `MOFMU_EXPORT` marks them for ELF visibility, which PE does not
//! know); `-static-libgcc` keeps the GCC runtime inside the DLL, so it
//! imports only the C runtime (`msvcrt.dll`) and the Windows core
//! (`KERNEL32.dll`) that the C runtime itself stands on; and
//! `--no-insert-timestamp` keeps the DLL byte-identical from build to build
//! (`-s` leaves out the symbol table, as the FMU needs only the exports).

use std::io::Read;
use std::path::Path;
use std::process::Command;

use super::archive::{write_archive_atomically, ArchiveEntry};
use super::error::{io_error, PackageError};
use crate::fmu::files::FmuBuildSpec;

/// The cross compiler, unless `MOFMU_MINGW_CC` names another.
pub const MINGW_CC: &str = "x86_64-w64-mingw32-gcc";

/// Every function of the FMI 2.0 API, the DLL's only exports for FMI 2.0.
pub const FMI2_FUNCTIONS: [&str; 44] = [
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
    "fmi2SetRealInputDerivatives",
    "fmi2GetRealOutputDerivatives",
    "fmi2DoStep",
    "fmi2CancelStep",
    "fmi2GetStatus",
    "fmi2GetRealStatus",
    "fmi2GetIntegerStatus",
    "fmi2GetBooleanStatus",
    "fmi2GetStringStatus",
];

const FLAGS: &[&str] = &[
    "-std=c99",
    "-O2",
    "-ffp-contract=off",
    "-shared",
    "-static-libgcc",
    "-s",
    "-Wl,--no-insert-timestamp",
];

/// Cross-compiles the FMU's C units into a Windows DLL and returns its bytes.
pub fn build_win64_library(spec: &FmuBuildSpec) -> Result<Vec<u8>, PackageError> {
    let compiler = std::env::var("MOFMU_MINGW_CC").unwrap_or_else(|_| MINGW_CC.to_string());
    let build = tempfile::Builder::new()
        .prefix("mofmu-win64-")
        .tempdir()
        .map_err(|e| io_error("creating a build directory in", &std::env::temp_dir(), e))?;
    let dir = build.path();
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).map_err(|e| io_error("writing", &dir.join(name), e))
    };
    for (name, text) in &spec.headers {
        write(name, text)?;
    }
    let mut units: Vec<&str> = Vec::new();
    for source in &spec.sources {
        write(&source.name, &source.text)?;
        units.push(&source.name);
    }
    units.sort_unstable();
    let definitions = format!(
        "LIBRARY {}.dll\nEXPORTS\n{}\n",
        spec.model_identifier,
        exported_functions(spec).join("\n")
    );
    write("exports.def", &definitions)?;
    let library = format!("{}.dll", spec.model_identifier);
    let output = Command::new(&compiler)
        .current_dir(dir)
        .args(FLAGS)
        .args(["-o", &library])
        .args(&units)
        .args(["exports.def", "-lm"])
        .output()
        .map_err(|e| {
            PackageError::CompilerNotFound(format!(
                "cannot run the MinGW-w64 cross compiler `{compiler}` ({e}); on Debian: \
                 apt-get install gcc-mingw-w64-x86-64-win32"
            ))
        })?;
    if !output.status.success() {
        return Err(PackageError::Link {
            library,
            stderr: String::from_utf8_lossy(&output.stderr)
                .trim_end()
                .to_string(),
        });
    }
    std::fs::read(dir.join(&library)).map_err(|e| io_error("reading", &dir.join(&library), e))
}

/// Adds `binaries/win64/<id>.dll` to the FMU at `fmu` (rewritten
/// atomically, entries as before). Returns the new archive size.
/// The fmi3 functions an FMI 3.0 FMU's library exports (every function of
/// the FMI 3.0 API, `templates/mofmu_fmi3.c`): the DLL's exports beside the
/// FMI 2.0 ones, which the fmi3 functions wrap and the Linux library
/// exports too. A name here that the unit does not define fails the link;
/// `fmu-tests/win64_check.py` checks that the DLL exports what the Linux
/// library does.
pub const FMI3_FUNCTIONS: [&str; 75] = [
    "fmi3ActivateModelPartition",
    "fmi3CompletedIntegratorStep",
    "fmi3DeserializeFMUState",
    "fmi3DoStep",
    "fmi3EnterConfigurationMode",
    "fmi3EnterContinuousTimeMode",
    "fmi3EnterEventMode",
    "fmi3EnterInitializationMode",
    "fmi3EnterStepMode",
    "fmi3EvaluateDiscreteStates",
    "fmi3ExitConfigurationMode",
    "fmi3ExitInitializationMode",
    "fmi3FreeFMUState",
    "fmi3FreeInstance",
    "fmi3GetAdjointDerivative",
    "fmi3GetBinary",
    "fmi3GetBoolean",
    "fmi3GetClock",
    "fmi3GetContinuousStateDerivatives",
    "fmi3GetContinuousStates",
    "fmi3GetDirectionalDerivative",
    "fmi3GetEventIndicators",
    "fmi3GetFMUState",
    "fmi3GetFloat32",
    "fmi3GetFloat64",
    "fmi3GetInt16",
    "fmi3GetInt32",
    "fmi3GetInt64",
    "fmi3GetInt8",
    "fmi3GetIntervalDecimal",
    "fmi3GetIntervalFraction",
    "fmi3GetNominalsOfContinuousStates",
    "fmi3GetNumberOfContinuousStates",
    "fmi3GetNumberOfEventIndicators",
    "fmi3GetNumberOfVariableDependencies",
    "fmi3GetOutputDerivatives",
    "fmi3GetShiftDecimal",
    "fmi3GetShiftFraction",
    "fmi3GetString",
    "fmi3GetUInt16",
    "fmi3GetUInt32",
    "fmi3GetUInt64",
    "fmi3GetUInt8",
    "fmi3GetVariableDependencies",
    "fmi3GetVersion",
    "fmi3InstantiateCoSimulation",
    "fmi3InstantiateModelExchange",
    "fmi3InstantiateScheduledExecution",
    "fmi3Reset",
    "fmi3SerializeFMUState",
    "fmi3SerializedFMUStateSize",
    "fmi3SetBinary",
    "fmi3SetBoolean",
    "fmi3SetClock",
    "fmi3SetContinuousStates",
    "fmi3SetDebugLogging",
    "fmi3SetFMUState",
    "fmi3SetFloat32",
    "fmi3SetFloat64",
    "fmi3SetInt16",
    "fmi3SetInt32",
    "fmi3SetInt64",
    "fmi3SetInt8",
    "fmi3SetIntervalDecimal",
    "fmi3SetIntervalFraction",
    "fmi3SetShiftDecimal",
    "fmi3SetShiftFraction",
    "fmi3SetString",
    "fmi3SetTime",
    "fmi3SetUInt16",
    "fmi3SetUInt32",
    "fmi3SetUInt64",
    "fmi3SetUInt8",
    "fmi3Terminate",
    "fmi3UpdateDiscreteStates",
];

/// The functions the DLL exports: the FMI 2.0 API, and for FMI 3.0 also
/// the FMI 3.0 API.
pub fn exported_functions(spec: &FmuBuildSpec) -> Vec<&'static str> {
    let mut names = FMI2_FUNCTIONS.to_vec();
    if spec.model_description.is_fmi3() {
        names.extend(FMI3_FUNCTIONS);
    }
    names
}

pub fn add_win64_binary(fmu: &Path, spec: &FmuBuildSpec) -> Result<u64, PackageError> {
    let dll = build_win64_library(spec)?;
    let file = std::fs::File::open(fmu).map_err(|e| io_error("opening", fmu, e))?;
    let zip_error = |source| PackageError::Zip {
        path: fmu.to_path_buf(),
        source,
    };
    let mut archive = zip::ZipArchive::new(file).map_err(zip_error)?;
    let mut entries = Vec::with_capacity(archive.len() + 1);
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(zip_error)?;
        let mut bytes = Vec::new();
        entry
            .read_to_end(&mut bytes)
            .map_err(|e| io_error("reading", fmu, e))?;
        entries.push(ArchiveEntry {
            path: entry.name().to_string(),
            executable: entry.unix_mode().is_some_and(|m| m & 0o111 != 0),
            bytes: bytes.into(),
        });
    }
    let folder = format!("binaries/{}/", spec.model_description.windows_binaries());
    entries.retain(|e| !e.path.starts_with(&folder));
    entries.push(ArchiveEntry {
        path: format!("{folder}{}.dll", spec.model_identifier),
        bytes: dll.into(),
        executable: true,
    });
    write_archive_atomically(fmu, entries)
}
