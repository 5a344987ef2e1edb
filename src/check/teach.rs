//! Diagnostics that teach the methodology: for the plain-Modelica idioms a
//! newcomer writes, the checker's diagnostics get the compliant form as a
//! suggestion (an edit, machine-applicable when it is certainly what was
//! meant), and the diagnostics that only repeat a root cause already
//! reported in the same class are dropped (one root cause, one error).
//!
//! The pass reads only the diagnostics and the syntax of the class each one
//! lies in; codes and messages keep their meaning, only help lines and
//! suggestions are added. Two exceptions: an MC020 whose extra unknown no
//! other equation names is the MC029 it really is ("nothing determines
//! `i`"), moved to that unknown's declaration; an MC020 or MC038 whose
//! cause is a differentiated plain `Real` says so, naming every such
//! variable of the class; and a unit that is not a
//! Modelica unit, written once in a type, is reported once where it is
//! written, not at every declaration of that type (`unit_roots`).

mod clocked;
mod connectors;
mod imports;
mod unit_roots;

use std::collections::{HashMap, HashSet};

use crate::diagnostic::Diagnostic;
use crate::resolve::tree::{ClassNode, ClassTree};
use crate::source::{SourceMap, Span};
use crate::syntax::ast::{
    Argument, ClassBody, ClassDef, Component, ComponentRef, Element, Equation, Expr, ExprKind,
    LongBody, Section, Subscript,
};

/// The codes causalisation reports for an equation it cannot place.
const CAUSALISATION: &[&str] = &["MC020", "MC021", "MC024", "MC038"];

/// What the pass reads: the sources and the class tree of the library.
struct Library<'a> {
    sources: &'a SourceMap,
    tree: &'a ClassTree,
}

/// Adds the compliant forms to `diags` and drops the cascades.
pub fn teach(sources: &SourceMap, tree: &ClassTree, diags: &mut Vec<Diagnostic>) {
    let lib = &Library { sources, tree };
    unit_roots::report_at_roots(tree, diags);
    let mut out: Vec<Diagnostic> = Vec::with_capacity(diags.len());
    // Classes whose first causalisation fault was reported: the rest of
    // that class's causalisation faults follow from it.
    // For each class whose root cause was reported: the variables it
    // concerns (a diagnostic naming one of them is a consequence), or
    // `None` when every later causalisation fault of the class is.
    let mut root_reported: HashMap<u32, Option<Vec<String>>> = HashMap::new();
    // Connectors with a potential reported as acausal: a flow after it
    // lacks its signal for the same reason.
    let mut acausal_connectors: HashSet<u32> = HashSet::new();
    // (class, name) of imports refused because the class is not
    // encapsulated.
    let mut ignored_imports: Vec<(Span, String)> = Vec::new();
    connectors::drop_flows_of_undetermined_sets(diags);
    for mut d in std::mem::take(diags) {
        let class = innermost_class(lib, d.span);
        let key = class.map(|c| c.def.span.start);
        let first_acausal =
            d.code == "MC014" && key.is_some_and(|k| !acausal_connectors.contains(&k));
        if d.code == "MC014" {
            acausal_connectors.extend(key);
        }
        if d.code == "MC013" && key.is_some_and(|k| acausal_connectors.contains(&k)) {
            continue;
        }
        // A name through an import refused as MC114 is unknown because of
        // that refusal.
        if d.code == "MC005"
            && ignored_imports
                .iter()
                .any(|(within, alias)| contains(*within, d.span) && text(lib, d.span) == alias)
        {
            continue;
        }
        if d.code == "MC114" {
            if let Some(c) = class {
                ignored_imports.extend(import_names(c, d.span).map(|n| (c.def.span, n)));
            }
        }
        if CAUSALISATION.contains(&d.code) {
            let consequence = match key.and_then(|k| root_reported.get(&k)) {
                Some(None) => true,
                Some(Some(vars)) => vars.iter().any(|v| mentions(&d.message, v)),
                None => false,
            };
            if consequence {
                continue;
            }
        }
        match d.code {
            "MC020" | "MC038" => {
                if let (Some(c), Some(k)) = (class, key) {
                    if let Some(vars) = state_fix(lib, c, &mut d) {
                        root_reported.insert(k, Some(vars));
                    } else if reorder_fix(lib, c, &mut d) {
                        root_reported.insert(k, None);
                    } else if let Some(var) = nothing_determines(lib, c, &mut d) {
                        root_reported.insert(k, Some(vec![var]));
                    }
                }
            }
            "MC165" => {
                if let Some(c) = class {
                    discrete_fix(lib, c, &mut d);
                }
            }
            "MC170" => {
                if let Some(c) = class {
                    left_limit_fix(lib, c, &mut d);
                }
            }
            "MC022" => {
                if let Some(c) = class {
                    variable_did_you_mean(lib, c, &mut d);
                    // Equations of the class that use what the unknown name
                    // should have determined are not faults of their own.
                    root_reported.extend(key.map(|k| (k, None)));
                }
            }
            // An equation that calls an unknown function, or a partial one the
            // medium does not implement, or a relation of arrays (MC150),
            // cannot be placed: the unknowns it should have determined leave
            // the rest of the class undetermined.
            "MC023" | "MC128" | "MC150" => {
                root_reported.extend(key.map(|k| (k, None)));
            }
            "MC005" if !base_loaded(lib) && text(lib, d.span) == "Base" => missing_base(&mut d),
            // A connector class the fix split in two: the help says which
            // to choose, otherwise an import or a close name.
            "MC005" => match connectors::choose_a_side(lib.tree, text(lib, d.span)) {
                Some(help) => d.help = help,
                None => import_or_did_you_mean(lib, &mut d),
            },
            "MC004" => imports::standard_library_import(class, &mut d),
            "MC060" => connectors::determine_the_node(lib.tree, &mut d),
            "UC001" => fractional_unit_fix(lib, class, &mut d),
            "MC114" => encapsulate_fix(lib, class, &mut d),
            "MC014" => match class.filter(|_| first_acausal) {
                Some(c) => connectors::two_connector_form(lib.sources, c, &mut d),
                None => causal_connector_hint(lib, &mut d),
            },
            "MC055" => {
                d.help = format!(
                    "{}: a `Base.LinearResponse` component takes the loop's residual as its input \
                     `residual` and gives the torn variable as its output `balance` \
                     (docs/language.md, \"Declared tearing\")",
                    d.help
                );
            }
            // Discrete behaviour is written in clocked partitions: the help
            // line shows the construct's clocked form, and a periodic
            // `when` that can be rewritten mechanically gets the rewrite.
            "MC116" => {
                let fixed = d.message.starts_with("a `when` equation")
                    && class.is_some_and(|c| {
                        let real_typed = |x: &Component| real_type_unit(lib, c, x).is_some();
                        let view = clocked::Library {
                            sources: lib.sources,
                            tree: lib.tree,
                            real_typed: &real_typed,
                        };
                        clocked::when_sample_fix(&view, c, &mut d)
                    });
                if !fixed && !d.help.contains("docs/language.md") {
                    d.help = format!("{} (docs/language.md, \"Clocked partitions\")", d.help);
                }
            }
            _ => {}
        }
        out.push(d);
    }
    *diags = out;
}

/// Whether the library has the methodology's base package `Base`
/// (examples/Base.mo) among its top-level classes.
fn base_loaded(lib: &Library) -> bool {
    lib.tree
        .roots
        .iter()
        .any(|r| lib.tree.get(*r).name == "Base")
}

const LOAD_BASE: &str = "mofmu's commands load their built-in copy (examples/Base.mo) \
    when a file names `Base` and none declares it; a program that loads files itself \
    puts them through `mofmu::library::with_base`";

/// MC005 at `Base` of `Base.X` when no `Base` is loaded: the file is not
/// misspelt, the package is missing from the files given.
fn missing_base(d: &mut Diagnostic) {
    d.help = format!("`Base` is the methodology's base package, and it is not loaded: {LOAD_BASE}");
}

// A suggestion that writes `Base.X` into a library without `Base` is kept:
// the commands and `mofmu::fix::fix` load the built-in Base as soon as a
// file names it.

/// UC001 for a declared unit with a fractional exponent (`m2.5/s`, a valve
/// coefficient of flow = k*sqrt(dh)): no Modelica unit string writes one,
/// but inference gives the variable its unit (m^(5/2)/s) from the
/// equations. The fix removes the declared unit.
fn fractional_unit_fix(lib: &Library, class: Option<&ClassNode>, d: &mut Diagnostic) {
    // A declared unit (not a display unit, whose removal is another matter).
    if !d.message.starts_with("unit \"") {
        return;
    }
    let Some(unit) = quoted(&d.message) else {
        return;
    };
    let Some(rational) = with_rational_exponents(unit) else {
        return;
    };
    d.help = format!(
        "a unit with a fractional exponent has no Modelica unit string: drop the declared \
         unit and let inference give it from the equations ({rational})"
    );
    let Some(class) = class else {
        return;
    };
    // The declaration the diagnostic is at, and its `unit = "..."`.
    let Some(c) = components(&class.def).find(|c| contains(d.span, c.name.span)) else {
        return;
    };
    let Some(m) = &c.modification else {
        return;
    };
    let Some(k) = m
        .arguments
        .iter()
        .position(|a| matches!(a, Argument::Modify { name, .. } if name.dotted() == "unit"))
    else {
        return;
    };
    let span_of = |a: &Argument| match a {
        Argument::Modify { span, .. } => Some(*span),
        _ => None,
    };
    let Some(arg) = span_of(&m.arguments[k]) else {
        return;
    };
    let file = &lib.sources.get(arg.file).text;
    let (start, end) = if m.arguments.len() == 1 {
        // `(unit = "...")` whole: from its `(` to its `)`.
        let open = file[..arg.start as usize].rfind('(');
        let close = file[arg.end as usize..]
            .find(')')
            .map(|i| arg.end as usize + i + 1);
        match (open, close) {
            (Some(o), Some(c)) if file[o..arg.start as usize].trim() == "(" => (o as u32, c as u32),
            _ => return,
        }
    } else if let Some(next) = m.arguments.get(k + 1).and_then(span_of) {
        (arg.start, next.start)
    } else {
        match span_of(&m.arguments[k - 1]) {
            Some(prev) => (prev.end, arg.end),
            None => return,
        }
    };
    d.push_fix(
        format!("drop the unit \"{unit}\" and let inference give {rational}"),
        Span {
            file: arg.file,
            start,
            end,
        },
        "",
    );
}

/// The first `"..."` of a message.
fn quoted(message: &str) -> Option<&str> {
    let (_, rest) = message.split_once('"')?;
    rest.split_once('"').map(|(q, _)| q)
}

/// `m2.5/s` as `m^(5/2)/s`: each factor whose exponent is a decimal
/// fraction with its exponent as a fraction (halves, thirds, quarters);
/// `None` when no exponent is fractional.
fn with_rational_exponents(unit: &str) -> Option<String> {
    let mut out = String::new();
    let mut fractional = false;
    for (i, part) in unit.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        let mut factors = Vec::new();
        // A `.` between digits is a decimal point; elsewhere it joins factors.
        let mut factor = String::new();
        let chars: Vec<char> = part.chars().collect();
        for (j, &ch) in chars.iter().enumerate() {
            let decimal = ch == '.'
                && j > 0
                && chars[j - 1].is_ascii_digit()
                && chars.get(j + 1).is_some_and(|c| c.is_ascii_digit());
            if ch == '.' && !decimal {
                factors.push(std::mem::take(&mut factor));
            } else {
                factor.push(ch);
            }
        }
        factors.push(factor);
        let shown: Vec<String> = factors
            .iter()
            .map(|f| {
                let digits = f
                    .find(|c: char| c.is_ascii_digit() || c == '-')
                    .unwrap_or(f.len());
                let (base, exponent) = f.split_at(digits);
                match exponent.parse::<f64>() {
                    Ok(x) if exponent.contains('.') => {
                        fractional = true;
                        let (n, q) = (2..=4)
                            .map(|q| (x * q as f64, q))
                            .find(|(n, _)| (n - n.round()).abs() < 1e-9)
                            .map_or((x, 1), |(n, q)| (n.round(), q));
                        if q == 1 {
                            format!("{base}^{x}")
                        } else {
                            format!("{base}^({n}/{q})")
                        }
                    }
                    _ => f.clone(),
                }
            })
            .collect();
        out.push_str(&shown.join("."));
    }
    fractional.then_some(out)
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.file == inner.file && outer.start <= inner.start && inner.end <= outer.end
}

/// The name an import at `at` introduces: its alias, or the last part of
/// the imported name.
fn import_names(class: &ClassNode, at: Span) -> impl Iterator<Item = String> + '_ {
    long_body(&class.def)
        .into_iter()
        .flat_map(|b| b.elements.iter())
        .filter_map(move |e| match e {
            Element::Import(i) if i.span == at => i
                .alias
                .as_ref()
                .map(|a| a.name.clone())
                .or_else(|| i.name.parts.last().map(|p| p.name.clone())),
            _ => None,
        })
}

/// Whether `message` names `var` as a whole name (`v` in "`v`",
/// "(i, v)" or "der(v)", not in "`vx`" or "`a.v`").
fn mentions(message: &str, var: &str) -> bool {
    message
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '[' || c == ']'))
        .any(|word| word == var)
}

/// The innermost class whose text holds `span`.
fn innermost_class<'a>(lib: &Library<'a>, span: Span) -> Option<&'a ClassNode> {
    lib.tree
        .classes
        .iter()
        .filter(|c| {
            let s = c.def.span;
            s.file == span.file && s.start <= span.start && span.end <= s.end
        })
        .min_by_key(|c| c.def.span.end - c.def.span.start)
}

fn text<'a>(lib: &Library<'a>, span: Span) -> &'a str {
    let file = lib.sources.get(span.file);
    file.text
        .get(span.start as usize..span.end as usize)
        .unwrap_or("")
}

fn long_body(def: &ClassDef) -> Option<&LongBody> {
    match &def.body {
        ClassBody::Long(b) => Some(b),
        _ => None,
    }
}

fn components(def: &ClassDef) -> impl Iterator<Item = &Component> {
    long_body(def)
        .into_iter()
        .flat_map(|b| b.elements.iter())
        .filter_map(|e| match e {
            Element::Component(c) => Some(c),
            _ => None,
        })
}

/// A variable of the class that is neither a parameter, a constant nor a
/// signal of its interface, declared with the predefined type `Real`.
fn is_plain_real(c: &Component) -> bool {
    let p = &c.prefixes;
    c.type_name.dotted() == "Real"
        && p.parameter.is_none()
        && p.constant.is_none()
        && p.input.is_none()
        && p.output.is_none()
        && p.flow.is_none()
        && p.discrete.is_none()
}

/// An output signal of the class declared with the predefined type `Real`:
/// when an equation gives its derivative it is a state that is also an
/// output, `output Base.ContinuousState y`.
fn is_output_real(c: &Component) -> bool {
    let p = &c.prefixes;
    c.type_name.dotted() == "Real"
        && p.output.is_some()
        && p.parameter.is_none()
        && p.constant.is_none()
        && p.input.is_none()
        && p.flow.is_none()
        && p.discrete.is_none()
}

/// A variable of the class that is neither a parameter, a constant nor a
/// signal of its interface (of any type).
fn is_plain_variable(c: &Component) -> bool {
    let p = &c.prefixes;
    p.parameter.is_none()
        && p.constant.is_none()
        && p.input.is_none()
        && p.output.is_none()
        && p.flow.is_none()
        && p.discrete.is_none()
}

/// The unit of a component's type when the type is derived from `Real`
/// through short classes (`type Voltage = Real(unit = "V")`): `Some` of
/// the outermost `unit` on the way down (`Some(None)` without one); `None`
/// when the type is not such a type or is already a state type.
fn real_type_unit(lib: &Library, class: &ClassNode, c: &Component) -> Option<Option<String>> {
    use crate::resolve::tree::{Builtin, Resolved};
    let scope = lib
        .tree
        .classes
        .iter()
        .position(|n| std::ptr::eq(n, class))
        .map(|i| crate::resolve::tree::ClassId(i as u32));
    let mut unit: Option<String> = None;
    let mut name = c.type_name.clone();
    let mut at = c.span;
    let mut scope = scope;
    // A chain of short classes is short; the bound stops a cycle.
    for _ in 0..16 {
        match lib.tree.lookup(&name, scope, at).ok()? {
            Resolved::Builtin(Builtin::Real) => return Some(unit),
            Resolved::Builtin(_) => return None,
            Resolved::Class(id) => {
                let node = lib.tree.get(id);
                if node.name == "ContinuousState" || node.name == "RealWithDerivative" {
                    return None;
                }
                let ClassBody::Short(short) = &node.def.body else {
                    return None;
                };
                if unit.is_none() {
                    unit = short.modification.as_ref().and_then(|m| {
                        m.arguments.iter().find_map(|a| match a {
                            Argument::Modify {
                                name,
                                modification: Some(m),
                                ..
                            } if name.dotted() == "unit" => match m.binding.as_ref()?.kind {
                                ExprKind::String(ref s) => Some(s.clone()),
                                _ => None,
                            },
                            _ => None,
                        })
                    });
                }
                name = short.base.clone();
                at = node.def.span;
                scope = node.parent;
            }
        }
    }
    None
}

fn is_state_type(c: &Component) -> bool {
    c.type_name
        .parts
        .last()
        .is_some_and(|p| p.name == "ContinuousState")
}

/// The class's equations outside initial sections.
fn equations(def: &ClassDef) -> Vec<&Equation> {
    long_body(def)
        .into_iter()
        .flat_map(|b| b.sections.iter())
        .filter_map(|s| match s {
            Section::Equation {
                initial: None,
                equations,
                ..
            } => Some(equations.iter()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// Walks every expression of an equation.
fn visit_equation(eq: &Equation, f: &mut dyn FnMut(&Expr)) {
    match eq {
        Equation::Simple { lhs, rhs, .. } => {
            visit_expr(lhs, f);
            visit_expr(rhs, f);
        }
        Equation::For { range, body, .. } => {
            visit_expr(range, f);
            for e in body {
                visit_equation(e, f);
            }
        }
        _ => {}
    }
}

fn visit_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    let subscripts = |r: &ComponentRef, f: &mut dyn FnMut(&Expr)| {
        for p in &r.parts {
            for s in &p.subscripts {
                if let Subscript::Expr(x) = s {
                    visit_expr(x, f);
                }
            }
        }
    };
    match &e.kind {
        ExprKind::Ref(r) => subscripts(r, f),
        ExprKind::Binary(_, a, b) => {
            visit_expr(a, f);
            visit_expr(b, f);
        }
        ExprKind::Unary(_, a) => visit_expr(a, f),
        ExprKind::Call { args, named, .. } => {
            for a in args {
                visit_expr(a, f);
            }
            for (_, a) in named {
                visit_expr(a, f);
            }
        }
        ExprKind::If { branches, else_ } => {
            for (c, v) in branches {
                visit_expr(c, f);
                visit_expr(v, f);
            }
            visit_expr(else_, f);
        }
        ExprKind::Array(xs) => {
            for x in xs {
                visit_expr(x, f);
            }
        }
        ExprKind::Matrix(rows) => {
            for x in rows.iter().flatten() {
                visit_expr(x, f);
            }
        }
        ExprKind::Range { start, step, stop } => {
            visit_expr(start, f);
            if let Some(s) = step {
                visit_expr(s, f);
            }
            visit_expr(stop, f);
        }
        _ => {}
    }
}

/// The variable `der(x)` differentiates, when `e` is such a call of a
/// one-part name.
fn der_of(e: &Expr) -> Option<&str> {
    let ExprKind::Call { func, args, .. } = &e.kind else {
        return None;
    };
    if func.dotted() != "der" || args.len() != 1 {
        return None;
    }
    match &args[0].kind {
        ExprKind::Ref(r) if r.parts.len() == 1 => Some(r.parts[0].name.name.as_str()),
        _ => None,
    }
}

/// A Real variable a `when` assigns keeps its value between events: the
/// methodology declares that by the `discrete` prefix (MC165). The fix
/// inserts it before the declaration's type. A state (reinitialised, not
/// assigned) gets no fix: its help says `reinit`.
fn discrete_fix(lib: &Library, class: &ClassNode, d: &mut Diagnostic) {
    let name = text(lib, d.span);
    let Some(c) = components(&class.def).find(|c| c.name.name == name) else {
        return;
    };
    if c.prefixes.discrete.is_some() || !d.help.contains("discrete Real") {
        return;
    }
    let at = c.type_name.span.start;
    d.push_fix(
        format!("declare `{name}` discrete"),
        Span {
            file: c.type_name.span.file,
            start: at,
            end: at,
        },
        "discrete ",
    );
}

/// `pre(v)` of a continuous-time variable inside a `when` (MC170): in the
/// `when`, `v` is already its value at the event, before any `reinit`, so
/// the fix writes `v` (MLS §3.7.5 admits `pre` of discrete variables only).
/// Outside a `when` there is no such value: help line only.
fn left_limit_fix(lib: &Library, class: &ClassNode, d: &mut Diagnostic) {
    let call = text(lib, d.span);
    let Some(arg) = call
        .strip_prefix("pre(")
        .and_then(|rest| rest.strip_suffix(')'))
    else {
        return;
    };
    let in_when = equations(&class.def)
        .into_iter()
        .any(|eq| matches!(eq, Equation::When { span, .. } if contains(*span, d.span)));
    if in_when && d.message.contains("continuous-time variable") {
        let arg = arg.trim().to_string();
        d.push_fix(format!("read `{arg}`: its value at the event"), d.span, arg);
    }
}

/// A `der()` of a plain `Real` is the plain-Modelica way of declaring a
/// state; the methodology declares it by type. The fix retypes every such
/// variable of the class as `Base.ContinuousState` (its start value stays
/// its initial value).
///
/// Only a diagnostic that names one of those variables gets the fix; the
/// variables are returned (the class's later faults that name them are
/// consequences).
fn state_fix(lib: &Library, class: &ClassNode, d: &mut Diagnostic) -> Option<Vec<String>> {
    let mut differentiated: Vec<String> = Vec::new();
    for eq in equations(&class.def) {
        visit_equation(eq, &mut |e| {
            if let Some(x) = der_of(e) {
                if !differentiated.iter().any(|y| y == x) {
                    differentiated.push(x.to_string());
                }
            }
        });
    }
    // Each differentiated variable of a Real type: plain `Real` (no unit to
    // keep), or a type derived from Real such as `SI.Voltage` (its unit).
    let plain: Vec<(&Component, Option<String>)> = components(&class.def)
        .filter(|c| differentiated.contains(&c.name.name))
        .filter_map(|c| {
            if is_plain_real(c) || is_output_real(c) {
                Some((c, None))
            } else if is_plain_variable(c) {
                real_type_unit(lib, class, c).map(|u| (c, u))
            } else {
                None
            }
        })
        .collect();
    if !plain
        .iter()
        .any(|(c, _)| mentions(&d.message, &c.name.name))
    {
        return None;
    }
    let names: Vec<String> = plain
        .iter()
        .map(|(c, _)| format!("`{}`", c.name.name))
        .collect();
    let keeps_unit = if plain.iter().any(|(_, u)| u.is_some()) {
        ", the unit its type gave stays as `unit`"
    } else {
        ""
    };
    // The first error names the cause: every such variable of the class.
    d.message = format!(
        "{} {} differentiated but not declared as {}: a state's type is `Base.ContinuousState`",
        names.join(", "),
        if names.len() == 1 { "is" } else { "are" },
        if names.len() == 1 {
            "a state"
        } else {
            "states"
        },
    );
    d.help = format!(
        "a variable whose derivative an equation gives is a state of its class, declared by its \
         type: declare {} as `Base.ContinuousState` (the start value is the initial \
         value{keeps_unit}); der(x) then must be determined by exactly one equation",
        names.join(", ")
    );
    let vars = plain.iter().map(|(c, _)| c.name.name.clone()).collect();
    for (c, unit) in plain {
        let message = format!("declare `{}` as a state", c.name.name);
        match unit {
            None => d.push_fix(message, c.type_name.span, "Base.ContinuousState"),
            Some(unit) => {
                // The type's unit moves into the declaration's modification.
                let has_unit = c.modification.as_ref().is_some_and(|m| {
                    m.arguments.iter().any(
                        |a| matches!(a, Argument::Modify { name, .. } if name.dotted() == "unit"),
                    )
                });
                let insert = match &c.modification {
                    _ if has_unit => Some((c.name.span.end, String::new())),
                    None if c.dims.is_empty() => {
                        Some((c.name.span.end, format!("(unit = \"{unit}\")")))
                    }
                    Some(m) if !m.arguments.is_empty() && text(lib, m.span).starts_with('(') => {
                        Some((m.span.start + 1, format!("unit = \"{unit}\", ")))
                    }
                    _ => None,
                };
                match insert {
                    Some((at, unit_text)) => {
                        d.push_fix(message.clone(), c.type_name.span, "Base.ContinuousState");
                        if !unit_text.is_empty() {
                            d.push_fix(
                                format!("keep the unit of `{}`", c.name.name),
                                Span {
                                    file: c.name.span.file,
                                    start: at,
                                    end: at,
                                },
                                unit_text,
                            );
                        }
                    }
                    None => d.push_suggestion(
                        format!("{message} with unit = \"{unit}\""),
                        c.type_name.span,
                        "Base.ContinuousState",
                    ),
                }
            }
        }
    }
    Some(vars)
}

/// An MC020 equation with an unknown that no other equation and no binding
/// of the class names: that unknown is the fault (its own equation is
/// missing, typically deleted), so the diagnostic becomes the MC029 it is,
/// at the unknown's declaration, with the equation as a note. The unknown
/// returned is the root cause.
///
/// Only for a class whose equations the syntax shows whole (no base
/// classes, if-equations or connections that could determine it).
fn nothing_determines(lib: &Library, class: &ClassNode, d: &mut Diagnostic) -> Option<String> {
    if d.code != "MC020" {
        return None;
    }
    let body = long_body(&class.def)?;
    if body
        .elements
        .iter()
        .any(|e| matches!(e, Element::Extends(_)))
    {
        return None;
    }
    let all = equations(&class.def);
    if all
        .iter()
        .any(|e| !matches!(e, Equation::Simple { .. } | Equation::For { .. }))
    {
        return None;
    }
    let this = all.iter().find(|e| e.span() == d.span)?;
    // The one-part names each equation and each binding mentions.
    let names_in = |eq: &Equation| {
        let mut names: HashSet<String> = HashSet::new();
        visit_equation(eq, &mut |e| {
            if let ExprKind::Ref(r) = &e.kind {
                if let Some(p) = r.parts.first() {
                    names.insert(p.name.name.clone());
                }
            }
        });
        names
    };
    let mut elsewhere: HashSet<String> = HashSet::new();
    for eq in all.iter().filter(|e| e.span() != d.span) {
        elsewhere.extend(names_in(eq));
    }
    for c in components(&class.def) {
        if let Some(b) = c.modification.as_ref().and_then(|m| m.binding.as_ref()) {
            visit_expr(b, &mut |e| {
                if let ExprKind::Ref(r) = &e.kind {
                    if let Some(p) = r.parts.first() {
                        elsewhere.insert(p.name.name.clone());
                    }
                }
            });
        }
    }
    let here = names_in(this);
    let lonely = components(&class.def).find(|c| {
        let p = &c.prefixes;
        let plain_type = matches!(
            c.type_name.dotted().as_str(),
            "Real" | "Integer" | "Boolean"
        ) || (c.type_name.parts.first().is_some_and(|p| p.name == "Base")
            && !is_state_type(c));
        plain_type
            && p.parameter.is_none()
            && p.constant.is_none()
            && p.input.is_none()
            && c.modification
                .as_ref()
                .and_then(|m| m.binding.as_ref())
                .is_none()
            && here.contains(&c.name.name)
            && !elsewhere.contains(&c.name.name)
            && mentions(&d.message, &c.name.name)
    })?;
    let name = lonely.name.name.clone();
    let others: Vec<&str> = d
        .message
        .split_once("unknowns (")
        .and_then(|(_, rest)| rest.rsplit_once(");"))
        .map(|(list, _)| list.split(", ").filter(|n| *n != name).collect())
        .unwrap_or_default();
    let equation = d.span;
    d.code = "MC029";
    d.message = format!(
        "nothing determines `{name}`: the only equation that names it must determine {}",
        if others.is_empty() {
            "another unknown".to_string()
        } else {
            others
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    d.span = lonely.name.span;
    d.label = "no equation determines this".to_string();
    d.help = format!(
        "add an equation that determines `{name}` before the equation that uses it \
         (partially ordered form: each equation determines one unknown)"
    );
    d.notes
        .push((equation, format!("the only equation that names `{name}`")));
    // Shown only: what determines the unknown is the modeller's to write.
    let file = &lib.sources.get(equation.file).text;
    let line_start = file[..equation.start as usize]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let indent = &file[line_start..equation.start as usize];
    let indent = if indent.trim().is_empty() { indent } else { "" };
    d.push_suggestion(
        format!("write the equation of `{name}` here"),
        Span {
            file: equation.file,
            start: equation.start,
            end: equation.start,
        },
        format!("{name} = …;\n{indent}"),
    );
    Some(name)
}

/// One equation's unknowns in the syntactic view the reorder takes.
enum Unknowns {
    /// The names of unknowns it mentions (`der(x)` for a state's derivative).
    Names(Vec<String>),
    /// It names something the syntax alone cannot place (a component's
    /// variable, a loop, an if-equation, a connection).
    Opaque,
}

/// MC020 often means only that the equations are written in another
/// order than partially ordered form needs. When the class's variables are
/// all its own (no components, no base classes), the order in which each
/// equation determines exactly one unknown is found from the syntax, and
/// the fix writes the equations in that order (equation order carries no
/// meaning in Modelica, so the model is the same).
fn reorder_fix(lib: &Library, class: &ClassNode, d: &mut Diagnostic) -> bool {
    if d.code != "MC020" {
        return false;
    }
    let Some(body) = long_body(&class.def) else {
        return false;
    };
    if body
        .elements
        .iter()
        .any(|e| matches!(e, Element::Extends(_)))
    {
        return false;
    }
    let mut known: HashSet<String> = ["time".to_string()].into_iter().collect();
    let mut unknown: HashSet<String> = HashSet::new();
    for c in components(&class.def) {
        let p = &c.prefixes;
        let name = c.name.name.clone();
        if p.parameter.is_some() || p.constant.is_some() || p.input.is_some() {
            known.insert(name);
        } else if is_state_type(c) {
            unknown.insert(format!("der({name})"));
            known.insert(name);
        } else if c.type_name.parts.len() == 1
            && matches!(
                c.type_name.dotted().as_str(),
                "Real" | "Integer" | "Boolean"
            )
            || c.type_name.parts.first().is_some_and(|p| p.name == "Base")
        {
            unknown.insert(name);
        } else {
            // A component of a class: its variables are placed by the
            // system, not by this class's equation order.
            return false;
        }
    }
    for e in &body.elements {
        if let Element::Class { class: def, .. } = e {
            known.insert(def.name.name.clone());
        }
    }
    let Some(section) = body.sections.iter().find_map(|s| match s {
        Section::Equation {
            initial: None,
            equations,
            span,
        } if span.start <= d.span.start && d.span.end <= span.end => Some(equations),
        _ => None,
    }) else {
        return false;
    };
    let mut per_equation = Vec::new();
    for eq in section {
        let unknowns = equation_unknowns(eq, &known, &unknown);
        let Unknowns::Names(names) = unknowns else {
            return false;
        };
        let Equation::Simple { span, .. } = eq else {
            return false;
        };
        per_equation.push((*span, names));
    }
    let Some(order) = partial_order(&per_equation) else {
        return false;
    };
    if order.iter().enumerate().all(|(k, &i)| k == i) {
        return false;
    }
    // The equations change places; the text between them (indentation,
    // comments on their own lines) stays where it is.
    let first = per_equation[0].0;
    let last = per_equation[per_equation.len() - 1].0;
    let mut rewritten = String::new();
    for (k, &i) in order.iter().enumerate() {
        rewritten.push_str(text(lib, per_equation[i].0));
        if k + 1 < per_equation.len() {
            let gap = Span {
                file: first.file,
                start: per_equation[k].0.end,
                end: per_equation[k + 1].0.start,
            };
            rewritten.push_str(text(lib, gap));
        }
    }
    d.help = "in partially ordered form each equation comes after the equations that determine \
              all but one of its unknowns; the equations of this class can be put in that order"
        .to_string();
    d.push_fix(
        "write the equations in partially ordered form",
        first.to(last),
        rewritten,
    );
    true
}

fn equation_unknowns(
    eq: &Equation,
    known: &HashSet<String>,
    unknown: &HashSet<String>,
) -> Unknowns {
    let Equation::Simple { .. } = eq else {
        return Unknowns::Opaque;
    };
    let mut names: Vec<String> = Vec::new();
    let mut opaque = false;
    // A reference directly under `der(...)` counts as the derivative.
    let mut under_der: HashSet<(u32, u32)> = HashSet::new();
    visit_equation(eq, &mut |e| {
        if let ExprKind::Call { func, args, .. } = &e.kind {
            if func.dotted() == "der" {
                if let (Some(x), Some(a)) = (der_of(e), args.first()) {
                    under_der.insert((a.span.start, a.span.end));
                    let n = format!("der({x})");
                    if unknown.contains(&n) {
                        if !names.contains(&n) {
                            names.push(n);
                        }
                    } else {
                        opaque = true;
                    }
                } else {
                    opaque = true;
                }
            }
        }
    });
    visit_equation(eq, &mut |e| {
        let ExprKind::Ref(r) = &e.kind else {
            return;
        };
        if under_der.contains(&(e.span.start, e.span.end)) {
            return;
        }
        if r.parts.len() != 1 || !r.parts[0].subscripts.is_empty() {
            opaque = true;
            return;
        }
        let n = &r.parts[0].name.name;
        if unknown.contains(n) {
            if !names.contains(n) {
                names.push(n.clone());
            }
        } else if !known.contains(n) {
            opaque = true;
        }
    });
    if opaque {
        Unknowns::Opaque
    } else {
        Unknowns::Names(names)
    }
}

/// The order in which each equation determines exactly one unknown not
/// determined before it (the earliest such equation first), or `None`.
fn partial_order(equations: &[(Span, Vec<String>)]) -> Option<Vec<usize>> {
    let mut determined: HashSet<&str> = HashSet::new();
    let mut order = Vec::new();
    let mut placed = vec![false; equations.len()];
    while order.len() < equations.len() {
        let next = (0..equations.len()).find(|&i| {
            !placed[i]
                && equations[i]
                    .1
                    .iter()
                    .filter(|n| !determined.contains(n.as_str()))
                    .count()
                    == 1
        })?;
        let target = equations[next]
            .1
            .iter()
            .find(|n| !determined.contains(n.as_str()))?;
        determined.insert(target);
        placed[next] = true;
        order.push(next);
    }
    Some(order)
}

/// The encapsulated class around `class` (itself included), if any.
fn encapsulating<'a>(lib: &'a Library<'a>, class: &'a ClassNode) -> Option<&'a ClassNode> {
    let mut c = Some(class);
    while let Some(node) = c {
        if node.def.prefixes.encapsulated.is_some() {
            return Some(node);
        }
        c = node.parent.map(|p| lib.tree.get(p));
    }
    None
}

/// The indentation of the line `offset` lies on.
fn indentation(lib: &Library, offset: u32, file: crate::source::FileId) -> String {
    let text = &lib.sources.get(file).text;
    let start = text[..offset as usize].rfind('\n').map_or(0, |i| i + 1);
    text[start..offset as usize]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect()
}

/// An unknown `Base.X` (or any top-level package's class) inside an
/// encapsulated class: encapsulation hides every outside name that is not
/// imported, so the fix is the missing `import Base;`.
fn import_fix(lib: &Library, d: &mut Diagnostic) -> bool {
    let Some(class) = innermost_class(lib, d.span) else {
        return false;
    };
    let Some(enc) = encapsulating(lib, class) else {
        return false;
    };
    let first = text(lib, d.span).to_string();
    // A top-level class of that name declared before the use.
    let is_root = lib.tree.roots.iter().any(|r| {
        let root = lib.tree.get(*r);
        root.name == first
            && (root.def.span.file, root.def.span.start) < (d.span.file, d.span.start)
    });
    if !is_root || enc.name == first {
        return false;
    }
    let Some(body) = long_body(&enc.def) else {
        return false;
    };
    let Some(at) = body.elements.first().map(element_start) else {
        return false;
    };
    let indent = indentation(lib, at.start, at.file);
    d.help = format!(
        "`{}` is encapsulated, so it sees outside names only through its imports: add \
         `import {first};` to it",
        enc.name
    );
    d.push_fix(
        format!("import `{first}` into `{}`", enc.name),
        Span {
            file: at.file,
            start: at.start,
            end: at.start,
        },
        format!("import {first};\n{indent}"),
    );
    true
}

fn element_start(e: &Element) -> Span {
    match e {
        Element::Class { class, .. } => class.span,
        Element::Extends(x) => x.name.span,
        Element::Import(i) => i.span,
        Element::Component(c) => c.span,
    }
}

/// MC114: the import stays, the class becomes encapsulated (its whole view
/// of the outside is then its imports).
fn encapsulate_fix(lib: &Library, class: Option<&ClassNode>, d: &mut Diagnostic) {
    let Some(class) = class else {
        return;
    };
    let start = class.def.span;
    if !text(lib, start).starts_with(|c: char| c.is_alphabetic()) {
        return;
    }
    d.help = format!(
        "mark `{}` `encapsulated` (then it sees outside classes only through imports, e.g. \
         `import Base;`), or drop the import and write the full name where it is used",
        class.name
    );
    d.push_fix(
        format!("make `{}` encapsulated", class.name),
        Span {
            file: start.file,
            start: start.start,
            end: start.start,
        },
        "encapsulated ",
    );
}

/// A potential without a causal signal before it: the plain-Modelica
/// acausal connector. The compliant form makes it a signal.
fn causal_connector_hint(lib: &Library, d: &mut Diagnostic) {
    let t = text(lib, d.span).to_string();
    if !t.starts_with("Real") {
        return;
    }
    d.help = format!(
        "{}; in the methodology a connector's potentials travel as signals: the usual form is \
         `output Real e; flow Real f;` (the component that declares the connector computes `e` \
         and receives `f`) or `input Real e; flow Real f;` for the other direction",
        d.help
    );
    d.push_suggestion(
        "make the potential an output signal",
        Span {
            file: d.span.file,
            start: d.span.start,
            end: d.span.start,
        },
        "output ",
    );
}

/// An unknown class: the missing import when one would resolve it, else the
/// closest class name.
fn import_or_did_you_mean(lib: &Library, d: &mut Diagnostic) {
    if !import_fix(lib, d) {
        class_did_you_mean(lib, d);
    }
}

/// The closest of `candidates` to `name` by the one rule of close names
/// ([`crate::names::close_names`]).
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    crate::names::close_names(name, candidates)
        .into_iter()
        .next()
}

fn class_did_you_mean(lib: &Library, d: &mut Diagnostic) {
    let written = text(lib, d.span).to_string();
    let mut names: Vec<&str> = lib.tree.classes.iter().map(|c| c.name.as_str()).collect();
    names.extend(["Real", "Integer", "Boolean", "String"]);
    names.sort_unstable();
    names.dedup();
    if let Some(best) = closest(&written, names.iter().copied()) {
        let best = best.to_string();
        d.push_suggestion(format!("did you mean `{best}`?"), d.span, best);
    }
}

fn variable_did_you_mean(lib: &Library, class: &ClassNode, d: &mut Diagnostic) {
    let written = text(lib, d.span).to_string();
    if written.contains('.') {
        return;
    }
    let names: Vec<&str> = components(&class.def)
        .map(|c| c.name.name.as_str())
        .collect();
    let counts: HashMap<&str, usize> = names.iter().fold(HashMap::new(), |mut m, n| {
        *m.entry(*n).or_default() += 1;
        m
    });
    if let Some(best) = closest(&written, counts.keys().copied()) {
        let best = best.to_string();
        d.push_suggestion(format!("did you mean `{best}`?"), d.span, best);
    }
}
