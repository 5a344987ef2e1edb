//! The files of an exported model: the static runtime from `templates/`,
//! the class kernels and the system file.

use super::{CSource, FmuBuildSpec, ModelDescriptionSource};
use crate::export::ExportOutput;

pub const RUNTIME_C: &str = include_str!("../../templates/mofmu_runtime.c");
pub const MODEL_H: &str = include_str!("../../templates/mofmu_model.h");
pub const FMI2_H: &str = include_str!("../../templates/mofmu_fmi2.h");
/// The Co-Simulation part of the runtime. It is included by
/// `mofmu_runtime.c` (one translation unit), so it travels as a header.
pub const COSIM_H: &str = include_str!("../../templates/mofmu_cosim.h");

/// Name of the per-model system file inside `sources/`.
pub const SYSTEM_C: &str = crate::fmu::sources::SYSTEM_C;

/// The build of an exported model. Copies the system file and resource;
/// [`take_build_spec`] moves them.
pub fn build_spec(out: &ExportOutput) -> FmuBuildSpec {
    spec_with(out, out.system_c.clone(), out.system_resource.clone())
}

/// [`build_spec`] that moves the system file and resource out of `out`
/// (leaving them empty) instead of copying them: a large model's resource
/// is memory the export does not need twice.
pub fn take_build_spec(out: &mut ExportOutput) -> FmuBuildSpec {
    let system_c = std::mem::take(&mut out.system_c);
    let resource = std::mem::take(&mut out.system_resource);
    spec_with(out, system_c, resource)
}

fn spec_with(out: &ExportOutput, system_c: String, system_resource: Vec<u8>) -> FmuBuildSpec {
    let mut sources = vec![
        CSource {
            name: crate::fmu::sources::RUNTIME_C.into(),
            text: RUNTIME_C.into(),
            cache: true,
        },
        CSource {
            name: SYSTEM_C.into(),
            text: system_c,
            // Cached so that a re-export of an unchanged model compiles
            // nothing and the linked library is found in the cache.
            cache: true,
        },
    ];
    for k in &out.kernels {
        sources.push(CSource {
            name: k.file_name.clone(),
            text: k.text.clone(),
            cache: true,
        });
    }
    for f in &out.functions {
        sources.push(CSource {
            name: f.file_name.clone(),
            text: f.text.clone(),
            cache: true,
        });
    }
    FmuBuildSpec {
        model_identifier: out.model_identifier.clone(),
        model_description: ModelDescriptionSource::Table(out.table.clone()),
        sources,
        headers: vec![
            (crate::fmu::sources::MODEL_H.into(), MODEL_H.into()),
            (crate::fmu::sources::FMI2_H.into(), FMI2_H.into()),
            (crate::fmu::sources::COSIM_H.into(), COSIM_H.into()),
        ],
        resources: vec![(
            crate::fmu::system_image::RESOURCE_NAME.into(),
            system_resource,
        )],
    }
}
