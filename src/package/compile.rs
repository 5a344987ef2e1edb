//! Runs the system C compiler: one object per C unit, then one shared
//! library. The compiler is found through the `cc` crate (so `CC` is
//! honoured), but the flags are fixed here and nothing else from the
//! environment (such as `CFLAGS`) is added: the same sources must give the
//! same bytes, and the cache key must describe the command exactly.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::error::PackageError;

/// Flags for every C unit. Kernels keep their symbols hidden; the runtime
/// marks the FMI entry points with default visibility. `-ffp-contract=off`
/// forbids fused multiply-add contraction so results do not depend on the
/// optimiser's choices. There is no `-g`, so no build path enters the
/// object files.
pub const COMPILE_FLAGS: &[&str] = &[
    "-std=c99",
    "-O2",
    "-fPIC",
    "-fvisibility=hidden",
    "-ffp-contract=off",
];

/// Flags for linking the shared library. `-z defs` turns an undefined
/// symbol into a link error instead of a failure when the FMU is loaded:
/// the FMU may depend on nothing but libc and libm.
pub const LINK_FLAGS: &[&str] = &["-shared", "-Wl,-z,defs"];

/// Libraries linked after the objects.
pub const LINK_LIBRARIES: &[&str] = &["-lm"];

/// The C compiler used for a build, with a description that identifies it
/// for the object cache.
#[derive(Debug, Clone)]
pub struct Compiler {
    path: PathBuf,
    target: String,
    identity: String,
}

impl Compiler {
    /// Finds the system C compiler for the host (a Linux target) and asks
    /// it for its version.
    pub fn detect() -> Result<Compiler, PackageError> {
        let target = host_target()?;
        let tool = cc::Build::new()
            .cargo_metadata(false)
            .emit_rerun_if_env_changed(false)
            .opt_level(2)
            .debug(false)
            .target(&target)
            .host(&target)
            .warnings(false)
            .try_get_compiler()
            .map_err(|e| PackageError::CompilerNotFound(e.to_string()))?;
        let path = tool.path().to_path_buf();
        let output = Command::new(&path).arg("--version").output().map_err(|e| {
            PackageError::CompilerNotFound(format!("cannot run `{}`: {e}", path.display()))
        })?;
        if !output.status.success() {
            return Err(PackageError::CompilerNotFound(format!(
                "`{} --version` failed: {}",
                path.display(),
                String::from_utf8_lossy(&output.stderr).trim()
            )));
        }
        let identity = format!(
            "{}\n{}\n{}",
            path.display(),
            target,
            String::from_utf8_lossy(&output.stdout).trim()
        );
        Ok(Compiler {
            path,
            target,
            identity,
        })
    }

    /// The compiler executable.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The target triple the compiler builds for.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// Path, target and `--version` output: what the cache key records
    /// about the compiler.
    pub fn identity(&self) -> &str {
        &self.identity
    }

    /// Compiles `dir/<source>` into `dir/<object>`. Both names are relative
    /// to `dir`, which is also the working directory, so that only the
    /// file name (never a temporary path) is recorded in the object.
    pub fn compile_object(
        &self,
        dir: &Path,
        source: &str,
        object: &str,
    ) -> Result<(), PackageError> {
        let mut command = Command::new(&self.path);
        command
            .current_dir(dir)
            .args(COMPILE_FLAGS)
            .args(["-c", source, "-o", object]);
        let output = self.run(command)?;
        if output.status.success() {
            Ok(())
        } else {
            Err(PackageError::Compile {
                source_name: source.to_string(),
                stderr: String::from_utf8_lossy(&output.stderr)
                    .trim_end()
                    .to_string(),
            })
        }
    }

    /// Links `objects` (in the given order, relative to `dir`) into the
    /// shared library `dir/<library>`.
    pub fn link_shared(
        &self,
        dir: &Path,
        objects: &[String],
        library: &str,
    ) -> Result<(), PackageError> {
        let mut command = Command::new(&self.path);
        command
            .current_dir(dir)
            .args(LINK_FLAGS)
            .args(["-o", library])
            .args(objects)
            .args(LINK_LIBRARIES);
        let output = self.run(command)?;
        if output.status.success() {
            Ok(())
        } else {
            Err(PackageError::Link {
                library: library.to_string(),
                stderr: String::from_utf8_lossy(&output.stderr)
                    .trim_end()
                    .to_string(),
            })
        }
    }

    fn run(&self, mut command: Command) -> Result<Output, PackageError> {
        command.output().map_err(|e| {
            PackageError::CompilerNotFound(format!("cannot run `{}`: {e}", self.path.display()))
        })
    }
}

/// FMI 2.0 names one directory for 64-bit Linux binaries, so only 64-bit
/// Linux hosts can build an FMU that will be found where it is expected.
fn host_target() -> Result<String, PackageError> {
    if std::env::consts::OS != "linux" || cfg!(not(target_pointer_width = "64")) {
        return Err(PackageError::UnsupportedPlatform(format!(
            "FMUs are built for linux64, but this host is {}-{}",
            std::env::consts::ARCH,
            std::env::consts::OS
        )));
    }
    Ok(format!("{}-unknown-linux-gnu", std::env::consts::ARCH))
}
