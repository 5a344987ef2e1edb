//! Phase-level tests of resolve, through its one entry point (the class
//! database's `model`), with fixtures in `test_data/resolve/` named by
//! feature.

use mofmu::classdb::ClassDb;
use mofmu::library::load_library;
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

#[test]
fn a_class_is_specialised_once_per_distinct_set_of_redeclarations() {
    let base = std::fs::read_to_string(format!("{}/examples/Base.mo", env!("CARGO_MANIFEST_DIR")))
        .expect("Base.mo");
    let lib = load_library(vec![
        ("Base.mo".to_string(), base),
        (
            "specialisation.mo".to_string(),
            fixture("specialisation.mo"),
        ),
    ]);
    assert!(lib.diagnostics.is_empty(), "{:?}", lib.diagnostics);
    let tree = &lib.tree;
    let mut db = ClassDb::new(tree, &lib.sources);
    let m = model(&mut db, tree, "S.Three");
    let classes: Vec<&str> = m
        .subs
        .iter()
        .map(|s| tree.get(s.class).qualified.as_str())
        .collect();
    // The default redeclared is the class as written; two components with
    // oil share one specialisation.
    assert_eq!(
        classes,
        [
            "S.Vessel",
            "S.Vessel",
            "S.Vessel(Medium = S.Media.Oil)",
            "S.Vessel(Medium = S.Media.Oil)"
        ]
    );
    assert_eq!(m.subs[2].class, m.subs[3].class);
    let spec = tree.get(m.subs[2].class);
    let key = spec.specialisation.as_ref().expect("a specialisation");
    assert_eq!(key.generic, m.subs[0].class);
    // Inside the specialisation, the redeclared package's constant.
    let oil = model(&mut db, tree, "S.Media.Oil");
    let v = db.model(m.subs[2].class).expect("elaborates");
    let Equation::Simple { rhs, .. } = &v.equations[0] else {
        panic!("a simple equation")
    };
    let ExprKind::Ref(r) = &rhs.kind else {
        panic!("a reference")
    };
    let Referent::Constant(c) = &r.target else {
        panic!("a constant")
    };
    assert_eq!(c.qualified, format!("{}.cp", oil.qualified));
    assert_eq!(c.elements, vec![1900.0]);
    // Passed down: the pipe inside the oil vessel is specialised with oil.
    let pipe = tree.get(v.subs[0].class);
    assert_eq!(pipe.qualified, "S.Pipe(Medium = S.Media.Oil)");
}

/// A record declared in a partial package is inherited, with the
/// functions, by each package that extends it: `Medium.ThermodynamicState`
/// in a vessel specialised to oil is the oil package's record, and the
/// inherited functions' plain `ThermodynamicState` finds it too.
#[test]
fn records_are_inherited_through_packages_and_found_through_a_redeclared_one() {
    let read =
        |p: &str| std::fs::read_to_string(format!("{}/{p}", env!("CARGO_MANIFEST_DIR"))).expect(p);
    let lib = load_library(vec![
        ("Base.mo".to_string(), read("examples/Base.mo")),
        (
            "AccStateRecord.mo".to_string(),
            read("test_data/language/AccStateRecord.mo"),
        ),
    ]);
    assert!(lib.diagnostics.is_empty(), "{:?}", lib.diagnostics);
    let tree = &lib.tree;
    for medium in ["Water", "Oil"] {
        let record = format!("AccStateRecord.Media.{medium}.ThermodynamicState");
        assert!(tree.find_qualified(&record).is_some(), "{record}");
    }
    let mut db = ClassDb::new(tree, &lib.sources);
    let m = model(&mut db, tree, "AccStateRecord.TwoVessels");
    let oil = db.model(m.subs[1].class).expect("elaborates");
    assert!(oil.diagnostics().is_empty(), "{:?}", oil.diagnostics());
    let names: Vec<&str> = oil.vars.iter().map(|v| v.name.as_str()).collect();
    assert!(
        names.contains(&"state.p") && names.contains(&"state.h"),
        "{names:?}"
    );
    // The state's binding calls the oil package's own setState_pT.
    let calls: Vec<String> = mofmu::resolve::function::functions_of(&oil)
        .iter()
        .map(|f| f.qualified.clone())
        .collect();
    assert!(
        calls.contains(&"AccStateRecord.Media.Oil.setState_pT".to_string()),
        "{calls:?}"
    );
}
