//! The template of a structural parameter's system image: a short program
//! of literal bytes, affine integers, loops and indexed names
//! ([`super::template`] derives it from two images, [`super::resource`]
//! evaluates it and writes it into `resources/mofmu_struct.bin`).

/// `a + b·n + c·k`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Affine {
    pub a: i64,
    pub b: i64,
    pub c: i64,
}

impl Affine {
    pub fn at(&self, n: i64, k: i64) -> i64 {
        self.a + self.b * n + self.c * k
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    U32,
    I32,
    I64,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    Literal(Vec<u8>),
    Int(Width, Affine),
    Loop {
        count: Affine,
        body: u32,
    },
    Name {
        prefix: String,
        suffix: String,
        index: Affine,
    },
    /// An f64 (8 bytes) computed by a postfix program: a start value the
    /// size sets (`each V = 2e-3/n`), by the operations the instantiator
    /// folded it with ([`crate::ir::Ex::calc`]).
    Real(Vec<Step>),
}

/// A step of an [`Op::Real`]: [`Calc`](crate::ir::Calc) with its Integers affine in n.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Step {
    Const(f64),
    /// `(double)(a + b·n + c·k)`.
    Int(Affine),
    Neg,
    Add,
    Sub,
    Mul,
    Div,
}

/// A run of Reals for the value-reference map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    pub vr0: u32,
    pub len0: u32,
    pub start: Affine,
    pub len: Affine,
    /// The distance in `R` between consecutive elements: 1 for a run of
    /// Reals, the period for one member of the instances of a component
    /// array (`cap[k].T` at `start + k·stride`, declared as the member
    /// array `cap.T`). [`Structural::to_bytes`](super::resource::Structural::to_bytes) writes the stride only in
    /// version 2, when one is not 1.
    pub stride: i64,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Template {
    pub ops: Vec<Op>,
    pub segments: Vec<Segment>,
}

/// Why an image is not affine in the parameter.
pub type NotAffine = String;
