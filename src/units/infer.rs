//! Unit inference and checking of one class, once, from its own equations
//! and the unit signatures of its components.
//!
//! Every Real variable without a declared unit starts as an unknown unit.
//! Declarations, bindings, start values, modifiers of components,
//! equations (in source order) and connect equations then each require two
//! units to be equal; the [`Solver`] eliminates one unknown per independent
//! requirement. The unknowns left free are the class's **unit type
//! variables**: its signature says the unit of each variable in terms of
//! them, and every use of the class instantiates them afresh. So a `Gain`
//! with `k(unit="1")` passes the unit of `u` to `y` in each instance, and a
//! fault is found in the class whose equation (or connect) first makes the
//! requirements contradictory.

use std::collections::HashMap;
use std::sync::Arc;

use super::parse::{parse, Unit};
use super::print::{product_form, Vocabulary};
use super::term::{Dim, Mismatch, Solver, Term, Q};
use crate::diagnostic::Diagnostic;
use crate::resolve::connect::Side;
use crate::resolve::expr::{BinOp, Equation, Expr, ExprKind, Reference, Referent, UnOp};
use crate::resolve::function::{FunctionModel, Statement};
use crate::resolve::model::ClassModel;
use crate::resolve::modifier::{Attribute, Modifier};
use crate::resolve::tree::Builtin;
use crate::resolve::ClassId;
use crate::source::Span;

/// The verdict on a class (or, for a class with components, on the system
/// it forms).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Every variable has a unit, and the requirements agree.
    ConsistentComplete,
    /// The requirements agree, but some units are left open: type
    /// variables of a polymorphic class, or units nothing determines.
    ConsistentIncomplete,
    /// Two requirements contradict each other (a diagnostic says where).
    Inconsistent,
}

/// The unit signature of one class.
#[derive(Debug, Clone)]
pub struct ClassUnits {
    pub class: ClassId,
    pub qualified: String,
    pub var_names: Vec<String>,
    /// Unit of each variable (`None` for Integer and Boolean variables) in
    /// terms of the type variables `0..params.len()`.
    pub vars: Vec<Option<Term>>,
    /// The unit string each variable declares (by modifier or type), if any.
    pub declared: Vec<Option<String>>,
    /// Whether the variable is a state (its derivative is a variable too).
    pub states: Vec<bool>,
    /// For a state, the unit string declared by the variable that an
    /// equation `der(x) = w` (or `w = der(x)`) equates with its derivative:
    /// the spelling to print `der(x)` in (`rad/s` from `w`, where the
    /// dimension alone could also be written `1/s`).
    pub der_spelling: Vec<Option<String>>,
    /// Names of the type variables: the variable each one stands for.
    pub params: Vec<String>,
    /// Per component: its name, class and the unit each of its type
    /// variables takes in this class (in this class's type variables).
    pub subs: Vec<SubUnits>,
    /// Unit strings declared in this class and its components, for printing.
    pub vocabulary: Arc<Vocabulary>,
    pub verdict: Verdict,
}

#[derive(Debug, Clone)]
pub struct SubUnits {
    pub name: String,
    pub class: ClassId,
    /// `None` when the component's class is inconsistent or could not be
    /// checked: its variables are then opaque to this class.
    pub params: Option<Vec<Term>>,
}

/// The unit signatures of the classes checked so far, each with the
/// diagnostics found at that class, and the order they were checked in.
/// The class database owns one (`crate::classdb`) and checks each class
/// once, after its components' classes: [`signature_of`] reads the
/// components' signatures from here and computes nothing else.
#[derive(Debug, Default)]
pub struct UnitSignatures {
    by_class: HashMap<ClassId, Checked>,
    order: Vec<ClassId>,
}

/// What checking one class found.
#[derive(Debug)]
struct Checked {
    units: Arc<ClassUnits>,
    diagnostics: Vec<Diagnostic>,
}

impl UnitSignatures {
    /// The signature of a class already checked.
    pub fn get(&self, id: ClassId) -> Option<&Arc<ClassUnits>> {
        self.by_class.get(&id).map(|c| &c.units)
    }

    /// The diagnostics found at a class (none when it was not checked).
    pub fn diagnostics(&self, id: ClassId) -> &[Diagnostic] {
        self.by_class
            .get(&id)
            .map_or(&[], |c| c.diagnostics.as_slice())
    }

    /// The classes checked so far, in the order they were checked.
    pub fn order(&self) -> &[ClassId] {
        &self.order
    }

    /// Keeps what checking a class found (its components' classes were
    /// kept before it); returns the signature.
    pub(crate) fn insert(
        &mut self,
        units: ClassUnits,
        diagnostics: Vec<Diagnostic>,
    ) -> Arc<ClassUnits> {
        let id = units.class;
        let units = Arc::new(units);
        let checked = Checked {
            units: units.clone(),
            diagnostics,
        };
        let earlier = self.by_class.insert(id, checked);
        assert!(earlier.is_none(), "the units of {id:?} were checked twice");
        self.order.push(id);
        units
    }
}

/// The unit of variable `var` of the class reached from `cu` through the
/// components `path` (indices into each class's components), in `cu`'s
/// type variables. `None` when a component on the way is opaque.
fn term_at(
    signatures: &UnitSignatures,
    cu: &ClassUnits,
    path: &[usize],
    var: usize,
) -> Option<Term> {
    let Some((first, rest)) = path.split_first() else {
        return cu.vars.get(var)?.clone();
    };
    let sub = cu.subs.get(*first)?;
    let params = sub.params.as_ref()?;
    let inner = signatures.get(sub.class)?;
    let t = term_at(signatures, inner, rest, var)?;
    Some(t.substitute(&|k| params[k].clone()))
}

/// A component as this class sees it while checking.
struct SubInstance {
    name: String,
    units: Option<Arc<ClassUnits>>,
    /// Fresh unknowns for the component's type variables.
    params: Option<Vec<Term>>,
    /// Fresh unknowns for variables of an opaque component, by path below
    /// it (components, then the variable).
    opaque: HashMap<(Vec<usize>, usize), Term>,
}

struct Cx<'r> {
    model: &'r ClassModel,
    signatures: &'r UnitSignatures,
    solver: Solver,
    /// What each unknown stands for, for naming type variables.
    origin: Vec<String>,
    own: Vec<Option<Term>>,
    subs: Vec<SubInstance>,
    vocabulary: Vocabulary,
    diags: Vec<Diagnostic>,
    /// The first contradiction: the one reported.
    inconsistent: bool,
    /// Where requirements come from right now (the equation being read).
    span: Span,
    /// Pairs (state, variable) of equations `der(state) = variable`.
    der_aliases: Vec<(usize, usize)>,
}

/// What a requirement is, for its diagnostic.
enum Why<'a> {
    EquationSides,
    Operands(&'a str),
    IfBranches,
    Arguments(&'a str),
    Dimensionless(&'a str),
    Value(&'a str),
    Connect(&'a str, &'a str),
}

/// Checks one class from its own declarations, equations and connects and
/// the signatures of its components' classes, read from `signatures`; a
/// component whose class has none there (it does not elaborate, or it
/// contains the class being checked) is opaque. Gives the class's signature
/// and the diagnostics found at the class.
pub fn signature_of(
    model: &ClassModel,
    signatures: &UnitSignatures,
) -> (ClassUnits, Vec<Diagnostic>) {
    let sub_units: Vec<Option<Arc<ClassUnits>>> = model
        .subs
        .iter()
        .map(|s| signatures.get(s.class).cloned())
        .collect();
    let mut cx = Cx {
        model,
        signatures,
        solver: Solver::default(),
        origin: Vec::new(),
        own: Vec::new(),
        subs: Vec::new(),
        vocabulary: Vocabulary::default(),
        diags: Vec::new(),
        der_aliases: Vec::new(),
        inconsistent: false,
        span: Span::default(),
    };
    let mut declared = Vec::new();
    // Declared units and unknowns for the others.
    for v in &model.vars {
        if v.ty != Builtin::Real {
            cx.own.push(None);
            declared.push(None);
            continue;
        }
        let unit = v.attrs.unit.as_deref().filter(|u| !u.trim().is_empty());
        let term = match unit.map(|u| (u, parse(u))) {
            Some((_, Ok(u))) => {
                let text = v.attrs.unit.as_deref().unwrap_or_default().trim();
                cx.vocabulary.add(text);
                declared.push(Some(text.to_string()));
                Some(Term::constant(Dim::from_unit(&u)))
            }
            Some((text, Err(e))) => {
                cx.diags.push(undeclarable_unit(v, text, &e.to_string()));
                cx.inconsistent = true;
                declared.push(None);
                None
            }
            None => {
                declared.push(None);
                None
            }
        };
        let term = term.unwrap_or_else(|| cx.fresh(v.name.clone()));
        cx.own.push(Some(term));
    }
    // A carried derivative (`der(flange.w)` of a RealWithDerivative) has
    // its variable's unit per second.
    for (vi, v) in model.vars.iter().enumerate() {
        let (Some(j), Some(t)) = (v.carried_of, cx.own[vi].clone()) else {
            continue;
        };
        if let Some(base) = cx.own.get(j).cloned().flatten() {
            let per_second = base.div(&Term::constant(Dim::seconds()));
            cx.require(&t, &per_second, Why::Value(&v.name));
        }
    }
    // Components: fresh type variables per use.
    for (sub, units) in model.subs.iter().zip(&sub_units) {
        let usable = units
            .as_ref()
            .filter(|u| u.verdict != Verdict::Inconsistent);
        let params = usable.map(|u| {
            u.params
                .iter()
                .map(|p| cx.fresh(format!("{}.{p}", sub.name)))
                .collect::<Vec<_>>()
        });
        if let Some(u) = units {
            for v in u.vocabulary.entries() {
                cx.vocabulary.add(v);
            }
        }
        cx.subs.push(SubInstance {
            name: sub.name.clone(),
            units: units.clone(),
            params,
            opaque: HashMap::new(),
        });
    }
    // Bindings and start values of the class's own variables.
    for (vi, v) in model.vars.iter().enumerate() {
        let Some(t) = cx.own[vi].clone() else {
            continue;
        };
        for value in [&v.binding, &v.attrs.start].into_iter().flatten() {
            cx.span = value.span;
            if let Some(u) = cx.expr(value) {
                cx.require(&t, &u, Why::Value(&v.name));
            }
        }
    }
    // Modifiers of components.
    for m in model.subs.iter().flat_map(|s| &s.modifiers) {
        cx.modifier(m);
    }
    for eq in &model.equations {
        cx.equation(eq);
    }
    for c in &model.connects {
        cx.span = c.span;
        cx.connect(&c.a, &c.b);
    }
    // Display units must have the dimension of their variable's unit.
    for (vi, v) in model.vars.iter().enumerate() {
        let (Some(d), Some(t)) = (&v.attrs.display_unit, &cx.own[vi]) else {
            continue;
        };
        let t = cx.solver.normalize(t);
        match parse(d) {
            Ok(u) if t.is_constant() && !Dim::from_unit(&u).same_dimension(&t.dim) => {
                cx.diags.push(
                    Diagnostic::error(
                        "UC007",
                        v.span,
                        format!(
                            "display unit \"{d}\" of `{}` does not have the dimension of its unit {}",
                            v.name,
                            cx.vocabulary.describe(&t.dim)
                        ),
                    )
                    .with_label("incompatible display unit")
                    .with_help("choose a display unit of the same dimension, e.g. degC for K"),
                );
            }
            Ok(_) => {}
            Err(e) => cx.diags.push(
                Diagnostic::error(
                    "UC001",
                    v.span,
                    format!(
                        "display unit \"{d}\" of `{}` is not a Modelica unit: {e}",
                        v.name
                    ),
                )
                .with_label("unknown unit")
                .with_help("write the display unit like a unit, e.g. \"degC\" or \"mm\""),
            ),
        }
    }
    cx.finish(declared)
}

/// Checks the body of function `f` (whose class model is `model`): every
/// local in its declared unit (an unknown when it declares none), every
/// assignment's value in its target's unit, every default in its
/// variable's, and calls of other functions in their inputs' units. A
/// contradiction is a diagnostic at the statement.
pub fn function_units(
    f: &FunctionModel,
    model: &ClassModel,
    signatures: &UnitSignatures,
) -> Vec<Diagnostic> {
    let mut cx = Cx {
        model,
        signatures,
        solver: Solver::default(),
        origin: Vec::new(),
        own: Vec::new(),
        subs: Vec::new(),
        vocabulary: Vocabulary::default(),
        diags: Vec::new(),
        der_aliases: Vec::new(),
        inconsistent: false,
        span: f.span,
    };
    for l in &f.locals {
        if l.ty != Builtin::Real {
            cx.own.push(None);
            continue;
        }
        let text = l.unit.as_deref().map(str::trim).filter(|u| !u.is_empty());
        let term = match text.map(|u| (u, parse(u))) {
            Some((u, Ok(unit))) => {
                cx.vocabulary.add(u);
                Term::constant(Dim::from_unit(&unit))
            }
            // A unit that does not parse is reported where it is declared
            // (UC001 of the class check); here it is open.
            _ => cx.fresh(l.name.clone()),
        };
        cx.own.push(Some(term));
    }
    for (i, l) in f.locals.iter().enumerate() {
        if let (Some(d), Some(t)) = (&l.default, cx.own[i].clone()) {
            cx.span = d.span;
            if let Some(u) = cx.expr(d) {
                cx.require(&t, &u, Why::Value(&l.name));
            }
        }
    }
    cx.statements(f, &f.body);
    cx.diags
}

impl Cx<'_> {
    /// The units of a function's statements (`function_units`).
    fn statements(&mut self, f: &FunctionModel, body: &[Statement]) {
        for s in body {
            match s {
                Statement::Assign {
                    target,
                    value,
                    span,
                } => {
                    self.span = *span;
                    let u = self.expr(value);
                    if let (Some(t), Some(u)) = (self.own[*target].clone(), u) {
                        self.require(&t, &u, Why::Value(&f.locals[*target].name));
                    }
                }
                Statement::If { branches, else_ } => {
                    for (c, b) in branches {
                        self.span = c.span;
                        self.expr(c);
                        self.statements(f, b);
                    }
                    self.statements(f, else_);
                }
                Statement::For { start, stop, body } => {
                    self.span = start.span;
                    self.expr(start);
                    self.expr(stop);
                    self.statements(f, body);
                }
                Statement::While { condition, body } => {
                    self.span = condition.span;
                    self.expr(condition);
                    self.statements(f, body);
                }
                Statement::Return | Statement::Break => {}
            }
        }
    }
}

impl Cx<'_> {
    fn fresh(&mut self, origin: String) -> Term {
        let k = self.solver.fresh();
        self.origin.push(origin);
        Term::unknown(k)
    }

    fn finish(self, declared: Vec<Option<String>>) -> (ClassUnits, Vec<Diagnostic>) {
        let own: Vec<Option<Term>> = self
            .own
            .iter()
            .map(|t| t.as_ref().map(|t| self.solver.normalize(t)))
            .collect();
        let subs: Vec<(String, ClassId, Option<Vec<Term>>)> = self
            .subs
            .iter()
            .zip(&self.model.subs)
            .map(|(s, decl)| {
                (
                    s.name.clone(),
                    decl.class,
                    s.params
                        .as_ref()
                        .map(|ps| ps.iter().map(|t| self.solver.normalize(t)).collect()),
                )
            })
            .collect();
        // The unknowns still free become the type variables, numbered in
        // order of creation.
        let mut free: Vec<usize> = Vec::new();
        let mut note = |t: &Term| {
            for (k, _) in &t.vars {
                if !free.contains(k) {
                    free.push(*k);
                }
            }
        };
        own.iter().flatten().for_each(&mut note);
        subs.iter()
            .filter_map(|s| s.2.as_ref())
            .flatten()
            .for_each(&mut note);
        free.sort_unstable();
        let renumber = |t: &Term| {
            t.substitute(&|k| {
                Term::unknown(free.iter().position(|f| *f == k).expect("free unknown"))
            })
        };
        let vars: Vec<Option<Term>> = own.iter().map(|t| t.as_ref().map(renumber)).collect();
        let subs = subs
            .into_iter()
            .map(|(name, class, params)| SubUnits {
                name,
                class,
                params: params.map(|ps| ps.iter().map(renumber).collect()),
            })
            .collect();
        let verdict = if self.inconsistent || !self.diags.is_empty() {
            Verdict::Inconsistent
        } else if free.is_empty()
            && self
                .subs
                .iter()
                .all(|s| s.params.is_some() && s.opaque.is_empty())
        {
            Verdict::ConsistentComplete
        } else {
            Verdict::ConsistentIncomplete
        };
        let mut der_spelling = vec![None; self.model.vars.len()];
        for (x, w) in &self.der_aliases {
            if der_spelling[*x].is_none() {
                der_spelling[*x] = declared.get(*w).cloned().flatten();
            }
        }
        let units = ClassUnits {
            class: self.model.id,
            qualified: self.model.qualified.clone(),
            var_names: self.model.vars.iter().map(|v| v.name.clone()).collect(),
            vars,
            declared,
            states: self.model.vars.iter().map(|v| v.special.state).collect(),
            der_spelling,
            params: free.iter().map(|k| self.origin[*k].clone()).collect(),
            subs,
            vocabulary: Arc::new(self.vocabulary),
            verdict,
        };
        (units, self.diags)
    }

    /// Text of a term for messages: a unit in derived form, or a unit made
    /// of type variables (`'u` is "the unit of u").
    fn text(&self, t: &Term) -> String {
        let t = self.solver.normalize(t);
        if t.is_constant() {
            return self.vocabulary.describe(&t.dim);
        }
        let mut parts: Vec<String> = t
            .vars
            .iter()
            .map(|(k, q)| {
                let e = if *q == Q::from_integer(1) {
                    String::new()
                } else if q.is_integer() {
                    q.to_integer().to_string()
                } else {
                    format!("^({}/{})", q.numer(), q.denom())
                };
                format!("'{}{e}", self.origin[*k])
            })
            .collect();
        if !t.dim.is_one() {
            parts.push(product_form(&t.dim));
        }
        parts.join(".")
    }

    fn require(&mut self, a: &Term, b: &Term, why: Why) {
        let Err(Mismatch { left, right }) = self.solver.unify(a, b) else {
            return;
        };
        if self.inconsistent {
            return;
        }
        self.inconsistent = true;
        let (l, r) = (self.text(&left), self.text(&right));
        let (code, message, label) = match why {
            Why::EquationSides => (
                "UC002",
                format!("the two sides of this equation have different units: {l} and {r}"),
                format!("left side in {l}, right side in {r}"),
            ),
            Why::Operands(op) => (
                "UC002",
                format!("`{op}` combines values of different units: {l} and {r}"),
                format!("{l} {op} {r}"),
            ),
            Why::IfBranches => (
                "UC002",
                format!("the branches of `if` have different units: {l} and {r}"),
                "branches must have one unit".to_string(),
            ),
            Why::Arguments(f) => (
                "UC002",
                format!("the arguments of `{f}` have different units: {l} and {r}"),
                "arguments must have one unit".to_string(),
            ),
            Why::Dimensionless(f) => (
                "UC005",
                format!("`{f}` needs a dimensionless argument, but it is in {l}"),
                format!("argument in {l}"),
            ),
            Why::Value(name) => (
                "UC004",
                format!("the value given to `{name}` is in {r}, but `{name}` is in {l}"),
                format!("expected {l}"),
            ),
            Why::Connect(a, b) => (
                "UC003",
                format!("connected variables have different units: `{a}` is in {l}, `{b}` in {r}"),
                format!("{l} meets {r}"),
            ),
        };
        let help = if code == "UC005" {
            "divide the argument by a quantity of the same unit, e.g. sin(omega*t) with omega in 1/s"
        } else {
            "make both units the same: fix the declared unit of one variable or the equation"
        };
        self.diags.push(
            Diagnostic::error(code, self.span, message)
                .with_label(label)
                .with_help(help),
        );
    }

    /// A literal factor or divisor may carry a unit (`(Q - G*(T - T0))/1000`
    /// with 1000 a heat capacity in J/K): when both sides of an equation
    /// have fully known units that differ and a side has a literal factor
    /// or divisor, the literal is read as carrying their quotient. Units
    /// with unknowns are still unified as written (a literal is `1`), so
    /// inference does not lose what it can infer.
    fn literal_carries_unit(&self, l: &Term, r: &Term, lhs: &Expr, rhs: &Expr) -> bool {
        let (l, r) = (self.solver.normalize(l), self.solver.normalize(r));
        l.is_constant() && r.is_constant() && l != r && (literal_factor(lhs) || literal_factor(rhs))
    }

    fn same(&mut self, a: Option<Term>, b: Option<Term>, why: Why) -> Option<Term> {
        match (a, b) {
            (Some(a), Some(b)) => {
                self.require(&a, &b, why);
                Some(a)
            }
            (a, b) => a.or(b),
        }
    }

    fn dimensionless(&mut self, a: Option<Term>, f: &str) {
        if let Some(a) = a {
            self.require(&a, &Term::one(), Why::Dimensionless(f));
        }
    }

    fn equation(&mut self, eq: &Equation) {
        match eq {
            Equation::Simple { lhs, rhs, span } => {
                self.span = *span;
                if let Some(pair) = der_alias(lhs, rhs).or_else(|| der_alias(rhs, lhs)) {
                    self.der_aliases.push(pair);
                }
                let l = self.expr(lhs);
                let r = self.expr(rhs);
                if let (Some(l), Some(r)) = (l, r) {
                    if !self.literal_carries_unit(&l, &r, lhs, rhs) {
                        self.require(&l, &r, Why::EquationSides);
                    }
                }
            }
            Equation::For { body, .. } => {
                for e in body {
                    self.equation(e);
                }
            }
            // Each branch's equations hold on their own; the conditions
            // are relations, checked like those of an if-expression.
            Equation::If {
                branches,
                else_,
                span,
            } => {
                for (c, body) in branches {
                    self.span = *span;
                    self.expr(c);
                    body.iter().for_each(|e| self.equation(e));
                }
                else_.iter().for_each(|e| self.equation(e));
            }
            // A `when`'s conditions are relations like an if-equation's;
            // its equations hold at the event instant like any other.
            Equation::When { branches, span } => {
                for (c, body) in branches {
                    self.span = *span;
                    self.expr(c);
                    body.iter().for_each(|e| self.equation(e));
                }
            }
            // The state takes the new value: both have one unit.
            Equation::Reinit { state, value, span } => {
                self.span = *span;
                let x = self.expr(state);
                let v = self.expr(value);
                if let (Some(x), Some(v)) = (x, v) {
                    if !self.literal_carries_unit(&x, &v, state, value) {
                        self.require(&x, &v, Why::EquationSides);
                    }
                }
            }
            Equation::ConnectInLoop { .. }
            | Equation::Assert { .. }
            | Equation::Terminate { .. }
            | Equation::Rejected { .. } => {}
        }
    }

    /// The unit of an expression; `None` for a value that adapts to any
    /// unit (a literal in a sum, an Integer, a Boolean).
    /// `f` with diagnostics placed at `span` (an expression written in
    /// the text; a synthesised one, of no extent, keeps the outer place).
    fn at<T>(&mut self, span: Span, f: impl FnOnce(&mut Self) -> T) -> T {
        let inside = span.start < span.end && span.file == self.span.file;
        let outer = self.span;
        if inside {
            self.span = span;
        }
        let out = f(self);
        self.span = outer;
        out
    }

    fn expr(&mut self, e: &Expr) -> Option<Term> {
        match &e.kind {
            ExprKind::Integer(_) | ExprKind::Real(_) | ExprKind::Bool(_) | ExprKind::String(_) => {
                None
            }
            ExprKind::Ref(r) => self.reference(r),
            ExprKind::Unary(UnOp::Not, a) => {
                self.expr(a);
                None
            }
            ExprKind::Unary(_, a) => self.expr(a),
            // A conflict between operands, branches or arguments is
            // reported at the expression that combines them, not at the
            // whole equation.
            ExprKind::Binary(op, a, b) => self.at(e.span, |cx| cx.binary(*op, a, b)),
            ExprKind::If { branches, else_ } => self.at(e.span, |cx| {
                let mut out = None;
                for (c, v) in branches {
                    cx.expr(c);
                    let t = cx.expr(v);
                    out = cx.same(out, t, Why::IfBranches);
                }
                let t = cx.expr(else_);
                cx.same(out, t, Why::IfBranches)
            }),
            ExprKind::Call { func, args, .. } => self.at(e.span, |cx| cx.call(func, args)),
            ExprKind::FunctionCall { func, args, output } => {
                self.function_call(func, args, *output)
            }
            // Every element of an array has the array's one unit.
            ExprKind::Array(items) => {
                let mut out = None;
                for it in items {
                    let t = self.expr(it);
                    out = self.same(out, t, Why::Operands("{...}"));
                }
                out
            }
            ExprKind::Matrix(rows) => {
                let mut out = None;
                for it in rows.iter().flatten() {
                    let t = self.expr(it);
                    out = self.same(out, t, Why::Operands("[...]"));
                }
                out
            }
            ExprKind::Range { .. } | ExprKind::End => None,
        }
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Option<Term> {
        let minus_one = -Q::from_integer(1);
        match op {
            BinOp::Pow | BinOp::ElemPow => {
                let base = self.expr(a);
                if let Some(q) = literal_exponent(b) {
                    return base.map(|t| t.pow(q));
                }
                let exponent = self.expr(b);
                self.dimensionless(exponent, "^ (exponent)");
                self.dimensionless(base.clone(), "^ with a non-literal exponent (base)");
                base.map(|_| Term::one())
            }
            _ => {
                let x = self.expr(a);
                let y = self.expr(b);
                match op {
                    BinOp::Add | BinOp::ElemAdd => self.same(x, y, Why::Operands("+")),
                    BinOp::Sub | BinOp::ElemSub => self.same(x, y, Why::Operands("-")),
                    BinOp::Mul | BinOp::ElemMul => match (x, y) {
                        (Some(x), Some(y)) => Some(x.mul(&y)),
                        (x, y) => x.or(y),
                    },
                    BinOp::Div | BinOp::ElemDiv => match (x, y) {
                        (Some(x), Some(y)) => Some(x.div(&y)),
                        (x, None) => x,
                        (None, Some(y)) => Some(y.pow(minus_one)),
                    },
                    BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
                        self.same(x, y, Why::Operands("comparison"));
                        None
                    }
                    _ => None,
                }
            }
        }
    }

    fn call(&mut self, f: &str, args: &[Expr]) -> Option<Term> {
        let mut units: Vec<Option<Term>> = args.iter().map(|a| self.expr(a)).collect();
        let first = if units.is_empty() {
            None
        } else {
            units.remove(0)
        };
        let second = units.into_iter().next().flatten();
        match f {
            "der" => first.map(|t| t.div(&Term::constant(Dim::seconds()))),
            // The unit of the array's elements (or of the value).
            "noEvent" | "abs" | "sum" | "transpose" | "skew" => first,
            // A clocked partition's values keep their units across the
            // clock: `sample(u, c)`, `hold(y)` and `previous(y)` have the
            // unit of their value (DESIGN §2.2b).
            "sample" | "hold" | "previous" => first,
            // The left limit has the unit of its variable; `edge`, `change`
            // and `initial()` are Booleans.
            "pre" => first,
            "edge" | "change" | "initial" => None,
            // `subSample(u, f)` and `superSample(u, f)` of a clocked value
            // have its unit (of a clock, none).
            "subSample" | "superSample" => first,
            // A clock's interval is in seconds; `Clock(counter, resolution)`
            // counts ticks of 1/resolution seconds.
            "Clock" => {
                if args.len() == 1 {
                    self.same(
                        first,
                        Some(Term::constant(Dim::seconds())),
                        Why::Arguments(f),
                    );
                }
                None
            }
            "interval" => Some(Term::constant(Dim::seconds())),
            "firstTick" => None,
            "min" | "max" if args.len() == 1 => first,
            // A product of n elements has the n-th power of their unit, and
            // n is not known here unless the elements are dimensionless.
            "product" => {
                self.dimensionless(first, f);
                Some(Term::one())
            }
            "cross" => match (first, second) {
                (Some(a), Some(b)) => Some(a.mul(&b)),
                (a, b) => a.or(b),
            },
            // smooth(order, expr) has the unit of expr, fill(value, sizes...)
            // that of value.
            "smooth" => second,
            "fill" => first,
            "semiLinear" => {
                // semiLinear(x, k_pos, k_neg) = x*k_pos or x*k_neg: both
                // slopes have one unit.
                let k_neg = args.get(2).and_then(|a| self.expr(a));
                let k = self.same(second, k_neg, Why::Arguments(f));
                match (first, k) {
                    (Some(a), Some(b)) => Some(a.mul(&b)),
                    (a, b) => a.or(b),
                }
            }
            // Sizes, counts and the identity: plain numbers.
            "size" | "ndims" | "identity" | "zeros" | "ones" => None,
            "sqrt" => first.map(|t| t.pow(Q::new(1, 2))),
            "sign" => Some(Term::one()),
            "min" | "max" => self.same(first, second, Why::Arguments(f)),
            "atan2" => {
                self.same(first, second, Why::Arguments(f));
                Some(Term::one())
            }
            "sin" | "cos" | "tan" | "asin" | "acos" | "atan" | "sinh" | "cosh" | "tanh" | "exp"
            | "log" | "log10" => {
                // `exp(-time)`, `sin(2*time)`: time scaled by literals
                // only, whose coefficient is read as carrying 1/s.
                if !args.first().is_some_and(scaled_time) {
                    self.dimensionless(first, f);
                }
                Some(Term::one())
            }
            _ => None,
        }
    }

    /// A user function's call: each argument in its input's declared unit
    /// (a record input's fields in theirs), the result in the unit of the
    /// output it reads.
    fn function_call(&mut self, f: &FunctionModel, args: &[Expr], output: usize) -> Option<Term> {
        for (l, a) in f.inputs().zip(args) {
            let t = self.expr(a);
            if let (Some(t), Some(u)) = (t, declared(&f.locals[l].unit)) {
                let name = format!("{}.{}", f.qualified, f.locals[l].name);
                self.require(&u, &t, Why::Value(&name));
            }
        }
        declared(&f.locals[f.output(output)].unit)
    }

    fn reference(&mut self, r: &Reference) -> Option<Term> {
        match &r.target {
            Referent::Time => Some(Term::constant(Dim::seconds())),
            Referent::LoopVar(_) | Referent::Unknown(_) => None,
            Referent::Var(v) => self.own[*v].clone(),
            Referent::Member(m) => self.sub_var(&m.path, m.var, || m.dotted()),
            // A package constant has the unit of its declared type; one
            // without adapts like a literal.
            Referent::Constant(c) => c
                .unit
                .as_deref()
                .and_then(|u| parse(u).ok())
                .map(|u| constant(&u)),
        }
    }

    /// The unit of a component's variable (`path` = the components, then
    /// variable `var` of the last one's class), instantiated for this use;
    /// `name` names an opaque component's variable for its type variable.
    fn sub_var(
        &mut self,
        path: &[usize],
        var: usize,
        name: impl FnOnce() -> String,
    ) -> Option<Term> {
        let k = path[0];
        let sub = &self.subs[k];
        if let (Some(units), Some(params)) = (&sub.units, &sub.params) {
            let t = term_at(self.signatures, units, &path[1..], var)?;
            return Some(t.substitute(&|j| params[j].clone()));
        }
        let key = (path[1..].to_vec(), var);
        if let Some(t) = self.subs[k].opaque.get(&key) {
            return Some(t.clone());
        }
        let t = self.fresh(name());
        self.subs[k].opaque.insert(key, t.clone());
        Some(t)
    }

    /// A value, start value or unit a class gives a variable of one of its
    /// components: `sub(x = e, y(start = e, unit = "m"), port(T(start = e)))`.
    fn modifier(&mut self, m: &Modifier) {
        self.span = m.span;
        let target = &m.target;
        let shown = target.dotted();
        match m.attribute {
            Attribute::Unit => {
                let ExprKind::String(s) = &m.value.kind else {
                    return;
                };
                match parse(s) {
                    Ok(u) => {
                        self.vocabulary.add(s);
                        if let Some(t) = self.sub_var(&target.path, target.var, || target.dotted())
                        {
                            self.require(&t, &constant(&u), Why::Value(&shown));
                        }
                    }
                    Err(e) => {
                        self.diags.push(
                            Diagnostic::error(
                                "UC001",
                                m.value.span,
                                format!("unit \"{s}\" is not a Modelica unit: {e}"),
                            )
                            .with_label("unknown unit")
                            .with_help("write SI units with prefixes, `.` for products, `/` for one division and integer exponents"),
                        );
                        self.inconsistent = true;
                    }
                }
            }
            Attribute::Start | Attribute::Value => {
                let v = self.expr(&m.value);
                let t = self.sub_var(&target.path, target.var, || target.dotted());
                if let (Some(t), Some(v)) = (t, v) {
                    self.require(&t, &v, Why::Value(&shown));
                }
            }
        }
    }

    /// Variables of one side of a connect: (name inside the connector,
    /// unit, flat name for messages).
    fn connect_side(&mut self, side: &Side) -> Vec<(String, Option<Term>, String)> {
        let Some(k) = side.sub else {
            return side
                .members
                .iter()
                .map(|m| (m.key.clone(), self.own[m.var].clone(), m.name.clone()))
                .collect();
        };
        let Some(units) = self.subs[k].units.clone() else {
            return Vec::new();
        };
        let s = self.subs[k].name.clone();
        let mut out = Vec::new();
        for m in side.members.iter() {
            if units.vars[m.var].is_none() {
                continue;
            }
            let name = format!("{s}.{}", m.name);
            let t = self.sub_var(&[k], m.var, || name.clone());
            out.push((m.key.clone(), t, name));
        }
        out
    }

    fn connect(&mut self, a: &Side, b: &Side) {
        let sa = self.connect_side(a);
        let sb = self.connect_side(b);
        for (key, ta, na) in &sa {
            let Some((_, tb, nb)) = sb.iter().find(|x| &x.0 == key) else {
                continue;
            };
            if let (Some(ta), Some(tb)) = (ta, tb) {
                self.require(ta, tb, Why::Connect(na, nb));
            }
        }
    }
}

/// A declared unit as a term (`None` when none is declared, or it does not
/// parse: the function's own check reports that).
/// `(x, w)` when `a` is `der(x)` and `b` is `w`, both variables of the
/// class itself.
fn der_alias(a: &Expr, b: &Expr) -> Option<(usize, usize)> {
    let var = |e: &Expr| match &e.kind {
        ExprKind::Ref(Reference {
            target: Referent::Var(v),
            ..
        }) => Some(*v),
        _ => None,
    };
    match &a.kind {
        ExprKind::Call { func, args, .. } if func == "der" && args.len() == 1 => {
            Some((var(&args[0])?, var(b)?))
        }
        _ => None,
    }
}

fn declared(unit: &Option<String>) -> Option<Term> {
    let u = unit.as_deref().filter(|u| !u.trim().is_empty())?;
    parse(u).ok().map(|u| constant(&u))
}

fn constant(u: &Unit) -> Term {
    Term::constant(Dim::from_unit(u))
}

/// A numeric literal exponent (`2`, `-1`, `0.5`) as a rational.
fn literal_exponent(e: &Expr) -> Option<Q> {
    match &e.kind {
        ExprKind::Integer(i) => Some(Q::from_integer(*i)),
        ExprKind::Real(r) => {
            // Small denominators only: exponents are 1/2, 1/3, 3/2, ...
            (1..=12i64).find_map(|d| {
                let n = r * d as f64;
                (n.round() - n)
                    .abs()
                    .lt(&1e-12)
                    .then(|| Q::new(n.round() as i64, d))
            })
        }
        ExprKind::Unary(UnOp::Neg, a) => literal_exponent(a).map(|q| -q),
        ExprKind::Unary(UnOp::Plus, a) => literal_exponent(a),
        _ => None,
    }
}

/// Whether `e` multiplies or divides by a number literal at its top level
/// (through negations, sums and parentheses).
fn literal_factor(e: &Expr) -> bool {
    let literal = |x: &Expr| matches!(x.kind, ExprKind::Integer(_) | ExprKind::Real(_));
    match &e.kind {
        ExprKind::Binary(BinOp::Mul | BinOp::ElemMul, a, b) => {
            literal(a) || literal(b) || literal_factor(a) || literal_factor(b)
        }
        ExprKind::Binary(BinOp::Div | BinOp::ElemDiv, a, b) => literal(b) || literal_factor(a),
        ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => literal_factor(a) || literal_factor(b),
        ExprKind::Unary(_, a) => literal_factor(a),
        _ => false,
    }
}

/// Whether `e` is `time` scaled by number literals only: `time`, `-time`,
/// `2*time`, `time/10`.
fn scaled_time(e: &Expr) -> bool {
    let literal = |x: &Expr| matches!(x.kind, ExprKind::Integer(_) | ExprKind::Real(_));
    match &e.kind {
        ExprKind::Ref(r) => matches!(r.target, Referent::Time),
        ExprKind::Unary(_, a) => scaled_time(a),
        ExprKind::Binary(BinOp::Mul | BinOp::ElemMul, a, b) => {
            (literal(a) && scaled_time(b)) || (scaled_time(a) && literal(b))
        }
        ExprKind::Binary(BinOp::Div | BinOp::ElemDiv, a, b) => scaled_time(a) && literal(b),
        _ => false,
    }
}

/// UC001 at a declaration whose unit is not a Modelica unit.
fn undeclarable_unit(v: &crate::resolve::model::Var, text: &str, why: &str) -> Diagnostic {
    Diagnostic::error(
        "UC001",
        v.span,
        format!("unit \"{text}\" of `{}` is not a Modelica unit: {why}", v.name),
    )
    .with_label("unknown unit")
    .with_help("write SI units with prefixes, `.` for products, `/` for one division and integer exponents, e.g. \"kg.m/s2\"")
}

/// UC001 of every declared unit of `model` that is not a Modelica unit:
/// errors of the declarations alone, reported for a class whose equations
/// do not causalise (so its units are not inferred) in the same run as
/// the causalisation's faults.
pub fn declared_unit_errors(model: &ClassModel) -> Vec<Diagnostic> {
    model
        .vars
        .iter()
        .filter(|v| v.ty == Builtin::Real)
        .filter_map(|v| {
            let text = v
                .attrs
                .unit
                .as_deref()
                .map(str::trim)
                .filter(|u| !u.is_empty())?;
            parse(text)
                .err()
                .map(|e| undeclarable_unit(v, text, &e.to_string()))
        })
        .collect()
}
