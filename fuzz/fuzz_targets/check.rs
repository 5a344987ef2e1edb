//! Arbitrary text through the front end: `load_library` + `check_library`
//! must return diagnostics, never panic or hang. The input is split at the
//! first NUL byte into two files loaded in order (`common::files_of`), so
//! that cross-file rules (look-ahead, `within`, mutual package dependency)
//! are reached too. When a diagnostic offers a machine-applicable fix,
//! `check --fix` runs on the input as well (every round, its edits applied
//! to the text by their spans, the result checked again).
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use mofmu::library::{check_library, load_library};

fuzz_target!(|data: &[u8]| {
    if common::writes_a_large_number(data) {
        return;
    }
    let Some(files) = common::files_of(data) else {
        return;
    };
    let lib = load_library(files.clone());
    let diags = check_library(&lib);
    for d in &diags {
        // Every diagnostic renders (spans inside their files).
        let _ = d.render_short(&lib.sources);
    }
    if diags
        .iter()
        .any(|d| d.suggestions.iter().any(|s| s.machine_applicable))
    {
        let fixed = mofmu::fix::fix(files, false);
        for d in &fixed.remaining {
            let _ = d.render_short(&fixed.library.sources);
        }
        for (name, before, after) in &fixed.files {
            let _ = mofmu::fix::unified_diff(name, before, after);
        }
    }
});
