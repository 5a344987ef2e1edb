//! Arbitrary text through the front end: `load_library` + `check_library`
//! must return diagnostics, never panic or hang. The input is split at the
//! first NUL byte into two files loaded in order, so that cross-file rules
//! (look-ahead, `within`, mutual package dependency) are reached too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mofmu::export::{check_library, load_library};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let files: Vec<(String, String)> = text
        .splitn(2, '\0')
        .enumerate()
        .map(|(i, part)| (format!("input{i}.mo"), part.to_string()))
        .collect();
    let lib = load_library(files);
    for d in check_library(&lib) {
        // Every diagnostic renders (spans inside their files).
        let _ = d.render_short(&lib.sources);
    }
});
