//! Expressions and equations of a class with every name resolved: a
//! reference is to a variable of the class (by index), to a variable of one
//! of its components (`MemberRef`), to a `for` loop's index or to `time`.
//! The phases after resolve read these; none of them looks a name up.
//!
//! Everything else stays as written (operators, calls by name, array
//! constructors, subscripts), because what is allowed where is the
//! causaliser's and the unit checker's business. A name that resolves to
//! nothing keeps the diagnostic that says so, and the causaliser reports it
//! where it evaluates the expression, in the order it reads the class.

use std::sync::Arc;

use super::prefixes::{ClassCausality, ClassVariability};
use super::tree::{Builtin, ClassId};
use crate::diagnostic::Diagnostic;
pub use crate::operator::{BinOp, UnOp};
use crate::source::Span;

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Integer(i64),
    Real(f64),
    Bool(bool),
    String(String),
    Ref(Reference),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    /// `f(a, b)`: `der`, `sin`, `noEvent`, … by name.
    Call {
        func: String,
        func_span: Span,
        args: Vec<Expr>,
        /// Whether arguments were also passed by name (`f(a, x = 1)`).
        named: bool,
    },
    /// A call of a user function: its arguments matched to its inputs, in
    /// the order of `FunctionModel::inputs` (a record argument is its
    /// fields).
    FunctionCall {
        func: Arc<FunctionModel>,
        args: Vec<Expr>,
        /// Which flat output the call reads (`FunctionModel::outputs`):
        /// 0 for a scalar result, a field's position for a record result.
        output: usize,
    },
    /// `if c1 then e1 elseif c2 then e2 else e3`
    If {
        branches: Vec<(Expr, Expr)>,
        else_: Box<Expr>,
    },
    /// `{a, b, c}`
    Array(Vec<Expr>),
    /// `[a, b; c, d]`
    Matrix(Vec<Vec<Expr>>),
    /// `start:stop` or `start:step:stop`
    Range {
        start: Box<Expr>,
        step: Option<Box<Expr>>,
        stop: Box<Expr>,
    },
    /// `end` inside a subscript.
    End,
}

/// A reference, `a.b[i].c`, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    pub target: Referent,
    /// The subscripts of the last part.
    pub subscripts: Vec<Subscript>,
    /// Where a part before the last has subscripts (`a[1].b`): arrays of
    /// components are not supported, so such a reference cannot be used.
    pub inner_subscript: Option<Span>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Referent {
    Time,
    /// The index of a `for` loop, by nesting depth (0 the outermost).
    LoopVar(usize),
    /// A variable of the class: index into `ClassModel::vars`.
    Var(usize),
    /// A variable of a component (or of a component nested in one).
    Member(MemberRef),
    /// Nothing of that name: why (MC022, or the first diagnostic of a
    /// component's class that cannot be elaborated).
    Unknown(Box<Diagnostic>),
    /// A constant declared in a package (or an enclosing class), folded to
    /// its value when the class was resolved: the class knows it, so it
    /// needs no variable of its own.
    Constant(std::sync::Arc<Constant>),
}

/// A package constant with its value, as a class that refers to it sees
/// it (`Medium.cp`, `Media.Water.rho`, `SI`-style aliases followed).
#[derive(Debug, Clone, PartialEq)]
pub struct Constant {
    /// Where it is declared, by the qualified name of the package that
    /// holds it: `Acc2.Media.Water.cp`.
    pub qualified: String,
    pub ty: super::tree::Builtin,
    /// The unit of its declared type (`SI.Density` gives `kg/m3`).
    pub unit: Option<String>,
    /// Empty for a scalar.
    pub shape: Vec<usize>,
    /// The elements in row-major order (Integer and Boolean values as
    /// numbers, `true` as 1).
    pub elements: Vec<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Subscript {
    /// `:`
    Colon(Span),
    Expr(Expr),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Equation {
    Simple {
        lhs: Expr,
        rhs: Expr,
        span: Span,
    },
    For {
        range: Expr,
        body: Vec<Equation>,
        span: Span,
    },
    /// `if c1 then ... elseif c2 then ... else ... end if;`: every branch
    /// determines the same unknowns in the same order (the causaliser
    /// checks it and joins the k-th equations into one if-expression).
    If {
        branches: Vec<(Expr, Vec<Equation>)>,
        else_: Vec<Equation>,
        span: Span,
    },
    /// `when c1 then ... elsewhen c2 then ... end when;` (DESIGN §2.2c):
    /// each branch's condition (a Boolean expression, or a vector of them)
    /// and its equations, which are `v = expression` ([`Equation::Simple`]),
    /// [`Equation::Reinit`], [`Equation::Terminate`] and `assert` only (the
    /// check phase refuses anything else, MC161).
    When {
        branches: Vec<(Expr, Vec<Equation>)>,
        span: Span,
    },
    /// `reinit(state, value)` in a `when`.
    Reinit {
        state: Expr,
        value: Expr,
        span: Span,
    },
    /// `terminate("why")` in a `when`: the simulation ends when the branch
    /// fires.
    Terminate {
        message: String,
        span: Span,
    },
    /// `connect` inside a `for` loop (not supported: MC043); the ones
    /// outside loops are the class's connects.
    ConnectInLoop {
        span: Span,
    },
    /// `assert(...)`: checks nothing the methodology needs.
    Assert {
        span: Span,
    },
    /// An equation the check phase rejects (`when`, a call other
    /// than `assert`), kept only so that nothing is guessed about what it
    /// would have determined.
    Rejected {
        span: Span,
    },
}

impl Expr {
    /// The value of an Integer literal.
    pub fn integer(&self) -> Option<i64> {
        match self.kind {
            ExprKind::Integer(i) => Some(i),
            _ => None,
        }
    }

    /// Moves the expression into a class that declares `vars` variables
    /// and `subs` components before the ones it takes it with (a base
    /// class's, or a connector's members).
    pub fn shift(&mut self, vars: usize, subs: usize) {
        self.walk_mut(&mut |e| {
            if let ExprKind::Ref(r) = &mut e.kind {
                match &mut r.target {
                    Referent::Var(v) => *v += vars,
                    Referent::Member(m) => m.path[0] += subs,
                    Referent::Time
                    | Referent::LoopVar(_)
                    | Referent::Unknown(_)
                    | Referent::Constant(_) => {}
                }
            }
        });
    }

    /// Moves the expression of a connector's variable into the class that
    /// declares the connector, whose variables start at `vars`. The
    /// connector's components (it should have none) are not the class's:
    /// a reference to one names nothing there.
    pub fn shift_into_connector(&mut self, vars: usize) {
        self.walk_mut(&mut |e| {
            let span = e.span;
            if let ExprKind::Ref(r) = &mut e.kind {
                match &r.target {
                    Referent::Var(v) => r.target = Referent::Var(v + vars),
                    Referent::Member(m) => {
                        r.target = Referent::Unknown(Box::new(
                            Diagnostic::error(
                                "MC022",
                                span,
                                format!("unknown variable `{}`", m.dotted()),
                            )
                            .with_label("not declared in this class")
                            .with_help(
                                "declare the variable in this class before the equation section",
                            ),
                        ))
                    }
                    Referent::Time
                    | Referent::LoopVar(_)
                    | Referent::Unknown(_)
                    | Referent::Constant(_) => {}
                }
            }
        });
    }

    /// Calls `f` on this expression and every expression inside it.
    pub fn walk_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        f(self);
        match &mut self.kind {
            ExprKind::Integer(_)
            | ExprKind::Real(_)
            | ExprKind::Bool(_)
            | ExprKind::String(_)
            | ExprKind::End => {}
            ExprKind::Ref(r) => {
                for s in &mut r.subscripts {
                    if let Subscript::Expr(e) = s {
                        e.walk_mut(f);
                    }
                }
            }
            ExprKind::Binary(_, a, b) => {
                a.walk_mut(f);
                b.walk_mut(f);
            }
            ExprKind::Unary(_, a) => a.walk_mut(f),
            ExprKind::Call { args, .. } | ExprKind::FunctionCall { args, .. } => {
                args.iter_mut().for_each(|a| a.walk_mut(f))
            }
            ExprKind::If { branches, else_ } => {
                for (c, v) in branches {
                    c.walk_mut(f);
                    v.walk_mut(f);
                }
                else_.walk_mut(f);
            }
            ExprKind::Array(items) => items.iter_mut().for_each(|a| a.walk_mut(f)),
            ExprKind::Matrix(rows) => rows.iter_mut().flatten().for_each(|a| a.walk_mut(f)),
            ExprKind::Range { start, step, stop } => {
                start.walk_mut(f);
                if let Some(s) = step {
                    s.walk_mut(f);
                }
                stop.walk_mut(f);
            }
        }
    }
}

impl Equation {
    pub fn span(&self) -> Span {
        match self {
            Equation::Simple { span, .. }
            | Equation::For { span, .. }
            | Equation::If { span, .. }
            | Equation::When { span, .. }
            | Equation::Reinit { span, .. }
            | Equation::Terminate { span, .. }
            | Equation::ConnectInLoop { span }
            | Equation::Assert { span }
            | Equation::Rejected { span } => *span,
        }
    }

    /// [`Expr::shift`] for every expression of the equation.
    pub fn shift(&mut self, vars: usize, subs: usize) {
        match self {
            Equation::Simple { lhs, rhs, .. } => {
                lhs.shift(vars, subs);
                rhs.shift(vars, subs);
            }
            Equation::For { range, body, .. } => {
                range.shift(vars, subs);
                for eq in body {
                    eq.shift(vars, subs);
                }
            }
            Equation::If {
                branches, else_, ..
            } => {
                for (c, body) in branches {
                    c.shift(vars, subs);
                    body.iter_mut().for_each(|eq| eq.shift(vars, subs));
                }
                else_.iter_mut().for_each(|eq| eq.shift(vars, subs));
            }
            Equation::When { branches, .. } => {
                for (c, body) in branches {
                    c.shift(vars, subs);
                    body.iter_mut().for_each(|eq| eq.shift(vars, subs));
                }
            }
            Equation::Reinit { state, value, .. } => {
                state.shift(vars, subs);
                value.shift(vars, subs);
            }
            Equation::ConnectInLoop { .. }
            | Equation::Assert { .. }
            | Equation::Terminate { .. }
            | Equation::Rejected { .. } => {}
        }
    }
}

/// A variable of a (nested) sub-component, as the class that names it sees
/// it, with what the class may know about it.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberRef {
    /// Components: the first an index into this class's `subs`, each next
    /// one into the `subs` of the previous one's class.
    pub path: Vec<usize>,
    /// Index into the variables of the last component's class.
    pub var: usize,
    /// The components' names, `pi.integrator`, and the variable's name in
    /// the last one, `x`: for messages and slot names.
    pub component: String,
    pub name: String,
    pub ty: Builtin,
    pub variability: ClassVariability,
    pub causality: ClassCausality,
    /// The size of each dimension that is an Integer literal.
    pub literal_dims: Vec<Option<i64>>,
}

impl MemberRef {
    /// `pi.integrator.x`.
    pub fn dotted(&self) -> String {
        format!("{}.{}", self.component, self.name)
    }
}

/// A function, resolved. Compiled once to a C function and its tangent.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionModel {
    pub id: ClassId,
    pub qualified: String,
    /// Every variable of the function, in declaration order (a record
    /// variable is its fields, `liquid.cp`).
    pub locals: Vec<Local>,
    /// The inputs as a caller passes them: a scalar, or a record's fields.
    pub params: Vec<Param>,
    /// The outputs in declaration order: a scalar, or a record's fields
    /// (`output State state;` is `state.p`, `state.T`). A call reads one
    /// of the flat outputs (`ExprKind::FunctionCall::output`); each
    /// compiles to its own C function.
    pub results: Vec<Param>,
    pub body: Vec<Statement>,
    /// The function's name where it is declared.
    pub span: Span,
}

impl FunctionModel {
    /// The C symbol of the compiled function (its tangent twin adds `_t`).
    pub fn symbol(&self) -> String {
        let name: String = self
            .qualified
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        format!("F_{name}")
    }

    /// The locals of the inputs, in the order a call passes its arguments.
    pub fn inputs(&self) -> impl Iterator<Item = usize> + '_ {
        self.params.iter().flat_map(|p| p.locals.iter().copied())
    }

    /// The locals of the outputs, flat (a record output is its fields).
    pub fn outputs(&self) -> impl Iterator<Item = usize> + '_ {
        self.results.iter().flat_map(|p| p.locals.iter().copied())
    }

    /// The local of flat output `k`.
    pub fn output(&self, k: usize) -> usize {
        self.outputs().nth(k).unwrap_or(0)
    }

    /// The C symbol of the function computing flat output `k`: the
    /// function's own symbol when it has one output, else that symbol and
    /// the output's name (`F_Medium_setState_pT__state_T`).
    pub fn output_symbol(&self, k: usize) -> String {
        if self.outputs().count() <= 1 {
            return self.symbol();
        }
        let name: String = self.locals[self.output(k)]
            .name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        format!("{}__{name}", self.symbol())
    }

    /// Whether the first output is a record (a call then stands for a
    /// record, never for a number).
    pub fn returns_record(&self) -> bool {
        self.results.first().is_some_and(|r| !r.fields.is_empty())
    }

    /// The functions this one calls directly.
    pub fn callees(&self) -> Vec<Arc<FunctionModel>> {
        let mut out: Vec<Arc<FunctionModel>> = Vec::new();
        let mut visit = |e: &Expr| {
            let mut e = e.clone();
            e.walk_mut(&mut |x| {
                if let ExprKind::FunctionCall { func, .. } = &x.kind {
                    if !out.iter().any(|f| f.id == func.id) {
                        out.push(func.clone());
                    }
                }
            });
        };
        for l in &self.locals {
            if let Some(d) = &l.default {
                visit(d);
            }
        }
        for s in &self.body {
            s.exprs(&mut visit);
        }
        out
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Local {
    pub name: String,
    pub ty: Builtin,
    pub unit: Option<String>,
    pub role: Role,
    /// The value a protected variable starts with, or an input's default.
    pub default: Option<Expr>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Input,
    Output,
    Protected,
}

/// One input (or output) as a caller sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: String,
    /// For a record input, its field names (`cp`, `T_ref`); empty for a
    /// scalar.
    pub fields: Vec<String>,
    /// The locals it fills: one, or one per field.
    pub locals: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    Assign {
        target: usize,
        value: Expr,
        span: Span,
    },
    If {
        branches: Vec<(Expr, Vec<Statement>)>,
        else_: Vec<Statement>,
    },
    /// `for i in start:stop loop`: the index is `Referent::LoopVar` of
    /// the loop's nesting depth.
    For {
        start: Expr,
        stop: Expr,
        body: Vec<Statement>,
    },
    While {
        condition: Expr,
        body: Vec<Statement>,
    },
    Return,
    Break,
}

impl Statement {
    /// Calls `f` on every expression of the statement.
    pub fn exprs(&self, f: &mut dyn FnMut(&Expr)) {
        match self {
            Statement::Assign { value, .. } => f(value),
            Statement::If { branches, else_ } => {
                for (c, b) in branches {
                    f(c);
                    b.iter().for_each(|s| s.exprs(f));
                }
                else_.iter().for_each(|s| s.exprs(f));
            }
            Statement::For { start, stop, body } => {
                f(start);
                f(stop);
                body.iter().for_each(|s| s.exprs(f));
            }
            Statement::While { condition, body } => {
                f(condition);
                body.iter().for_each(|s| s.exprs(f));
            }
            Statement::Return | Statement::Break => {}
        }
    }
}
