//! Phase tests of resolve, with fixtures named by feature in
//! `test_data/phases/resolve/`. Each goes through resolve's entry points
//! (`ClassTree::build` for the scopes, `Elaborator::class` for a class
//! model) and asserts what resolve produced, rendered as text.

use std::sync::Arc;

use super::elaborator::Elaborator;
use super::expr::{Equation, Expr, ExprKind, Referent};
use super::model::ClassModel;
use super::tree::{ClassId, ClassTree};
use crate::diagnostic::Diagnostic;
use crate::source::{SourceMap, Span};
use crate::syntax::parse;

/// A fixture loaded into the class tree, with the diagnostics of parsing
/// and of building the tree.
struct Loaded {
    sources: SourceMap,
    tree: ClassTree,
    diagnostics: Vec<Diagnostic>,
}

fn load(feature: &str) -> Loaded {
    let path = format!(
        "{}/test_data/phases/resolve/{feature}.mo",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("fixture is readable");
    let mut sources = SourceMap::new();
    let file = sources.add(format!("{feature}.mo"), text);
    let (definition, mut diagnostics) = parse(file, &sources.get(file).text);
    let (tree, tree_diagnostics) = ClassTree::build(&[definition]);
    diagnostics.extend(tree_diagnostics);
    Loaded {
        sources,
        tree,
        diagnostics,
    }
}

impl Loaded {
    fn model(&self, qualified: &str) -> Result<Arc<ClassModel>, Vec<Diagnostic>> {
        let id = self.tree.find_qualified(qualified).expect("class exists");
        self.model_of(id)
    }

    fn model_of(&self, id: ClassId) -> Result<Arc<ClassModel>, Vec<Diagnostic>> {
        Elaborator::new(&self.tree, &self.sources).class(id)
    }

    /// `code@line` of each diagnostic, in order.
    fn codes(&self, diagnostics: &[Diagnostic]) -> Vec<String> {
        diagnostics
            .iter()
            .map(|d| format!("{}@{}", d.code, self.line(d.span)))
            .collect()
    }

    fn line(&self, span: Span) -> usize {
        self.sources.get(span.file).line_col(span.start).0
    }
}

/// The variables of a model, one a line: name, variability, causality and
/// binding.
fn variables(m: &ClassModel) -> Vec<String> {
    m.vars
        .iter()
        .map(|v| {
            let mut line = format!("{} {:?} {:?}", v.name, v.variability, v.causality);
            if let Some(b) = &v.binding {
                line += &format!(" = {}", expr(m, b));
            }
            if let Some(s) = &v.attrs.start {
                line += &format!(" start {}", expr(m, s));
            }
            line
        })
        .collect()
}

fn equations(m: &ClassModel) -> Vec<String> {
    m.equations
        .iter()
        .map(|eq| match eq {
            Equation::Simple { lhs, rhs, .. } => format!("{} = {}", expr(m, lhs), expr(m, rhs)),
            other => format!("{other:?}"),
        })
        .collect()
}

/// An expression with each reference named by what it resolved to.
fn expr(m: &ClassModel, e: &Expr) -> String {
    match &e.kind {
        ExprKind::Integer(i) => i.to_string(),
        ExprKind::Real(x) => format!("{x:?}"),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Ref(r) => match &r.target {
            Referent::Var(v) => m.vars[*v].name.clone(),
            Referent::Member(member) => member.dotted(),
            Referent::Constant(c) => format!("{}{:?}", c.qualified, c.elements),
            Referent::Time => "time".into(),
            Referent::LoopVar(depth) => format!("loop{depth}"),
            Referent::Unknown(d) => format!("?{}", d.code),
        },
        ExprKind::Binary(op, a, b) => format!("({} {op:?} {})", expr(m, a), expr(m, b)),
        ExprKind::Unary(op, a) => format!("{op:?}({})", expr(m, a)),
        ExprKind::Call { func, args, .. } => format!(
            "{func}({})",
            args.iter()
                .map(|a| expr(m, a))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => format!("{other:?}"),
    }
}

#[test]
fn lookup_sees_only_what_is_declared_before() {
    let loaded = load("lookup_no_look_ahead");
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let early = loaded.model("Lookup.Early").expect("Early elaborates");
    assert_eq!(
        variables(&early),
        ["k Parameter Local = 3", "y Continuous Output"]
    );
    assert_eq!(equations(&early), ["y = (2 Mul k)"]);
    let late = loaded.model("Lookup.Late").expect_err("Late looks ahead");
    assert_eq!(loaded.codes(&late), ["MC001@6"]);
    assert!(
        late[0].message.contains("look-ahead"),
        "{}",
        late[0].message
    );
}

#[test]
fn inherited_elements_come_first_with_the_extends_modifier() {
    let loaded = load("inheritance");
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let m = loaded.model("Inherit.Derived").expect("Derived elaborates");
    assert_eq!(
        variables(&m),
        [
            "k Parameter Local = 4",
            "y Continuous Output",
            "u Continuous Input"
        ]
    );
    assert_eq!(equations(&m), ["y = (k Mul u)"]);
    assert!(m.diagnostics().is_empty(), "{:?}", m.diagnostics());
}

#[test]
fn an_initial_equation_becomes_the_start_value() {
    let loaded = load("initial_start");
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let m = loaded.model("Init.Lag").expect("Lag elaborates");
    assert_eq!(
        variables(&m),
        [
            "T Parameter Local = 0.5",
            "x0 Parameter Local = 1",
            "u Continuous Input",
            "y Continuous Output",
            "x Continuous Local start x0",
        ]
    );
    assert_eq!(equations(&m), ["der(x) = ((u Sub x) Div T)", "y = x"]);
    assert!(m.vars[4].special.state);
}

#[test]
fn a_package_constant_is_folded_with_its_unit() {
    let loaded = load("package_constant");
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let m = loaded.model("Consts.Use").expect("Use elaborates");
    assert_eq!(
        equations(&m),
        ["a = Consts.Media.Water.twice[8368.0]", "b = Consts.k[2.0]"]
    );
    let Equation::Simple { rhs, .. } = &m.equations[0] else {
        panic!("a simple equation");
    };
    let ExprKind::Ref(r) = &rhs.kind else {
        panic!("a reference");
    };
    let Referent::Constant(c) = &r.target else {
        panic!("a constant");
    };
    assert_eq!(c.unit.as_deref(), Some("J/(kg.K)"));
}

#[test]
fn a_connect_forms_a_set_that_copies_the_output_into_the_input() {
    let loaded = load("connect_set");
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let m = loaded.model("Wiring.Chain").expect("Chain elaborates");
    assert_eq!(m.connects.len(), 1);
    let c = &m.connects[0];
    assert_eq!((c.a.sub, c.a.name.as_str()), (Some(0), "y"));
    assert_eq!((c.b.sub, c.b.name.as_str()), (Some(1), "u"));
    let transfers = m.transfers.as_ref().expect("the set forms");
    let rendered: Vec<String> = transfers
        .iter()
        .map(|t| {
            let sources: Vec<String> = t
                .sources
                .iter()
                .map(|s| format!("{:?}.{}", s.sub, s.var))
                .collect();
            format!(
                "{:?}.{} <- {} flow {}",
                t.target.sub,
                t.target.var,
                sources.join(" + "),
                t.flow
            )
        })
        .collect();
    assert_eq!(rendered, ["Some(1).0 <- Some(0).0 flow false"]);
    assert_eq!(equations(&m), ["w = snk.v"]);
}

#[test]
fn a_redeclaration_specialises_the_class_once_per_set() {
    let loaded = load("specialisation");
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let m = loaded.model("Spec.Plant").expect("Plant elaborates");
    let classes: Vec<(&str, &str)> = m
        .subs
        .iter()
        .map(|s| (s.name.as_str(), loaded.tree.get(s.class).qualified.as_str()))
        .collect();
    let vessel = loaded.tree.find_qualified("Spec.Vessel").expect("Vessel");
    assert_eq!(classes[0], ("plain", "Spec.Vessel"));
    assert_eq!(m.subs[0].class, vessel);
    // The two components redeclared alike share one specialisation.
    assert_ne!(m.subs[1].class, vessel);
    assert_eq!(m.subs[1].class, m.subs[2].class);
    let special = loaded.tree.get(m.subs[1].class);
    let key = special.specialisation.as_ref().expect("a specialisation");
    assert_eq!(key.generic, vessel);
    let replaced: Vec<(&str, &str)> = key
        .replacements
        .iter()
        .map(|(name, c)| (name.as_str(), loaded.tree.get(*c).qualified.as_str()))
        .collect();
    assert_eq!(replaced, [("M", "Spec.Oil")]);
    // And the specialisation reads the redeclared package's constant.
    let oily = loaded
        .model_of(m.subs[1].class)
        .expect("the specialisation elaborates");
    assert_eq!(equations(&oily), ["c = Spec.Oil.cp[2.0]"]);
}
