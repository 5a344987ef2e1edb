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
//! equation without `sample`, MC158 a clocked built-in used wrongly.

use std::collections::HashMap;

use super::lowerer::{Context, Lowerer};
use super::value::Value;
use crate::diagnostic::Diagnostic;
use crate::ir::{Arith, Ex, RelKind, RelOp, SlotId, Stmt, Tick};
use crate::resolve::clocked::{clock_key, has_key};
use crate::resolve::expr::{Equation, Expr, ExprKind, Referent};
use crate::resolve::model::Clocking;
use crate::resolve::model::{ClassCausality, ClassModel, ClassVariability};
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
    /// Partitions of its `sample` clocks.
    clocks: Vec<usize>,
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
        ExprKind::Call { func, args, .. } => match (func.as_str(), args.as_slice()) {
            ("sample", [u, clock]) => match clock_key(clock) {
                Some(k) => {
                    if let Some(p) = c.partitions.iter().position(|p| has_key(p, &k)) {
                        s.clocks.push(p);
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
            ("interval" | "firstTick", []) => {
                if !in_sample && !in_hold {
                    s.clock_query.get_or_insert(e.span);
                }
            }
            ("interval" | "firstTick", _) => {
                s.misuse.get_or_insert(misuse(
                    e.span,
                    &format!("`{func}()` takes no arguments in the local form"),
                ));
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
        },
        _ => {
            let mut children = Vec::new();
            direct_children(e, &mut children);
            for x in children {
                scan_expr(x, c, in_sample, in_hold, in_der, s);
            }
        }
    }
}

/// The expressions directly inside `e` (not `e` itself).
fn direct_children<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(_, a, b) => out.extend([&**a, &**b]),
        ExprKind::Unary(_, a) => out.push(a),
        ExprKind::FunctionCall { args, .. } | ExprKind::Call { args, .. } => out.extend(args),
        ExprKind::If { branches, else_ } => {
            for (c, v) in branches {
                out.extend([c, v]);
            }
            out.push(else_);
        }
        ExprKind::Array(items) => out.extend(items),
        ExprKind::Matrix(rows) => out.extend(rows.iter().flatten()),
        ExprKind::Range { start, step, stop } => {
            out.push(start);
            if let Some(s) = step {
                out.push(s);
            }
            out.push(stop);
        }
        _ => {}
    }
}

fn scan_equation(eq: &Equation, c: &Clocking, s: &mut Scan) {
    match eq {
        Equation::Simple { lhs, rhs, .. } => {
            scan_expr(lhs, c, false, false, false, s);
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
    let Some(c) = model.clocking.as_deref() else {
        let diags = without_clock(model);
        return if diags.is_empty() {
            Ok(None)
        } else {
            Err(diags)
        };
    };
    let mut diags = base_clock_faults(c);
    let scans: Vec<Scan> = model
        .equations
        .iter()
        .map(|eq| {
            let mut s = Scan::default();
            scan_equation(eq, c, &mut s);
            s
        })
        .collect();
    diags.extend(scans.iter().filter_map(|s| s.misuse.clone()));
    if !diags.is_empty() {
        return Err(diags);
    }
    let plan = propagate(model, &scans);
    for (k, s) in scans.iter().enumerate() {
        match plan.equation[k] {
            Some(_) => clocked_faults(model, s, &mut diags),
            None => continuous_faults(model, s, &plan, &mut diags),
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
/// it is.
fn without_clock(model: &ClassModel) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for eq in &model.equations {
        let mut s = Scan::default();
        scan_equation(eq, &Clocking::empty(), &mut s);
        if let Some(d) = s.misuse {
            diags.push(d);
        } else if let Some(&(v, at)) = s.held.first() {
            diags.push(hold_of_continuous(model, v, at));
        } else if let Some(at) = s.clock_query {
            diags.push(no_clock(at));
        } else if let Some(&(v, at)) = s.previous.first() {
            diags.push(not_clocked_previous(model, v, at));
        }
    }
    diags
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

/// Clock inference inside the class: an equation that samples is on its
/// clock's partition; one that reads a clocked variable (or its previous
/// value) outside `hold` is on that variable's; every variable a clocked
/// equation reads outside `sample` is clocked on its partition. Repeated
/// until nothing changes. Equations with `der` or `hold` stay
/// continuous-time.
fn propagate(model: &ClassModel, scans: &[Scan]) -> Plan {
    // Parameters, states and inputs are never clocked (reading a state or
    // an input without `sample` is MC157).
    let is_parameter = |v: usize| {
        let var = &model.vars[v];
        var.variability != ClassVariability::Continuous
            || var.special.state
            || var.causality == ClassCausality::Input
    };
    let mut plan = Plan {
        equation: scans
            .iter()
            .map(|s| {
                if s.continuous.is_some() {
                    None
                } else {
                    s.clocks.first().copied()
                }
            })
            .collect(),
        vars: HashMap::new(),
    };
    loop {
        let mut changed = false;
        for (k, s) in scans.iter().enumerate() {
            if s.continuous.is_some() {
                continue;
            }
            let read = || {
                s.direct
                    .iter()
                    .map(|d| d.0)
                    .chain(s.previous.iter().map(|p| p.0))
            };
            if plan.equation[k].is_none() {
                plan.equation[k] = read().find_map(|v| plan.vars.get(&v).copied());
            }
            let Some(p) = plan.equation[k] else {
                continue;
            };
            for v in read() {
                if !is_parameter(v) && !plan.vars.contains_key(&v) {
                    plan.vars.insert(v, p);
                    changed = true;
                }
            }
        }
        if !changed {
            return plan;
        }
    }
}

/// The faults of a clocked equation: a continuous-time value read without
/// `sample` (MC157), a connector or output made clocked (MC151), `hold`
/// inside it (MC158), `previous` of what cannot be clocked (MC155).
fn clocked_faults(model: &ClassModel, s: &Scan, diags: &mut Vec<Diagnostic>) {
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

/// The faults of a continuous-time equation: `der` of a clocked variable
/// (MC154), a clocked value read without `hold` (MC156), `hold` of a
/// continuous-time value (MC158), a clocked built-in with no clock.
fn continuous_faults(model: &ClassModel, s: &Scan, plan: &Plan, diags: &mut Vec<Diagnostic>) {
    let is_parameter = |v: usize| model.vars[v].variability != ClassVariability::Continuous;
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
    }
    if let Some(&(v, at)) = s.previous.first() {
        diags.push(not_clocked_previous(model, v, at));
    }
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
    .with_help(LOCAL_FORM)
}

impl Clocking {
    fn empty() -> Clocking {
        Clocking {
            partitions: Vec::new(),
            previous: Vec::new(),
            synthetic_from: usize::MAX,
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
        let mut value = match args.as_slice() {
            [t] => self.parameter_expression(t)?,
            [n, r] => {
                let n = self.parameter_expression(n)?;
                let r = self.parameter_expression(r)?;
                Ex::Bin(Arith::Div, Box::new(n), Box::new(r))
            }
            _ => unreachable!("clock_key admits one or two arguments"),
        };
        for f in &part.sub {
            let f = self.parameter_expression(f)?;
            value = Ex::Bin(Arith::Mul, Box::new(value), Box::new(f));
        }
        for f in &part.sup {
            let f = self.parameter_expression(f)?;
            value = Ex::Bin(Arith::Div, Box::new(value), Box::new(f));
        }
        Ok(value)
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
            ("interval", []) => match self.clock {
                Some(p) => self.interval(p).map(Value::Scalar),
                None => Err(no_clock(e.span)),
            },
            ("firstTick", []) => match self.clock.and_then(|p| self.partition_slots(p)) {
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
        let interval = self.interval(p)?;
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
