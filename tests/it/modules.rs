//! The module graph of `src/`: phases depend on earlier phases only, and
//! only the front end reads the syntax tree. A
//! module's dependencies are the `crate::<module>` paths its files name
//! (comments left out); the binary's own files (`main.rs`, `watch.rs`,
//! `commands/`) sit above everything and are not part of the graph.

use crate::source_scan::{cycle_from, file_graph, find_cycle};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Top-level module of the library -> the top-level modules it names.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = Vec::new();
    collect(&src, &mut files);
    for file in files {
        let relative = file.strip_prefix(&src).expect("under src/");
        let first = relative.components().next().expect("a path");
        let module = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if ["main", "watch", "commands", "lib"].contains(&module.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("readable");
        let deps = graph.entry(module.clone()).or_default();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            let mut rest = code;
            while let Some(at) = rest.find("crate::") {
                rest = &rest[at + "crate::".len()..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != module {
                    deps.insert(name);
                }
            }
        }
    }
    graph
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_modules_of_src_form_no_cycle() {
    let graph = module_graph();
    assert!(graph.len() > 10, "found only {:?}", graph.keys());
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        if let Some(cycle) = cycle_from(&graph, module, &mut Vec::new(), &mut done) {
            panic!("module cycle: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn instantiate_reads_compiled_classes_and_compiles_nothing() {
    let graph = module_graph();
    let deps = &graph["instantiate"];
    for phase in ["causalize", "codegen"] {
        assert!(
            !deps.contains(phase),
            "instantiate imports {phase}: it should read the class database"
        );
    }
    assert!(deps.contains("classdb"));
    // It reads the database and cannot add to it: `ClassDb::compile_below`
    // compiles what a model needs before it is instantiated.
    let mut files = Vec::new();
    collect(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/instantiate"),
        &mut files,
    );
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        assert!(
            !text.contains("&mut ClassDb") && !text.contains("&'e mut ClassDb"),
            "{} takes the class database mutably: instantiation should only read it",
            file.display()
        );
    }
}

/// The syntax tree is read by the front end only: `syntax` itself, `check`
/// (compliance rules on the tree), `resolve` (which turns it into class
/// models that hold no syntax type), `library` (which parses the files it
/// is given and checks what kind of class each is), `export` (which reads
/// a model's kind and `experiment` annotation) and `session` (which re-parses the files that changed and keeps
/// the syntax trees of the others between checks). Every later phase reads resolved class models, so none of
/// them can look a name up again or re-read what a class wrote.
#[test]
fn no_phase_below_resolve_reads_the_syntax_tree() {
    let graph = module_graph();
    let front_end = ["syntax", "check", "resolve", "library", "export", "session"];
    for (module, deps) in &graph {
        assert!(
            front_end.contains(&module.as_str()) || !deps.contains("syntax"),
            "`{module}` imports crate::syntax: only {front_end:?} may read the syntax tree"
        );
    }
    for phase in [
        "classdb",
        "causalize",
        "units",
        "instantiate",
        "schedule",
        "codegen",
        "fmu",
    ] {
        assert!(graph.contains_key(phase), "no module `{phase}` in src/");
    }
    // Nor does `resolve` hand syntax types on under its own name.
    let resolve = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/resolve");
    let mut files = Vec::new();
    collect(&resolve, &mut files);
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        assert!(
            !text.contains("pub use crate::syntax"),
            "{} re-exports a syntax type",
            file.display()
        );
    }
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    graph.entry("a".into()).or_default().insert("b".into());
    graph.entry("b".into()).or_default().insert("c".into());
    graph.entry("c".into()).or_default().insert("a".into());
    let cycle = cycle_from(&graph, "a", &mut Vec::new(), &mut BTreeSet::new());
    assert_eq!(cycle.unwrap(), ["a", "b", "c", "a"]);
}

/// Export, the incremental session and packaging are peers over the same
/// lower layers (`library`, `classdb`, `fmu`): none imports another, so the
/// check policy, the library and the build's description live below them.
#[test]
fn export_session_and_package_are_peers() {
    let graph = module_graph();
    let peers = ["export", "session", "package"];
    for module in peers {
        for other in peers.iter().filter(|p| **p != module) {
            assert!(
                !graph[module].contains(*other),
                "`{module}` imports `{other}`: both should build on the lower layers"
            );
        }
    }
}

/// Inside a module the files read one way too: no file of `src/` imports a
/// file that imports it back, around any circle, `mod.rs` included (a
/// child that names `super::Item` of its `mod.rs` imports that `mod.rs`).
/// Shared types sit in a file below the files that use them, and `mod.rs`
/// is the top of its module. `source_scan::file_graph` says what a file
/// imports.
#[test]
fn the_files_of_src_form_no_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = file_graph(&src);
    assert!(graph.len() > 100, "found only {} files", graph.len());
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "file import circle: {}\n(move what both need into a file below them)",
            cycle.join(" -> ")
        );
    }
}

/// The file guard sees a circle through a `mod.rs`: a child that names an
/// item of its `mod.rs` while the `mod.rs` calls into the child.
#[test]
fn the_file_guard_sees_a_circle_through_mod_rs() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let src = dir.path();
    std::fs::create_dir_all(src.join("phase")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod phase;\n").unwrap();
    std::fs::write(
        src.join("phase/mod.rs"),
        "mod step;\npub struct Shared;\npub fn run() { step::go(); }\n",
    )
    .unwrap();
    std::fs::write(
        src.join("phase/step.rs"),
        "use super::Shared;\npub fn go() -> Shared { Shared }\n",
    )
    .unwrap();
    let graph = file_graph(src);
    assert_eq!(
        find_cycle(&graph).expect("a circle"),
        ["phase/mod.rs", "phase/step.rs", "phase/mod.rs"]
    );
    // With the shared type in a file of its own, below both, the circle is gone.
    std::fs::write(
        src.join("phase/mod.rs"),
        "mod shared;\nmod step;\npub use shared::Shared;\npub fn run() { step::go(); }\n",
    )
    .unwrap();
    std::fs::write(src.join("phase/shared.rs"), "pub struct Shared;\n").unwrap();
    std::fs::write(
        src.join("phase/step.rs"),
        "use super::shared::Shared;\npub fn go() -> Shared { Shared }\n",
    )
    .unwrap();
    assert_eq!(find_cycle(&file_graph(src)), None);
}
