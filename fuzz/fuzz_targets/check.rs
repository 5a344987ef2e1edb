//! Arbitrary text through the front end: `load_library` + `check_library`
//! must return diagnostics, never panic or hang. The input is split at the
//! first NUL byte into two files loaded in order (`common::files_of`), so
//! that cross-file rules (look-ahead, `within`, mutual package dependency)
//! are reached too.
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
    let lib = load_library(files);
    for d in check_library(&lib) {
        // Every diagnostic renders (spans inside their files).
        let _ = d.render_short(&lib.sources);
    }
});
