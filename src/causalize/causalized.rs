//! What causalisation produces for one class.

use super::structure::Structure;
use crate::ir::{CausalClass, Ex};
use crate::resolve::model::MemberRef;
use crate::source::Span;

/// A modifier on a sub-component written in this class:
/// `rod(n = 5, T0 = Tstart)`.
#[derive(Debug, Clone, PartialEq)]
pub struct SubModifier {
    /// The modified variable, below one of this class's components.
    pub target: MemberRef,
    /// `start` attribute instead of the binding.
    pub start: bool,
    /// The value in terms of this class: one element, or one per element
    /// of an array.
    pub value: Vec<Ex>,
    /// The shape of the value as written (`[2, 3]` for `[1, 2, 3; 4, 5,
    /// 6]`, empty for a scalar): a value with one part per element of an
    /// array of components must lead with the array's sizes.
    pub shape: Vec<usize>,
    pub span: Span,
}

/// What causalisation produces for one class, with what the instantiation
/// step needs to evaluate bindings.
#[derive(Debug, Clone, PartialEq)]
pub struct Causalized {
    pub causal: CausalClass,
    /// Binding of each Integer/Boolean parameter (by int-param number).
    pub int_bindings: Vec<Option<Ex>>,
    /// Own Real parameter bindings and state starts: (var index, the value
    /// of each element; one value for all elements of an array when given
    /// with `each`).
    pub bindings: Vec<(usize, Vec<Ex>)>,
    pub starts: Vec<(usize, Vec<Ex>)>,
    pub sub_modifiers: Vec<SubModifier>,
    /// Component array sizes, conditions and connect loops, evaluated per
    /// instance.
    pub structure: Structure,
}
