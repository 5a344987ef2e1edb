//! Sizes that keep the tree readable: no function of `src/` over 150
//! lines, and no file of `src/` or of the C runtime (`templates/`) over
//! 1,500 lines. A file grows by splitting along the language or the
//! standard (one grammar module per syntax category, one runtime file per
//! concern of FMI), a function by naming its steps.

use crate::source_scan::{code_only, function_lengths, long_functions, rust_files};
use std::path::Path;

/// The longest a function of `src/` may be, from `fn` to its closing brace.
const FUNCTION_LINES: usize = 150;
/// The longest a file of `src/` or `templates/` may be.
const FILE_LINES: usize = 1_500;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_function_of_src_is_over_150_lines() {
    let long = long_functions(&root().join("src"), FUNCTION_LINES);
    assert!(
        long.is_empty(),
        "functions over {FUNCTION_LINES} lines (name their steps):\n{}",
        long.iter()
            .map(|(file, line, name, lines)| format!("  src/{file}:{line} {name}: {lines} lines"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn no_file_of_src_or_templates_is_over_1500_lines() {
    let mut files = rust_files(&root().join("src"));
    for entry in std::fs::read_dir(root().join("templates")).expect("templates/") {
        files.push(entry.expect("an entry").path());
    }
    let mut long = Vec::new();
    for file in files {
        let lines = std::fs::read_to_string(&file)
            .expect("readable")
            .lines()
            .count();
        if lines > FILE_LINES {
            long.push(format!("  {}: {lines} lines", file.display()));
        }
    }
    assert!(
        long.is_empty(),
        "files over {FILE_LINES} lines (split along the language or the standard):\n{}",
        long.join("\n")
    );
}

/// The counter sees what the guard is for: a long function is found, and
/// braces in strings and comments do not cut it short.
#[test]
fn the_function_counter_counts_through_literals() {
    let mut text = String::from("fn long() {\n    let s = \"}\"; // }\n");
    for _ in 0..200 {
        text.push_str("    step();\n");
    }
    text.push_str("}\nfn short() {}\n");
    let lengths = function_lengths(&code_only(&text));
    assert_eq!(
        lengths,
        [(1, "long".to_string(), 203), (204, "short".to_string(), 1)]
    );
}
