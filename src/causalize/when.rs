//! Hybrid events in local form (DESIGN §2.2c): `when` equations, `pre`,
//! `edge`, `change`, `initial()` and `reinit`, lowered to assignments the
//! kernel runs in every evaluation, so that nothing in the runtime knows a
//! class and every value is a function of what the instance record holds:
//!
//! - each branch's condition goes into its variable `'when<k>'` (relations
//!   there are events like any other); the branch fires when a condition
//!   has become true since the left limit, `c and not pre(c)`, never in
//!   initialization, where only `initial()` fires (MLS §8.6);
//! - a variable the `when` assigns is `if fire1 then e1 elseif fire2 then
//!   e2 else pre(v)`: between its events it keeps its left limit, and an
//!   evaluation repeated at an event gives the same value (it reads `pre`,
//!   never the value it last wrote);
//! - `reinit(x, e)` gives `'reinit(x)'` the value `e` while its branch
//!   fires, else `x`; `terminate` sets its flag while its branch fires.
//!
//! After an evaluation at an event the runtime moves every value into its
//! left limit and every `'reinit(x)'` into its state (the kernel's `events`
//! entry, [`crate::ir::EventTable`]), and the FMI event iteration repeats
//! until nothing changes. Each misuse is refused at its line (MC163–MC175).

use super::affine::affine_to_ex;
use super::causalizer::Causalizer;
use super::lowerer::{Context, Lowerer};
use super::solve::Target;
use super::value::Value;
use crate::diagnostic::Diagnostic;
use crate::ir::{Affine, Arith, EventTable, Ex, RelKind, RelOp, SlotId, Stmt};
use crate::resolve::events::pre_argument;
use crate::resolve::expr::{Equation, Expr, ExprKind, Referent};
use crate::resolve::model::{ClassCausality, ClassVariability, Events};
use crate::resolve::tree::Builtin;
use crate::source::Span;

/// The type of a value as a `when` may assign it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Boolean,
    Integer,
    Real,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Boolean => "a Boolean",
            Kind::Integer => "an Integer",
            Kind::Real => "a Real",
        }
    }
}

/// What the branches of one `when` assign to one variable, state or flag.
struct Assigned {
    slot: SlotId,
    /// Per branch: the value and the equation's span.
    values: Vec<Option<(Ex, Span)>>,
}

impl Lowerer<'_> {
    /// `pre(v)`, `edge(b)`, `change(v)` and `initial()`; `None` for any
    /// other name.
    pub fn event_call(
        &mut self,
        func: &str,
        args: &[Expr],
        e: &Expr,
    ) -> Option<Result<Value, Diagnostic>> {
        match (func, args) {
            ("initial", []) => Some(Ok(Value::Scalar(Ex::Initial))),
            ("initial", _) => Some(Err(arguments(e.span, "`initial()` takes no arguments"))),
            ("pre" | "edge" | "change", [arg]) => Some(self.left_limit_call(func, arg, e)),
            ("pre" | "edge" | "change", _) => Some(Err(arguments(
                e.span,
                &format!("`{func}` takes one variable of this class"),
            ))),
            _ => None,
        }
    }

    fn left_limit_call(&mut self, func: &str, arg: &Expr, e: &Expr) -> Result<Value, Diagnostic> {
        let var = pre_argument(e).ok_or_else(|| not_discrete(func, e.span, None))?;
        let v = &self.model.vars[var];
        if v.variability != ClassVariability::Continuous {
            return Err(Diagnostic::error(
                "MC169",
                e.span,
                format!(
                    "`{}` is a parameter: it has no value before an event",
                    v.name
                ),
            )
            .with_label(format!("`{func}` of a parameter"))
            .with_help(format!(
                "read `{}` itself: a parameter keeps its value during a run",
                v.name
            )));
        }
        if self.clock.is_some() {
            return Err(Diagnostic::error(
                "MC170",
                e.span,
                format!("`{func}` in a clocked equation"),
            )
            .with_label("event operator in a clocked partition")
            .with_help(
                "in a clocked equation `pre(y)` is `previous(y)` (y clocked), `edge(b)` is \
                 `b and not previous(b)` and `change(v)` is `v <> previous(v)`",
            ));
        }
        let kind = self.var_kind(var);
        if kind == Kind::Real && !v.special.discrete {
            return Err(not_discrete(func, e.span, Some(&v.name)));
        }
        if func == "edge" && kind != Kind::Boolean {
            return Err(arguments(
                e.span,
                &format!("`edge` takes a Boolean; `{}` is not one", v.name),
            ));
        }
        let pre = self
            .model
            .events
            .as_ref()
            .and_then(|ev| ev.pre_of(var))
            .expect("resolve::events keeps a left limit for every `pre` argument");
        let (Some(own), Some(pre)) = (self.own_slot(var), self.own_slot(pre)) else {
            return Err(not_discrete(func, e.span, Some(&v.name)));
        };
        let now = self.value(arg, Context::Direct)?;
        let start = self.start_of(var, arg.span)?;
        let before = now.clone().map(|el| {
            el.replace(&mut |y| match y {
                Ex::Var(s, i) if *s == own => {
                    Some(left_limit(start.clone(), Ex::Var(pre, i.clone())))
                }
                _ => None,
            })
        });
        if !matches!(now, Value::Scalar(_)) && func != "pre" {
            return Err(arguments(
                e.span,
                &format!("`{func}` takes a scalar: index the array"),
            ));
        }
        let b = Box::new;
        Ok(match func {
            "pre" => before,
            "edge" => Value::Scalar(Ex::Bin(
                Arith::And,
                b(now.element(0)),
                b(Ex::Not(b(before.element(0)))),
            )),
            _ => Value::Scalar(Ex::Rel(
                RelOp::Ne,
                b(now.element(0)),
                b(before.element(0)),
                RelKind::Direct,
            )),
        })
    }

    /// The start value of a scalar variable `var` (zero, false, when it
    /// declares none): its left limit in initialization (MLS §8.6).
    fn start_of(&mut self, var: usize, span: Span) -> Result<Ex, Diagnostic> {
        let v = &self.model.vars[var];
        let Some(start) = v.attrs.start.clone() else {
            return Ok(match self.var_kind(var) {
                Kind::Boolean => Ex::Bool(false),
                Kind::Integer => Ex::Int(0),
                Kind::Real => Ex::Real(0.0),
            });
        };
        match self.value(&start, Context::Direct)? {
            Value::Scalar(e) => Ok(e),
            _ => Err(Diagnostic::error(
                "MC170",
                span,
                format!("`{}` has an array start value: `pre` reads scalars", v.name),
            )
            .with_label("array start")
            .with_help("give the variable a scalar start value")),
        }
    }

    /// The type of variable `var` of the class as a `when` assigns it.
    fn var_kind(&self, var: usize) -> Kind {
        match self.model.vars[var].ty {
            Builtin::Boolean => Kind::Boolean,
            Builtin::Integer | Builtin::Enumeration(_) => Kind::Integer,
            _ => Kind::Real,
        }
    }

    /// The type of a lowered value: Boolean or Integer where it can only
    /// be one, else Real.
    fn kind_of(&self, e: &Ex) -> Kind {
        match e {
            Ex::Bool(_) | Ex::Not(_) | Ex::Rel(..) | Ex::Initial => Kind::Boolean,
            Ex::Bin(Arith::And | Arith::Or, ..) => Kind::Boolean,
            Ex::Int(_) | Ex::LoopVar(_) => Kind::Integer,
            Ex::IntParam(k) => match self.model.vars[self.int_params[*k]].ty {
                Builtin::Boolean => Kind::Boolean,
                _ => Kind::Integer,
            },
            Ex::Var(s, _) => match self.slot_discrete(*s) {
                Some(crate::ir::Discrete::Boolean) => Kind::Boolean,
                Some(crate::ir::Discrete::Integer) => Kind::Integer,
                None => Kind::Real,
            },
            Ex::Neg(a) => match self.kind_of(a) {
                Kind::Integer => Kind::Integer,
                _ => Kind::Real,
            },
            Ex::Bin(Arith::Add | Arith::Sub | Arith::Mul, a, b) => {
                match (self.kind_of(a), self.kind_of(b)) {
                    (Kind::Integer, Kind::Integer) => Kind::Integer,
                    _ => Kind::Real,
                }
            }
            Ex::If(branches, other) => {
                let k = self.kind_of(other);
                if branches.iter().all(|(_, v)| self.kind_of(v) == k) {
                    k
                } else {
                    Kind::Real
                }
            }
            _ => Kind::Real,
        }
    }
}

impl Causalizer<'_> {
    /// What the kernel's `events` entry moves, once every equation is
    /// read; `None` for a class without events.
    pub fn event_table(&self) -> Option<EventTable> {
        let events = self.model.events.as_ref()?;
        let pre = events
            .pre
            .iter()
            .filter_map(|(v, p)| {
                let count = self.var_dims[*v]
                    .iter()
                    .map(affine_to_ex)
                    .reduce(|a, b| Ex::Bin(Arith::Mul, Box::new(a), Box::new(b)))
                    .unwrap_or(Ex::Int(1));
                Some((self.low.own_slot(*v)?, self.low.own_slot(*p)?, count))
            })
            .collect();
        let reinit = events
            .reinit
            .iter()
            .filter_map(|(x, v)| Some((self.low.own_slot(*x)?, self.low.own_slot(*v)?)))
            .collect();
        Some(EventTable {
            pre,
            reinit,
            terminate: self.terminates.clone(),
        })
    }

    /// The assignments of one `when` equation, placed where it stands.
    pub fn when_equation(
        &mut self,
        branches: &[(Expr, Vec<Equation>)],
        span: Span,
        dims: &[Vec<Affine>],
    ) -> Vec<Stmt> {
        let events = self
            .model
            .events
            .clone()
            .expect("resolve::events keeps the variables of every `when`");
        let first = self.when_branches;
        self.when_branches += branches.len();
        match self.when_statements(branches, first, &events, span, dims) {
            Ok(stmts) => stmts,
            Err(d) => {
                self.diags.push(d);
                // What the `when` would have determined is unknown now.
                self.skipped_equation = true;
                Vec::new()
            }
        }
    }

    fn when_statements(
        &mut self,
        branches: &[(Expr, Vec<Equation>)],
        first: usize,
        events: &Events,
        span: Span,
        dims: &[Vec<Affine>],
    ) -> Result<Vec<Stmt>, Diagnostic> {
        let mut stmts = Vec::new();
        let mut fires = Vec::new();
        for (b, (condition, _)) in branches.iter().enumerate() {
            let var = events.conditions[first + b];
            fires.push(self.condition(condition, var, events, &mut stmts, dims)?);
        }
        let mut assigned: Vec<Assigned> = Vec::new();
        let mut reinit: Vec<Assigned> = Vec::new();
        for (b, (_, body)) in branches.iter().enumerate() {
            for eq in body {
                match eq {
                    Equation::Simple { lhs, rhs, span } => {
                        let (slot, value) = self.when_assignment(lhs, rhs)?;
                        note(&mut assigned, slot, b, branches.len(), value, *span)?;
                    }
                    Equation::Reinit { state, value, span } => {
                        let (slot, value) = self.reinit(state, value, events, *span)?;
                        note(&mut reinit, slot, b, branches.len(), value, *span)?;
                    }
                    Equation::Terminate { message, span } => {
                        let var = events.terminate[self.terminates.len()];
                        let slot = self.own(var);
                        self.terminates.push((slot, message.clone()));
                        let fire = fires[b].clone();
                        stmts.push(self.event_assign(slot, fire, &[], *span, dims)?);
                    }
                    // `assert` checks nothing an FMU needs; what the check
                    // phase refused (MC161) was reported there.
                    Equation::Assert { .. } => {}
                    _ => self.skipped_equation = true,
                }
            }
        }
        for a in &assigned {
            if let Some(b) = a.values.iter().position(Option::is_none) {
                let (_, at) = a.values.iter().flatten().next().expect("assigned once");
                let name = &self.low.slots[a.slot].name;
                return Err(Diagnostic::error(
                    "MC171",
                    branches[b].0.span,
                    format!("this branch does not assign `{name}`, which another branch of the `when` assigns"),
                )
                .with_label(format!("no equation for `{name}`"))
                .with_note(*at, "assigned here")
                .with_help(format!(
                    "every branch of a `when` assigns the same variables: write `{name} = pre({name});` to keep its value"
                )));
            }
        }
        for a in assigned {
            let pre = self.pre_slot(a.slot, events);
            let var = self.slot_var(a.slot).expect("an own slot");
            let start = self.low.start_of(var, span)?;
            let value = choice(&fires, &a.values, left_limit(start, Ex::Var(pre, None)));
            let at = first_span(&a.values).unwrap_or(span);
            let reads: Vec<&Ex> = a.values.iter().flatten().map(|(v, _)| v).collect();
            self.reads_known(&reads, at)?;
            stmts.push(self.event_assign(a.slot, value, &[], at, dims)?);
        }
        for r in reinit {
            let state = events
                .reinit
                .iter()
                .find(|(_, value)| self.low.own_slot(*value) == Some(r.slot))
                .map(|(x, _)| self.own(*x))
                .expect("a reinit value slot belongs to a state");
            let value = choice(&fires, &r.values, Ex::Var(state, None));
            let at = first_span(&r.values).unwrap_or(span);
            let reads: Vec<&Ex> = r.values.iter().flatten().map(|(v, _)| v).collect();
            self.reads_known(&reads, at)?;
            stmts.push(self.event_assign(r.slot, value, &[], at, dims)?);
        }
        Ok(stmts)
    }

    /// Lowers a branch's condition into its variable, and returns when the
    /// branch fires.
    fn condition(
        &mut self,
        condition: &Expr,
        var: usize,
        events: &Events,
        stmts: &mut Vec<Stmt>,
        dims: &[Vec<Affine>],
    ) -> Result<Ex, Diagnostic> {
        let value = self.low.value(condition, Context::Equation)?;
        let elements = value.elements();
        for el in &elements {
            if self.low.kind_of(el) != Kind::Boolean {
                return Err(Diagnostic::error(
                    "MC172",
                    condition.span,
                    "a `when` condition is a Boolean expression, or a vector of them",
                )
                .with_label("not a Boolean")
                .with_help("write a relation (`h <= 0`, `time >= t1`), a Boolean variable, `initial()`, or `{c1, c2}`"));
            }
        }
        self.reads_known(&elements.iter().collect::<Vec<_>>(), condition.span)?;
        let slot = self.own(var);
        let pre = self.pre_slot(slot, events);
        let array = elements.len() > 1 || matches!(condition.kind, ExprKind::Array(_));
        let mut fire: Option<Ex> = None;
        let b = Box::new;
        for (j, el) in elements.into_iter().enumerate() {
            let index = array.then(|| Ex::Int(j as i64 + 1));
            let term = if el == Ex::Initial {
                Ex::Initial
            } else {
                let now = Ex::Var(slot, index.clone().map(b));
                let before = Ex::Var(pre, index.clone().map(b));
                Ex::Bin(
                    Arith::And,
                    b(now),
                    b(Ex::Bin(
                        Arith::And,
                        b(Ex::Not(b(before))),
                        b(Ex::Not(b(Ex::Initial))),
                    )),
                )
            };
            stmts.push(self.event_assign(slot, el, index.as_slice(), condition.span, dims)?);
            fire = Some(match fire {
                None => term,
                Some(f) => Ex::Bin(Arith::Or, b(f), b(term)),
            });
        }
        Ok(fire.unwrap_or(Ex::Bool(false)))
    }

    /// `v = e` in a `when`: the slot of `v`, a discrete variable of the
    /// class, and `e` lowered, of `v`'s type.
    fn when_assignment(&mut self, lhs: &Expr, rhs: &Expr) -> Result<(SlotId, Ex), Diagnostic> {
        let var = match &lhs.kind {
            ExprKind::Ref(r) => match &r.target {
                Referent::Var(v) if r.subscripts.is_empty() && r.inner_subscript.is_none() => *v,
                Referent::Member(m) => {
                    return Err(Diagnostic::error(
                        "MC163",
                        lhs.span,
                        format!("`{}` is a variable of the component `{}`: a `when` assigns only variables of its own class", m.dotted(), m.dotted().split('.').next().unwrap_or_default()),
                    )
                    .with_label("another class's variable")
                    .with_help("give the value to the component through an input it declares (a connector or a Boolean/Integer/Real input), and let its class assign its own variables"));
                }
                Referent::Unknown(d) => return Err(Diagnostic::clone(d)),
                _ => return Err(whole_scalar(lhs.span)),
            },
            _ => return Err(whole_scalar(lhs.span)),
        };
        let v = &self.model.vars[var];
        if v.variability != ClassVariability::Continuous {
            return Err(Diagnostic::error(
                "MC166",
                lhs.span,
                format!("`{}` is a parameter: a `when` cannot assign it", v.name),
            )
            .with_label("parameter assigned at an event")
            .with_help(format!(
                "declare a discrete variable for the value that changes (`discrete Real {0}Now(start = {0});`) and assign that",
                v.name
            )));
        }
        if v.causality == ClassCausality::Input {
            return Err(Diagnostic::error(
                "MC164",
                lhs.span,
                format!("`{}` is an input of this class: what it receives is determined outside", v.name),
            )
            .with_label("input assigned in a `when`")
            .with_help("assign a variable of the class, or an output (a connector's output side) that carries the value out"));
        }
        let kind = self.low.var_kind(var);
        if kind == Kind::Real && !v.special.discrete {
            let why = if v.special.state {
                "a state changes at an event only by `reinit`"
            } else {
                "a variable a `when` assigns keeps its value between events"
            };
            return Err(Diagnostic::error(
                "MC165",
                lhs.span,
                format!("`{}` is a continuous-time Real: {why}", v.name),
            )
            .with_label("continuous-time variable assigned in a `when`")
            .with_help(if v.special.state {
                format!("write `reinit({}, expression);`", v.name)
            } else {
                format!("declare it `discrete Real {}`", v.name)
            }));
        }
        if !v.dims.is_empty() {
            return Err(whole_scalar(lhs.span));
        }
        let value = self.low.value(rhs, Context::Direct)?;
        let Value::Scalar(value) = value else {
            return Err(whole_scalar(rhs.span));
        };
        let got = self.low.kind_of(&value);
        let fits = got == kind || (kind == Kind::Real && got == Kind::Integer);
        if !fits {
            return Err(Diagnostic::error(
                "MC136",
                rhs.span,
                format!(
                    "`{}` is {} variable, but this equation gives it {} value",
                    v.name,
                    kind.name(),
                    got.name()
                ),
            )
            .with_label(format!("not {} value", kind.name()))
            .with_help(format!("give `{}` {} expression", v.name, kind.name())));
        }
        Ok((self.own(var), value))
    }

    /// `reinit(x, e)`: the slot of `'reinit(x)'` and `e`.
    fn reinit(
        &mut self,
        state: &Expr,
        value: &Expr,
        events: &Events,
        span: Span,
    ) -> Result<(SlotId, Ex), Diagnostic> {
        let var = match &state.kind {
            ExprKind::Ref(r) if r.subscripts.is_empty() && r.inner_subscript.is_none() => {
                match &r.target {
                    Referent::Var(v) => Some(*v),
                    Referent::Unknown(d) => return Err(Diagnostic::clone(d)),
                    _ => None,
                }
            }
            _ => None,
        };
        let state_var = var.filter(|v| {
            let v = &self.model.vars[*v];
            v.special.state && v.ty == Builtin::Real && v.dims.is_empty()
        });
        let Some(x) = state_var else {
            return Err(Diagnostic::error(
                "MC167",
                state.span,
                "`reinit` takes a scalar `ContinuousState` of this class",
            )
            .with_label("not a state of this class")
            .with_help("reinitialise a state the class declares (`Base.ContinuousState v;`); a component reinitialises its own states in its own `when`"));
        };
        let value = match self.low.value(value, Context::Direct)? {
            Value::Scalar(e) if self.low.kind_of(&e) != Kind::Boolean => e,
            _ => {
                return Err(Diagnostic::error(
                    "MC167",
                    value.span,
                    "the new value of a state is a Real expression",
                )
                .with_label("not a Real value")
                .with_help("write `reinit(x, expression)` with a scalar Real expression"))
            }
        };
        let slot = events
            .reinit
            .iter()
            .find(|(s, _)| *s == x)
            .map(|(_, v)| self.own(*v))
            .expect("resolve::events keeps a value for every reinitialised state");
        if self.is_determined(slot) {
            return Err(Diagnostic::error(
                "MC174",
                span,
                format!("`{}` is reinitialised by two `when` equations", self.model.vars[x].name),
            )
            .with_label("second `when` reinitialising this state")
            .with_help("reinitialise a state in one `when`; its `elsewhen` branches may each reinitialise it"));
        }
        Ok((slot, value))
    }

    /// `slot[index] := value` at an event: recorded as determined, once.
    fn event_assign(
        &mut self,
        slot: SlotId,
        value: Ex,
        index: &[Ex],
        span: Span,
        dims: &[Vec<Affine>],
    ) -> Result<Stmt, Diagnostic> {
        let target = Target {
            slot,
            index: index.first().cloned(),
        };
        if self.is_known_at(slot, target.index.as_ref()) {
            let name = &self.low.slots[slot].name;
            return Err(Diagnostic::error(
                "MC168",
                span,
                format!("`{name}` is assigned in this `when` and determined elsewhere too"),
            )
            .with_label("determined twice")
            .with_help(format!(
                "assign `{name}` in one `when` (its `elsewhen` branches may each assign it), and nowhere else"
            )));
        }
        self.assign(target, value, span, dims)
    }

    /// MC175 when an expression of a `when` reads a variable no equation
    /// before it determines.
    fn reads_known(&self, values: &[&Ex], span: Span) -> Result<(), Diagnostic> {
        for e in values {
            let mut unknown = None;
            e.visit(&mut |x| {
                if let Ex::Var(s, i) = x {
                    if unknown.is_none() && !self.is_known_at(*s, i.as_deref()) {
                        unknown = Some(*s);
                    }
                }
            });
            if let Some(s) = unknown {
                let name = &self.low.slots[s].name;
                return Err(Diagnostic::error(
                    "MC175",
                    span,
                    format!("this `when` reads `{name}` before an equation determines it"),
                )
                .with_label(format!("`{name}` not yet determined"))
                .with_help(format!(
                    "determine `{name}` in an equation before the `when` (partially ordered form), or read its value before the event, `pre({name})`"
                )));
            }
        }
        Ok(())
    }

    fn own(&self, var: usize) -> SlotId {
        self.low
            .own_slot(var)
            .expect("a discrete or Real variable of the class has a slot")
    }

    /// The slot of `pre(v)` for the variable in `slot`.
    fn pre_slot(&self, slot: SlotId, events: &Events) -> SlotId {
        let var = self.slot_var(slot).expect("an own slot");
        let pre = events
            .pre_of(var)
            .expect("resolve::events keeps the left limit of what a `when` assigns");
        self.own(pre)
    }
}

/// Notes that branch `b` of `branches` gives `slot` the value `value`.
fn note(
    all: &mut Vec<Assigned>,
    slot: SlotId,
    b: usize,
    branches: usize,
    value: Ex,
    span: Span,
) -> Result<(), Diagnostic> {
    let k = match all.iter().position(|a| a.slot == slot) {
        Some(k) => k,
        None => {
            all.push(Assigned {
                slot,
                values: vec![None; branches],
            });
            all.len() - 1
        }
    };
    if let Some((_, first)) = &all[k].values[b] {
        return Err(Diagnostic::error(
            "MC168",
            span,
            "this branch of the `when` assigns the same variable twice",
        )
        .with_label("assigned twice")
        .with_note(*first, "first assigned here")
        .with_help("assign each variable once per branch"));
    }
    all[k].values[b] = Some((value, span));
    Ok(())
}

/// The left limit of a value: its start value in initialization, where
/// nothing has kept one yet, else what the runtime kept in `pre`.
fn left_limit(start: Ex, kept: Ex) -> Ex {
    Ex::If(vec![(Ex::Initial, start)], Box::new(kept))
}

/// `if fire1 then e1 elseif fire2 then e2 ... else otherwise`, over the
/// branches that give a value.
fn choice(fires: &[Ex], values: &[Option<(Ex, Span)>], otherwise: Ex) -> Ex {
    let branches: Vec<(Ex, Ex)> = fires
        .iter()
        .zip(values)
        .filter_map(|(f, v)| v.as_ref().map(|(e, _)| (f.clone(), e.clone())))
        .collect();
    Ex::If(branches, Box::new(otherwise))
}

fn first_span(values: &[Option<(Ex, Span)>]) -> Option<Span> {
    values.iter().flatten().map(|(_, s)| *s).next()
}

fn arguments(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error("MC170", span, what.to_string())
        .with_label("wrong argument")
        .with_help("write `pre(v)`, `edge(b)` or `change(v)` of a Boolean, Integer or `discrete Real` variable of this class, and `initial()`")
}

/// MC170: `pre`, `edge` or `change` of what is not a discrete variable of
/// the class.
fn not_discrete(func: &str, span: Span, name: Option<&str>) -> Diagnostic {
    let what = match name {
        Some(n) => {
            format!("`{n}` is a continuous-time variable: `{func}` reads only discrete ones")
        }
        None => format!("`{func}` reads a variable of this class"),
    };
    Diagnostic::error("MC170", span, what)
        .with_label("not a discrete variable of this class")
        .with_help(format!("`{func}` takes a Boolean, an Integer or a `discrete Real` of this class (its own, an input or a connector member); inside a `when`, a continuous-time variable read as it is has its value at the event"))
}

/// MC163 for a `when` equation that is not `v = expression` with `v` a
/// scalar variable of the class.
fn whole_scalar(span: Span) -> Diagnostic {
    Diagnostic::error(
        "MC163",
        span,
        "a `when` assigns scalar variables of its own class, each alone on the left: `v = expression`",
    )
    .with_label("not a scalar variable of this class")
    .with_help("write one equation per scalar variable, `v = expression`")
}
