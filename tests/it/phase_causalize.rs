//! Phase tests of causalisation: each fixture in
//! `test_data/phases/causalize/<feature>.mo` names its class on its first
//! line (`// class: P.M`); the class goes through [`causalize`] and what
//! it produced (the ordered assignments split into blocks, or the
//! diagnostics with their codes and lines) is compared with
//! `<feature>.expected` beside it. `UPDATE_EXPECT=1` rewrites the
//! expectations on purpose (review the diff).

use std::fmt::Write;
use std::path::PathBuf;

use mofmu::causalize::{causalize, Causalized};
use mofmu::classdb::ClassDb;
use mofmu::diagnostic::Diagnostic;
use mofmu::ir::{Arith, Ex, RelOp, Slot, Stmt};
use mofmu::library::load_library;
use mofmu::source::SourceMap;

fn fixture(feature: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("test_data/phases/causalize")
        .join(feature)
}

/// Causalises the fixture's class and compares the rendering with the
/// expectation.
fn check(feature: &str) {
    let mo = fixture(&format!("{feature}.mo"));
    let text = std::fs::read_to_string(&mo).expect("fixture");
    let class = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// class: "))
        .expect("first line names the class")
        .trim()
        .to_string();
    let lib = load_library(vec![(format!("{feature}.mo"), text)]);
    assert!(lib.diagnostics.is_empty(), "{:?}", lib.diagnostics);
    let id = lib.tree.find_qualified(&class).expect("class in fixture");
    // The class database elaborates through the one `Elaborator` of the run.
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let model = db.model(id).expect("the class elaborates");
    let mut diags = model.diagnostics();
    let actual = match causalize(&model) {
        Ok(c) if diags.is_empty() => render(&c),
        Ok(_) => render_diagnostics(&lib.sources, &diags),
        Err(ds) => {
            diags.extend(ds);
            render_diagnostics(&lib.sources, &diags)
        }
    };
    let expected_path = fixture(&format!("{feature}.expected"));
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&expected_path, &actual).expect("write expectation");
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    assert_eq!(actual, expected, "{feature}: causalisation changed");
}

fn render_diagnostics(sources: &SourceMap, diags: &[Diagnostic]) -> String {
    let mut s = String::new();
    for d in diags {
        let (line, col) = sources.get(d.span.file).line_col(d.span.start);
        let _ = writeln!(s, "{} {line}:{col} {}", d.code, d.message);
    }
    s
}

/// The blocks of the class with their inputs and assignments, then the
/// parameter and start assignments.
fn render(c: &Causalized) -> String {
    let class = &c.causal;
    let slots = &class.slots;
    let mut s = String::new();
    for b in &class.blocks {
        let inputs: Vec<&str> = b.inputs.iter().map(|i| slots[*i].name.as_str()).collect();
        let _ = writeln!(s, "block inputs [{}]", inputs.join(", "));
        for st in &b.stmts {
            stmt(&mut s, st, slots, 1);
        }
    }
    if !class.parameter_stmts.is_empty() {
        let _ = writeln!(s, "parameters");
        for st in &class.parameter_stmts {
            stmt(&mut s, st, slots, 1);
        }
    }
    if !class.start_stmts.is_empty() {
        let _ = writeln!(s, "starts");
        for st in &class.start_stmts {
            stmt(&mut s, st, slots, 1);
        }
    }
    let _ = writeln!(
        s,
        "relations {}, indicators {}",
        class.n_relations, class.n_indicators
    );
    s
}

fn stmt(out: &mut String, st: &Stmt, slots: &[Slot], indent: usize) {
    let pad = "  ".repeat(indent);
    match st {
        Stmt::Assign {
            target,
            index,
            value,
            guard,
            ..
        } => {
            let index = index
                .as_ref()
                .map(|i| format!("[{}]", ex(i, slots)))
                .unwrap_or_default();
            let guard = guard.map(|g| format!(" if own {g}")).unwrap_or_default();
            let _ = writeln!(
                out,
                "{pad}{}{index} := {}{guard}",
                slots[*target].name,
                ex(value, slots)
            );
        }
        Stmt::For {
            depth,
            lo,
            hi,
            body,
        } => {
            let _ = writeln!(
                out,
                "{pad}for i{depth} in {}:{}",
                ex(lo, slots),
                ex(hi, slots)
            );
            for b in body {
                stmt(out, b, slots, indent + 1);
            }
        }
        Stmt::Clocked { fire, body } => {
            let _ = writeln!(out, "{pad}when {} ticks", slots[*fire].name);
            for b in body {
                stmt(out, b, slots, indent + 1);
            }
        }
        Stmt::Tick(t) => {
            let _ = writeln!(
                out,
                "{pad}tick {} every {}",
                slots[t.fire].name,
                ex(&t.interval, slots)
            );
            for b in &t.shift {
                stmt(out, b, slots, indent + 1);
            }
        }
    }
}

fn ex(e: &Ex, slots: &[Slot]) -> String {
    let var = |s: &usize, i: &Option<Box<Ex>>| {
        let i = i
            .as_ref()
            .map(|i| format!("[{}]", ex(i, slots)))
            .unwrap_or_default();
        format!("{}{i}", slots[*s].name)
    };
    match e {
        Ex::Real(r) => format!("{r:?}"),
        Ex::Int(i) => i.to_string(),
        Ex::Bool(b) => b.to_string(),
        Ex::Var(s, i) => var(s, i),
        Ex::DerOf(s, i) => format!("der({})", var(s, i)),
        Ex::Tan(s, i) => format!("tan({})", var(s, i)),
        Ex::IntParam(k) => format!("int{k}"),
        Ex::LoopVar(d) => format!("i{d}"),
        Ex::Time => "time".into(),
        Ex::Initial => "initial()".into(),
        Ex::Neg(a) => format!("(-{})", ex(a, slots)),
        Ex::Not(a) => format!("(not {})", ex(a, slots)),
        Ex::Bin(op, a, b) => {
            let op = match op {
                Arith::Add => "+",
                Arith::Sub => "-",
                Arith::Mul => "*",
                Arith::Div => "/",
                Arith::Pow => "^",
                Arith::And => "and",
                Arith::Or => "or",
            };
            format!("({} {op} {})", ex(a, slots), ex(b, slots))
        }
        Ex::Rel(op, a, b, kind) => {
            let op = match op {
                RelOp::Lt => "<",
                RelOp::Le => "<=",
                RelOp::Gt => ">",
                RelOp::Ge => ">=",
                RelOp::Eq => "==",
                RelOp::Ne => "<>",
            };
            format!("({} {op} {} {kind:?})", ex(a, slots), ex(b, slots))
        }
        Ex::Call(f, args) => {
            let a: Vec<String> = args.iter().map(|a| ex(a, slots)).collect();
            format!("{f:?}({})", a.join(", "))
        }
        Ex::User(sym, args, tangent) => {
            let a: Vec<String> = args.iter().map(|a| ex(a, slots)).collect();
            let t = if *tangent { "_t" } else { "" };
            format!("{sym}{t}({})", a.join(", "))
        }
        Ex::If(branches, other) => {
            let mut s = String::from("(");
            for (c, v) in branches {
                let _ = write!(s, "if {} then {} else", ex(c, slots), ex(v, slots));
                s.push(' ');
            }
            let _ = write!(s, "{})", ex(other, slots));
            s
        }
        Ex::Reduce(op, d, lo, hi, body) => format!(
            "{op:?}(i{d} in {}:{}; {})",
            ex(lo, slots),
            ex(hi, slots),
            ex(body, slots)
        ),
    }
}

/// Equations determine their unknowns in the order they are written.
#[test]
fn partially_ordered_form() {
    check("partial_order");
}

/// An equation linear in its unknown is solved for it.
#[test]
fn linear_equation_solved_for_its_unknown() {
    check("linear_solved");
}

/// Ranges of an array's elements determined by a lone equation and a
/// `for` loop tile the array.
#[test]
fn for_loop_tiling() {
    check("for_tiling");
}

/// Assignments are split into blocks by the inputs they depend on.
#[test]
fn blocks_split_by_inputs() {
    check("blocks_by_inputs");
}

/// The derivative a RealWithDerivative output carries is derived from its
/// defining equation.
#[test]
fn carried_derivative() {
    check("carried_derivative");
}

/// An if-equation determines its unknown by one conditional assignment.
#[test]
fn if_equation() {
    check("if_equation");
}

/// A LinearResponse component's residual is assigned, its balance read.
#[test]
fn linear_response() {
    check("linear_response");
}

/// A non-causal equation is refused with its code at its line.
#[test]
fn refused_non_causal_equation() {
    check("non_causal");
}
