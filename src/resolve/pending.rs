//! What a class body writes that resolves only once every element of the
//! class is known: elaboration (`elaborate`, `connector`, `modifier`)
//! collects it in the order written, name resolution (`names`) resolves it.

use crate::source::Span;
use crate::syntax::ast;

/// What a class body writes that resolves only once every element of the
/// class is known, in the order written.
#[derive(Default)]
pub struct Pending<'a> {
    /// Values of variables (by index): a later one overrides an earlier
    /// one of the same variable and kind.
    pub values: Vec<(usize, Value, &'a ast::Expr)>,
    /// Array sizes of variables.
    pub dims: Vec<(usize, Vec<&'a ast::Expr>)>,
    /// Modifiers of components (by index), as written.
    pub sub_modifiers: Vec<(usize, &'a [ast::Argument])>,
    pub equations: Vec<&'a ast::Equation>,
    /// Equations of `initial equation` sections.
    pub initial_equations: Vec<&'a ast::Equation>,
    pub connects: Vec<(&'a ast::ComponentRef, &'a ast::ComponentRef, Span)>,
    /// Sizes of arrays of components, by component index.
    pub sub_dims: Vec<(usize, Vec<&'a ast::Expr>)>,
    /// Conditions of conditional components, by component index.
    pub sub_conditions: Vec<(usize, &'a ast::Expr)>,
    /// Conditions of conditional connectors, by connector index.
    pub connector_conditions: Vec<(usize, &'a ast::Expr)>,
    /// Connects inside `for` loops: the loops around each (index, range),
    /// outermost first.
    pub looped_connects: Vec<LoopedConnect<'a>>,
    /// Bindings of record components (`State s = f(p, T);`).
    pub record_bindings: Vec<RecordBinding<'a>>,
    /// Clocks declared in the class (`Clock c = Clock(Ts);`): each name
    /// stands for its clock expression (DESIGN §2.2b).
    pub clocks: Vec<(&'a str, &'a ast::Expr)>,
}

/// A record component bound to a record value, as written.
pub struct RecordBinding<'a> {
    /// The component's field variables, in the record's field order.
    pub vars: Vec<usize>,
    /// The record's field names, in the same order.
    pub fields: Vec<String>,
    pub value: &'a ast::Expr,
}

/// A connect inside `for` loops, as written.
pub struct LoopedConnect<'a> {
    pub loops: Vec<(&'a str, &'a ast::Expr)>,
    pub a: &'a ast::ComponentRef,
    pub b: &'a ast::ComponentRef,
    pub span: Span,
}

/// Which value of a variable an expression gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    Binding,
    Start,
    Min,
    Max,
    Nominal,
}
