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

use super::model::MemberRef;
use crate::diagnostic::Diagnostic;
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
        func: std::sync::Arc<super::function::FunctionModel>,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    /// `.+ .- .* ./ .^`
    ElemAdd,
    ElemSub,
    ElemMul,
    ElemDiv,
    ElemPow,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
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
            Equation::ConnectInLoop { .. }
            | Equation::Assert { .. }
            | Equation::Rejected { .. } => {}
        }
    }
}
