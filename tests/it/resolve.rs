//! Phase-level tests of resolve, through its one entry point (the class
//! database's `model`), with fixtures in `test_data/resolve/` named by
//! feature.

use mofmu::classdb::ClassDb;
use mofmu::export::load_library;
use mofmu::resolve::expr::{Constant, Equation, ExprKind, Referent};
use mofmu::resolve::{ClassModel, ClassTree};
use std::sync::Arc;

fn fixture(name: &str) -> String {
    let path = format!("{}/test_data/resolve/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("fixture is readable")
}

fn model(db: &mut ClassDb, tree: &ClassTree, qualified: &str) -> Arc<ClassModel> {
    let id = tree.find_qualified(qualified).expect("class exists");
    db.model(id).expect("class elaborates")
}

/// The package constant each equation's right side refers to.
fn constants(m: &ClassModel) -> Vec<Arc<Constant>> {
    m.equations
        .iter()
        .map(|eq| match eq {
            Equation::Simple { rhs, .. } => match &rhs.kind {
                ExprKind::Ref(r) => match &r.target {
                    Referent::Constant(c) => c.clone(),
                    other => panic!("not a constant: {other:?}"),
                },
                other => panic!("not a reference: {other:?}"),
            },
            other => panic!("not a simple equation: {other:?}"),
        })
        .collect()
}

#[test]
fn package_constants_are_folded_with_their_declared_units() {
    let lib = load_library(vec![(
        "package_constants.mo".to_string(),
        fixture("package_constants.mo"),
    )]);
    assert!(lib.diagnostics.is_empty(), "{:?}", lib.diagnostics);
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let m = model(&mut db, &lib.tree, "PC.Use");
    let cs = constants(&m);
    // Given by the extends modifier of the package, unit of its type.
    assert_eq!(cs[0].qualified, "PC.Media.Water.rho");
    assert_eq!(cs[0].elements, vec![995.0]);
    assert_eq!(cs[0].unit.as_deref(), Some("kg/m3"));
    // A constant of the enclosing package, by its plain name.
    assert_eq!(cs[1].qualified, "PC.k");
    assert_eq!(cs[1].elements, vec![2.0]);
    // An inherited array constant whose value uses the modified one,
    // indexed: the reference keeps its subscript, the constant its shape.
    assert_eq!(cs[2].qualified, "PC.Media.Water.v");
    assert_eq!(cs[2].shape, vec![2]);
    assert_eq!(cs[2].elements, vec![1.0, 1990.0]);
    assert!(m.diagnostics().is_empty());
}
