//! "Export this model": a code lens above every model of a file that may
//! be exported (a `model` that is not `partial`), and the command it runs,
//! `mofmu.exportModel`, which is `mofmu export` of the workspace's texts
//! as the editor holds them (unsaved edits included) into
//! `<workspace>/<Model>.fmu`.
//!
//! The lens is a plain function of the index. The command is the one
//! place the server writes a file: it runs on a thread of its own (the C
//! compiler takes seconds, and diagnostics must not wait), and tells the
//! editor the outcome as a message.

use std::path::{Path, PathBuf};

use lsp_types::{CodeLens, Command};

use super::text;
use crate::library::Library;
use crate::resolve::index::{kind_keyword, DeclKind, Index};
use crate::source::FileId;

/// The command the lenses run; its one argument is the model's qualified
/// name.
pub const EXPORT_COMMAND: &str = "mofmu.exportModel";

/// A lens above each model of `file` that may be exported.
pub fn lenses(lib: &Library, index: &Index, file: FileId) -> Vec<CodeLens> {
    let source = lib.sources.get(file);
    let starts = source.line_starts();
    index
        .decls
        .iter()
        .filter_map(|d| match d.kind {
            DeclKind::Class(c) if d.name_span.file == file => Some((d, c)),
            _ => None,
        })
        .filter(|(_, c)| {
            let node = lib.tree.get(*c);
            kind_keyword(&lib.tree, *c) == "model" && node.def.prefixes.partial.is_none()
        })
        .map(|(d, c)| {
            let qualified = lib.tree.get(c).qualified.clone();
            let at = d.name_span.start as usize;
            CodeLens {
                range: text::range(&source.text, starts, at, at),
                command: Some(Command {
                    title: format!("Export {} as an FMU", d.name),
                    command: EXPORT_COMMAND.to_string(),
                    arguments: Some(vec![serde_json::Value::String(qualified)]),
                }),
                data: None,
            }
        })
        .collect()
}

/// Where the FMU of `model` goes: the workspace root (else the current
/// directory), named after the model.
pub fn output_path(root: Option<&Path>, model: &str) -> PathBuf {
    let name = format!("{}.fmu", crate::codegen::kernel::sanitize(model));
    root.map_or_else(|| PathBuf::from(&name), |r| r.join(&name))
}

/// Exports `model` from `files` (name, text, in load order) into `out`:
/// what to tell the editor, and whether it went well.
pub fn export(files: Vec<(String, String)>, model: &str, out: &Path) -> (bool, String) {
    let lib = crate::library::load_library(files);
    let mut built = match crate::export::export_model(&lib, model, &[], None) {
        Ok(b) => b,
        Err(crate::export::ExportError::Diagnostics(ds)) => {
            let first = ds
                .first()
                .map(|d| {
                    let file = lib.sources.get(d.span.file);
                    let (line, _) = file.line_col(d.span.start);
                    format!(": first {} at {}:{line}: {}", d.code, file.name, d.message)
                })
                .unwrap_or_default();
            return (
                false,
                format!(
                    "{model} was not exported: {} diagnostic(s){first}",
                    ds.len()
                ),
            );
        }
        Err(e) => return (false, format!("{model} was not exported: {e}")),
    };
    let cache = match crate::package::ObjectCache::from_env() {
        Ok(c) => c,
        Err(e) => return (false, format!("{model} was not exported: {e}")),
    };
    let spec = built.take_build_spec();
    match crate::package::build_fmu(&spec, out, Some(&cache)) {
        Ok(report) => (
            true,
            format!(
                "exported {model} to {} ({} bytes)",
                out.display(),
                report.fmu_bytes
            ),
        ),
        Err(e) => (false, format!("{model} was not exported: {e}")),
    }
}
