//! Arbitrary text through the whole compiler core: `load_library`, the
//! check, and, when the library checks clean, `export_checked` of every
//! non-partial model and block it declares (instantiation, schedule, units,
//! kernels, system resource, model description), once as FMI 2.0 and once as
//! FMI 3.0 (arrays, member arrays, the structural-parameter template with its
//! probe exports). Every step must return
//! diagnostics or an `ExportError`, never panic or hang. The input is split
//! at the first NUL byte into two files loaded in order, like `check`
//! (`common::files_of`).
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use mofmu::classdb::ClassDb;
use mofmu::export::{export_checked, export_checked_options, ExportOptions, FmiVersion};
use mofmu::fmu::description::table::Interfaces;
use mofmu::library::{check_library_into, load_library};
use mofmu::syntax::ast::ClassKind;

/// Models exported per input at most: a fuzzed library of many models
/// would otherwise spend the run exporting the same shapes again.
const MAX_MODELS: usize = 4;

fuzz_target!(|data: &[u8]| {
    if common::writes_a_large_number(data) {
        return;
    }
    let Some(files) = common::files_of(data) else {
        return;
    };
    let lib = load_library(files);
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let diags = check_library_into(&lib, true, &mut db);
    for d in &diags {
        let _ = d.render_short(&lib.sources);
    }
    if !diags.is_empty() {
        return;
    }
    let models: Vec<String> = lib
        .tree
        .classes
        .iter()
        .filter(|c| matches!(c.def.kind, ClassKind::Model | ClassKind::Block))
        .filter(|c| c.def.prefixes.partial.is_none())
        .map(|c| c.qualified.clone())
        .take(MAX_MODELS)
        .collect();
    for model in models {
        match export_checked(&lib, &mut db, &model, &[], 1.0, Interfaces::BOTH) {
            Ok(out) => {
                // The description renders, as the packaging step would.
                let _ = out.model_description();
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
        // The same model as FMI 3.0: arrays, member arrays and the
        // structural-parameter template (which exports probe sizes).
        let options = ExportOptions {
            fmi_version: FmiVersion::Fmi3,
            ..ExportOptions::default()
        };
        match export_checked_options(&lib, &mut db, &model, &[], 1.0, options) {
            Ok(out) => {
                let _ = out.model_description();
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
