//! A lowered value: a scalar, the elements of an array of literal shape,
//! or a parameter-sized array read element by element ([`Sized`]).

use crate::ir::Ex;

/// A lowered value: a scalar, or the elements of an array with a literal
/// shape in row-major order.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Scalar(Ex),
    Array(Vec<usize>, Vec<Ex>),
    /// A parameter-sized array, read element by element in a loop: only
    /// `Lowerer::value_any` makes one, and the whole-array equations,
    /// reductions and products that take it.
    Sized(Sized),
}

impl Value {
    pub fn from_elements(shape: Vec<usize>, mut el: Vec<Ex>) -> Value {
        if shape.is_empty() {
            Value::Scalar(el.pop().expect("a scalar has one element"))
        } else {
            Value::Array(shape, el)
        }
    }

    pub fn shape(&self) -> Vec<usize> {
        match self {
            Value::Scalar(_) => Vec::new(),
            Value::Array(s, _) => s.clone(),
            Value::Sized(_) => unreachable!("{SIZED_ONLY}"),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Value::Scalar(_) => 1,
            Value::Array(_, e) => e.len(),
            Value::Sized(_) => unreachable!("{SIZED_ONLY}"),
        }
    }

    pub fn element(&self, k: usize) -> Ex {
        match self {
            Value::Scalar(x) => x.clone(),
            Value::Array(_, e) => e[k].clone(),
            Value::Sized(_) => unreachable!("{SIZED_ONLY}"),
        }
    }

    pub fn elements(self) -> Vec<Ex> {
        match self {
            Value::Scalar(x) => vec![x],
            Value::Array(_, e) => e,
            Value::Sized(_) => unreachable!("{SIZED_ONLY}"),
        }
    }

    pub fn map(self, f: impl Fn(Ex) -> Ex) -> Value {
        match self {
            Value::Scalar(x) => Value::Scalar(f(x)),
            Value::Array(s, e) => Value::Array(s, e.into_iter().map(f).collect()),
            Value::Sized(mut a) => {
                a.element = f(a.element);
                Value::Sized(a)
            }
        }
    }
}

/// Why a literal-shape operation never sees a parameter-sized value.
pub const SIZED_ONLY: &str = "a parameter-sized value only reaches the operations of `causalize::sized` (`Lowerer::value` refuses it elsewhere)";

pub fn shape_text(shape: &[usize]) -> String {
    let d: Vec<String> = shape.iter().map(|x| x.to_string()).collect();
    format!("[{}]", d.join(", "))
}

/// The loop depth from which holes are numbered: far above any real loop,
/// and replaced before an expression leaves the lowerer.
const HOLE: usize = 1 << 20;

/// Index `k` (0-based dimension) of a parameter-sized array's element.
pub fn hole(k: usize) -> Ex {
    Ex::LoopVar(HOLE + k)
}

/// A parameter-sized array: its dimensions (Integer expressions of
/// Integer parameters and literals) and its element at the holes.
#[derive(Debug, Clone, PartialEq)]
pub struct Sized {
    pub dims: Vec<Ex>,
    pub element: Ex,
}

impl Sized {
    /// The element at `indices` (1-based Integer expressions, one per
    /// dimension).
    pub fn at(&self, indices: &[Ex]) -> Ex {
        let map: Vec<(usize, Ex)> = indices
            .iter()
            .enumerate()
            .map(|(k, i)| (HOLE + k, i.clone()))
            .collect();
        self.element.substitute_loop_vars(&map)
    }

    /// The transpose of a matrix.
    pub fn transposed(&self) -> Sized {
        Sized {
            dims: vec![self.dims[1].clone(), self.dims[0].clone()],
            element: self.at(&[hole(1), hole(0)]),
        }
    }
}
