//! Clocked partitions in local form (DESIGN §2.2b): which equations of a
//! class are clocked, the rules that keep clocks inside the class, and the
//! lowering of `sample`, `hold`, `previous`, `interval()` and
//! `firstTick()`.
//!
//! An equation is clocked when it samples (`sample(u, clock)`), reads
//! `previous`, `interval()` or `firstTick()`, or reads a clocked variable
//! outside `hold`; every variable it reads outside `sample` is then
//! clocked, on the equation's partition. Clocked equations are causalised
//! like any other, with relations compared directly (a clocked partition
//! has no state events). Each becomes a [`Stmt::Clocked`] guarded by its
//! partition's tick, and each partition used gets a [`Stmt::Tick`] first.
//!
//! Refused, each at its line: MC151 a clocked variable in a connector,
//! MC152 two base clocks, MC153 a clock that is not built from
//! parameters, MC154 `der` of a clocked variable, MC155 `previous` of a
//! variable that is not clocked, MC156 a clocked value in a continuous-time
//! equation without `hold`, MC157 a continuous-time value in a clocked
//! equation without `sample`, MC158 a clocked built-in used wrongly, MC180
//! an equation that reads two partitions without `subSample`/`superSample`,
//! MC181 a sub- or super-sampling factor that is not an Integer, MC182 an
//! equation that names no clock in a class of several partitions.
//!
//! Clock inference itself (which partition each equation and variable is
//! on) runs when the class is elaborated, `resolve::clocked`, because it
//! decides which partitions exist; here it is checked.

use std::collections::HashMap;

use super::lowerer::{Context, Lowerer};
use super::value::Value;
use crate::diagnostic::Diagnostic;
use crate::ir::{Arith, ClockPart, Ex, RelKind, RelOp, SlotId, Stmt, Tick};
use crate::resolve::clocked::{
    clock_key, conversion, converted, direct_children, has_key, key_of, partition_text, text,
};
use crate::resolve::expr::{Equation, Expr, ExprKind, Referent};
use crate::resolve::model::Clocking;
use crate::resolve::model::{ClassCausality, ClassModel, ClassVariability};
use crate::resolve::tree::Builtin;
use crate::source::Span;

/// Help line shared by the diagnostics: the local form in one line.
const LOCAL_FORM: &str = "the local form: `yk = f(sample(u, Clock(Ts)), previous(yk))` determines a clocked variable at the ticks, and `y = hold(yk)` gives continuous-time equations and connectors its value (docs/language.md, \"Clocked partitions\")";

/// Which of a class's equations are clocked, and on which partition.
#[derive(Debug, Default)]
pub struct Plan {
    /// Per top-level equation: its partition, when it is clocked.
    pub equation: Vec<Option<usize>>,
    /// Clocked variables (own variables of the class) and their partition.
    pub vars: HashMap<usize, usize>,
}

/// What one equation reads, as the rules need it.
#[derive(Default)]
struct Scan {
    /// Partitions of its `sample` clocks, with where each clock is.
    clocks: Vec<(usize, Span)>,
    /// `subSample(u, f)` and `superSample(u, f)` of clocked values.
    conversions: Vec<Conversion>,
    /// Own variables read outside `sample` and `hold` (and not as the
    /// argument of `previous`), with where, and whether inside `der`.
    direct: Vec<(usize, Span, bool)>,
    /// Arguments of `previous`.
    previous: Vec<(usize, Span)>,
    /// Own variables read inside `hold`.
    held: Vec<(usize, Span)>,
    /// `interval()` or `firstTick()` outside `sample`.
    clock_query: Option<Span>,
    /// `der` or `hold` anywhere: the equation is continuous-time.
    continuous: Option<Span>,
    /// `time` or a component's variable outside `sample`.
    outside: Option<(Span, String)>,
    /// A clocked built-in used wrongly.
    misuse: Option<Diagnostic>,
    /// How many of `direct` are on the left of `=` (of a simple equation):
    /// what the equation most likely determines.
    on_left: usize,
}

/// `subSample(u, f)` (`sub`) or `superSample(u, f)` of a clocked value `u`.
struct Conversion {
    span: Span,
    sub: bool,
    factor: Expr,
    /// What `u` reads.
    inner: Scan,
}

fn scan_expr(e: &Expr, c: &Clocking, in_sample: bool, in_hold: bool, in_der: bool, s: &mut Scan) {
    match &e.kind {
        ExprKind::Ref(r) => {
            match &r.target {
                Referent::Var(i) if !in_sample => {
                    if in_hold {
                        s.held.push((*i, e.span));
                    } else {
                        s.direct.push((*i, e.span, in_der));
                    }
                }
                Referent::Time if !in_sample && !in_hold => {
                    s.outside.get_or_insert((e.span, "`time`".to_string()));
                }
                Referent::Member(m) if !in_sample && !in_hold => {
                    s.outside
                        .get_or_insert((e.span, format!("`{}`", m.dotted())));
                }
                _ => {}
            }
            for sub in &r.subscripts {
                if let crate::resolve::expr::Subscript::Expr(x) = sub {
                    scan_expr(x, c, in_sample, in_hold, in_der, s);
                }
            }
        }
        ExprKind::Call { func, args, .. } => {
            match (func.as_str(), args.as_slice()) {
                ("sample", [u, clock]) => match clock_key(clock) {
                    Some(k) => {
                        if let Some(p) = c.partitions.iter().position(|p| has_key(p, &k)) {
                            s.clocks.push((p, clock.span));
                        }
                        scan_expr(u, c, true, in_hold, in_der, s);
                    }
                    None => {
                        s.misuse.get_or_insert(
                        Diagnostic::error(
                            "MC158",
                            clock.span,
                            "the second argument of `sample` is not a clock",
                        )
                        .with_label("not a clock")
                        .with_help("sample with `Clock(Ts)` (Ts a parameter), `Clock(counter, resolution)`, or a `subSample`/`superSample` of one; the event form `sample(start, interval)` belongs to `when`, which the methodology replaces by clocked equations"),
                    );
                    }
                },
                ("sample", _) => {
                    s.misuse.get_or_insert(misuse(
                        e.span,
                        "`sample` takes a value and a clock: `sample(u, Clock(Ts))`",
                    ));
                }
                ("hold", [x]) => {
                    s.continuous.get_or_insert(e.span);
                    scan_expr(x, c, in_sample, true, in_der, s);
                }
                ("hold", _) => {
                    s.misuse
                        .get_or_insert(misuse(e.span, "`hold` takes one clocked value"));
                }
                ("previous", [x]) => match &x.kind {
                    ExprKind::Ref(r) if matches!(r.target, Referent::Var(_)) => {
                        if let Referent::Var(i) = r.target {
                            if in_hold {
                                s.held.push((i, x.span));
                            } else {
                                s.previous.push((i, x.span));
                            }
                        }
                        for sub in &r.subscripts {
                            if let crate::resolve::expr::Subscript::Expr(ix) = sub {
                                scan_expr(ix, c, in_sample, in_hold, in_der, s);
                            }
                        }
                    }
                    _ => {
                        s.misuse.get_or_insert(misuse(
                            x.span,
                            "`previous` takes a clocked variable of this class",
                        ));
                    }
                },
                ("previous", _) => {
                    s.misuse
                        .get_or_insert(misuse(e.span, "`previous` takes one clocked variable"));
                }
                // The argument, a clocked value, only names the partition
                // (MLS §16.4: it is used for clock inference).
                ("interval" | "firstTick", [] | [_]) => {
                    if !in_sample && !in_hold {
                        s.clock_query.get_or_insert(e.span);
                    }
                    for a in args {
                        scan_expr(a, c, in_sample, in_hold, in_der, s);
                    }
                }
                ("interval" | "firstTick", _) => {
                    s.misuse.get_or_insert(misuse(
                    e.span,
                    &format!("`{func}` takes no argument, or one clocked value whose partition it names"),
                ));
                }
                ("subSample" | "superSample", [u, f]) if clock_key(u).is_none() && !in_sample => {
                    scan_conversion(e, func, (u, f), c, in_hold, in_der, s)
                }
                ("Clock" | "subSample" | "superSample", _) => {
                    s.misuse.get_or_insert(misuse(
                        e.span,
                        "a clock is not a value: it is the second argument of `sample`",
                    ));
                }
                ("der", _) => {
                    s.continuous.get_or_insert(e.span);
                    for a in args {
                        scan_expr(a, c, in_sample, in_hold, true, s);
                    }
                }
                _ => {
                    for a in args {
                        scan_expr(a, c, in_sample, in_hold, in_der, s);
                    }
                }
            }
        }
        _ => {
            let mut children = Vec::new();
            direct_children(e, &mut children);
            for x in children {
                scan_expr(x, c, in_sample, in_hold, in_der, s);
            }
        }
    }
}

/// `subSample(u, f)` or `superSample(u, f)` of a value `u`: what `u` reads
/// is the conversion's, and its faults the equation's.
fn scan_conversion(
    e: &Expr,
    func: &str,
    (u, f): (&Expr, &Expr),
    c: &Clocking,
    in_hold: bool,
    in_der: bool,
    s: &mut Scan,
) {
    if in_hold {
        s.misuse.get_or_insert(misuse(
            e.span,
            &format!("`{func}` inside `hold`: determine the converted value as a clocked variable (`yk = {func}(u, f);`) and hold that"),
        ));
        return;
    }
    let mut inner = Scan::default();
    scan_expr(u, c, false, false, in_der, &mut inner);
    if let Some(d) = inner.misuse.take() {
        s.misuse.get_or_insert(d);
    }
    if let Some(o) = inner.outside.take() {
        s.outside.get_or_insert(o);
    }
    if let Some(at) = inner.continuous {
        s.continuous.get_or_insert(at);
    }
    s.conversions.push(Conversion {
        span: e.span,
        sub: func == "subSample",
        factor: f.clone(),
        inner,
    });
}

fn scan_equation(eq: &Equation, c: &Clocking, s: &mut Scan) {
    match eq {
        Equation::Simple { lhs, rhs, .. } => {
            scan_expr(lhs, c, false, false, false, s);
            s.on_left = s.direct.len();
            scan_expr(rhs, c, false, false, false, s);
        }
        Equation::For { body, .. } => body.iter().for_each(|b| scan_equation(b, c, s)),
        Equation::If {
            branches, else_, ..
        } => {
            for (cond, b) in branches {
                scan_expr(cond, c, false, false, false, s);
                b.iter().for_each(|e| scan_equation(e, c, s));
            }
            else_.iter().for_each(|e| scan_equation(e, c, s));
        }
        _ => {}
    }
}

fn misuse(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error("MC158", span, what.to_string())
        .with_label("clocked built-in used wrongly")
        .with_help(LOCAL_FORM)
}

pub fn equation_span(eq: &Equation) -> Span {
    eq.span()
}

/// Which equations of `model` are clocked, or why its clocks are not in
/// the local form. `None` for a class without clocked equations.
pub fn plan(model: &ClassModel) -> Result<Option<Plan>, Vec<Diagnostic>> {
    let Some(c) = model
        .clocking
        .as_deref()
        .filter(|c| !c.partitions.is_empty())
    else {
        let diags = without_clock(model);
        return if diags.is_empty() {
            Ok(None)
        } else {
            Err(diags)
        };
    };
    let mut diags = base_clock_faults(c);
    for p in &c.partitions {
        for f in p.sub.iter().chain(&p.sup) {
            diags.extend(real_factor(model, f));
        }
    }
    let scans: Vec<Scan> = model
        .equations
        .iter()
        .map(|eq| {
            let mut s = Scan::default();
            scan_equation(eq, c, &mut s);
            s
        })
        .collect();
    for s in &scans {
        diags.extend(s.misuse.clone());
        conversion_factor_faults(model, s, &mut diags);
    }
    if !diags.is_empty() {
        diags.sort_by_key(|d| d.span.start);
        diags.dedup_by_key(|d| d.span);
        return Err(diags);
    }
    let plan = Plan {
        equation: c.equation.clone(),
        vars: c.vars.iter().copied().collect(),
    };
    // What an equation that names no clock (MC182) reads has no partition
    // either: holding it is not a fault of its own.
    let unclear: Vec<usize> = scans
        .iter()
        .enumerate()
        .filter(|(k, s)| plan.equation[*k].is_none() && names_no_clock(s))
        .flat_map(|(_, s)| {
            s.direct
                .iter()
                .map(|d| d.0)
                .chain(s.previous.iter().map(|p| p.0))
        })
        .collect();
    for (k, s) in scans.iter().enumerate() {
        match plan.equation[k] {
            Some(p) => clocked_faults(model, c, &plan, s, p, &mut diags),
            None => continuous_faults(model, c, s, &plan, &unclear, &mut diags),
        }
    }
    if !diags.is_empty() {
        diags.sort_by_key(|d| d.span.start);
        diags.dedup_by_key(|d| d.span);
        return Err(diags);
    }
    if plan.equation.iter().all(Option::is_none) {
        return Ok(None);
    }
    Ok(Some(plan))
}

/// A class that names no clock: a clocked built-in is a misuse wherever
/// it is. `previous`, `interval()` and `firstTick()` with no clock in the
/// class are one fault, reported once at the first of them; what holds
/// the values they would give follows from it and is not reported.
fn without_clock(model: &ClassModel) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut scans = Vec::new();
    for eq in &model.equations {
        let mut s = Scan::default();
        scan_equation(eq, &Clocking::empty(), &mut s);
        if let Some(d) = s.misuse.take() {
            diags.push(d);
        } else {
            scans.push(s);
        }
    }
    let first_use = scans.iter().find_map(|s| {
        let previous = s.previous.first().map(|p| p.1);
        match (s.clock_query, previous) {
            (Some(a), Some(b)) => Some(if a.start <= b.start { a } else { b }),
            (a, b) => a.or(b),
        }
    });
    if let Some(at) = first_use {
        diags.push(no_clock(at));
        return diags;
    }
    for s in &scans {
        if let Some(&(v, at)) = s.held.first() {
            diags.push(hold_of_continuous(model, v, at));
        } else if let Some(c) = s.conversions.first() {
            diags.push(conversion_without_clock(c.span));
        }
    }
    diags
}

/// MC181 when a sub- or super-sampling factor is not an Integer: the
/// ticks of the other partition must be ticks of the base clock.
fn real_factor(model: &ClassModel, f: &Expr) -> Option<Diagnostic> {
    fn real(model: &ClassModel, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Real(_) => true,
            ExprKind::Ref(r) => match &r.target {
                Referent::Var(v) => model.vars[*v].ty == Builtin::Real,
                Referent::Constant(c) => c.ty == Builtin::Real,
                Referent::Time => true,
                _ => false,
            },
            ExprKind::Binary(op, a, b) => {
                use crate::operator::BinOp;
                matches!(op, BinOp::Div | BinOp::Pow) || real(model, a) || real(model, b)
            }
            ExprKind::Unary(_, a) => real(model, a),
            ExprKind::Call { func, args, .. } => {
                !matches!(
                    func.as_str(),
                    "integer" | "div" | "mod" | "rem" | "abs" | "min" | "max"
                ) || args.iter().any(|a| real(model, a))
            }
            ExprKind::FunctionCall { .. } => true,
            _ => false,
        }
    }
    if !real(model, f) {
        return None;
    }
    let written = text(model, f);
    Some(
        Diagnostic::error(
            "MC181",
            f.span,
            format!("the sub- or super-sampling factor `{written}` is a Real value; a factor is an Integer"),
        )
        .with_label("not an Integer")
        .with_help("give the factor as an Integer literal or an Integer parameter (`parameter Integer f = 3;`, `subSample(Clock(Ts), f)`): the other partition ticks at every f-th tick of the base clock, so f counts ticks; for another interval write it in the base clock (`Clock(Ts)` with `Ts` a Real parameter)"),
    )
}

/// MC181 for the factors of the conversions in `s`.
fn conversion_factor_faults(model: &ClassModel, s: &Scan, diags: &mut Vec<Diagnostic>) {
    for conv in &s.conversions {
        diags.extend(real_factor(model, &conv.factor));
        conversion_factor_faults(model, &conv.inner, diags);
    }
}

/// MC152 for every partition on another base clock than the first: a
/// class has one base clock, and its sub- and super-samples are the other
/// partitions.
fn base_clock_faults(c: &Clocking) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let Some(first) = c.partitions.first() else {
        return diags;
    };
    for p in &c.partitions[1..] {
        if !crate::resolve::clocked::same(&p.base, &first.base) {
            diags.push(
                Diagnostic::error(
                    "MC152",
                    p.base.span,
                    "a second base clock in this class; a class has one base clock",
                )
                .with_label("another base clock")
                .with_note(first.base.span, "the class's base clock")
                .with_help("derive the other rates from the base clock with `subSample(c, n)` or `superSample(c, n)` (n an Integer parameter), or move this partition into a class of its own"),
            );
        }
    }
    diags
}

/// The faults of a clocked equation: a continuous-time value read without
/// `sample` (MC157), a connector or output made clocked (MC151), `hold`
/// inside it (MC158), `previous` of what cannot be clocked (MC155).
fn clocked_faults(
    model: &ClassModel,
    c: &Clocking,
    plan: &Plan,
    s: &Scan,
    p: usize,
    diags: &mut Vec<Diagnostic>,
) {
    let before = diags.len();
    local_faults(model, s, diags);
    if diags.len() == before {
        diags.extend(mixed(model, c, plan, s, p));
    }
}

/// The faults of what a clocked equation reads, in it and in the values
/// it converts.
fn local_faults(model: &ClassModel, s: &Scan, diags: &mut Vec<Diagnostic>) {
    let before = diags.len();
    read_faults(model, s, diags);
    for conv in &s.conversions {
        if diags.len() > before {
            return;
        }
        local_faults(model, &conv.inner, diags);
    }
}

fn read_faults(model: &ClassModel, s: &Scan, diags: &mut Vec<Diagnostic>) {
    let is_parameter = |v: usize| model.vars[v].variability != ClassVariability::Continuous;
    if let Some((at, what)) = &s.outside {
        diags.push(continuous_in_clocked(*at, what));
        return;
    }
    for &(v, at, _) in &s.direct {
        let var = &model.vars[v];
        if is_parameter(v) {
            continue;
        }
        if var.connector.is_some() || var.causality == ClassCausality::Output {
            diags.push(
                Diagnostic::error(
                    "MC151",
                    at,
                    format!(
                        "`{}` is a connector variable, but this clocked equation makes it clocked; clocks do not cross connectors",
                        var.name
                    ),
                )
                .with_label("clocked connector variable")
                .with_note(var.span, "declared as a connector or output here")
                .with_help("determine a clocked variable of the class (`yk = ...`) and give the connector its held value: `y = hold(yk)`"),
            );
            return;
        }
        if var.special.state || var.causality == ClassCausality::Input {
            diags.push(continuous_in_clocked(at, &format!("`{}`", var.name)));
            return;
        }
    }
    if let Some(&(_, at)) = s.held.first() {
        diags.push(misuse(
            at,
            "`hold` in a clocked equation: a clocked equation reads clocked values directly",
        ));
        return;
    }
    for &(v, at) in &s.previous {
        let var = &model.vars[v];
        if is_parameter(v) || var.special.state || var.causality == ClassCausality::Input {
            diags.push(not_clocked_previous(model, v, at));
        }
    }
}

/// The partition of what `s` reads: its first sampled clock, else its
/// first conversion of a clocked value, else its first clocked variable
/// (as clock inference placed it).
fn partition_of(c: &Clocking, plan: &Plan, s: &Scan) -> Option<usize> {
    if let Some(&(p, _)) = s.clocks.first() {
        return Some(p);
    }
    for conv in &s.conversions {
        if let Some(q) = partition_of(c, plan, &conv.inner) {
            return converted_partition(c, q, conv);
        }
    }
    s.direct
        .iter()
        .map(|d| d.0)
        .chain(s.previous.iter().map(|p| p.0))
        .find_map(|v| plan.vars.get(&v).copied())
}

/// The partition `conv` of a value on partition `q` is on, when the class
/// has it.
fn converted_partition(c: &Clocking, q: usize, conv: &Conversion) -> Option<usize> {
    let k = converted(&key_of(&c.partitions[q]), conv.sub, &conv.factor);
    c.partitions.iter().position(|p| has_key(p, &k))
}

/// MC180: a value of another partition than `p`, read by an equation on
/// `p` without a conversion (or through one that gives another
/// partition). An equation runs at one partition's ticks; which one must
/// not depend on the order its operands are written in.
fn mixed(model: &ClassModel, c: &Clocking, plan: &Plan, s: &Scan, p: usize) -> Option<Diagnostic> {
    let name = |v: usize| model.vars[v].name.clone();
    for &(q, at) in &s.clocks {
        if q != p {
            return Some(mixing(model, c, at, "this `sample`", q, p, None));
        }
    }
    let reads = s
        .direct
        .iter()
        .map(|d| (d.0, d.1, false))
        .chain(s.previous.iter().map(|x| (x.0, x.1, true)));
    let reads: Vec<(usize, Span, bool)> = reads.collect();
    // The first clocked variable of the equation's partition it reads on
    // the right: the one that put it there, when no `sample` did.
    let leader = reads
        .iter()
        .skip(s.on_left)
        .find(|r| plan.vars.get(&r.0) == Some(&p))
        .filter(|_| s.clocks.is_empty())
        .map(|r| name(r.0));
    for &(v, at, previous) in &reads {
        let Some(&q) = plan.vars.get(&v) else {
            continue;
        };
        if q != p {
            let what = if previous {
                format!("`previous({})`", name(v))
            } else {
                format!("`{}`", name(v))
            };
            let names = (name(v), leader.clone());
            return Some(mixing(model, c, at, &what, q, p, Some(names)));
        }
    }
    for conv in &s.conversions {
        let func = if conv.sub { "subSample" } else { "superSample" };
        let Some(q) = partition_of(c, plan, &conv.inner) else {
            return Some(misuse(
                conv.span,
                &format!("`{func}` of a value that is not clocked: it converts a clocked value of one partition to another"),
            ));
        };
        if let Some(d) = mixed(model, c, plan, &conv.inner, q) {
            return Some(d);
        }
        let k = converted(&key_of(&c.partitions[q]), conv.sub, &conv.factor);
        let r = c.partitions.iter().position(|x| has_key(x, &k));
        if r != Some(p) {
            let to = partition_text(model, &c.partitions[p]);
            let from = crate::resolve::clocked::key_text(model, &k);
            return Some(
                Diagnostic::error(
                    "MC180",
                    conv.span,
                    format!("this `{func}` gives a value at the ticks of `{from}`, but the equation runs at the ticks of `{to}`"),
                )
                .with_label("another partition's value")
                .with_help(format!("an equation reads one partition: choose the factor that converts to `{to}`, or determine the converted value in an equation of its own (docs/language.md, \"Clocked partitions\")")),
            );
        }
    }
    None
}

/// MC180 at `at`, `what` read on an equation of partition `p` from
/// partition `q`; `vars` names the clocked variable read, when it is one,
/// and the variable of `p` the equation reads first, when one put it on
/// `p`: the help shows the conversion of either, whichever rate was meant.
fn mixing(
    model: &ClassModel,
    c: &Clocking,
    at: Span,
    what: &str,
    q: usize,
    p: usize,
    vars: Option<(String, Option<String>)>,
) -> Diagnostic {
    let from = partition_text(model, &c.partitions[q]);
    let to = partition_text(model, &c.partitions[p]);
    let read = |v: &str, a: usize, b: usize| {
        conversion(&c.partitions[a], &c.partitions[b]).map(|(sub, f)| {
            let func = if sub { "subSample" } else { "superSample" };
            format!("`{func}({v}, {})`", text(model, &f))
        })
    };
    let mut ways = Vec::new();
    if let Some((v, leader)) = &vars {
        if let Some(r) = read(v, q, p) {
            ways.push(format!("to run it at the ticks of `{to}`, read {r}"));
        }
        if let Some(w) = leader {
            if let Some(r) = read(w, p, q) {
                ways.push(format!(
                    "to run it at the ticks of `{from}`, read {r} for `{w}`"
                ));
            }
        }
    }
    let ways = if ways.is_empty() {
        String::new()
    } else {
        format!("{}; ", ways.join("; or "))
    };
    Diagnostic::error(
        "MC180",
        at,
        format!("{what} is on the partition of `{from}`, but this equation runs at the ticks of `{to}`: an equation reads one partition"),
    )
    .with_label("another partition's value")
    .with_help(format!("{ways}values cross partitions of one base clock only through `subSample(u, f)` (u at every f-th tick of its clock) and `superSample(u, f)` (u's last value, on a clock f times faster), so that an equation's rate never depends on the order of its operands (docs/language.md, \"Clocked partitions\")"))
}

/// The faults of a continuous-time equation: `der` of a clocked variable
/// (MC154), a clocked value read without `hold` (MC156), `hold` of a
/// continuous-time value (MC158), a conversion outside clocked equations
/// (MC158), a clocked built-in that names no clock (MC182 in a class of
/// several partitions).
fn continuous_faults(
    model: &ClassModel,
    c: &Clocking,
    s: &Scan,
    plan: &Plan,
    unclear: &[usize],
    diags: &mut Vec<Diagnostic>,
) {
    let is_parameter = |v: usize| {
        model.vars[v].variability != ClassVariability::Continuous || unclear.contains(&v)
    };
    if names_no_clock(s) {
        let previous = s.previous.first().map(|p| p.1);
        if let Some(at) = s.clock_query.or(previous) {
            diags.push(ambiguous(model, c, at));
            return;
        }
    }
    if let Some(conv) = s.conversions.first() {
        diags.push(conversion_without_clock(conv.span));
        return;
    }
    if let Some(&(v, at, in_der)) = s.direct.iter().find(|d| plan.vars.contains_key(&d.0)) {
        let name = &model.vars[v].name;
        diags.push(if in_der {
            Diagnostic::error(
                "MC154",
                at,
                format!("`der` of the clocked variable `{name}`: a clocked variable is constant between ticks and has no derivative"),
            )
            .with_label("derivative of a clocked variable")
            .with_help(LOCAL_FORM)
        } else {
            Diagnostic::error(
                "MC156",
                at,
                format!("`{name}` is clocked (determined at the ticks) but read in a continuous-time equation"),
            )
            .with_label("clocked value without `hold`")
            .with_help(format!("read it as `hold({name})`: {LOCAL_FORM}"))
        });
        return;
    }
    if let Some(&(v, at)) = s
        .held
        .iter()
        .find(|h| !plan.vars.contains_key(&h.0) && !is_parameter(h.0))
    {
        diags.push(hold_of_continuous(model, v, at));
        return;
    }
    if let Some(at) = s.clock_query {
        diags.push(no_clock(at));
    } else if let Some(&(v, at)) = s.previous.first() {
        diags.push(not_clocked_previous(model, v, at));
    }
}

/// Whether `s` is of an equation that is clocked (`previous`,
/// `interval()`, `firstTick()`) but names no clock: left without a
/// partition, it is MC182.
fn names_no_clock(s: &Scan) -> bool {
    s.continuous.is_none() && (s.clock_query.is_some() || !s.previous.is_empty())
}

/// MC182: an equation that names no clock (`n = previous(n) + 1`,
/// `dt = interval()`) in a class of several partitions.
fn ambiguous(model: &ClassModel, c: &Clocking, at: Span) -> Diagnostic {
    let names: Vec<String> = c
        .partitions
        .iter()
        .map(|p| format!("`{}`", partition_text(model, p)))
        .collect();
    Diagnostic::error(
        "MC182",
        at,
        format!(
            "this equation names no clock, and the class has {} partitions ({}): which one it runs on is ambiguous",
            names.len(),
            names.join(", ")
        ),
    )
    .with_label("no clock named")
    .with_help("name the partition: give `firstTick` or `interval` a clocked value of it (`n = if firstTick(uk) then 0 else previous(n) + 1`, `dt = interval(uk)`; the argument only names the clock), or read one of its values in the equation (docs/language.md, \"Clocked partitions\")")
}

fn conversion_without_clock(at: Span) -> Diagnostic {
    misuse(
        at,
        "`subSample`/`superSample` of a value in a continuous-time equation: a conversion gives a clocked value",
    )
}

fn continuous_in_clocked(at: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        "MC157",
        at,
        format!("{what} is a continuous-time value, read in a clocked equation without `sample`"),
    )
    .with_label("continuous-time value in a clocked equation")
    .with_help(format!(
        "read it at the ticks as `sample({}, clock)`: {LOCAL_FORM}",
        what.trim_matches('`')
    ))
}

fn not_clocked_previous(model: &ClassModel, v: usize, at: Span) -> Diagnostic {
    Diagnostic::error(
        "MC155",
        at,
        format!(
            "`previous({})`: `{}` is not a clocked variable",
            model.vars[v].name, model.vars[v].name
        ),
    )
    .with_label("previous of a variable that is not clocked")
    .with_help(format!("`previous` reads a clocked variable's value at the tick before; a state or a continuous-time variable has no ticks: {LOCAL_FORM}"))
}

fn hold_of_continuous(model: &ClassModel, v: usize, at: Span) -> Diagnostic {
    misuse(
        at,
        &format!(
            "`hold` of `{}`, which is not clocked: `hold` turns a clocked value into a continuous-time one",
            model.vars[v].name
        ),
    )
}

fn no_clock(at: Span) -> Diagnostic {
    Diagnostic::error(
        "MC158",
        at,
        "this equation uses a clocked built-in but samples nothing and reads no clocked variable",
    )
    .with_label("no clock")
    .with_help(format!("a class's clocked equations run at the ticks of the clock it samples on; with no `sample` in the class there are none: {LOCAL_FORM}"))
}

impl Clocking {
    fn empty() -> Clocking {
        Clocking {
            partitions: Vec::new(),
            previous: Vec::new(),
            synthetic_from: usize::MAX,
            equation: Vec::new(),
            vars: Vec::new(),
        }
    }
}

/// The slots of one partition in the class's slot numbering.
#[derive(Debug, Clone, Copy)]
pub struct PartitionSlots {
    pub ticks: SlotId,
    pub first: SlotId,
    pub fire: SlotId,
}

impl Lowerer<'_> {
    /// The slots of partition `p`.
    pub fn partition_slots(&self, p: usize) -> Option<PartitionSlots> {
        let part = self.model.clocking.as_ref()?.partitions.get(p)?;
        Some(PartitionSlots {
            ticks: self.own_slot(part.ticks)?,
            first: self.own_slot(part.first)?,
            fire: self.own_slot(part.fire)?,
        })
    }

    /// The slot that keeps `previous(v)`.
    fn previous_slot(&self, v: usize) -> Option<SlotId> {
        let c = self.model.clocking.as_ref()?;
        let (_, prev) = c.previous.iter().find(|(x, _)| *x == v)?;
        self.own_slot(*prev)
    }

    /// The interval of partition `p` in seconds: its base clock's, times
    /// its sub-sampling factors, over its super-sampling factors. MC153
    /// when a part of it is not a parameter expression.
    pub fn interval(&mut self, p: usize) -> Result<Ex, Diagnostic> {
        Ok(self.interval_parts(p)?.0)
    }

    /// [`Self::interval`], and the parts it is built from.
    fn interval_parts(&mut self, p: usize) -> Result<(Ex, Vec<ClockPart>), Diagnostic> {
        let part = self
            .model
            .clocking
            .as_ref()
            .and_then(|c| c.partitions.get(p))
            .cloned()
            .expect("a planned partition exists");
        let ExprKind::Call { args, .. } = &part.base.kind else {
            unreachable!("a base clock is a Clock(...) call")
        };
        let clock = partition_text(self.model, &part);
        let mut parts = Vec::new();
        let mut piece = |this: &mut Self, e: &Expr, role: &'static str| {
            let value = this.parameter_expression(e)?;
            parts.push(ClockPart {
                value: value.clone(),
                role,
                written: text(this.model, e),
                parameter: matches!(&e.kind, ExprKind::Ref(r) if matches!(r.target, Referent::Var(_)) && r.subscripts.is_empty()),
                clock: clock.clone(),
                span: e.span,
            });
            Ok::<Ex, Diagnostic>(value)
        };
        let mut value = match args.as_slice() {
            [t] => piece(self, t, "interval")?,
            [n, r] => {
                let n = piece(self, n, "counter")?;
                let r = piece(self, r, "resolution")?;
                Ex::Bin(Arith::Div, Box::new(n), Box::new(r))
            }
            _ => unreachable!("clock_key admits one or two arguments"),
        };
        for f in &part.sub {
            let f = piece(self, f, "factor")?;
            value = Ex::Bin(Arith::Mul, Box::new(value), Box::new(f));
        }
        for f in &part.sup {
            let f = piece(self, f, "factor")?;
            value = Ex::Bin(Arith::Div, Box::new(value), Box::new(f));
        }
        Ok((value, parts))
    }

    /// `e` lowered, when it reads parameters only (MC153 otherwise).
    fn parameter_expression(&mut self, e: &Expr) -> Result<Ex, Diagnostic> {
        let x = self.lower(e, Context::Direct)?;
        let mut fixed = true;
        x.visit(&mut |y| match y {
            Ex::Var(s, _) if !self.is_parameter_slot(*s) => fixed = false,
            Ex::Time | Ex::DerOf(..) | Ex::Tan(..) => fixed = false,
            _ => {}
        });
        if fixed {
            Ok(x)
        } else {
            Err(Diagnostic::error(
                "MC153",
                e.span,
                "a clock's interval must be a parameter expression",
            )
            .with_label("changes during the simulation")
            .with_help("declare the interval as a parameter (`parameter Real Ts = 0.01;` and `Clock(Ts)`); an importer changes its rate with the parameter, without recompiling"))
        }
    }

    /// A clocked built-in, lowered; `None` for any other call.
    pub fn clocked_call(
        &mut self,
        func: &str,
        args: &[Expr],
        e: &Expr,
    ) -> Option<Result<Value, Diagnostic>> {
        Some(match (func, args) {
            ("sample", [u, _]) => self.value_any(u, Context::Direct),
            ("hold", [x]) => self.value_any(x, Context::Direct),
            ("previous", [x]) => (|| {
                let ExprKind::Ref(r) = &x.kind else {
                    return Err(misuse(
                        x.span,
                        "`previous` takes a clocked variable of this class",
                    ));
                };
                let Referent::Var(v) = r.target else {
                    return Err(misuse(
                        x.span,
                        "`previous` takes a clocked variable of this class",
                    ));
                };
                let own = self.own_slot(v);
                let prev = self.previous_slot(v);
                let (Some(own), Some(prev)) = (own, prev) else {
                    return Err(misuse(
                        x.span,
                        "`previous` takes a clocked variable of this class",
                    ));
                };
                let value = self.value_any(x, Context::Direct)?;
                Ok(value.map(|el| {
                    el.replace(&mut |y| match y {
                        Ex::Var(s, i) if *s == own => Some(Ex::Var(prev, i.clone())),
                        _ => None,
                    })
                }))
            })(),
            ("subSample" | "superSample", [u, _]) if clock_key(u).is_none() => {
                // Guarded by its partition's tick, the value converted
                // is the one of this instant: at every f-th tick of a
                // faster clock its value there, on a faster clock its
                // last value.
                self.value_any(u, Context::Direct)
            }
            ("interval", [] | [_]) => match self.clock {
                Some(p) => self.interval(p).map(Value::Scalar),
                None => Err(no_clock(e.span)),
            },
            ("firstTick", [] | [_]) => match self.clock.and_then(|p| self.partition_slots(p)) {
                Some(slots) => Ok(Value::Scalar(Ex::Rel(
                    RelOp::Eq,
                    Box::new(Ex::Var(slots.ticks, None)),
                    Box::new(Ex::Real(1.0)),
                    RelKind::Direct,
                ))),
                None => Err(no_clock(e.span)),
            },
            ("sample" | "hold" | "previous" | "interval" | "firstTick", _) => Err(misuse(
                e.span,
                &format!("`{func}` is called with the wrong number of arguments"),
            )),
            ("Clock" | "subSample" | "superSample", _) => Err(misuse(
                e.span,
                "a clock is not a value: it is the second argument of `sample`",
            )),
            _ => return None,
        })
    }

    /// The tick of partition `p`, which moves the values `previous` reads
    /// (of the variables in `vars`) at each new tick.
    pub fn tick(
        &mut self,
        p: usize,
        span: Span,
        dims: &[Vec<crate::ir::Affine>],
    ) -> Result<Stmt, Diagnostic> {
        let slots = self
            .partition_slots(p)
            .expect("a planned partition has slots");
        let (interval, parts) = self.interval_parts(p)?;
        let mut shift = Vec::new();
        let mut start = Vec::new();
        let previous = self
            .model
            .clocking
            .as_ref()
            .map(|c| c.previous.clone())
            .unwrap_or_default();
        for (v, prev) in previous {
            if self.clock_of_var.get(&v) != Some(&p) {
                continue;
            }
            let (Some(vs), Some(ps)) = (self.own_slot(v), self.own_slot(prev)) else {
                continue;
            };
            let var = &self.model.vars[v];
            let start_value = match &var.attrs.start {
                Some(s) => self.lower(s, Context::Direct)?,
                None => Ex::Real(0.0),
            };
            match dims.get(v).map(Vec::as_slice) {
                Some([]) | None => {
                    shift.push(assign(ps, None, Ex::Var(vs, None), span));
                    start.push(assign(ps, None, start_value, span));
                }
                Some([n]) => {
                    let i = Ex::LoopVar(0);
                    let each = |value: Ex| Stmt::For {
                        depth: 0,
                        lo: Ex::Int(1),
                        hi: super::affine::affine_to_ex(n),
                        body: vec![assign(ps, Some(i.clone()), value, span)],
                    };
                    shift.push(each(Ex::Var(vs, Some(Box::new(i.clone())))));
                    // A scalar start applies to every element.
                    start.push(each(match start_value {
                        Ex::Var(s, None) if self.slots[s].is_array => {
                            Ex::Var(s, Some(Box::new(i.clone())))
                        }
                        other => other,
                    }));
                }
                Some(_) => {
                    return Err(misuse(
                        var.span,
                        "`previous` of a clocked matrix is not supported; use vectors",
                    ))
                }
            }
        }
        Ok(Stmt::Tick(Box::new(Tick {
            ticks: slots.ticks,
            first: slots.first,
            fire: slots.fire,
            interval,
            parts,
            shift,
            start,
            span,
        })))
    }
}

fn assign(target: SlotId, index: Option<Ex>, value: Ex, span: Span) -> Stmt {
    Stmt::Assign {
        target,
        index,
        value,
        guard: None,
        span,
    }
}
