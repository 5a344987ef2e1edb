//! Phase tests of the class database over
//! `test_data/phases/classdb/shared.mo`: a class is compiled once and
//! reused, `compile_below` reaches every class below a model and stops at
//! one that does not compile, and a kernel's text depends on its class
//! alone.

use std::path::PathBuf;

use mofmu::classdb::{ClassDb, Work};
use mofmu::library::{load_library, Library};
use mofmu::resolve::ClassId;

fn library() -> Library {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test_data/phases/classdb/shared.mo");
    let text = std::fs::read_to_string(path).expect("fixture");
    let lib = load_library(vec![("shared.mo".to_string(), text)]);
    assert!(lib.diagnostics.is_empty(), "{:?}", lib.diagnostics);
    lib
}

fn id(lib: &Library, name: &str) -> ClassId {
    lib.tree.find_qualified(name).expect("class in fixture")
}

/// `Gain` is used by `Tank` and twice by `Twin`: it is elaborated and
/// causalised once, and its kernel generated once however often it is
/// asked for.
#[test]
fn class_compiled_once_and_reused() {
    let lib = library();
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let (gain, tank, twin) = (id(&lib, "P.Gain"), id(&lib, "P.Tank"), id(&lib, "P.Twin"));
    db.compile_below(tank);
    db.compile_below(twin);
    db.compile_below(twin);
    let first = db.entry(gain).expect("Gain compiles");
    let again = db.entry(gain).expect("Gain compiles");
    assert!(std::sync::Arc::ptr_eq(&first, &again));
    db.kernels(&[gain, tank, gain]).expect("kernels");
    db.kernels(&[twin, gain]).expect("kernels");
    let work = db.work();
    let once = Work {
        elaborated: 1,
        causalized: 1,
        unit_checked: 0,
        kernel_generated: 1,
    };
    assert_eq!(work[&gain], once);
    assert_eq!(work[&tank], once);
    assert_eq!(work[&twin], once);
}

/// `compile_below` compiles the model and every class below it before
/// anything is instantiated, and does not look below a class that does not
/// compile (`Faulty`'s `Inner` stays untouched).
#[test]
fn compile_below_reaches_every_class_below_and_stops_at_a_faulty_one() {
    let lib = library();
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let top = id(&lib, "P.Top");
    db.compile_below(top);
    for name in ["P.Top", "P.Tank", "P.Gain"] {
        assert!(
            matches!(db.compiled(id(&lib, name)), Some(Ok(_))),
            "{name} compiled below Top"
        );
    }
    let faulty = db.compiled(id(&lib, "P.Faulty")).expect("Faulty was tried");
    let codes: Vec<&str> = faulty
        .as_ref()
        .expect_err("Faulty does not compile")
        .iter()
        .map(|d| d.code)
        .collect();
    assert!(!codes.is_empty());
    assert!(
        db.compiled(id(&lib, "P.Inner")).is_none(),
        "nothing below a faulty class is compiled"
    );
    // The classes of the model's components were compiled before the model
    // was instantiated: a later compile_below compiles nothing again.
    let before = db.work();
    db.compile_below(top);
    assert_eq!(db.work(), before);
}

/// Two databases built apart give every class the same kernel text, and
/// kernels come back in the order asked.
#[test]
fn kernel_text_deterministic() {
    let lib = library();
    let names = ["P.Twin", "P.Gain", "P.Tank"];
    let run = || {
        let mut db = ClassDb::new(&lib.tree, &lib.sources);
        let ids: Vec<ClassId> = names.iter().map(|n| id(&lib, n)).collect();
        for i in &ids {
            db.compile_below(*i);
        }
        db.kernels(&ids).expect("kernels")
    };
    let (a, b) = (run(), run());
    assert_eq!(a.len(), 3);
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.text, y.text);
        assert_eq!(x.file_name, y.file_name);
    }
    assert!(a[0].text.contains("Twin"), "{}", a[0].text);
    assert!(a[1].text.contains("Gain"), "{}", a[1].text);
    assert!(a[2].text.contains("Tank"), "{}", a[2].text);
}
