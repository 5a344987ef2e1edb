//! The system resource, `resources/mofmu_system.bin`: everything about a
//! model that grows with it (variables, instances, the schedule, declared
//! tearing) as data the runtime reads at `fmi2Instantiate`, so that the
//! compiled library depends on the model's classes only and is the same
//! for every array size and parameter value.
//!
//! The format (all integers little-endian, documented in docs/fmu.md):
//!
//! ```text
//! "MOFMUSYS"  u32 version  str guid  str model_identifier
//! u32 n_classes   { str name  u32 n_blocks  u32 n_slots  u32 n_ints  u32 n_own }
//! u32 n_reals  u32 n_integers  u32 n_booleans  u32 n_states
//! u32 n_event_indicators  u32 n_relations  u32 n_instances  u32 n_steps
//! u32 n_balances
//! f64 start[n_reals]  u8 kind[n_reals]  str name[n_reals]
//! i64 integer[n_integers]  u8 boolean[n_booleans]
//! u32 integer_real[n_integers]  u32 boolean_real[n_booleans]
//!                 (0xFFFFFFFF: a parameter, its value above; else the R
//!                  index of a discrete variable's value)
//! u32 state_vr[n_states]  u32 derivative_vr[n_states]
//! n_instances × { u32 class  str name  i32 relation_base  i32 indicator_base
//!                 i32 off[n_slots]  i64 ints[n_ints]  u8 own[n_own] }
//! n_steps × { u8 0  u32 target }                                  time
//!         | { u8 1  u32 instance  i32 stride  u32 block }         block
//!         | { u8 2  u32 target  i32 stride  u32 len  f64 coefficient
//!             u32 n_sources  n_sources × { u32 offset  i32 stride  u8 negative } }  copy
//!         | { u8 3  u32 count  u32 body }                         repeat
//!         | { u8 4  u32 units  u32 skew[units] }                  fused loop
//! u32 balance_vr[n_balances]  u32 residual_vr[n_balances]  str name[n_balances]
//! n_states × { u32 count  u32 state[count] }    (count 0xFFFFFFFF: every state)
//! u64 FNV-1a of every byte before it
//! ```
//!
//! where `str` is a `u32` byte length and UTF-8 bytes. A repeat runs the
//! `body` steps after it `count` times, in order, the `r`-th time (from 0)
//! with every instance and offset of its body advanced by `r` times its
//! stride; outside a repeat, strides are 0. It is how a schedule over
//! arrays of components stays small (see [`roll_up`]). A fused loop runs
//! the `units` units after it (a repeat with its body, or one block or
//! copy) as one loop over rounds, unit `u`'s round `r` in the loop's round
//! `r + skew[u]`, the units of one round in order (see
//! [`super::fusion`]). The per-class
//! lengths are those the compiled kernels expect; the runtime refuses a file
//! whose classes differ from its own.

use std::borrow::Cow;

/// What `mofmu_step.reached` holds: which passes of a tearing solve run
/// the step, one bit per pass (`MOFMU_PASS_*` in `mofmu_model.h`). A pass
/// runs a step whose bit it names; the whole pass of a model without
/// balances runs every step.
pub mod pass {
    /// The final pass, with the balances found, and the tangent passes of
    /// directional derivatives: the steps a balance reaches.
    pub const REACHED: u8 = 1;
    /// The tangent passes that fill the tearing matrix: the steps a balance
    /// reaches that a residual depends on.
    pub const COLUMNS: u8 = 2;
    /// The first pass, at zero balances: every step but those a balance
    /// reaches that no residual depends on.
    pub const FIRST: u8 = 4;
    /// A step of every pass (a schedule with no marks).
    pub const ALL: u8 = REACHED | COLUMNS | FIRST;
}

/// Identifies the file; the runtime refuses anything else.
pub const MAGIC: &[u8; 8] = b"MOFMUSYS";
/// Bumped on any change of the layout.
pub const VERSION: u32 = 7;
/// An Integer or Boolean parameter's entry in `integer_real`/`boolean_real`.
pub const NOT_IN_R: u32 = u32::MAX;
/// A row of the state Jacobian's pattern that depends on every state.
pub const FULL_ROW: u32 = u32::MAX;
/// Its name under `resources/` in the FMU.
pub const RESOURCE_NAME: &str = "mofmu_system.bin";

/// The per-class record, as compiled into the library.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassRecord {
    pub name: String,
    pub n_blocks: u32,
    pub n_slots: u32,
    pub n_ints: u32,
    pub n_own: u32,
}

/// A variable's record. The name is borrowed from the system it was made
/// from (a model of 10^5 chain elements has 1.2 million of them).
#[derive(Debug, Clone, PartialEq)]
pub struct RealRecord<'a> {
    pub start: Option<f64>,
    pub kind: u8,
    pub name: Cow<'a, str>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct InstanceRecord<'a> {
    pub class: u32,
    pub name: Cow<'a, str>,
    pub relation_base: i32,
    pub indicator_base: i32,
    pub off: Vec<i32>,
    pub ints: Vec<i64>,
    pub own: Vec<u8>,
}

/// One source of a copy: its offset, its stride in a repeat, and whether it
/// is subtracted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Source {
    pub offset: u32,
    pub stride: i32,
    pub negative: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StepRecord {
    /// `R[target] = time`.
    Time { target: u32 },
    /// Block `block` of instance `instance` (plus `r * stride` in the
    /// `r`-th round of a repeat).
    Block {
        instance: u32,
        stride: i32,
        block: u32,
    },
    /// `R[target + e] = coefficient * Σ ±R[offset + e]` for `e < len`
    /// (every offset plus `r` times its stride in a repeat's round `r`).
    Copy {
        target: u32,
        stride: i32,
        len: u32,
        coefficient: f64,
        sources: Vec<Source>,
    },
    /// The next `body` steps, run `count` times.
    Repeat { count: u32, body: u32 },
    /// The next `skews.len()` units (a repeat with its body, or one block
    /// or copy) run as one loop over rounds, unit `u`'s round `r` in the
    /// loop's round `r + skews[u]` (see [`super::fusion`]).
    Fuse { skews: Vec<u32> },
}

/// The end of the steps that the repeat or fused loop at `at` holds (they
/// follow it: a repeat's body, a fused loop's units with their bodies), or
/// `None` when `steps[at]` is neither.
pub fn held_until(steps: &[StepRecord], at: usize) -> Option<usize> {
    match &steps[at] {
        StepRecord::Repeat { body, .. } => Some(at + 1 + *body as usize),
        StepRecord::Fuse { skews } => {
            let mut end = at + 1;
            for _ in 0..skews.len() {
                end = held_until(steps, end).unwrap_or(end + 1);
            }
            Some(end)
        }
        _ => None,
    }
}

/// The longest body a repeat is looked for with: an element of a component
/// array with a handful of blocks and connections.
const MAX_BODY: usize = 16;

/// The fewest rounds a repeat is made of. Any two groups of one shape make
/// a repeat of two rounds; taking those would swallow the first rounds of
/// the true run into a repeat with a long body, so a run must show its
/// stride three times.
const MIN_ROUNDS: usize = 3;

/// A step's offsets (instance, or target and sources) and whether `b` has
/// the same shape as `a` (kind, class and block, or length, coefficient
/// and signs); `class_of` gives an instance's class.
fn same_shape(a: &StepRecord, b: &StepRecord, class_of: &dyn Fn(u32) -> u32) -> bool {
    match (a, b) {
        (
            StepRecord::Block {
                instance: i, block, ..
            },
            StepRecord::Block {
                instance: j,
                block: c,
                ..
            },
        ) => block == c && class_of(*i) == class_of(*j),
        (
            StepRecord::Copy {
                len,
                coefficient,
                sources,
                ..
            },
            StepRecord::Copy {
                len: l,
                coefficient: k,
                sources: s,
                ..
            },
        ) => {
            len == l
                && coefficient.to_bits() == k.to_bits()
                && sources.len() == s.len()
                && sources.iter().zip(s).all(|(x, y)| x.negative == y.negative)
        }
        _ => false,
    }
}

/// An instance's signature of the offsets in `R` that should advance by a
/// constant from round to round of a repeat, beside the instance itself:
/// those of the slots its elements may share
/// ([`crate::codegen::kernel::Kernel::shareable`]), as one weighted sum. A
/// slot bound to a model parameter (`a[n](each C = Ca)`) stays put, so the
/// elements of two arrays bound to two parameters (`b[n](each C = Cb)`)
/// form two repeats, each of which the runtime batches. The sum advances
/// evenly wherever its terms do; where it does by coincidence alone, the
/// repeat is still right (its rounds are the instances'), and the runtime
/// runs it without the batched entry.
pub type SharedOf<'a> = &'a dyn Fn(u32) -> i64;

/// [`SharedOf`] of a system whose instances share nothing.
pub fn shares_nothing(_: u32) -> i64 {
    0
}

/// The offsets a step's stride moves: its instance (and `shared`, its
/// [`SharedOf`] signature), or its target then its sources.
fn offsets<'s>(step: &'s StepRecord, shared: SharedOf<'_>) -> impl Iterator<Item = i64> + 's {
    let (first, sources, signature): (u32, &[Source], Option<i64>) = match step {
        StepRecord::Block { instance, .. } => (*instance, &[], Some(shared(*instance))),
        StepRecord::Copy {
            target, sources, ..
        } => (*target, sources, None),
        StepRecord::Time { .. } | StepRecord::Repeat { .. } | StepRecord::Fuse { .. } => {
            unreachable!("only blocks and copies repeat")
        }
    };
    std::iter::once(i64::from(first))
        .chain(sources.iter().map(|s| i64::from(s.offset)))
        .chain(signature)
}

/// How many times the `p` steps at `at` repeat, each round advancing every
/// offset by the difference between the first two rounds (1 when they do
/// not repeat at all).
fn repetitions(
    steps: &[StepRecord],
    at: usize,
    p: usize,
    class_of: &dyn Fn(u32) -> u32,
    shared_of: SharedOf<'_>,
) -> usize {
    let fits = |s: &StepRecord| matches!(s, StepRecord::Block { .. } | StepRecord::Copy { .. });
    if at + 2 * p > steps.len() {
        return 1;
    }
    let first = &steps[at..at + p];
    let second = &steps[at + p..at + 2 * p];
    if !first
        .iter()
        .zip(second)
        .all(|(a, b)| fits(a) && same_shape(a, b, class_of))
    {
        return 1;
    }
    let deltas: Vec<Vec<i64>> = first
        .iter()
        .zip(second)
        .map(|(a, b)| {
            offsets(b, shared_of)
                .zip(offsets(a, shared_of))
                .map(|(y, x)| y - x)
                .collect()
        })
        .collect();
    if deltas.iter().flatten().any(|d| i32::try_from(*d).is_err()) {
        return 1;
    }
    let mut k = 2;
    while at + (k + 1) * p <= steps.len() {
        let round = &steps[at + k * p..at + (k + 1) * p];
        let again = first.iter().zip(round).zip(&deltas).all(|((a, b), d)| {
            same_shape(a, b, class_of)
                && offsets(b, shared_of)
                    .zip(offsets(a, shared_of))
                    .zip(d)
                    .all(|((y, x), d)| y == x + d * k as i64)
        });
        if !again {
            break;
        }
        k += 1;
    }
    k
}

/// `a` with the strides that lead to `b`, the same step one round later.
fn with_strides(a: &StepRecord, b: &StepRecord) -> StepRecord {
    let stride = |x: u32, y: u32| {
        i32::try_from(i64::from(y) - i64::from(x)).expect("strides were checked to fit")
    };
    match (a, b) {
        (
            StepRecord::Block {
                instance, block, ..
            },
            StepRecord::Block { instance: j, .. },
        ) => StepRecord::Block {
            instance: *instance,
            stride: stride(*instance, *j),
            block: *block,
        },
        (
            StepRecord::Copy {
                target,
                len,
                coefficient,
                sources,
                ..
            },
            StepRecord::Copy {
                target: t,
                sources: s,
                ..
            },
        ) => StepRecord::Copy {
            target: *target,
            stride: stride(*target, *t),
            len: *len,
            coefficient: *coefficient,
            sources: sources
                .iter()
                .zip(s)
                .map(|(x, y)| Source {
                    stride: stride(x.offset, y.offset),
                    ..*x
                })
                .collect(),
        },
        _ => unreachable!("only blocks and copies of one shape repeat"),
    }
}

/// Rolls a schedule of plain steps up into repeats: wherever a group of up
/// to [`MAX_BODY`] steps recurs (at least [`MIN_ROUNDS`] times) with every instance and offset advancing by
/// a constant per round (an array of components, connected in a `for`
/// loop), one repeat of the group with its strides replaces the rounds.
/// The operations and their order are unchanged, so results are
/// bit-identical to the plain schedule; the size of the schedule no longer
/// grows with the arrays. `class_of` gives an instance's class, and
/// `shared_of` the signature of what must advance with it ([`SharedOf`]).
pub fn roll_up(
    steps: Vec<StepRecord>,
    class_of: &dyn Fn(u32) -> u32,
    shared_of: SharedOf<'_>,
) -> Vec<StepRecord> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < steps.len() {
        let mut best: Option<(usize, usize)> = None;
        for p in 1..=MAX_BODY.min((steps.len() - at) / 2) {
            let k = repetitions(&steps, at, p, class_of, shared_of);
            if k >= MIN_ROUNDS && best.map_or(true, |(bp, bk)| k * p > bk * bp) {
                best = Some((p, k));
            }
        }
        match best {
            Some((p, k)) => {
                out.push(StepRecord::Repeat {
                    count: u32_of(k),
                    body: u32_of(p),
                });
                for j in 0..p {
                    out.push(with_strides(&steps[at + j], &steps[at + p + j]));
                }
                at += k * p;
            }
            None => {
                out.push(steps[at].clone());
                at += 1;
            }
        }
    }
    out
}

/// The operations a schedule runs, in the order of its plain form: every
/// repeat unrolled into its rounds (each offset advanced by its stride,
/// strides 0), fused loops as their units run one after the other (a fused
/// loop computes what its units compute in schedule order, bit for bit:
/// [`super::fusion`]). Two schedules with the same plain form compute the
/// same values in the same order. None when the schedule is not one the
/// runtime accepts: a repeat without rounds or body, a body past the end,
/// or an offset outside 32 bits in some round.
pub fn plain_steps(steps: &[StepRecord]) -> Option<Vec<StepRecord>> {
    let at = |o: u32, s: i32, r: i64| u32::try_from(i64::from(o) + i64::from(s) * r).ok();
    let round = |step: &StepRecord, r: i64| -> Option<StepRecord> {
        Some(match step {
            StepRecord::Block {
                instance,
                stride,
                block,
            } => StepRecord::Block {
                instance: at(*instance, *stride, r)?,
                stride: 0,
                block: *block,
            },
            StepRecord::Copy {
                target,
                stride,
                len,
                coefficient,
                sources,
            } => StepRecord::Copy {
                target: at(*target, *stride, r)?,
                stride: 0,
                len: *len,
                coefficient: *coefficient,
                sources: sources
                    .iter()
                    .map(|s| {
                        Some(Source {
                            offset: at(s.offset, s.stride, r)?,
                            stride: 0,
                            negative: s.negative,
                        })
                    })
                    .collect::<Option<_>>()?,
            },
            StepRecord::Time { .. } => step.clone(),
            StepRecord::Repeat { .. } | StepRecord::Fuse { .. } => return None,
        })
    };
    let mut out = Vec::with_capacity(steps.len());
    let mut k = 0;
    while k < steps.len() {
        match &steps[k] {
            StepRecord::Fuse { .. } => k += 1,
            StepRecord::Repeat { count, body } => {
                let body = *body as usize;
                if *count == 0 || body == 0 || body > steps.len() - k - 1 {
                    return None;
                }
                for r in 0..i64::from(*count) {
                    for step in &steps[k + 1..=k + body] {
                        out.push(round(step, r)?);
                    }
                }
                k += 1 + body;
            }
            step => {
                out.push(round(step, 0)?);
                k += 1;
            }
        }
    }
    Some(out)
}

#[derive(Debug, Clone, PartialEq)]
pub struct BalanceRecord {
    pub balance: u32,
    pub residual: u32,
    pub name: String,
}

/// Everything the resource holds but the GUID.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SystemImage<'a> {
    pub model_identifier: String,
    pub classes: Vec<ClassRecord>,
    pub reals: Vec<RealRecord<'a>>,
    pub integers: Vec<i64>,
    pub booleans: Vec<bool>,
    /// Per Integer (Boolean) value reference: [`NOT_IN_R`] for a parameter,
    /// whose value is in `integers` (`booleans`), else the index in `R` of
    /// a discrete variable's value. Empty means every one is a parameter.
    pub integer_reals: Vec<u32>,
    pub boolean_reals: Vec<u32>,
    pub states: Vec<u32>,
    pub derivatives: Vec<u32>,
    pub n_event_indicators: u32,
    pub n_relations: u32,
    pub instances: Vec<InstanceRecord<'a>>,
    pub steps: Vec<StepRecord>,
    pub balances: Vec<BalanceRecord>,
    /// Per step, which passes of a tearing solve run it
    /// ([`pass`] bits, marked by [`super::responses`]): the passes after the first run
    /// only the steps a balance reaches, the first leaves out those whose
    /// values only the final pass gives. Empty means every pass runs every
    /// step.
    pub passes: Vec<u8>,
    /// The pattern of d(der x)/dx, one row per state (the states its
    /// derivative depends on, ascending; `None`: every state). The embedded
    /// Co-Simulation solver colours and orders its columns from it.
    pub jacobian: Vec<Option<Vec<u32>>>,
    /// Not written: the start values computed from Integer parameters
    /// (`System::start_calcs`: index in `R`, program), ascending, for an
    /// FMI 3.0 structural parameter's template.
    pub start_calcs: Vec<(u32, std::sync::Arc<[crate::ir::Calc]>)>,
}

/// A count or index that must fit the format's 32 bits. Exports are
/// limited far below (MX007), so this only fails on a bug.
pub(crate) fn u32_of(n: usize) -> u32 {
    u32::try_from(n).expect("the system resource counts in 32 bits (MX007 keeps models below)")
}

struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    /// An instance record of class `class`.
    fn instance(&mut self, inst: &InstanceRecord, class: &ClassRecord) {
        assert_eq!(
            (inst.off.len(), inst.ints.len(), inst.own.len()),
            (
                class.n_slots as usize,
                class.n_ints as usize,
                class.n_own as usize
            ),
            "every instance of {} has the class's table lengths",
            class.name
        );
        self.u32(inst.class);
        self.str(&inst.name);
        self.i32(inst.relation_base);
        self.i32(inst.indicator_base);
        for &o in &inst.off {
            self.i32(o);
        }
        for &v in &inst.ints {
            self.i64(v);
        }
        self.bytes.extend_from_slice(&inst.own);
    }

    /// A step of the schedule: its tag and its numbers.
    fn step(&mut self, step: &StepRecord) {
        match step {
            StepRecord::Time { target } => {
                self.u8(0);
                self.u32(*target);
            }
            StepRecord::Block {
                instance,
                stride,
                block,
            } => {
                self.u8(1);
                self.u32(*instance);
                self.i32(*stride);
                self.u32(*block);
            }
            StepRecord::Copy {
                target,
                stride,
                len,
                coefficient,
                sources,
            } => {
                self.u8(2);
                self.u32(*target);
                self.i32(*stride);
                self.u32(*len);
                self.f64(*coefficient);
                self.len(sources.len());
                for s in sources {
                    self.u32(s.offset);
                    self.i32(s.stride);
                    self.u8(u8::from(s.negative));
                }
            }
            StepRecord::Repeat { count, body } => {
                self.u8(3);
                self.u32(*count);
                self.u32(*body);
            }
            StepRecord::Fuse { skews } => {
                self.u8(4);
                self.len(skews.len());
                for &s in skews {
                    self.u32(s);
                }
            }
        }
    }
    fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn i64(&mut self, v: i64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn f64(&mut self, v: f64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn len(&mut self, n: usize) {
        self.u32(u32_of(n));
    }
    fn str(&mut self, s: &str) {
        self.len(s.len());
        self.bytes.extend_from_slice(s.as_bytes());
    }
}

/// FNV-1a, 64 bits: the runtime's check that the file arrived whole.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl SystemImage<'_> {
    /// The image with names of its own, no longer borrowed from the system
    /// it was made from.
    pub fn into_owned(self) -> SystemImage<'static> {
        SystemImage {
            model_identifier: self.model_identifier,
            classes: self.classes,
            reals: self
                .reals
                .into_iter()
                .map(|r| RealRecord {
                    start: r.start,
                    kind: r.kind,
                    name: Cow::Owned(r.name.into_owned()),
                })
                .collect(),
            integers: self.integers,
            booleans: self.booleans,
            integer_reals: self.integer_reals,
            boolean_reals: self.boolean_reals,
            states: self.states,
            derivatives: self.derivatives,
            n_event_indicators: self.n_event_indicators,
            n_relations: self.n_relations,
            instances: self
                .instances
                .into_iter()
                .map(|i| InstanceRecord {
                    class: i.class,
                    name: Cow::Owned(i.name.into_owned()),
                    relation_base: i.relation_base,
                    indicator_base: i.indicator_base,
                    off: i.off,
                    ints: i.ints,
                    own: i.own,
                })
                .collect(),
            steps: self.steps,
            balances: self.balances,
            passes: self.passes,
            jacobian: self.jacobian,
            start_calcs: self.start_calcs,
        }
    }

    /// The resource's bytes with `guid`.
    /// The length of [`SystemImage::to_bytes`]'s result, or a little more
    /// (steps are counted at their largest fixed size): reserved at once,
    /// a resource of tens of megabytes is never copied to grow.
    fn size_hint(&self, guid: &str) -> usize {
        let names: usize = self.reals.iter().map(|r| r.name.len() + 4).sum();
        let instances: usize = self
            .instances
            .iter()
            .map(|i| 20 + i.name.len() + 4 * i.off.len() + 8 * i.ints.len() + i.own.len())
            .sum();
        let steps: usize = self
            .steps
            .iter()
            .map(|s| match s {
                StepRecord::Copy { sources, .. } => 25 + 9 * sources.len(),
                StepRecord::Fuse { skews } => 5 + 4 * skews.len(),
                _ => 13,
            } + 1)
            .sum();
        let classes: usize = self.classes.iter().map(|c| 20 + c.name.len()).sum();
        let balances: usize = self.balances.iter().map(|b| 12 + b.name.len()).sum();
        let jacobian: usize = self
            .jacobian
            .iter()
            .map(|r| 4 + 4 * r.as_ref().map_or(0, Vec::len))
            .sum();
        let tables = 12 * self.integers.len() + 5 * self.booleans.len() + 8 * self.states.len();
        128 + guid.len()
            + self.model_identifier.len()
            + classes
            + self.reals.len() * 9
            + names
            + tables
            + instances
            + steps
            + balances
            + jacobian
    }

    pub fn to_bytes(&self, guid: &str) -> Vec<u8> {
        let hint = self.size_hint(guid);
        let mut w = Writer {
            bytes: Vec::with_capacity(hint),
        };
        w.bytes.extend_from_slice(MAGIC);
        w.u32(VERSION);
        w.str(guid);
        w.str(&self.model_identifier);
        w.len(self.classes.len());
        for c in &self.classes {
            w.str(&c.name);
            w.u32(c.n_blocks);
            w.u32(c.n_slots);
            w.u32(c.n_ints);
            w.u32(c.n_own);
        }
        for n in [
            self.reals.len(),
            self.integers.len(),
            self.booleans.len(),
            self.states.len(),
        ] {
            w.len(n);
        }
        w.u32(self.n_event_indicators);
        w.u32(self.n_relations);
        w.len(self.instances.len());
        w.len(self.steps.len());
        w.len(self.balances.len());
        for r in &self.reals {
            w.f64(r.start.unwrap_or(f64::NAN));
        }
        for r in &self.reals {
            w.u8(r.kind);
        }
        for r in &self.reals {
            w.str(&r.name);
        }
        for &v in &self.integers {
            w.i64(v);
        }
        for &b in &self.booleans {
            w.u8(u8::from(b));
        }
        for (values, in_r) in [
            (self.integers.len(), &self.integer_reals),
            (self.booleans.len(), &self.boolean_reals),
        ] {
            for k in 0..values {
                w.u32(in_r.get(k).copied().unwrap_or(NOT_IN_R));
            }
        }
        for &s in self.states.iter().chain(&self.derivatives) {
            w.u32(s);
        }
        for inst in &self.instances {
            w.instance(inst, &self.classes[inst.class as usize]);
        }
        for step in &self.steps {
            w.step(step);
        }
        for b in &self.balances {
            w.u32(b.balance);
        }
        for b in &self.balances {
            w.u32(b.residual);
        }
        for b in &self.balances {
            w.str(&b.name);
        }
        for k in 0..self.steps.len() {
            w.u8(self.passes.get(k).copied().unwrap_or(pass::ALL));
        }
        assert_eq!(
            self.jacobian.len(),
            self.states.len(),
            "one Jacobian row per state"
        );
        for row in &self.jacobian {
            match row {
                Some(states) => {
                    w.len(states.len());
                    for &s in states {
                        w.u32(s);
                    }
                }
                None => w.u32(FULL_ROW),
            }
        }
        let sum = fnv1a(&w.bytes);
        w.bytes.extend_from_slice(&sum.to_le_bytes());
        debug_assert!(w.bytes.len() <= hint, "the size hint covers the resource");
        w.bytes
    }
}

/// Writes `guid` over `draft` in the bytes of a resource written with
/// `draft` (same length), and renews the checksum.
pub fn replace_guid(bytes: &mut [u8], draft: &str, guid: &str) {
    assert_eq!(draft.len(), guid.len(), "a GUID has a fixed length");
    let at = MAGIC.len() + 8;
    assert_eq!(
        &bytes[at..at + draft.len()],
        draft.as_bytes(),
        "the draft GUID follows the header"
    );
    bytes[at..at + guid.len()].copy_from_slice(guid.as_bytes());
    let end = bytes.len() - 8;
    let sum = fnv1a(&bytes[..end]);
    bytes[end..].copy_from_slice(&sum.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_its_published_test_vectors() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn the_layout_starts_with_magic_version_and_guid_and_ends_with_the_checksum() {
        let image = SystemImage {
            model_identifier: "M".into(),
            ..SystemImage::default()
        };
        let bytes = image.to_bytes("{g}");
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!(bytes[8..12], VERSION.to_le_bytes());
        assert_eq!(bytes[12..16], 3u32.to_le_bytes());
        assert_eq!(&bytes[16..19], b"{g}");
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        assert_eq!(sum, fnv1a(body).to_le_bytes());
    }

    #[test]
    fn the_jacobian_pattern_ends_the_file_a_count_and_states_per_row() {
        let image = SystemImage {
            model_identifier: "M".into(),
            states: vec![1, 2],
            derivatives: vec![3, 4],
            jacobian: vec![Some(vec![0, 1]), None],
            ..SystemImage::default()
        };
        let bytes = image.to_bytes("{g}");
        let end = bytes.len() - 8;
        let mut expected = Vec::new();
        for v in [2u32, 0, 1, FULL_ROW] {
            expected.extend_from_slice(&v.to_le_bytes());
        }
        assert_eq!(&bytes[end - expected.len()..end], expected.as_slice());
    }

    /// The capacity reserved for the bytes covers every table, so a large
    /// resource is written without growing (and copying) its buffer; it
    /// overshoots by the unused room of the smaller steps only.
    #[test]
    fn the_size_hint_covers_every_table() {
        let image = SystemImage {
            model_identifier: "Model".into(),
            classes: vec![ClassRecord {
                name: "A.B".into(),
                n_blocks: 1,
                n_slots: 2,
                n_ints: 1,
                n_own: 3,
            }],
            reals: (0..5)
                .map(|i| RealRecord {
                    start: Some(f64::from(i)),
                    kind: 8,
                    name: format!("x[{i}]").into(),
                })
                .collect(),
            integers: vec![4, 5],
            booleans: vec![true],
            integer_reals: vec![NOT_IN_R, 3],
            boolean_reals: vec![NOT_IN_R],
            states: vec![1, 2],
            derivatives: vec![3, 4],
            instances: (0..3)
                .map(|i| InstanceRecord {
                    class: 0,
                    name: format!("a[{i}]").into(),
                    relation_base: 0,
                    indicator_base: 0,
                    off: vec![1, 2],
                    ints: vec![7],
                    own: vec![0, 1, 0],
                })
                .collect(),
            steps: vec![
                StepRecord::Time { target: 0 },
                StepRecord::Repeat { count: 3, body: 2 },
                block(0, 0),
                copy(1, &[(2, false), (3, true)]),
            ],
            balances: vec![BalanceRecord {
                balance: 1,
                residual: 2,
                name: "r".into(),
            }],
            jacobian: vec![Some(vec![0, 1]), None],
            ..SystemImage::default()
        };
        let bytes = image.to_bytes("{g}");
        let hint = image.size_hint("{g}");
        assert!(
            bytes.len() <= hint,
            "{} bytes, {hint} reserved",
            bytes.len()
        );
        assert!(
            hint - bytes.len() <= 128 + 3 * 8,
            "{} bytes, {hint} reserved",
            bytes.len()
        );
    }

    fn copy(target: u32, sources: &[(u32, bool)]) -> StepRecord {
        StepRecord::Copy {
            target,
            stride: 0,
            len: 1,
            coefficient: 1.0,
            sources: sources
                .iter()
                .map(|&(offset, negative)| Source {
                    offset,
                    stride: 0,
                    negative,
                })
                .collect(),
        }
    }

    fn block(instance: u32, block: u32) -> StepRecord {
        StepRecord::Block {
            instance,
            stride: 0,
            block,
        }
    }

    #[test]
    fn rolling_up_keeps_every_step_in_order_and_rolls_up_the_rounds_of_an_array() {
        // Instances 1..=5 of class 1, 6..=10 of class 2: blocks over one
        // array, then pairs of copies per element, then a block of another
        // class that must not join the run, then copies of another shape.
        let class_of = |i: u32| if i <= 5 { 1 } else { 2 };
        let mut steps = vec![StepRecord::Time { target: 0 }];
        steps.extend((1..=5).map(|i| block(i, 0)));
        for e in 0..4u32 {
            steps.push(copy(100 + 7 * e, &[(200 + 3 * e, false)]));
            steps.push(copy(101 + 7 * e, &[(200 + 3 * e, false), (300 - e, true)]));
        }
        steps.push(block(6, 0));
        steps.push(copy(50, &[(51, false)]));
        steps.push(copy(60, &[(61, true)]));
        steps.push(copy(70, &[(71, false)]));
        let rolled = roll_up(steps.clone(), &class_of, &shares_nothing);
        assert_eq!(plain_steps(&rolled).unwrap(), steps);
        assert_eq!(rolled[1], StepRecord::Repeat { count: 5, body: 1 });
        assert_eq!(
            rolled[2],
            StepRecord::Block {
                instance: 1,
                stride: 1,
                block: 0
            }
        );
        assert_eq!(rolled[3], StepRecord::Repeat { count: 4, body: 2 });
        let StepRecord::Copy {
            stride, sources, ..
        } = &rolled[5]
        else {
            panic!("the pair's second copy: {:?}", rolled[5]);
        };
        assert_eq!(*stride, 7);
        assert_eq!(
            sources.iter().map(|s| s.stride).collect::<Vec<_>>(),
            vec![3, -1]
        );
        // The block of class 2 and the copies of differing signs stay plain.
        assert_eq!(rolled.len(), 6 + 4);
    }

    #[test]
    fn elements_reading_two_shared_parameters_roll_up_into_two_repeats() {
        // Instances 1..=8 of one class: 1..=4 read a shared parameter at
        // 900 (`a[4](each C = Ca)`), 5..=8 one at 901 (`b[4](each C =
        // Cb)`); by instance alone they would be one repeat of 8 rounds,
        // over which the parameter does not advance evenly.
        let shared_of = |i: u32| if i > 4 { 901 } else { 900 };
        let mut steps = vec![StepRecord::Time { target: 0 }];
        steps.extend((1..=8).map(|i| block(i, 0)));
        let rolled = roll_up(steps.clone(), &|_| 1, &shared_of);
        assert_eq!(plain_steps(&rolled).unwrap(), steps);
        assert_eq!(rolled[1], StepRecord::Repeat { count: 4, body: 1 });
        assert_eq!(rolled[3], StepRecord::Repeat { count: 4, body: 1 });
        assert_eq!(rolled.len(), 5);
        // Read in place by every element alike, they are one repeat.
        let rolled = roll_up(steps, &|_| 1, &|_| 900);
        assert_eq!(rolled[1], StepRecord::Repeat { count: 8, body: 1 });
    }

    /// Two rounds rolled (what a template keeps rolled below the sizes the
    /// exporter rolls) and the same two rounds plain have one plain form;
    /// a fused loop's record adds no operation; a repeat of no rounds, a
    /// body past the end and a round below offset 0 are no schedule the
    /// runtime accepts.
    #[test]
    fn plain_steps_unroll_repeats_and_refuse_what_the_runtime_refuses() {
        let plain = vec![
            StepRecord::Time { target: 0 },
            block(4, 1),
            copy(20, &[(30, true)]),
            block(5, 1),
            copy(22, &[(31, true)]),
        ];
        let stride = |s: StepRecord, by: i32, source: i32| match s {
            StepRecord::Block {
                instance, block, ..
            } => StepRecord::Block {
                instance,
                stride: by,
                block,
            },
            StepRecord::Copy {
                target,
                len,
                coefficient,
                sources,
                ..
            } => StepRecord::Copy {
                target,
                stride: by,
                len,
                coefficient,
                sources: sources
                    .into_iter()
                    .map(|x| Source {
                        stride: source,
                        ..x
                    })
                    .collect(),
            },
            other => other,
        };
        let rolled = vec![
            StepRecord::Time { target: 0 },
            StepRecord::Fuse { skews: vec![0] },
            StepRecord::Repeat { count: 2, body: 2 },
            stride(block(4, 1), 1, 0),
            stride(copy(20, &[(30, true)]), 2, 1),
        ];
        assert_eq!(plain_steps(&rolled).unwrap(), plain);
        assert_eq!(plain_steps(&plain).unwrap(), plain);
        let mut none = rolled.clone();
        none[2] = StepRecord::Repeat { count: 0, body: 2 };
        assert_eq!(plain_steps(&none), None);
        let mut past = rolled.clone();
        past[2] = StepRecord::Repeat { count: 2, body: 3 };
        assert_eq!(plain_steps(&past), None);
        let mut below = rolled;
        below[4] = stride(copy(20, &[(30, true)]), 2, -31);
        assert_eq!(plain_steps(&below), None);
    }

    #[test]
    fn replacing_the_guid_gives_the_bytes_written_with_it() {
        let image = SystemImage {
            model_identifier: "M".into(),
            n_relations: 3,
            ..SystemImage::default()
        };
        let mut bytes = image.to_bytes("{aaaa}");
        replace_guid(&mut bytes, "{aaaa}", "{bbbb}");
        assert_eq!(bytes, image.to_bytes("{bbbb}"));
    }
}
