//! A structural parameter's template evaluated at a size, checked against
//! an image, and written as `resources/mofmu_struct.bin` (the format is
//! `super`'s).

use super::model::{Affine, Op, Step, Template, Width};
use crate::fmu::image::system_image::fnv1a;
use crate::ir::{calc_value, Calc};

pub const RESOURCE_NAME: &str = "mofmu_struct.bin";
const STRUCT_MAGIC: &[u8; 8] = b"MOFMUSTR";
const STRUCT_VERSION: u32 = 1;
/// The version whose segments carry a stride (written only when one is
/// not 1).
const STRUCT_VERSION_STRIDED: u32 = 2;
/// The version with [`Op::Real`] (op 4; segments as in version 2),
/// written only when the template has one.
const STRUCT_VERSION_CALC: u32 = 3;
/// Version 3's layout with the size the FMU starts at after `n_max`,
/// written only when that is not the exported image's size (an export at
/// a large size served from a small image: docs/fmu.md, "Export at any
/// size").
const STRUCT_VERSION_START: u32 = 4;
/// A step of an [`Op::Real`] in the file: a tag and 24 bytes.
const STEP_BYTES: usize = 25;

/// The image bytes (without the checksum) at `n`, or why `n` is out of range.
pub fn evaluate(ops: &[Op], n: i64) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    run(ops, n, 0, &mut out)?;
    Ok(out)
}

fn run(ops: &[Op], n: i64, k: i64, out: &mut Vec<u8>) -> Result<(), String> {
    let mut i = 0;
    while i < ops.len() {
        match &ops[i] {
            Op::Literal(bytes) => out.extend_from_slice(bytes),
            Op::Int(width, f) => {
                let v = f.at(n, k);
                match width {
                    Width::U32 => out.extend_from_slice(
                        &u32::try_from(v)
                            .map_err(|_| format!("{v} is no u32"))?
                            .to_le_bytes(),
                    ),
                    Width::I32 => out.extend_from_slice(
                        &i32::try_from(v)
                            .map_err(|_| format!("{v} is no i32"))?
                            .to_le_bytes(),
                    ),
                    Width::I64 => out.extend_from_slice(&v.to_le_bytes()),
                }
            }
            Op::Loop { count, body } => {
                let c = count.at(n, 0);
                if c < 0 {
                    return Err(format!("a run would have {c} elements"));
                }
                let body = &ops[i + 1..i + 1 + *body as usize];
                for r in 0..c {
                    run(body, n, r, out)?;
                }
                i += body.len();
            }
            Op::Name {
                prefix,
                suffix,
                index,
            } => {
                let s = format!("{prefix}{}{suffix}", index.at(n, k));
                out.extend_from_slice(&(s.len() as u32).to_le_bytes());
                out.extend_from_slice(s.as_bytes());
            }
            Op::Real(steps) => {
                let calc: Vec<Calc> = steps
                    .iter()
                    .map(|s| match *s {
                        Step::Const(c) => Calc::Const(c),
                        Step::Int(f) => Calc::Int(f.at(n, k)),
                        Step::Neg => Calc::Neg,
                        Step::Add => Calc::Add,
                        Step::Sub => Calc::Sub,
                        Step::Mul => Calc::Mul,
                        Step::Div => Calc::Div,
                    })
                    .collect();
                let v = calc_value(&calc).ok_or("a malformed Real program")?;
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        i += 1;
    }
    Ok(())
}

/// Whether the template at `n` is exactly `image` written with `guid`.
pub fn verify(t: &Template, n: i64, image: &[u8]) -> bool {
    match evaluate(&t.ops, n) {
        Ok(mut bytes) => {
            let sum = fnv1a(&bytes);
            bytes.extend_from_slice(&sum.to_le_bytes());
            bytes == image
        }
        Err(_) => false,
    }
}

/// Writes `guid` over `draft` in the literal that holds the image's GUID
/// (the third op's bytes) of a resource written by [`Structural::to_bytes`],
/// and renews the checksum.
pub fn replace_guid(bytes: &mut [u8], draft: &str, guid: &str) {
    assert_eq!(draft.len(), guid.len(), "a GUID has a fixed length");
    let at = bytes
        .windows(draft.len())
        .position(|w| w == draft.as_bytes())
        .expect("the template holds the draft GUID");
    bytes[at..at + guid.len()].copy_from_slice(guid.as_bytes());
    let end = bytes.len() - 8;
    let sum = fnv1a(&bytes[..end]);
    bytes[end..].copy_from_slice(&sum.to_le_bytes());
}

/// What the runtime needs: `resources/mofmu_struct.bin`.
pub struct Structural {
    /// The parameter's index in the Integer table and its name.
    pub integer: u32,
    pub name: String,
    pub n0: i64,
    pub n_min: i64,
    pub n_max: i64,
    /// The size the FMU starts at, when not `n0` (the runtime lays the
    /// instance out for it at instantiation).
    pub start: Option<i64>,
    pub template: Template,
}

impl Structural {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Vec::new();
        let str = |w: &mut Vec<u8>, s: &str| {
            w.extend_from_slice(&(s.len() as u32).to_le_bytes());
            w.extend_from_slice(s.as_bytes());
        };
        let aff = |w: &mut Vec<u8>, f: &Affine| {
            for v in [f.a, f.b, f.c] {
                w.extend_from_slice(&v.to_le_bytes());
            }
        };
        // Version 2 carries a stride per segment; a template without a
        // strided segment is written as version 1, as it always was.
        // Version 3 adds op 4 (and carries strides as version 2 does),
        // written only when the template computes a Real.
        let calc = self.template.ops.iter().any(|o| matches!(o, Op::Real(_)));
        let start = self.start.filter(|&n| n != self.n0);
        let strided =
            calc || start.is_some() || self.template.segments.iter().any(|s| s.stride != 1);
        w.extend_from_slice(STRUCT_MAGIC);
        w.extend_from_slice(
            &(if start.is_some() {
                STRUCT_VERSION_START
            } else if calc {
                STRUCT_VERSION_CALC
            } else if strided {
                STRUCT_VERSION_STRIDED
            } else {
                STRUCT_VERSION
            })
            .to_le_bytes(),
        );
        w.extend_from_slice(&self.integer.to_le_bytes());
        str(&mut w, &self.name);
        for v in [self.n0, self.n_min, self.n_max] {
            w.extend_from_slice(&v.to_le_bytes());
        }
        if let Some(n) = start {
            w.extend_from_slice(&n.to_le_bytes());
        }
        w.extend_from_slice(&(self.template.segments.len() as u32).to_le_bytes());
        for s in &self.template.segments {
            assert!(s.stride >= 1, "a segment's stride is at least 1");
            w.extend_from_slice(&s.vr0.to_le_bytes());
            w.extend_from_slice(&s.len0.to_le_bytes());
            for v in [s.start.a, s.start.b, s.len.a, s.len.b] {
                w.extend_from_slice(&v.to_le_bytes());
            }
            if strided {
                w.extend_from_slice(&s.stride.to_le_bytes());
            }
        }
        w.extend_from_slice(&(self.template.ops.len() as u32).to_le_bytes());
        for op in &self.template.ops {
            match op {
                Op::Literal(bytes) => {
                    w.push(0);
                    w.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
                    w.extend_from_slice(bytes);
                }
                Op::Int(width, f) => {
                    w.push(1);
                    w.push(match width {
                        Width::U32 => 0,
                        Width::I32 => 1,
                        Width::I64 => 2,
                    });
                    aff(&mut w, f);
                }
                Op::Loop { count, body } => {
                    w.push(2);
                    w.extend_from_slice(&count.a.to_le_bytes());
                    w.extend_from_slice(&count.b.to_le_bytes());
                    w.extend_from_slice(&body.to_le_bytes());
                }
                Op::Name {
                    prefix,
                    suffix,
                    index,
                } => {
                    w.push(3);
                    str(&mut w, prefix);
                    str(&mut w, suffix);
                    aff(&mut w, index);
                }
                Op::Real(steps) => {
                    w.push(4);
                    w.extend_from_slice(&(steps.len() as u32).to_le_bytes());
                    for step in steps {
                        let at = w.len();
                        let (tag, f) = match *step {
                            Step::Const(c) => (
                                0,
                                Affine {
                                    a: c.to_bits() as i64,
                                    b: 0,
                                    c: 0,
                                },
                            ),
                            Step::Int(f) => (1, f),
                            Step::Neg => (2, Affine { a: 0, b: 0, c: 0 }),
                            Step::Add => (3, Affine { a: 0, b: 0, c: 0 }),
                            Step::Sub => (4, Affine { a: 0, b: 0, c: 0 }),
                            Step::Mul => (5, Affine { a: 0, b: 0, c: 0 }),
                            Step::Div => (6, Affine { a: 0, b: 0, c: 0 }),
                        };
                        w.push(tag);
                        aff(&mut w, &f);
                        debug_assert_eq!(w.len() - at, STEP_BYTES);
                    }
                }
            }
        }
        let sum = fnv1a(&w);
        w.extend_from_slice(&sum.to_le_bytes());
        w
    }
}
