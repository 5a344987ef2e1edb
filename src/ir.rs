//! The causal form of one class: slots, solved assignments, blocks.

use std::collections::BTreeMap;

pub use crate::operator::{Arith, RelOp};
use crate::source::Span;

/// A storage location a class kernel reads or writes, numbered per class.
pub type SlotId = usize;

#[derive(Debug, Clone, PartialEq)]
pub enum SlotKind {
    /// A variable of the class itself (index into `ClassModel::vars`).
    Own(usize),
    /// The derivative of a state of the class itself.
    Der(usize),
    /// A variable of a (nested) sub-component: `path` the components
    /// (each an index into the previous one's class's components, the
    /// first into this class's), `var` the variable's index in the last
    /// one's class.
    Sub { path: Vec<usize>, var: usize },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    pub name: String,
    pub kind: SlotKind,
    /// Known inside the class without computation (parameter, state, input,
    /// sub-component result).
    pub known: bool,
    /// Counts towards the input dependency of blocks (inputs and
    /// sub-component results, not parameters or states).
    pub is_input: bool,
    pub is_array: bool,
    /// Number of elements of a sub-component's array variable (its shape
    /// is literal); `None` otherwise.
    pub size: Option<usize>,
}

/// An integer expression affine in the class's Integer parameters:
/// `c + sum(k * p)`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Affine {
    pub constant: i64,
    pub terms: BTreeMap<usize, i64>,
}

impl Affine {
    pub fn constant(c: i64) -> Affine {
        Affine {
            constant: c,
            terms: BTreeMap::new(),
        }
    }

    pub fn param(p: usize) -> Affine {
        let mut terms = BTreeMap::new();
        terms.insert(p, 1);
        Affine { constant: 0, terms }
    }

    pub fn add(&self, o: &Affine, sign: i64) -> Affine {
        let mut r = self.clone();
        r.constant += sign * o.constant;
        for (k, v) in &o.terms {
            *r.terms.entry(*k).or_insert(0) += sign * v;
        }
        r.terms.retain(|_, v| *v != 0);
        r
    }

    pub fn scale(&self, f: i64) -> Affine {
        let mut r = self.clone();
        r.constant *= f;
        for v in r.terms.values_mut() {
            *v *= f;
        }
        r.terms.retain(|_, v| *v != 0);
        r
    }

    /// Value with every parameter set to a large generic number, used only
    /// to order ranges before their exact symbolic comparison.
    pub fn generic_value(&self) -> i128 {
        let mut v = self.constant as i128;
        for (k, c) in &self.terms {
            v += (*c as i128) * (1_000_003 + 7919 * *k as i128);
        }
        v
    }

    pub fn eval(&self, ints: &[i64]) -> i64 {
        let mut v = self.constant;
        for (k, c) in &self.terms {
            v += c * ints.get(*k).copied().unwrap_or(0);
        }
        v
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Atan2,
    Sinh,
    Cosh,
    Tanh,
    Exp,
    Log,
    Log10,
    Sqrt,
    Abs,
    Sign,
    Min,
    Max,
}

impl Func {
    pub fn from_name(n: &str) -> Option<(Func, usize)> {
        Some(match n {
            "sin" => (Func::Sin, 1),
            "cos" => (Func::Cos, 1),
            "tan" => (Func::Tan, 1),
            "asin" => (Func::Asin, 1),
            "acos" => (Func::Acos, 1),
            "atan" => (Func::Atan, 1),
            "atan2" => (Func::Atan2, 2),
            "sinh" => (Func::Sinh, 1),
            "cosh" => (Func::Cosh, 1),
            "tanh" => (Func::Tanh, 1),
            "exp" => (Func::Exp, 1),
            "log" => (Func::Log, 1),
            "log10" => (Func::Log10, 1),
            "sqrt" => (Func::Sqrt, 1),
            "abs" => (Func::Abs, 1),
            "sign" => (Func::Sign, 1),
            "min" => (Func::Min, 2),
            "max" => (Func::Max, 2),
            _ => return None,
        })
    }
}

/// How a relation is evaluated at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelKind {
    /// Inside a `for` loop or under `noEvent`: compared directly.
    Direct,
    /// `time` against a value fixed between events: a time event.
    Time { slot: u32 },
    /// Between continuous values: frozen between events, with an event
    /// indicator.
    State { slot: u32, indicator: u32 },
    /// Between continuous values inside `for` loops: one relation slot and
    /// one event indicator per iteration, laid out per instance after the
    /// class's scalar ones ([`CausalClass::rel_groups`]).
    StateIn { group: u32 },
    /// `time` against a value fixed between events inside `for` loops: a
    /// time event per iteration, with a relation slot of its own and no
    /// indicator ([`CausalClass::rel_groups`]).
    TimeIn { group: u32 },
}

/// The relations of one relation in `for` loops: one per iteration of its
/// loops. Its slots and indicators follow the class's `n_relations` scalar
/// relations (and `n_indicators` indicators) and the groups before it.
#[derive(Debug, Clone, PartialEq)]
pub struct RelGroup {
    /// The number of iterations: an Integer expression of Integer
    /// parameters (the product of the loops' trip counts).
    pub size: Ex,
    /// The iteration's 0-based position in `0..size`, from the loop
    /// variables (the innermost loop varies fastest).
    pub index: Ex,
    /// Whether each iteration also has an event indicator (a state
    /// event); a time event has none.
    pub indicator: bool,
}

/// The most steps a [`Calc`] program has (the runtime's bound too).
pub const MAX_CALC: usize = 32;

/// One step of a postfix program computing a Real from constants and
/// Integers ([`Ex::calc`]): a start value that a size parameter sets
/// (`each V = 2e-3/n`), which an FMI 3.0 structural parameter recomputes
/// at run time by the same IEEE operations ([`calc_value`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Calc {
    Const(f64),
    /// An Integer parameter's value, converted to f64 as [`Ex::fold`] does.
    Int(i64),
    Neg,
    Add,
    Sub,
    Mul,
    Div,
}

/// The value of a [`Calc`] program: each step as [`Ex::fold`] computes
/// it. `None` for a malformed program.
pub fn calc_value(program: &[Calc]) -> Option<f64> {
    let mut stack: Vec<f64> = Vec::with_capacity(program.len());
    for step in program {
        let v = match *step {
            Calc::Const(c) => c,
            Calc::Int(i) => i as f64,
            Calc::Neg => -stack.pop()?,
            _ => {
                let y = stack.pop()?;
                let x = stack.pop()?;
                match step {
                    Calc::Add => x + y,
                    Calc::Sub => x - y,
                    Calc::Mul => x * y,
                    _ => x / y,
                }
            }
        };
        stack.push(v);
    }
    (stack.len() == 1).then(|| stack[0])
}

#[derive(Debug, Clone, PartialEq)]
pub enum Ex {
    Real(f64),
    Int(i64),
    Bool(bool),
    /// A Real variable; the index is 1-based when present.
    Var(SlotId, Option<Box<Ex>>),
    /// The time derivative of a variable the class determines; replaced
    /// by the derivative of its defining expression during causalisation.
    DerOf(SlotId, Option<Box<Ex>>),
    /// The tangent (directional derivative) of a variable, in tangent code.
    Tan(SlotId, Option<Box<Ex>>),
    /// An Integer (or Boolean) parameter of the class, by its number.
    IntParam(usize),
    /// A `for` loop variable by nesting depth.
    LoopVar(usize),
    Time,
    /// `initial()`: true in the evaluations of initialization, false
    /// after it (DESIGN §2.2c).
    Initial,
    Neg(Box<Ex>),
    Not(Box<Ex>),
    Bin(Arith, Box<Ex>, Box<Ex>),
    Rel(RelOp, Box<Ex>, Box<Ex>, RelKind),
    Call(Func, Vec<Ex>),
    /// A call of a user function by its C symbol (`codegen::function`);
    /// `true` calls its forward-mode tangent twin, whose arguments are the
    /// primal arguments followed by their tangents.
    User(std::sync::Arc<str>, Vec<Ex>, bool),
    If(Vec<(Ex, Ex)>, Box<Ex>),
    /// A reduction over an index range: `op` of `body` for the loop
    /// variable `depth` running from `lo` to `hi` (Integer expressions).
    /// It stands for a whole parameter-sized array read in one expression
    /// (`sum(ports.m_flow)`, a row of `A*x`), so the kernel loops over the
    /// run-time size and its text does not depend on it.
    Reduce(Reduction, usize, Box<Ex>, Box<Ex>, Box<Ex>),
}

/// What a [`Ex::Reduce`] computes from its elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduction {
    Sum,
    Product,
    Min,
    Max,
    /// The (first) index of the smallest element: the element whose
    /// tangent is the tangent of `Min`.
    ArgMin,
    /// The (first) index of the largest element.
    ArgMax,
}

impl Ex {
    pub fn visit(&self, f: &mut dyn FnMut(&Ex)) {
        f(self);
        match self {
            Ex::Var(_, Some(i)) | Ex::DerOf(_, Some(i)) | Ex::Tan(_, Some(i)) => i.visit(f),
            Ex::Neg(a) | Ex::Not(a) => a.visit(f),
            Ex::Bin(_, a, b) | Ex::Rel(_, a, b, _) => {
                a.visit(f);
                b.visit(f);
            }
            Ex::Call(_, args) | Ex::User(_, args, _) => args.iter().for_each(|a| a.visit(f)),
            Ex::If(branches, e) => {
                for (c, v) in branches {
                    c.visit(f);
                    v.visit(f);
                }
                e.visit(f);
            }
            Ex::Reduce(_, _, lo, hi, body) => {
                lo.visit(f);
                hi.visit(f);
                body.visit(f);
            }
            _ => {}
        }
    }

    /// Slots this expression reads.
    pub fn slots(&self, out: &mut Vec<SlotId>) {
        self.visit(&mut |e| {
            if let Ex::Var(s, _) = e {
                out.push(*s);
            }
        });
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// `target[index] := value`, only when the instance's own-binding flag
    /// of `guard` is set (for parameter bindings and start values).
    Assign {
        target: SlotId,
        index: Option<Ex>,
        value: Ex,
        guard: Option<usize>,
        span: Span,
    },
    For {
        depth: usize,
        lo: Ex,
        hi: Ex,
        body: Vec<Stmt>,
    },
    /// A clocked partition's tick (DESIGN §2.2b): in event mode it decides
    /// whether the partition ticks at this instant and, at a new tick,
    /// moves the partition's values into their `previous` slots.
    Tick(Box<Tick>),
    /// Assignments of a clocked partition: they run only when the
    /// partition's `fire` slot (set by its [`Tick`]) says it ticks; in
    /// between, their targets hold their values. Their tangents are zero.
    Clocked { fire: SlotId, body: Vec<Stmt> },
}

/// The tick of one clocked partition of a class. Ticks are at
/// `first + k * interval`, `first` the time of the first tick (the start
/// time: the first tick runs in initialization).
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    /// The number of ticks so far.
    pub ticks: SlotId,
    /// The time of the first tick.
    pub first: SlotId,
    /// 0 when the partition does not tick in this evaluation; 1 when it
    /// runs again at the tick it last ran (an event iteration at that
    /// instant); 2 at a new tick; 3 at the first tick, in initialization.
    pub fire: SlotId,
    /// The interval in seconds, an expression of parameters.
    pub interval: Ex,
    /// What the interval is built from (the base clock's interval, or its
    /// counter and resolution, and each sub- and super-sampling factor):
    /// each must be positive, and the FMU names the one that is not.
    pub parts: Vec<ClockPart>,
    /// `previous` slots := their variables, at a new tick.
    pub shift: Vec<Stmt>,
    /// `previous` slots := their variables' start values, at the first tick.
    pub start: Vec<Stmt>,
    pub span: Span,
}

/// One parameter expression of a clock's interval (DESIGN §2.2b).
#[derive(Debug, Clone, PartialEq)]
pub struct ClockPart {
    pub value: Ex,
    /// `interval`, `counter`, `resolution` or `factor`.
    pub role: &'static str,
    /// The expression as written (`Ts`, `2*Ts`), and whether it is one
    /// parameter's name (which the FMU then gives with the instance's
    /// path).
    pub written: String,
    pub parameter: bool,
    /// The clock as written: `subSample(Clock(Ts), f)`.
    pub clock: String,
    pub span: Span,
}

impl Stmt {
    pub fn for_each_assign(&self, f: &mut dyn FnMut(SlotId, &Ex, Option<&Ex>)) {
        match self {
            Stmt::Assign {
                target,
                value,
                index,
                ..
            } => f(*target, value, index.as_ref()),
            Stmt::For { body, lo, hi, .. } => {
                let _ = (lo, hi);
                for s in body {
                    s.for_each_assign(f);
                }
            }
            Stmt::Clocked { body, .. } => {
                for s in body {
                    s.for_each_assign(f);
                }
            }
            Stmt::Tick(t) => {
                for s in t.shift.iter().chain(&t.start) {
                    s.for_each_assign(f);
                }
            }
        }
    }
}

/// Assignments of a class that depend on the same set of inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// Input slots this block depends on (directly or through earlier
    /// assignments of the class).
    pub inputs: Vec<SlotId>,
    pub stmts: Vec<Stmt>,
    /// Slots written.
    pub writes: Vec<SlotId>,
    /// Every slot read (inputs, states, parameters, earlier results).
    pub reads: Vec<SlotId>,
}

/// The FMI type of a discrete variable: a Boolean or Integer variable that
/// is not a parameter. It is stored in `R` like a Real and declared to FMI
/// with its own type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Discrete {
    Boolean,
    Integer,
}

impl Discrete {
    pub fn name(self) -> &'static str {
        match self {
            Discrete::Boolean => "Boolean",
            Discrete::Integer => "Integer",
        }
    }

    /// The name with its indefinite article: "a Boolean", "an Integer".
    pub fn a_name(self) -> &'static str {
        match self {
            Discrete::Boolean => "a Boolean",
            Discrete::Integer => "an Integer",
        }
    }
}

/// An enumeration type as the FMU declares it (`<TypeDefinitions>`): its
/// qualified name and its literals with their descriptions, the first
/// with the value 1.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct EnumerationType {
    pub name: String,
    pub literals: Vec<(String, Option<String>)>,
}

/// An Integer or Boolean parameter: fixed at export, part of the layout.
#[derive(Debug, Clone, PartialEq)]
pub struct IntParam {
    pub var: usize,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CausalClass {
    pub qualified: String,
    pub slots: Vec<Slot>,
    pub int_params: Vec<IntParam>,
    /// Calculated parameters and modifiers of sub-components, in order.
    pub parameter_stmts: Vec<Stmt>,
    /// Start values of states computed from parameters.
    pub start_stmts: Vec<Stmt>,
    pub blocks: Vec<Block>,
    pub n_relations: u32,
    pub n_indicators: u32,
    /// Relations in `for` loops, each a state event per iteration.
    pub rel_groups: Vec<RelGroup>,
    /// Var index -> dims as affine forms of Integer parameters.
    pub dims: Vec<Vec<Affine>>,
    /// The variables of clocked partitions: the clocked variables and the
    /// ones the partitions keep (tick counts, previous values), ascending.
    pub clocked_vars: Vec<usize>,
    /// What the runtime moves after an evaluation at an event (DESIGN
    /// §2.2c), when the class has `when` equations or reads `pre`.
    pub events: Option<EventTable>,
}

/// The values a class keeps across events, as its kernel's `events` entry
/// moves them after an evaluation at an event: the event iteration repeats
/// until none of them changes.
#[derive(Debug, Clone, PartialEq)]
pub struct EventTable {
    /// Each variable with its left limit: `pre := value`, over a number of
    /// elements (an Integer expression of the Integer parameters).
    pub pre: Vec<(SlotId, SlotId, Ex)>,
    /// Each reinitialised state with its new value's slot: `state :=
    /// value` where they differ.
    pub reinit: Vec<(SlotId, SlotId)>,
    /// Each `terminate`'s flag with its message.
    pub terminate: Vec<(SlotId, String)>,
}

impl CausalClass {
    /// The number of relation slots and of event indicators an instance
    /// with these Integer parameter values has: the scalar ones and one per
    /// iteration of every relation in `for` loops. `None` when a group's
    /// size does not evaluate.
    pub fn relation_counts(&self, ints: &[i64]) -> Option<(u32, u32)> {
        let (mut relations, mut indicators) = (0u64, 0u64);
        for g in &self.rel_groups {
            let n = g.size.fold(ints)?.max(0.0) as u64;
            relations += n;
            if g.indicator {
                indicators += n;
            }
        }
        Some((
            self.n_relations
                .checked_add(u32::try_from(relations).ok()?)?,
            self.n_indicators
                .checked_add(u32::try_from(indicators).ok()?)?,
        ))
    }

    pub fn slot_of(&self, kind: &SlotKind) -> Option<SlotId> {
        self.slots.iter().position(|s| &s.kind == kind)
    }
}

impl Ex {
    /// Rebuilds the expression top-down, replacing every node `f` answers
    /// for (its children are then not visited).
    pub fn replace(&self, f: &mut dyn FnMut(&Ex) -> Option<Ex>) -> Ex {
        if let Some(r) = f(self) {
            return r;
        }
        let b = |x: Ex| Box::new(x);
        match self {
            Ex::Var(s, Some(i)) => Ex::Var(*s, Some(b(i.replace(f)))),
            Ex::DerOf(s, Some(i)) => Ex::DerOf(*s, Some(b(i.replace(f)))),
            Ex::Tan(s, Some(i)) => Ex::Tan(*s, Some(b(i.replace(f)))),
            Ex::Neg(a) => Ex::Neg(b(a.replace(f))),
            Ex::Not(a) => Ex::Not(b(a.replace(f))),
            Ex::Bin(o, x, y) => Ex::Bin(*o, b(x.replace(f)), b(y.replace(f))),
            Ex::Rel(o, x, y, k) => Ex::Rel(*o, b(x.replace(f)), b(y.replace(f)), *k),
            Ex::Call(func, args) => Ex::Call(*func, args.iter().map(|a| a.replace(f)).collect()),
            Ex::User(sym, args, t) => {
                Ex::User(sym.clone(), args.iter().map(|a| a.replace(f)).collect(), *t)
            }
            Ex::If(branches, other) => Ex::If(
                branches
                    .iter()
                    .map(|(c, v)| (c.replace(f), v.replace(f)))
                    .collect(),
                b(other.replace(f)),
            ),
            Ex::Reduce(op, d, lo, hi, body) => Ex::Reduce(
                *op,
                *d,
                b(lo.replace(f)),
                b(hi.replace(f)),
                b(body.replace(f)),
            ),
            other => other.clone(),
        }
    }

    /// Replaces the loop variables `map` names (depth, value) everywhere.
    pub fn substitute_loop_vars(&self, map: &[(usize, Ex)]) -> Ex {
        self.replace(&mut |x| match x {
            Ex::LoopVar(d) => map.iter().find(|(k, _)| k == d).map(|(_, v)| v.clone()),
            _ => None,
        })
    }

    /// One more than the deepest loop variable the expression reads or a
    /// reduction in it declares: a depth free for a new reduction inside.
    pub fn free_loop_depth(&self) -> usize {
        let mut free = 0;
        self.visit(&mut |x| match x {
            Ex::LoopVar(d) | Ex::Reduce(_, d, ..) => free = free.max(d + 1),
            _ => {}
        });
        free
    }

    /// Does the expression read a variable or `time` (so it cannot be
    /// folded at export)?
    pub fn is_dynamic(&self) -> bool {
        let mut d = false;
        self.visit(&mut |x| {
            if matches!(
                x,
                Ex::Var(..) | Ex::DerOf(..) | Ex::Tan(..) | Ex::Time | Ex::Initial
            ) {
                d = true;
            }
        });
        d
    }

    /// The expression as a [`Calc`] program, when it is made of numbers,
    /// Integer parameters (their values in `ints`), negation and + - * /
    /// only, and has at most [`MAX_CALC`] steps; [`fold`](Ex::fold) and
    /// [`calc_value`] then compute the same f64 by the same operations.
    pub fn calc(&self, ints: &[i64]) -> Option<Vec<Calc>> {
        fn go(e: &Ex, ints: &[i64], out: &mut Vec<Calc>) -> Option<()> {
            if out.len() >= MAX_CALC {
                return None;
            }
            match e {
                Ex::Real(r) => out.push(Calc::Const(*r)),
                Ex::Int(i) => out.push(Calc::Const(*i as f64)),
                Ex::IntParam(k) => out.push(Calc::Int(*ints.get(*k)?)),
                Ex::Neg(a) => {
                    go(a, ints, out)?;
                    out.push(Calc::Neg);
                }
                Ex::Bin(op, a, b) => {
                    let step = match op {
                        Arith::Add => Calc::Add,
                        Arith::Sub => Calc::Sub,
                        Arith::Mul => Calc::Mul,
                        Arith::Div => Calc::Div,
                        _ => return None,
                    };
                    go(a, ints, out)?;
                    go(b, ints, out)?;
                    out.push(step);
                }
                _ => return None,
            }
            (out.len() <= MAX_CALC).then_some(())
        }
        let mut out = Vec::new();
        go(self, ints, &mut out)?;
        Some(out)
    }

    /// Evaluates an expression without variables, given Integer parameter
    /// values and loop variables. `None` when it reads a variable or is not
    /// a number.
    pub fn fold(&self, ints: &[i64]) -> Option<f64> {
        Some(match self {
            Ex::Real(r) => *r,
            Ex::Int(i) => *i as f64,
            Ex::Bool(b) => f64::from(u8::from(*b)),
            Ex::IntParam(k) => *ints.get(*k)? as f64,
            Ex::Neg(a) => -a.fold(ints)?,
            Ex::Not(a) => f64::from(u8::from(a.fold(ints)? == 0.0)),
            Ex::Bin(op, a, b) => {
                let (x, y) = (a.fold(ints)?, b.fold(ints)?);
                match op {
                    Arith::Add => x + y,
                    Arith::Sub => x - y,
                    Arith::Mul => x * y,
                    Arith::Div => x / y,
                    Arith::Pow => x.powf(y),
                    Arith::And => f64::from(u8::from(x != 0.0 && y != 0.0)),
                    Arith::Or => f64::from(u8::from(x != 0.0 || y != 0.0)),
                }
            }
            Ex::Rel(op, a, b, _) => {
                let (x, y) = (a.fold(ints)?, b.fold(ints)?);
                f64::from(u8::from(match op {
                    RelOp::Lt => x < y,
                    RelOp::Le => x <= y,
                    RelOp::Gt => x > y,
                    RelOp::Ge => x >= y,
                    RelOp::Eq => x == y,
                    RelOp::Ne => x != y,
                }))
            }
            Ex::Call(f, args) => {
                let a: Option<Vec<f64>> = args.iter().map(|x| x.fold(ints)).collect();
                let a = a?;
                match f {
                    Func::Sin => a[0].sin(),
                    Func::Cos => a[0].cos(),
                    Func::Tan => a[0].tan(),
                    Func::Asin => a[0].asin(),
                    Func::Acos => a[0].acos(),
                    Func::Atan => a[0].atan(),
                    Func::Atan2 => a[0].atan2(a[1]),
                    Func::Sinh => a[0].sinh(),
                    Func::Cosh => a[0].cosh(),
                    Func::Tanh => a[0].tanh(),
                    Func::Exp => a[0].exp(),
                    Func::Log => a[0].ln(),
                    Func::Log10 => a[0].log10(),
                    Func::Sqrt => a[0].sqrt(),
                    Func::Abs => a[0].abs(),
                    Func::Sign => {
                        if a[0] > 0.0 {
                            1.0
                        } else if a[0] < 0.0 {
                            -1.0
                        } else {
                            0.0
                        }
                    }
                    Func::Min => a[0].min(a[1]),
                    Func::Max => a[0].max(a[1]),
                }
            }
            Ex::If(branches, e) => {
                for (c, v) in branches {
                    if c.fold(ints)? != 0.0 {
                        return v.fold(ints);
                    }
                }
                e.fold(ints)?
            }
            // A user function runs in the kernel (its failures are reported
            // there), never at export.
            Ex::User(..) => return None,
            Ex::Var(..) | Ex::DerOf(..) | Ex::Tan(..) | Ex::Time | Ex::Initial | Ex::LoopVar(_) => {
                return None
            }
            // A reduction's body reads its loop variable, which only the
            // kernel's loop gives a value.
            Ex::Reduce(..) => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `-(2e-3 - 3*n) / (n + 7)`: the program computes the folded value to
    /// the bit at every n; a power or a call has no program.
    #[test]
    fn calc_program_repeats_fold() {
        let b = |op, x, y| Ex::Bin(op, Box::new(x), Box::new(y));
        let e = b(
            Arith::Div,
            Ex::Neg(Box::new(b(
                Arith::Sub,
                Ex::Real(2e-3),
                b(Arith::Mul, Ex::Int(3), Ex::IntParam(1)),
            ))),
            b(Arith::Add, Ex::IntParam(1), Ex::Int(7)),
        );
        for n in [1i64, 2, 3, 10, 999, 123_456] {
            let ints = [0, n];
            let program = e.calc(&ints).expect("a program");
            assert_eq!(program.len(), 10);
            let want = -(2e-3 - 3.0 * n as f64) / (n as f64 + 7.0);
            assert_eq!(calc_value(&program).unwrap().to_bits(), want.to_bits());
            assert_eq!(e.fold(&ints).unwrap().to_bits(), want.to_bits());
        }
        let pow = b(Arith::Pow, Ex::IntParam(0), Ex::Int(2));
        assert!(pow.calc(&[3]).is_none());
        assert!(Ex::Call(Func::Sqrt, vec![Ex::IntParam(0)])
            .calc(&[3])
            .is_none());
        // Too long: more than MAX_CALC steps.
        let mut long = Ex::IntParam(0);
        for _ in 0..MAX_CALC {
            long = b(Arith::Add, long, Ex::Int(1));
        }
        assert!(long.calc(&[3]).is_none());
        assert_eq!(calc_value(&[Calc::Add]), None);
        assert_eq!(calc_value(&[Calc::Int(1), Calc::Int(2)]), None);
    }
}
