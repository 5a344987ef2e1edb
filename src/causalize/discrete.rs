//! Boolean and Integer variables that are not parameters: discrete
//! variables. Each is stored in `R` like a Real variable, and determined by
//! one equation (or its binding) `v = expression` whose value can change
//! only at events: it reads literals, Integer and Boolean parameters, other
//! discrete variables, and relations, which are frozen between events (a
//! relation between continuous values is a state event, one with `time` a
//! time event). So a discrete variable needs no event handling of its own:
//! it is re-evaluated with everything else, and in the event iteration it
//! follows the relations it reads.
//!
//! Refused at the equation: a value of another type, or one that can change
//! between events (`MC136`), an equation that does not give the variable
//! alone on one side (`MC137`); `der` of a discrete variable is `MC138`.
//! Arrays of them are determined element by element, in `for` loops; a
//! relation there is a state event per element (see
//! [`crate::ir::RelGroup`]). Inputs and connector members of these types
//! stay `MC039`.

use super::lowerer::Lowerer;
use crate::diagnostic::Diagnostic;
use crate::ir::{Arith, Discrete, Ex, Func, RelKind, SlotId, SlotKind};
use crate::resolve::model::Var;
use crate::resolve::tree::Builtin;
use crate::source::Span;

/// Whether `v` is a discrete variable (see [`Var::discrete`]).
pub fn discrete_type(v: &Var) -> Option<Discrete> {
    v.discrete()
}

impl Lowerer<'_> {
    /// The discrete type of slot `s`, when it is a discrete variable of the
    /// class.
    pub fn slot_discrete(&self, s: SlotId) -> Option<Discrete> {
        match self.slots[s].kind {
            SlotKind::Own(i) => discrete_type(&self.model.vars[i]),
            SlotKind::Sub { .. } => self.sub_discrete.get(&s).copied(),
            SlotKind::Der(_) => None,
        }
    }

    /// Whether slot `s` holds a value that changes only at events: a
    /// Boolean or Integer variable, a `discrete Real` or a left limit
    /// (`pre`, DESIGN §2.2c).
    pub fn event_fixed_slot(&self, s: SlotId) -> bool {
        self.slot_discrete(s).is_some()
            || matches!(self.slots[s].kind, SlotKind::Own(i) if self.model.vars[i].special.discrete)
    }

    /// Whether a relation between `a` and `b` changes only at events
    /// although it is not structural: both sides read only discrete
    /// variables, parameters and literals, and at least one a discrete
    /// variable. It needs no event of its own.
    pub fn fixed_between_events(&self, a: &Ex, b: &Ex) -> bool {
        let mut reads_discrete = false;
        let mut fixed = true;
        for e in [a, b] {
            e.visit(&mut |x| match x {
                Ex::Var(s, _) if self.event_fixed_slot(*s) => reads_discrete = true,
                Ex::Var(s, _) if self.is_parameter_slot(*s) => {}
                Ex::Var(..) | Ex::Time | Ex::DerOf(..) | Ex::Tan(..) | Ex::User(..) => {
                    fixed = false
                }
                Ex::Rel(
                    _,
                    _,
                    _,
                    RelKind::State { .. }
                    | RelKind::StateIn { .. }
                    | RelKind::Time { .. }
                    | RelKind::TimeIn { .. },
                ) => reads_discrete = true,
                _ => {}
            });
        }
        reads_discrete && fixed
    }

    /// The type of a value assigned to a discrete variable, or why it
    /// cannot be one: it must be of one type and change only at events.
    pub fn value_type(&self, e: &Ex) -> Result<Discrete, String> {
        use Discrete::{Boolean, Integer};
        let both = |a: &Ex, b: &Ex, want: Discrete, what: &str| -> Result<Discrete, String> {
            for x in [a, b] {
                if self.value_type(x)? != want {
                    return Err(format!("`{what}` of a value that is not {}", want.name()));
                }
            }
            Ok(want)
        };
        match e {
            Ex::Bool(_) | Ex::Initial => Ok(Boolean),
            Ex::Int(_) | Ex::LoopVar(_) => Ok(Integer),
            Ex::IntParam(k) => Ok(match self.model.vars[self.int_params[*k]].ty {
                Builtin::Boolean => Boolean,
                _ => Integer,
            }),
            Ex::Real(_) => Err("a Real number".into()),
            Ex::Time => Err("`time`, which changes continuously".into()),
            Ex::Var(s, _) => self.slot_discrete(*s).ok_or_else(|| {
                format!(
                    "the value of the Real variable `{}`, which can change between events",
                    self.slots[*s].name
                )
            }),
            Ex::DerOf(..) | Ex::Tan(..) => Err("a derivative".into()),
            Ex::User(..) => Err("the result of a function, which is Real".into()),
            Ex::Reduce(..) => Err("a reduction over a Real array".into()),
            Ex::Neg(a) => match self.value_type(a)? {
                Integer => Ok(Integer),
                Boolean => Err("the negation of a Boolean".into()),
            },
            Ex::Not(a) => match self.value_type(a)? {
                Boolean => Ok(Boolean),
                Integer => Err("`not` of an Integer".into()),
            },
            Ex::Bin(Arith::And, a, b) => both(a, b, Boolean, "and"),
            Ex::Bin(Arith::Or, a, b) => both(a, b, Boolean, "or"),
            Ex::Bin(Arith::Add, a, b) => both(a, b, Integer, "+"),
            Ex::Bin(Arith::Sub, a, b) => both(a, b, Integer, "-"),
            Ex::Bin(Arith::Mul, a, b) => both(a, b, Integer, "*"),
            Ex::Bin(Arith::Div | Arith::Pow, ..) => {
                Err("a quotient or a power, which is Real".into())
            }
            Ex::Rel(_, a, b, RelKind::Direct) => {
                // A relation compared directly (under `noEvent`) changes
                // whenever its operands do; over discrete values and
                // parameters it is fixed between events.
                if (!a.is_dynamic() && !b.is_dynamic()) || self.fixed_between_events(a, b) {
                    Ok(Boolean)
                } else {
                    Err(
                        "a relation without events (`noEvent`), which can change between events"
                            .into(),
                    )
                }
            }
            Ex::Rel(..) => Ok(Boolean),
            Ex::Call(Func::Abs | Func::Sign, args) => match self.value_type(&args[0])? {
                Integer => Ok(Integer),
                Boolean => Err("a function of a Boolean".into()),
            },
            Ex::Call(Func::Min | Func::Max, args) => both(&args[0], &args[1], Integer, "min/max"),
            Ex::Call(..) => Err("the value of a Real function".into()),
            Ex::If(branches, other) => {
                let want = self.value_type(other)?;
                for (c, v) in branches {
                    if self.value_type(c)? != Boolean {
                        return Err("an if-expression whose condition is not Boolean".into());
                    }
                    if self.value_type(v)? != want {
                        return Err("an if-expression whose branches differ in type".into());
                    }
                }
                Ok(want)
            }
        }
    }

    /// `MC136` when `value` cannot be the value of the discrete variable in
    /// slot `target` (of type `ty`).
    pub fn check_discrete_value(
        &self,
        target: SlotId,
        ty: Discrete,
        value: &Ex,
        span: Span,
    ) -> Result<(), Diagnostic> {
        let name = &self.slots[target].name;
        let why = match self.value_type(value) {
            Ok(t) if t == ty => return Ok(()),
            Ok(t) => format!("{} value", t.a_name()),
            Err(why) => why,
        };
        Err(Diagnostic::error(
            "MC136",
            span,
            format!(
                "`{name}` is {} variable, but this equation gives it {why}",
                ty.a_name()
            ),
        )
        .with_label(format!("not {} value fixed between events", ty.a_name()))
        .with_help(format!(
            "give `{name}` {} expression of parameters, other discrete variables and relations (`T > 300`), or declare it Real",
            ty.a_name()
        )))
    }
}

/// `MC137`: a discrete variable is determined only by `v = expression`.
pub fn not_alone(name: &str, ty: Discrete, span: Span) -> Diagnostic {
    Diagnostic::error(
        "MC137",
        span,
        format!(
            "`{name}` is {} variable: an equation determines it only when it stands alone on one side",
            ty.a_name()
        ),
    )
    .with_label("discrete variable not alone on one side")
    .with_help(format!("write `{name} = <{} expression>`", ty.name()))
}

/// `MC138`: `der` of a discrete variable.
pub fn derivative_of_discrete(name: &str, ty: Discrete, span: Span) -> Diagnostic {
    Diagnostic::error(
        "MC138",
        span,
        format!(
            "`{name}` is {} variable: it changes only at events and has no derivative",
            ty.a_name()
        ),
    )
    .with_label("der of a discrete variable")
    .with_help("take the derivative of a Real variable, or drop it (it is zero between events)")
}
