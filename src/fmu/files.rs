//! What goes into one FMU: its C units (the static runtime from
//! `templates/`, the system file, the class kernels and user functions),
//! the headers beside them, the model description and the resources. Export
//! describes an FMU in this form and the packaging step (`crate::package`)
//! builds it, so neither depends on the other.

use std::sync::Arc;

use super::description::table::ModelTable;

/// One C unit of the FMU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CSource {
    /// Plain file name ending in `.c`, e.g. `K_Thermal_Rod_1a2b3c.c`.
    pub name: String,
    pub text: String,
    /// Whether the compiled object may be cached. mofmu's units all are
    /// (runtime, kernels, system file), so that re-exporting a model copies
    /// its library from the cache; a unit that is not cacheable keeps the
    /// library out of the cache too.
    pub cache: bool,
}

/// The FMU's `modelDescription.xml`: a text, or a checked table rendered
/// straight into the archive (a rod of 10^6 volumes has a 750 MB
/// description, which is never held in memory whole).
#[derive(Debug, Clone, PartialEq)]
pub enum ModelDescriptionSource {
    Text(String),
    Table(Arc<ModelTable>),
    /// The table rendered as an FMI 3.0 description (`super::description::fmi3`).
    Fmi3Table(Arc<ModelTable>),
}

/// The number of variables from which a description counts as large
/// ([`ModelDescriptionSource::is_large`]): about 25 MB of XML.
pub const LARGE_DESCRIPTION: usize = 100_000;

impl ModelDescriptionSource {
    /// The folder under `binaries/` of the Linux x86-64 library: FMI 2.0's
    /// `linux64`, FMI 3.0's `x86_64-linux`.
    pub fn linux_binaries(&self) -> &'static str {
        match self {
            ModelDescriptionSource::Fmi3Table(_) => "x86_64-linux",
            _ => "linux64",
        }
    }

    /// The folder under `binaries/` of the Windows x86-64 library: FMI
    /// 2.0's `win64`, FMI 3.0's `x86_64-windows`.
    pub fn windows_binaries(&self) -> &'static str {
        match self {
            ModelDescriptionSource::Fmi3Table(_) => "x86_64-windows",
            _ => "win64",
        }
    }

    /// Whether the description is FMI 3.0's.
    pub fn is_fmi3(&self) -> bool {
        matches!(self, ModelDescriptionSource::Fmi3Table(_))
    }

    /// Whether the description is a large model's (hundreds of megabytes
    /// of XML at [`LARGE_DESCRIPTION`] variables and more), which the
    /// archive deflates at a faster level.
    pub fn is_large(&self) -> bool {
        match self {
            ModelDescriptionSource::Text(text) => text.len() >= 250 * LARGE_DESCRIPTION,
            ModelDescriptionSource::Table(table) | ModelDescriptionSource::Fmi3Table(table) => {
                table.variables.len() >= LARGE_DESCRIPTION
            }
        }
    }

    /// Writes the description into `out`.
    pub fn write(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            ModelDescriptionSource::Text(text) => out.write_all(text.as_bytes()),
            ModelDescriptionSource::Table(table) => {
                super::description::model_description::write_model_description(table, out)
                    .map(|_| ())
            }
            ModelDescriptionSource::Fmi3Table(table) => {
                super::description::fmi3::write_model_description(table, out).map(|_| ())
            }
        }
    }
}

/// Everything that goes into one FMU.
#[derive(Debug, Clone, PartialEq)]
pub struct FmuBuildSpec {
    /// C identifier; names the shared library `<id>.so`.
    pub model_identifier: String,
    pub model_description: ModelDescriptionSource,
    pub sources: Vec<CSource>,
    /// Header files (name, text): written next to the sources for
    /// compilation and shipped in `sources/`.
    pub headers: Vec<(String, String)>,
    /// Files under `resources/` (name, bytes): the system resource the
    /// runtime reads at instantiation.
    pub resources: Vec<(String, Vec<u8>)>,
    /// `sources/buildDescription.xml` (FMI 3.0 only: how to rebuild the
    /// binary from `sources/`, where FMI 2.0 lists `<SourceFiles>` in the
    /// model description).
    pub build_description: Option<String>,
}

/// The texts of the static runtime and its headers (their names in
/// `sources/` are in `super::sources`).
pub const RUNTIME_C: &str = include_str!("../../templates/mofmu_runtime.c");
pub const MODEL_H: &str = include_str!("../../templates/mofmu_model.h");
pub const FMI2_H: &str = include_str!("../../templates/mofmu_fmi2.h");
/// The FMI 3.0 entry points: the unit an FMI 3 FMU compiles in place of
/// the runtime, which it includes whole, and their declarations.
pub const FMI3_C: &str = include_str!("../../templates/mofmu_fmi3.c");
pub const FMI3_H: &str = include_str!("../../templates/mofmu_fmi3.h");

/// A file of `templates/` as (name in `sources/`, text): the name is
/// written once.
macro_rules! template {
    ($name:literal) => {
        ($name, include_str!(concat!("../../templates/", $name)))
    };
}

/// The parts of the runtime's translation unit: its internal header and the
/// `.inc` files that `mofmu_runtime.c` includes, in that order (the file
/// says why the runtime is one unit). They are not units of their own, so
/// they travel in `sources/` beside the headers and `<SourceFiles>` does not
/// list them; the object cache follows the includes into them, so a changed
/// part changes the runtime's key.
pub const RUNTIME_PARTS: [(&str, &str); 13] = [
    template!("mofmu_runtime.h"),
    template!("mofmu_steps.h"),
    template!("mofmu_logging.inc"),
    template!("mofmu_resource.inc"),
    template!("mofmu_schedule.inc"),
    template!("mofmu_locations.inc"),
    template!("mofmu_evaluation.inc"),
    template!("mofmu_fmi2_functions.inc"),
    template!("mofmu_state.inc"),
    template!("mofmu_events.inc"),
    template!("mofmu_linear_response.inc"),
    template!("mofmu_cosim_matrix.inc"),
    template!("mofmu_cosim.inc"),
];

/// The parts of the FMI 3.0 unit that `mofmu_fmi3.c` includes, as
/// [`RUNTIME_PARTS`] are the runtime's.
pub const FMI3_PARTS: [(&str, &str); 3] = [
    template!("mofmu_fmi3_arrays.inc"),
    template!("mofmu_fmi3_structural.inc"),
    template!("mofmu_fmi3_derivatives.inc"),
];

/// (name, text) pairs as the owned headers of a build.
fn headers<'a>(files: impl IntoIterator<Item = &'a (&'a str, &'a str)>) -> Vec<(String, String)> {
    files
        .into_iter()
        .map(|(name, text)| (name.to_string(), text.to_string()))
        .collect()
}

/// The build of an exported model: the static runtime, the system file
/// and the given units (kernels and functions, by file name and text), the
/// headers, and the system resource.
pub fn model_spec<'a>(
    model_identifier: &str,
    table: Arc<ModelTable>,
    units: impl IntoIterator<Item = (&'a str, &'a str)>,
    system_c: String,
    system_resource: Vec<u8>,
) -> FmuBuildSpec {
    let mut sources = vec![
        CSource {
            name: super::sources::RUNTIME_C.into(),
            text: RUNTIME_C.into(),
            cache: true,
        },
        CSource {
            name: super::sources::SYSTEM_C.into(),
            text: system_c,
            // Cached so that a re-export of an unchanged model compiles
            // nothing and the linked library is found in the cache.
            cache: true,
        },
    ];
    for (name, text) in units {
        sources.push(CSource {
            name: name.into(),
            text: text.into(),
            cache: true,
        });
    }
    FmuBuildSpec {
        model_identifier: model_identifier.into(),
        model_description: ModelDescriptionSource::Table(table),
        sources,
        headers: headers(
            [
                (super::sources::MODEL_H, MODEL_H),
                (super::sources::FMI2_H, FMI2_H),
            ]
            .iter()
            .chain(&RUNTIME_PARTS),
        ),
        resources: vec![(
            super::image::system_image::RESOURCE_NAME.into(),
            system_resource,
        )],
        build_description: None,
    }
}

/// [`model_spec`] for FMI 3.0: the FMI 3 description, and `mofmu_fmi3.c`
/// compiled in place of the runtime, which it includes (so the runtime
/// travels beside the headers, and the FMU also exports the fmi2 functions
/// it wraps).
pub fn model_spec_fmi3<'a>(
    model_identifier: &str,
    table: Arc<ModelTable>,
    units: impl IntoIterator<Item = (&'a str, &'a str)>,
    system_c: String,
    system_resource: Vec<u8>,
) -> FmuBuildSpec {
    let mut spec = model_spec(
        model_identifier,
        table.clone(),
        units,
        system_c,
        system_resource,
    );
    // The arrays the description declares, for the runtime's getters and
    // setters (one grouping serves both, `super::description::fmi3_arrays`).
    let arrays = super::description::fmi3_arrays::arrays(&table);
    spec.resources.push((
        super::description::fmi3_arrays::RESOURCE_NAME.into(),
        super::description::fmi3_arrays::resource(&table, &arrays),
    ));
    if let Some(s) = &table.structural {
        spec.resources.push((
            super::image::structural::RESOURCE_NAME.into(),
            s.resource.clone(),
        ));
    }
    spec.model_description = ModelDescriptionSource::Fmi3Table(table);
    let runtime = &mut spec.sources[0];
    runtime.name = super::sources::FMI3_C.into();
    runtime.text = FMI3_C.into();
    spec.headers.extend(headers(
        [
            (super::sources::RUNTIME_C, RUNTIME_C),
            (super::sources::FMI3_H, FMI3_H),
        ]
        .iter()
        .chain(&FMI3_PARTS),
    ));
    let units: Vec<&str> = spec.sources.iter().map(|s| s.name.as_str()).collect();
    spec.build_description = Some(super::description::fmi3::build_description(
        model_identifier,
        &units,
    ));
    spec
}
