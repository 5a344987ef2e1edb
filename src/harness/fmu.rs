//! An FMU unpacked into a temporary directory with its shared library loaded.

use std::fs;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

use super::error::HarnessError;
use super::fmi2::{Fmi2Library, Instance};
use super::model_description::ModelDescription;
use super::unzip;

/// An unpacked, loaded FMI 2.0 FMU. Instances borrow it, so the library
/// stays loaded while any instance lives; dropping it unloads the library and then
/// removes the unpacked files.
pub struct Fmu {
    // Field order is drop order: close the library before deleting its file.
    library: Fmi2Library,
    model: ModelDescription,
    directory: TempDir,
}

impl Fmu {
    /// Unpacks `path` safely, reads `modelDescription.xml` and loads
    /// `binaries/<platform>/<modelIdentifier>.<ext>`, resolving every FMI function the
    /// harness uses.
    pub fn load(path: &Path) -> Result<Fmu, HarnessError> {
        let directory = unzip::extract(path)?;
        let description_path = directory.path().join("modelDescription.xml");
        let xml = match fs::read(&description_path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(HarnessError::MissingModelDescription)
            }
            Err(source) => {
                return Err(HarnessError::Io {
                    path: description_path,
                    source,
                })
            }
        };
        let xml = String::from_utf8(xml).map_err(|_| {
            HarnessError::ModelDescription("modelDescription.xml is not UTF-8".into())
        })?;
        let model = ModelDescription::parse(&xml)?;
        let relative = binary_path(&model.model_identifier)?;
        let library_path = directory.path().join(&relative);
        if !library_path.is_file() {
            return Err(HarnessError::MissingBinary { path: relative });
        }
        let library = Fmi2Library::load(&library_path)?;
        Ok(Fmu {
            library,
            model,
            directory,
        })
    }

    pub fn model_description(&self) -> &ModelDescription {
        &self.model
    }

    /// Where the FMU was unpacked.
    pub fn directory(&self) -> &Path {
        self.directory.path()
    }

    /// `fmi2GetVersion` of the loaded library.
    pub fn fmi_version(&self) -> String {
        self.library.version()
    }

    /// `fmi2Instantiate` as Model Exchange with this FMU's GUID and resources folder.
    /// `logging_on` also echoes every log message to standard error.
    pub fn instantiate(
        &self,
        instance_name: &str,
        logging_on: bool,
    ) -> Result<Instance<'_>, HarnessError> {
        let resources = file_uri(&self.directory.path().join("resources"));
        self.library
            .instantiate(instance_name, &self.model.guid, &resources, logging_on)
    }

    /// `fmi2Instantiate` as Co-Simulation.
    pub fn instantiate_co_simulation(
        &self,
        instance_name: &str,
        logging_on: bool,
    ) -> Result<Instance<'_>, HarnessError> {
        let resources = file_uri(&self.directory.path().join("resources"));
        self.library.instantiate_as(
            instance_name,
            &self.model.guid,
            &resources,
            logging_on,
            true,
        )
    }
}

/// `binaries/<platform>/<id>.<ext>` for the platform this harness runs on.
fn binary_path(model_identifier: &str) -> Result<String, HarnessError> {
    let (platform, extension) = if cfg!(all(target_os = "linux", target_pointer_width = "64")) {
        ("linux64", "so")
    } else if cfg!(all(target_os = "linux", target_pointer_width = "32")) {
        ("linux32", "so")
    } else if cfg!(all(target_os = "macos", target_pointer_width = "64")) {
        ("darwin64", "dylib")
    } else if cfg!(all(target_os = "windows", target_pointer_width = "64")) {
        ("win64", "dll")
    } else if cfg!(all(target_os = "windows", target_pointer_width = "32")) {
        ("win32", "dll")
    } else {
        return Err(HarnessError::MissingBinary {
            path: format!(
                "{model_identifier} for this platform (FMI 2.0 defines no folder for it)"
            ),
        });
    };
    Ok(format!(
        "binaries/{platform}/{model_identifier}.{extension}"
    ))
}

/// A `file:///...` URI with every byte outside the unreserved set percent-encoded.
fn file_uri(path: &Path) -> String {
    let absolute: PathBuf = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|dir| dir.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    };
    let text = absolute.to_string_lossy().replace('\\', "/");
    let mut uri = String::from("file://");
    if !text.starts_with('/') {
        uri.push('/');
    }
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/:".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}
