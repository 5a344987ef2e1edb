//! An FMU unpacked into a temporary directory with its shared library loaded, of
//! FMI version 2.0 or 3.0: its instances are the version-neutral
//! [`FmiInstance`](super::instance::FmiInstance).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

use super::error::HarnessError;
use super::fmi2::{Fmi2Library, Instance};
use super::fmi3::Fmi3Library;
use super::instance::DynInstance;
use super::model_description::ModelDescription;
use super::model_description3::Fmi3Description;
use super::options::Interface;
use super::unzip;

/// The library of either version, with what the FMI 3.0 side needs besides.
enum Library {
    Fmi2(Fmi2Library),
    Fmi3 {
        library: Fmi3Library,
        description: Box<Fmi3Description>,
        /// The structural parameters' start values.
        sizes: HashMap<u32, u64>,
    },
}

/// An unpacked, loaded FMU. Instances borrow it, so the library
/// stays loaded while any instance lives; dropping it unloads the library and then
/// removes the unpacked files.
pub struct Fmu {
    // Field order is drop order: close the library before deleting its file.
    library: Library,
    /// The version-neutral description (FMI 3.0: the scalar view at the
    /// structural parameters' start values).
    model: ModelDescription,
    directory: TempDir,
}

impl Fmu {
    /// Unpacks `path` safely, reads `modelDescription.xml` and loads
    /// `binaries/<platform>/<modelIdentifier>.<ext>` (FMI 2.0) or
    /// `binaries/<arch>-<os>/...` (FMI 3.0), resolving every FMI function the
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
        let (library, model) = match ModelDescription::parse(&xml) {
            Err(HarnessError::UnsupportedFmiVersion(version)) if version.starts_with("3.") => {
                let description = Fmi3Description::parse(&xml)?;
                let sizes = description.default_sizes()?;
                let model = description.view(&sizes)?.model;
                let relative = binary_path3(&description.model_identifier)?;
                let library = Fmi3Library::load(&existing(directory.path(), relative)?)?;
                (
                    Library::Fmi3 {
                        library,
                        description: Box::new(description),
                        sizes,
                    },
                    model,
                )
            }
            Err(e) => return Err(e),
            Ok(model) => {
                let relative = binary_path(&model.model_identifier)?;
                let library = Fmi2Library::load(&existing(directory.path(), relative)?)?;
                (Library::Fmi2(library), model)
            }
        };
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

    /// `fmi2GetVersion` or `fmi3GetVersion` of the loaded library.
    pub fn fmi_version(&self) -> String {
        match &self.library {
            Library::Fmi2(library) => library.version(),
            Library::Fmi3 { library, .. } => library.version(),
        }
    }

    /// A new instance of either interface and version, and the model
    /// description at its sizes: `start_values` that name FMI 3.0
    /// structural parameters are set in configuration mode before anything
    /// else (they resize arrays), the others are left to the caller.
    pub fn instance(
        &self,
        interface: Interface,
        instance_name: &str,
        logging_on: bool,
        start_values: &[(String, f64)],
    ) -> Result<(DynInstance<'_>, Cow<'_, ModelDescription>), HarnessError> {
        let co_simulation = interface == Interface::CoSimulation;
        // The description says which interfaces the FMU has, not the
        // library's symbols: an FMU may export every function of the API.
        let declared = if co_simulation {
            self.model.co_simulation.is_some()
        } else {
            self.model.model_exchange
        };
        if !declared {
            return Err(HarnessError::BadOptions(format!(
                "the FMU does not declare <{}>",
                if co_simulation {
                    "CoSimulation"
                } else {
                    "ModelExchange"
                }
            )));
        }
        match &self.library {
            Library::Fmi2(library) => {
                let resources = file_uri(&self.directory.path().join("resources"));
                let instance = library.instantiate_as(
                    instance_name,
                    &self.model.guid,
                    &resources,
                    logging_on,
                    co_simulation,
                )?;
                Ok((Box::new(instance), Cow::Borrowed(&self.model)))
            }
            Library::Fmi3 {
                library,
                description,
                sizes,
            } => {
                let mut sizes = sizes.clone();
                for (name, value) in start_values {
                    let Some(v) = description
                        .variables
                        .iter()
                        .find(|v| v.structural && &v.name == name)
                    else {
                        continue;
                    };
                    if value.fract() != 0.0 || *value < 1.0 || *value > u32::MAX as f64 {
                        return Err(HarnessError::BadStartValue {
                            name: name.clone(),
                            reason: format!("{value} is not a size (a positive whole number)"),
                        });
                    }
                    sizes.insert(v.value_reference, *value as u64);
                }
                let mut resources = self
                    .directory
                    .path()
                    .join("resources")
                    .to_string_lossy()
                    .into_owned();
                resources.push(std::path::MAIN_SEPARATOR);
                let instance = library.instantiate(
                    description,
                    &sizes,
                    instance_name,
                    &resources,
                    logging_on,
                    co_simulation,
                )?;
                let model = if &sizes == self.default_sizes() {
                    Cow::Borrowed(&self.model)
                } else {
                    Cow::Owned(description.view(&sizes)?.model)
                };
                Ok((Box::new(instance), model))
            }
        }
    }

    fn default_sizes(&self) -> &HashMap<u32, u64> {
        static NONE: std::sync::OnceLock<HashMap<u32, u64>> = std::sync::OnceLock::new();
        match &self.library {
            Library::Fmi3 { sizes, .. } => sizes,
            Library::Fmi2(_) => NONE.get_or_init(HashMap::new),
        }
    }

    fn fmi2(&self, function: &str) -> Result<&Fmi2Library, HarnessError> {
        match &self.library {
            Library::Fmi2(library) => Ok(library),
            Library::Fmi3 { .. } => Err(HarnessError::BadOptions(format!(
                "{function}: this is an FMI 3.0 FMU; use Fmu::instance"
            ))),
        }
    }

    /// `fmi2Instantiate` as Model Exchange with this FMU's GUID and resources folder,
    /// as the FMI 2.0 instance itself (for callers that call FMI 2.0 functions by
    /// name; the loops take [`Fmu::instance`]). `logging_on` also echoes every log
    /// message to standard error.
    pub fn instantiate(
        &self,
        instance_name: &str,
        logging_on: bool,
    ) -> Result<Instance<'_>, HarnessError> {
        let resources = file_uri(&self.directory.path().join("resources"));
        self.fmi2("instantiate")?.instantiate(
            instance_name,
            &self.model.guid,
            &resources,
            logging_on,
        )
    }

    /// `fmi2Instantiate` as Co-Simulation.
    pub fn instantiate_co_simulation(
        &self,
        instance_name: &str,
        logging_on: bool,
    ) -> Result<Instance<'_>, HarnessError> {
        let resources = file_uri(&self.directory.path().join("resources"));
        self.fmi2("instantiate_co_simulation")?.instantiate_as(
            instance_name,
            &self.model.guid,
            &resources,
            logging_on,
            true,
        )
    }
}

/// The library at `relative` under `directory`, if it is there.
fn existing(directory: &Path, relative: String) -> Result<PathBuf, HarnessError> {
    let path = directory.join(&relative);
    if !path.is_file() {
        return Err(HarnessError::MissingBinary { path: relative });
    }
    Ok(path)
}

/// FMI 3.0's `binaries/<arch>-<os>/<id>.<ext>` for the platform this harness runs on.
fn binary_path3(model_identifier: &str) -> Result<String, HarnessError> {
    let (platform, extension) = if cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        ("x86_64-linux", "so")
    } else if cfg!(all(target_os = "linux", target_arch = "aarch64")) {
        ("aarch64-linux", "so")
    } else if cfg!(all(target_os = "macos", target_arch = "x86_64")) {
        ("x86_64-darwin", "dylib")
    } else if cfg!(all(target_os = "macos", target_arch = "aarch64")) {
        ("aarch64-darwin", "dylib")
    } else if cfg!(all(target_os = "windows", target_arch = "x86_64")) {
        ("x86_64-windows", "dll")
    } else {
        return Err(HarnessError::MissingBinary {
            path: format!("{model_identifier} for this platform"),
        });
    };
    Ok(format!(
        "binaries/{platform}/{model_identifier}.{extension}"
    ))
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
