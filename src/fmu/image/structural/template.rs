//! Deriving a structural parameter's [`Template`] from the system images
//! at two consecutive sizes: every count, offset and index on the straight
//! line through them, every variable-length table a list of runs
//! (`super` describes the template and the resource it is written into).

use super::model::{Affine, NotAffine, Op, Segment, Step, Template, Width};
use crate::fmu::image::system_image::pass;
use crate::fmu::image::system_image::{
    InstanceRecord, Source, StepRecord, SystemImage, FULL_ROW, MAGIC, VERSION,
};
use crate::ir::Calc;

/// A start value the template writes: the same bytes at every size, or
/// computed from n.
#[derive(Debug, Clone, PartialEq)]
enum Start {
    Same([u8; 8]),
    Computed(Vec<Step>),
}

/// Builds the template from the images at `n0` (`i0`) and `n0 + 1` (`i1`).
struct Builder {
    n0: i64,
    ops: Vec<Op>,
    /// Ops before this index belong to a finished loop's body: a literal
    /// after the loop must not be merged into them.
    sealed: usize,
}

impl Builder {
    fn lit(&mut self, bytes: &[u8]) {
        if let (true, Some(Op::Literal(l))) = (self.ops.len() > self.sealed, self.ops.last_mut()) {
            l.extend_from_slice(bytes);
        } else {
            self.ops.push(Op::Literal(bytes.to_vec()));
        }
    }
    fn str(&mut self, s: &str) {
        self.lit(&(s.len() as u32).to_le_bytes());
        self.lit(s.as_bytes());
    }
    fn same_str(&mut self, what: &str, a: &str, b: &str) -> Result<(), NotAffine> {
        if a != b {
            return Err(format!("{what} differs between sizes (\"{a}\", \"{b}\")"));
        }
        self.str(a);
        Ok(())
    }
    /// The affine function through (n0, v0) and (n0 + 1, v1).
    fn affine(&self, v0: i64, v1: i64) -> Affine {
        let b = v1 - v0;
        Affine {
            a: v0 - b * self.n0,
            b,
            c: 0,
        }
    }
    fn int(&mut self, width: Width, v0: i64, v1: i64) {
        if v0 == v1 {
            match width {
                Width::U32 => self.lit(&(v0 as u32).to_le_bytes()),
                Width::I32 => self.lit(&(v0 as i32).to_le_bytes()),
                Width::I64 => self.lit(&v0.to_le_bytes()),
            }
        } else {
            let f = self.affine(v0, v1);
            self.ops.push(Op::Int(width, f));
        }
    }
    /// `a + b·n + c·k` through (n0, v0) and (n0 + 1, v1), for the k-th
    /// pass of a loop: a literal only when it is the same everywhere.
    fn int_k(&mut self, width: Width, v0: i64, v1: i64, c: i64) {
        if c == 0 {
            self.int(width, v0, v1);
        } else {
            let mut f = self.affine(v0, v1);
            f.c = c;
            self.ops.push(Op::Int(width, f));
        }
    }
    /// The start value of Real `j0` of `i0` and `j1` of `i1`: the same
    /// bytes, or one program computing both (its Integers affine through
    /// the two sizes), else why not.
    fn start_of(
        &self,
        i0: &SystemImage,
        j0: usize,
        i1: &SystemImage,
        j1: usize,
    ) -> Result<Start, NotAffine> {
        let (s0, s1) = (i0.reals[j0].start, i1.reals[j1].start);
        if s0.map(f64::to_bits) == s1.map(f64::to_bits) {
            return Ok(Start::Same(s0.unwrap_or(f64::NAN).to_le_bytes()));
        }
        let program = calc_at(i0, j0)
            .zip(calc_at(i1, j1))
            .filter(|(c0, c1)| c0.len() == c1.len())
            .and_then(|(c0, c1)| {
                c0.iter()
                    .zip(c1)
                    .map(|(x, y)| {
                        Some(match (x, y) {
                            (Calc::Const(a), Calc::Const(b)) if a.to_bits() == b.to_bits() => {
                                Step::Const(*a)
                            }
                            (Calc::Int(a), Calc::Int(b)) => Step::Int(self.affine(*a, *b)),
                            (Calc::Neg, Calc::Neg) => Step::Neg,
                            (Calc::Add, Calc::Add) => Step::Add,
                            (Calc::Sub, Calc::Sub) => Step::Sub,
                            (Calc::Mul, Calc::Mul) => Step::Mul,
                            (Calc::Div, Calc::Div) => Step::Div,
                            _ => return None,
                        })
                    })
                    .collect::<Option<Vec<Step>>>()
            });
        program.map(Start::Computed).ok_or_else(|| {
            format!(
                "the start value of {} changes with the size, and not by a computation from \
                 Integer parameters with + - * / that the template can repeat",
                i0.reals[j0].name
            )
        })
    }
    fn start(&mut self, start: &Start) {
        match start {
            Start::Same(bytes) => self.lit(bytes),
            Start::Computed(steps) => self.ops.push(Op::Real(steps.clone())),
        }
    }
    fn u32(&mut self, v0: u32, v1: u32) {
        self.int(Width::U32, i64::from(v0), i64::from(v1));
    }
    fn same_len(&self, what: &str, a: usize, b: usize) -> Result<(), NotAffine> {
        if a != b {
            return Err(format!("the number of {what} changes with the size"));
        }
        Ok(())
    }
    /// A loop over `count` (at n0 and n0 + 1) whose body `body` emits.
    fn repeat(&mut self, c0: usize, c1: usize, body: impl FnOnce(&mut Builder)) {
        let count = self.affine(c0 as i64, c1 as i64);
        let at = self.ops.len();
        self.ops.push(Op::Loop { count, body: 0 });
        body(self);
        let n = (self.ops.len() - at - 1) as u32;
        self.ops[at] = Op::Loop { count, body: n };
        self.sealed = self.ops.len();
    }
}

/// The program of Real `r`'s start value, when the instantiator folded it
/// from Integer parameters.
fn calc_at<'x>(image: &'x SystemImage, r: usize) -> Option<&'x [Calc]> {
    let r = u32::try_from(r).ok()?;
    image
        .start_calcs
        .binary_search_by_key(&r, |(i, _)| *i)
        .ok()
        .map(|i| &*image.start_calcs[i].1)
}

/// A run of Reals named `prefix k suffix` for consecutive k (or one scalar).
#[derive(Debug, Clone, PartialEq)]
struct RealRun {
    first: usize,
    len: usize,
    /// (prefix, suffix, first index) of an indexed run; None: a scalar.
    indexed: Option<(String, String, i64)>,
}

/// `a.b[12].c` → ("a.b[", "].c", 12): the last bracketed whole number.
fn indexed_name(name: &str) -> Option<(&str, &str, i64)> {
    let close = name.rfind(']')?;
    let open = name[..close].rfind('[')?;
    let digits = &name[open + 1..close];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 12 {
        return None;
    }
    Some((&name[..=open], &name[close..], digits.parse().ok()?))
}

fn real_runs(image: &SystemImage) -> Vec<RealRun> {
    let mut runs: Vec<RealRun> = Vec::new();
    for (i, r) in image.reals.iter().enumerate() {
        let here = indexed_name(&r.name);
        if let (Some(last), Some((p, s, k))) = (runs.last_mut(), here) {
            if let Some((lp, ls, k0)) = &last.indexed {
                let prev = &image.reals[i - 1];
                if lp == p
                    && ls == s
                    && *k0 + last.len as i64 == k
                    && prev.kind == r.kind
                    && prev.start.map(f64::to_bits) == r.start.map(f64::to_bits)
                {
                    last.len += 1;
                    continue;
                }
            }
        }
        runs.push(RealRun {
            first: i,
            len: 1,
            indexed: here.map(|(p, s, k)| (p.to_string(), s.to_string(), k)),
        });
    }
    runs
}

/// Maximal runs `v, v+1, v+2, …` of a list: (first value, length).
fn unit_runs(list: &[u32]) -> Vec<(u32, usize)> {
    let mut runs: Vec<(u32, usize)> = Vec::new();
    for &v in list {
        match runs.last_mut() {
            Some((f, l)) if u64::from(*f) + *l as u64 == u64::from(v) => *l += 1,
            _ => runs.push((v, 1)),
        }
    }
    runs
}

/// The Jacobian's rows as runs of rows with the same entries relative to
/// the row: (first row, rows, relative entries or None for a full row).
fn row_runs(rows: &[Option<Vec<u32>>]) -> Vec<(usize, usize, Option<Vec<i64>>)> {
    let mut runs: Vec<(usize, usize, Option<Vec<i64>>)> = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let rel = row.as_ref().map(|cols| {
            cols.iter()
                .map(|&c| i64::from(c) - r as i64)
                .collect::<Vec<_>>()
        });
        match runs.last_mut() {
            Some((_, l, p)) if *p == rel => *l += 1,
            _ => runs.push((r, 1, rel)),
        }
    }
    runs
}

/// The template of the images `i0` at `n0` and `i1` at `n0 + 1` (see the
/// module's documentation), or why they are not affine in the parameter.
/// `draft_guid` is the GUID both were written with.
pub fn template(
    i0: &SystemImage,
    i1: &SystemImage,
    n0: i64,
    guid: &str,
) -> Result<Template, NotAffine> {
    let mut b = Builder {
        n0,
        ops: Vec::new(),
        sealed: 0,
    };
    b.lit(MAGIC);
    b.lit(&VERSION.to_le_bytes());
    b.str(guid);
    b.same_str(
        "the model identifier",
        &i0.model_identifier,
        &i1.model_identifier,
    )?;
    if i0.classes != i1.classes {
        return Err("the classes differ between sizes".into());
    }
    b.lit(&(i0.classes.len() as u32).to_le_bytes());
    for c in &i0.classes {
        b.str(&c.name);
        for v in [c.n_blocks, c.n_slots, c.n_ints, c.n_own] {
            b.lit(&v.to_le_bytes());
        }
    }
    b.same_len("Integers", i0.integers.len(), i1.integers.len())?;
    b.same_len("Booleans", i0.booleans.len(), i1.booleans.len())?;
    b.same_len("schedule steps", i0.steps.len(), i1.steps.len())?;
    b.same_len("linear responses", i0.balances.len(), i1.balances.len())?;
    for (x, y) in [
        (i0.reals.len(), i1.reals.len()),
        (i0.integers.len(), i1.integers.len()),
        (i0.booleans.len(), i1.booleans.len()),
        (i0.states.len(), i1.states.len()),
    ] {
        b.u32(x as u32, y as u32);
    }
    b.u32(i0.n_event_indicators, i1.n_event_indicators);
    b.u32(i0.n_relations, i1.n_relations);
    b.u32(i0.instances.len() as u32, i1.instances.len() as u32);
    for x in [i0.steps.len(), i0.balances.len()] {
        b.lit(&(x as u32).to_le_bytes());
    }
    let segments = reals(&mut b, i0, i1)?;
    for (&x, &y) in i0.integers.iter().zip(&i1.integers) {
        b.int(Width::I64, x, y);
    }
    if i0.booleans != i1.booleans {
        return Err("a Boolean parameter changes with the size".into());
    }
    for &v in &i0.booleans {
        b.lit(&[u8::from(v)]);
    }
    for (t0, t1, len) in [
        (&i0.integer_reals, &i1.integer_reals, i0.integers.len()),
        (&i0.boolean_reals, &i1.boolean_reals, i0.booleans.len()),
    ] {
        for k in 0..len {
            let get = |t: &Vec<u32>| {
                t.get(k)
                    .copied()
                    .unwrap_or(crate::fmu::image::system_image::NOT_IN_R)
            };
            b.u32(get(t0), get(t1));
        }
    }
    index_list(&mut b, "states", &i0.states, &i1.states)?;
    index_list(&mut b, "derivatives", &i0.derivatives, &i1.derivatives)?;
    instances(&mut b, i0, i1)?;
    steps(&mut b, i0, i1)?;
    for (x, y) in i0.balances.iter().zip(&i1.balances) {
        b.u32(x.balance, y.balance);
    }
    for (x, y) in i0.balances.iter().zip(&i1.balances) {
        b.u32(x.residual, y.residual);
    }
    for (x, y) in i0.balances.iter().zip(&i1.balances) {
        b.same_str("a linear response's name", &x.name, &y.name)?;
    }
    // The passes of a tearing solve that run each step (one byte per step,
    // as written by SystemImage::to_bytes): the same at both sizes, or not
    // affine.
    for k in 0..i0.steps.len() {
        let at = |i: &SystemImage| i.passes.get(k).copied().unwrap_or(pass::ALL);
        if at(i0) != at(i1) {
            return Err(format!(
                "which passes of a linear response's solve run schedule step {k} changes with the size"
            ));
        }
        b.lit(&[at(i0)]);
    }
    jacobian(&mut b, i0, i1)?;
    Ok(Template {
        ops: b.ops,
        segments,
    })
}

/// Start values, kinds and names of the Reals, run by run; the runs give
/// the value-reference map. Runs of one name pattern (`rod.T[k]`) when
/// they are the same runs at both sizes, else runs of blocks
/// ([`block_reals`]: the members of a component array's instances).
fn reals(b: &mut Builder, i0: &SystemImage, i1: &SystemImage) -> Result<Vec<Segment>, NotAffine> {
    let (r0, r1) = (real_runs(i0), real_runs(i1));
    if r0.len() != r1.len() {
        return block_reals(b, i0, i1);
    }
    let mut segments = Vec::with_capacity(r0.len());
    for (x, y) in r0.iter().zip(&r1) {
        let (v0, v1) = (&i0.reals[x.first], &i1.reals[y.first]);
        let same = match (&x.indexed, &y.indexed) {
            (None, None) => v0.name == v1.name,
            (Some((p, s, _)), Some((q, t, _))) => p == q && s == t,
            _ => false,
        };
        if !same || v0.kind != v1.kind {
            return Err(format!(
                "the Reals at {} differ between sizes (a kind or name)",
                v0.name
            ));
        }
        b.start_of(i0, x.first, i1, y.first)?;
        segments.push(Segment {
            vr0: x.first as u32,
            len0: x.len as u32,
            start: b.affine(x.first as i64, y.first as i64),
            len: b.affine(x.len as i64, y.len as i64),
            stride: 1,
        });
    }
    let constant = |s: &Segment| s.len.b == 0;
    for ((s, x), y) in segments.iter().zip(&r0).zip(&r1) {
        if constant(s) {
            for j in 0..x.len {
                let start = b.start_of(i0, x.first + j, i1, y.first + j)?;
                b.start(&start);
            }
        } else {
            let start = b.start_of(i0, x.first, i1, y.first)?;
            let (c0, c1) = (x.len, (s.len.at(b.n0 + 1, 0)) as usize);
            b.repeat(c0, c1, |b| b.start(&start));
        }
    }
    for (s, x) in segments.iter().zip(&r0) {
        let kind = [i0.reals[x.first].kind];
        if constant(s) {
            for _ in 0..x.len {
                b.lit(&kind);
            }
        } else {
            let c1 = s.len.at(b.n0 + 1, 0) as usize;
            b.repeat(x.len, c1, |b| b.lit(&kind));
        }
    }
    for ((s, x), y) in segments.iter().zip(&r0).zip(&r1) {
        match (&x.indexed, constant(s)) {
            (None, _) => b.str(&i0.reals[x.first].name),
            (Some(_), true) if x.indexed == y.indexed => {
                for r in &i0.reals[x.first..x.first + x.len] {
                    b.str(&r.name);
                }
            }
            (Some((prefix, suffix, k0)), _) => {
                let k1 = y.indexed.as_ref().map_or(0, |t| t.2);
                let mut index = b.affine(*k0, k1);
                index.c = 1;
                let (prefix, suffix) = (prefix.clone(), suffix.clone());
                b.repeat(x.len, y.len, |b| {
                    b.ops.push(Op::Name {
                        prefix,
                        suffix,
                        index,
                    })
                });
            }
        }
    }
    Ok(segments)
}

/// The longest period of a block of Reals [`block_runs`] looks for.
const MAX_PERIOD: usize = 256;

/// Reals `first .. first + period·blocks`: `blocks` blocks of `period`
/// Reals; Real `first + j·period + i` is named `prefix_i (k0 + j) suffix_i`
/// and has member i's kind and start value. A Real whose name has no index
/// is a run of its own (`scalar`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BlockRun {
    first: usize,
    period: usize,
    blocks: usize,
    k0: i64,
    scalar: bool,
}

/// How many blocks of `m` Reals from `i` on repeat the first block with
/// the index counting up (0 when the first block is not `m` Reals of one
/// index).
fn repeats(image: &SystemImage, i: usize, m: usize) -> usize {
    let reals = &image.reals;
    let key = |r: usize| {
        indexed_name(&reals[r].name)
            .map(|(p, s, k)| (p, s, k, reals[r].kind, reals[r].start.map(f64::to_bits)))
    };
    let first: Vec<_> = (i..i + m).map(key).collect();
    let Some(Some((_, _, k0, _, _))) = first.first().copied() else {
        return 0;
    };
    if first.iter().any(|x| !matches!(x, Some(y) if y.2 == k0)) {
        return 0;
    }
    let mut blocks = 1;
    while i + (blocks + 1) * m <= reals.len() {
        let at = i + blocks * m;
        let same = (0..m).all(|r| match (key(at + r), first[r]) {
            (Some((p, s, k, kind, st)), Some((q, t, _, kind0, st0))) => {
                p == q && s == t && kind == kind0 && st == st0 && k == k0 + blocks as i64
            }
            _ => false,
        });
        if !same {
            break;
        }
        blocks += 1;
    }
    blocks
}

/// The Reals as [`BlockRun`]s: at each Real the shortest period that
/// repeats at least twice, else a run of one Real.
fn block_runs(image: &SystemImage) -> Vec<BlockRun> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < image.reals.len() {
        let left = image.reals.len() - i;
        let found = (1..=MAX_PERIOD.min(left / 2))
            .map(|m| (m, repeats(image, i, m)))
            .find(|&(_, blocks)| blocks >= 2);
        let here = indexed_name(&image.reals[i].name);
        let (period, blocks) = found.unwrap_or((1, 1));
        runs.push(BlockRun {
            first: i,
            period,
            blocks,
            k0: here.map_or(0, |h| h.2),
            scalar: here.is_none(),
        });
        i += period * blocks;
    }
    runs
}

/// The Reals as runs of blocks (see [`BlockRun`]): a run whose number of
/// blocks follows the parameter is a loop, and each of its members is one
/// segment of stride `period`; any other run is a fixed list of Reals.
fn block_reals(
    b: &mut Builder,
    i0: &SystemImage,
    i1: &SystemImage,
) -> Result<Vec<Segment>, NotAffine> {
    let (r0, r1) = (block_runs(i0), block_runs(i1));
    if r0.len() != r1.len() {
        return Err("the Reals do not form the same runs at two sizes".into());
    }
    let mut segments = Vec::new();
    for (x, y) in r0.iter().zip(&r1) {
        let members = |i: &SystemImage, r: &BlockRun| -> Vec<(String, u8)> {
            (r.first..r.first + r.period)
                .map(|j| {
                    let v = &i.reals[j];
                    let name = match indexed_name(&v.name) {
                        Some((p, s, _)) if !r.scalar => format!("{p}\u{0}{s}"),
                        _ => v.name.to_string(),
                    };
                    (name, v.kind)
                })
                .collect()
        };
        if x.period != y.period || x.scalar != y.scalar || members(i0, x) != members(i1, y) {
            return Err(format!(
                "the Reals at {} differ between sizes (a kind or name)",
                i0.reals[x.first].name
            ));
        }
        for j in 0..x.period {
            b.start_of(i0, x.first + j, i1, y.first + j)?;
        }
        let varying = x.blocks != y.blocks || x.k0 != y.k0;
        if !varying {
            segments.push(Segment {
                vr0: x.first as u32,
                len0: (x.period * x.blocks) as u32,
                start: b.affine(x.first as i64, y.first as i64),
                len: b.affine((x.period * x.blocks) as i64, (y.period * y.blocks) as i64),
                stride: 1,
            });
        } else {
            for m in 0..x.period {
                segments.push(Segment {
                    vr0: (x.first + m) as u32,
                    len0: x.blocks as u32,
                    start: b.affine((x.first + m) as i64, (y.first + m) as i64),
                    len: b.affine(x.blocks as i64, y.blocks as i64),
                    stride: x.period as i64,
                });
            }
        }
    }
    let range = |r: &BlockRun| r.first..r.first + r.period * r.blocks;
    let fixed = |x: &BlockRun, y: &BlockRun| x.blocks == y.blocks && x.k0 == y.k0;
    for (x, y) in r0.iter().zip(&r1) {
        if fixed(x, y) {
            for j in 0..x.period * x.blocks {
                let start = b.start_of(i0, x.first + j, i1, y.first + j)?;
                b.start(&start);
            }
        } else {
            let block = (0..x.period)
                .map(|j| b.start_of(i0, x.first + j, i1, y.first + j))
                .collect::<Result<Vec<Start>, NotAffine>>()?;
            b.repeat(x.blocks, y.blocks, |b| {
                for start in &block {
                    b.start(start);
                }
            });
        }
    }
    for (x, y) in r0.iter().zip(&r1) {
        let block: Vec<u8> = i0.reals[x.first..x.first + x.period]
            .iter()
            .map(|r| r.kind)
            .collect();
        if fixed(x, y) {
            for r in &i0.reals[range(x)] {
                b.lit(&[r.kind]);
            }
        } else {
            b.repeat(x.blocks, y.blocks, |b| b.lit(&block));
        }
    }
    for (x, y) in r0.iter().zip(&r1) {
        if fixed(x, y) {
            for r in &i0.reals[range(x)] {
                b.str(&r.name);
            }
        } else {
            let mut index = b.affine(x.k0, y.k0);
            index.c = 1;
            let parts: Vec<(String, String)> = i0.reals[x.first..x.first + x.period]
                .iter()
                .map(|r| {
                    let (p, s, _) = indexed_name(&r.name).expect("a block's Reals are indexed");
                    (p.to_string(), s.to_string())
                })
                .collect();
            b.repeat(x.blocks, y.blocks, |b| {
                for (prefix, suffix) in parts {
                    b.ops.push(Op::Name {
                        prefix,
                        suffix,
                        index,
                    });
                }
            });
        }
    }
    Ok(segments)
}

/// Maximal runs `v, v+d, v+2d, …` (d > 0) of a list: (first value,
/// length, d); a run of one value has d = 0.
fn strided_runs(list: &[u32]) -> Vec<(u32, usize, i64)> {
    let mut runs: Vec<(u32, usize, i64)> = Vec::new();
    for &v in list {
        match runs.last_mut() {
            Some((f, l, d)) if *l == 1 && i64::from(v) > i64::from(*f) => {
                *d = i64::from(v) - i64::from(*f);
                *l = 2;
            }
            Some((f, l, d)) if *l > 1 && i64::from(*f) + *l as i64 * *d == i64::from(v) => *l += 1,
            _ => runs.push((v, 1, 0)),
        }
    }
    runs
}

/// A list of value references or state indices as runs `v, v+1, …`, or,
/// when those are not the same runs at both sizes, as runs `v, v+d, …`
/// (the states of a component array's instances, d apart in `R`).
fn index_list(b: &mut Builder, what: &str, l0: &[u32], l1: &[u32]) -> Result<(), NotAffine> {
    let (r0, r1) = (unit_runs(l0), unit_runs(l1));
    if r0.len() != r1.len() {
        return strided_list(b, what, l0, l1);
    }
    for (&(f0, n0), &(f1, n1)) in r0.iter().zip(&r1) {
        if n0 == n1 {
            for k in 0..n0 as u32 {
                b.u32(f0 + k, f1 + k);
            }
        } else {
            let mut first = b.affine(i64::from(f0), i64::from(f1));
            first.c = 1;
            b.repeat(n0, n1, |b| b.ops.push(Op::Int(Width::U32, first)));
        }
    }
    Ok(())
}

fn strided_list(b: &mut Builder, what: &str, l0: &[u32], l1: &[u32]) -> Result<(), NotAffine> {
    let (r0, r1) = (strided_runs(l0), strided_runs(l1));
    let not_affine = || Err(format!("the {what} do not form the same runs at two sizes"));
    if r0.len() != r1.len() {
        return not_affine();
    }
    for (&(f0, n0, d0), &(f1, n1, d1)) in r0.iter().zip(&r1) {
        if n0 == n1 {
            for k in 0..n0 as i64 {
                b.u32(
                    (i64::from(f0) + k * d0) as u32,
                    (i64::from(f1) + k * d1) as u32,
                );
            }
            continue;
        }
        let d = match (n0 > 1, n1 > 1) {
            (true, true) if d0 != d1 => return not_affine(),
            (true, _) => d0,
            (_, true) => d1,
            _ => 0,
        };
        let mut first = b.affine(i64::from(f0), i64::from(f1));
        first.c = d;
        b.repeat(n0, n1, |b| b.ops.push(Op::Int(Width::U32, first)));
    }
    Ok(())
}

/// Maximal runs of instances `p[k]s, p[k+1]s, …` of one class and the same
/// `own` bytes whose offsets, bases and integers step by the same amount
/// from one to the next: (first, length).
fn instance_runs(image: &SystemImage) -> Vec<(usize, usize)> {
    let inst = &image.instances;
    let step = |i: usize| -> Option<Vec<i64>> {
        let (x, y) = (&inst[i], &inst[i + 1]);
        let (p, s, k) = indexed_name(&x.name)?;
        let (q, t, l) = indexed_name(&y.name)?;
        let similar = p == q
            && s == t
            && l == k + 1
            && x.class == y.class
            && x.own == y.own
            && x.off.len() == y.off.len()
            && x.ints.len() == y.ints.len();
        similar.then(|| {
            let mut d = vec![
                i64::from(y.relation_base - x.relation_base),
                i64::from(y.indicator_base - x.indicator_base),
            ];
            d.extend(x.off.iter().zip(&y.off).map(|(&a, &b)| i64::from(b - a)));
            d.extend(x.ints.iter().zip(&y.ints).map(|(&a, &b)| b - a));
            d
        })
    };
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < inst.len() {
        let mut len = 1;
        if i + 1 < inst.len() {
            if let Some(d) = step(i) {
                len = 2;
                while i + len < inst.len() && step(i + len - 1).as_ref() == Some(&d) {
                    len += 1;
                }
            }
        }
        runs.push((i, len));
        i += len;
    }
    runs
}

/// The instance records when their number follows the parameter: runs of
/// [`instance_runs`] whose length changes become loops.
fn instance_loops(b: &mut Builder, i0: &SystemImage, i1: &SystemImage) -> Result<(), NotAffine> {
    let (r0, r1) = (instance_runs(i0), instance_runs(i1));
    if r0.len() != r1.len() {
        return Err("the instances do not form the same runs at two sizes".into());
    }
    for (&(f0, n0), &(f1, n1)) in r0.iter().zip(&r1) {
        if n0 == n1 {
            for (x, y) in i0.instances[f0..f0 + n0]
                .iter()
                .zip(&i1.instances[f1..f1 + n1])
            {
                instance(b, x, y)?;
            }
            continue;
        }
        let (x, y) = (&i0.instances[f0], &i1.instances[f1]);
        if x.class != y.class || x.own != y.own {
            return Err(format!("instance {} differs between sizes", x.name));
        }
        // The step from one instance of the run to the next, from whichever
        // size has two (the same at both when both have).
        let step = |i: &SystemImage, f: usize, n: usize| -> Option<Vec<i64>> {
            (n > 1).then(|| {
                let (x, y) = (&i.instances[f], &i.instances[f + 1]);
                let mut d = vec![
                    i64::from(y.relation_base - x.relation_base),
                    i64::from(y.indicator_base - x.indicator_base),
                ];
                d.extend(x.off.iter().zip(&y.off).map(|(&a, &b)| i64::from(b - a)));
                d.extend(x.ints.iter().zip(&y.ints).map(|(&a, &b)| b - a));
                d
            })
        };
        let d = match (step(i0, f0, n0), step(i1, f1, n1)) {
            (Some(d0), Some(d1)) if d0 != d1 => {
                return Err(format!(
                    "the instances from {} on are laid out differently at two sizes",
                    x.name
                ))
            }
            (Some(d), _) | (_, Some(d)) => d,
            (None, None) => unreachable!("the lengths differ, so one is above 1"),
        };
        let (Some((p, s, k0)), Some((q, t, k1))) = (indexed_name(&x.name), indexed_name(&y.name))
        else {
            return Err(format!("instance {} differs between sizes", x.name));
        };
        if p != q || s != t || x.off.len() != y.off.len() || x.ints.len() != y.ints.len() {
            return Err(format!("instance {} differs between sizes", x.name));
        }
        let mut index = b.affine(k0, k1);
        index.c = 1;
        let (prefix, suffix) = (p.to_string(), s.to_string());
        b.repeat(n0, n1, |b| {
            b.lit(&x.class.to_le_bytes());
            b.ops.push(Op::Name {
                prefix,
                suffix,
                index,
            });
            b.int_k(
                Width::I32,
                x.relation_base.into(),
                y.relation_base.into(),
                d[0],
            );
            b.int_k(
                Width::I32,
                x.indicator_base.into(),
                y.indicator_base.into(),
                d[1],
            );
            for (j, (&o, &p)) in x.off.iter().zip(&y.off).enumerate() {
                b.int_k(Width::I32, o.into(), p.into(), d[2 + j]);
            }
            let at = 2 + x.off.len();
            for (j, (&o, &p)) in x.ints.iter().zip(&y.ints).enumerate() {
                b.int_k(Width::I64, o, p, d[at + j]);
            }
            b.lit(&x.own);
        });
    }
    Ok(())
}

fn instance(b: &mut Builder, x: &InstanceRecord, y: &InstanceRecord) -> Result<(), NotAffine> {
    if x.class != y.class || x.own != y.own {
        return Err(format!("instance {} differs between sizes", x.name));
    }
    b.lit(&x.class.to_le_bytes());
    b.same_str("an instance's name", &x.name, &y.name)?;
    b.int(Width::I32, x.relation_base.into(), y.relation_base.into());
    b.int(Width::I32, x.indicator_base.into(), y.indicator_base.into());
    for (&o, &p) in x.off.iter().zip(&y.off) {
        b.int(Width::I32, o.into(), p.into());
    }
    for (&o, &p) in x.ints.iter().zip(&y.ints) {
        b.int(Width::I64, o, p);
    }
    b.lit(&x.own);
    Ok(())
}

fn instances(b: &mut Builder, i0: &SystemImage, i1: &SystemImage) -> Result<(), NotAffine> {
    if i0.instances.len() != i1.instances.len() {
        return instance_loops(b, i0, i1);
    }
    for (x, y) in i0.instances.iter().zip(&i1.instances) {
        instance(b, x, y)?;
    }
    Ok(())
}

fn steps(b: &mut Builder, i0: &SystemImage, i1: &SystemImage) -> Result<(), NotAffine> {
    let differs = |k: usize| Err(format!("schedule step {k} differs in kind between sizes"));
    for (k, (x, y)) in i0.steps.iter().zip(&i1.steps).enumerate() {
        match (x, y) {
            (StepRecord::Time { target: t }, StepRecord::Time { target: u }) => {
                b.lit(&[0]);
                b.u32(*t, *u);
            }
            (
                StepRecord::Block {
                    instance: i,
                    stride: s,
                    block: k0,
                },
                StepRecord::Block {
                    instance: j,
                    stride: t,
                    block: k1,
                },
            ) if k0 == k1 => {
                b.lit(&[1]);
                b.u32(*i, *j);
                b.int(Width::I32, (*s).into(), (*t).into());
                b.lit(&k0.to_le_bytes());
            }
            (
                StepRecord::Copy {
                    target: t0,
                    stride: s0,
                    len: l0,
                    coefficient: c0,
                    sources: src0,
                },
                StepRecord::Copy {
                    target: t1,
                    stride: s1,
                    len: l1,
                    coefficient: c1,
                    sources: src1,
                },
            ) if c0.to_bits() == c1.to_bits() => {
                b.lit(&[2]);
                b.u32(*t0, *t1);
                b.int(Width::I32, (*s0).into(), (*s1).into());
                b.u32(*l0, *l1);
                b.lit(&c0.to_le_bytes());
                if src0.len() != src1.len() {
                    // A sum over a connection set that grows with the size
                    // (the heat flows of `pipe[k].heatPort` into one port):
                    // its sources are runs whose lengths follow the size.
                    growing_sources(b, src0, src1).or_else(|_| differs(k))?;
                    continue;
                }
                b.lit(&(src0.len() as u32).to_le_bytes());
                for (p, q) in src0.iter().zip(src1) {
                    if p.negative != q.negative {
                        return differs(k);
                    }
                    b.u32(p.offset, q.offset);
                    b.int(Width::I32, p.stride.into(), q.stride.into());
                    b.lit(&[u8::from(p.negative)]);
                }
            }
            (
                StepRecord::Repeat {
                    count: c0,
                    body: d0,
                },
                StepRecord::Repeat {
                    count: c1,
                    body: d1,
                },
            ) if d0 == d1 => {
                b.lit(&[3]);
                b.u32(*c0, *c1);
                b.lit(&d0.to_le_bytes());
            }
            (StepRecord::Fuse { skews: s0 }, StepRecord::Fuse { skews: s1 })
                if s0.len() == s1.len() =>
            {
                b.lit(&[4]);
                b.lit(&(s0.len() as u32).to_le_bytes());
                for (&p, &q) in s0.iter().zip(s1) {
                    b.u32(p, q);
                }
            }
            _ => return differs(k),
        }
    }
    Ok(())
}

/// The schedule the template writes at size `n`: each step's numbers on
/// the straight line through the images `i0` and `i1` at sizes `n0` and
/// `n0 + 1`, as [`steps`] encodes them (what the template's output holds
/// there, once [`verify`](super::resource::verify) has confirmed the rest). None when a number
/// leaves its width or the steps differ in kind (no template then).
pub fn steps_at(i0: &SystemImage, i1: &SystemImage, n0: i64, n: i64) -> Option<Vec<StepRecord>> {
    let line = |v0: i64, v1: i64| v0.checked_add((v1 - v0).checked_mul(n - n0)?);
    let u = |v0: u32, v1: u32| u32::try_from(line(v0.into(), v1.into())?).ok();
    let i = |v0: i32, v1: i32| i32::try_from(line(v0.into(), v1.into())?).ok();
    if i0.steps.len() != i1.steps.len() {
        return None;
    }
    i0.steps
        .iter()
        .zip(&i1.steps)
        .map(|(x, y)| {
            Some(match (x, y) {
                (StepRecord::Time { target: t }, StepRecord::Time { target: v }) => {
                    StepRecord::Time { target: u(*t, *v)? }
                }
                (
                    StepRecord::Block {
                        instance: a,
                        stride: s,
                        block,
                    },
                    StepRecord::Block {
                        instance: b,
                        stride: t,
                        ..
                    },
                ) => StepRecord::Block {
                    instance: u(*a, *b)?,
                    stride: i(*s, *t)?,
                    block: *block,
                },
                (
                    StepRecord::Copy {
                        target: t0,
                        stride: s0,
                        len: l0,
                        coefficient,
                        sources: src0,
                    },
                    StepRecord::Copy {
                        target: t1,
                        stride: s1,
                        len: l1,
                        sources: src1,
                        ..
                    },
                ) if src0.len() == src1.len() => StepRecord::Copy {
                    target: u(*t0, *t1)?,
                    stride: i(*s0, *s1)?,
                    len: u(*l0, *l1)?,
                    coefficient: *coefficient,
                    sources: src0
                        .iter()
                        .zip(src1)
                        .map(|(p, q)| {
                            Some(Source {
                                offset: u(p.offset, q.offset)?,
                                stride: i(p.stride, q.stride)?,
                                negative: p.negative,
                            })
                        })
                        .collect::<Option<_>>()?,
                },
                (StepRecord::Repeat { count: c0, body }, StepRecord::Repeat { count: c1, .. }) => {
                    StepRecord::Repeat {
                        count: u(*c0, *c1)?,
                        body: *body,
                    }
                }
                (StepRecord::Fuse { skews: s0 }, StepRecord::Fuse { skews: s1 })
                    if s0.len() == s1.len() =>
                {
                    StepRecord::Fuse {
                        skews: s0
                            .iter()
                            .zip(s1)
                            .map(|(&p, &q)| u(p, q))
                            .collect::<Option<_>>()?,
                    }
                }
                _ => return None,
            })
        })
        .collect()
}

/// The sources of a copy as runs of offsets `f, f + d, …` with one stride
/// and sign: (first offset, length, d, stride, negative); a run of one
/// source has d = 0.
fn source_runs(sources: &[Source]) -> Vec<(u32, usize, i64, i32, bool)> {
    let mut runs: Vec<(u32, usize, i64, i32, bool)> = Vec::new();
    for s in sources {
        let v = i64::from(s.offset);
        match runs.last_mut() {
            Some((f, l, d, st, neg))
                if *st == s.stride && *neg == s.negative && *l == 1 && v > i64::from(*f) =>
            {
                *d = v - i64::from(*f);
                *l = 2;
            }
            Some((f, l, d, st, neg))
                if *st == s.stride
                    && *neg == s.negative
                    && *l > 1
                    && i64::from(*f) + *l as i64 * *d == v =>
            {
                *l += 1
            }
            _ => runs.push((s.offset, 1, 0, s.stride, s.negative)),
        }
    }
    runs
}

/// A copy's sources (their count, then offset, stride and sign each) when
/// their number changes with the size: the same runs at both sizes, a run
/// of changing length a loop over its offsets.
fn growing_sources(b: &mut Builder, src0: &[Source], src1: &[Source]) -> Result<(), ()> {
    let (r0, r1) = (source_runs(src0), source_runs(src1));
    if r0.len() != r1.len() {
        return Err(());
    }
    b.u32(src0.len() as u32, src1.len() as u32);
    for (&(f0, n0, d0, st0, neg0), &(f1, n1, d1, st1, neg1)) in r0.iter().zip(&r1) {
        if st0 != st1 || neg0 != neg1 {
            return Err(());
        }
        let tail = |b: &mut Builder| {
            b.lit(&st0.to_le_bytes());
            b.lit(&[u8::from(neg0)]);
        };
        if n0 == n1 {
            for j in 0..n0 as i64 {
                b.u32(
                    (i64::from(f0) + j * d0) as u32,
                    (i64::from(f1) + j * d1) as u32,
                );
                tail(b);
            }
        } else {
            if n0 < 2 || d0 != d1 {
                return Err(());
            }
            let mut first = b.affine(i64::from(f0), i64::from(f1));
            first.c = d0;
            b.repeat(n0, n1, |b| {
                b.ops.push(Op::Int(Width::U32, first));
                tail(b);
            });
        }
    }
    Ok(())
}

fn jacobian(b: &mut Builder, i0: &SystemImage, i1: &SystemImage) -> Result<(), NotAffine> {
    let (r0, r1) = (row_runs(&i0.jacobian), row_runs(&i1.jacobian));
    if r0.len() != r1.len() {
        return mixed_jacobian(b, i0, i1);
    }
    for ((f0, n0, p0), (f1, n1, p1)) in r0.iter().zip(&r1) {
        match (p0, p1) {
            (None, None) => {
                let full = FULL_ROW.to_le_bytes();
                b.repeat(*n0, *n1, |b| b.lit(&full));
            }
            (Some(p0), Some(p1)) if p0.len() == p1.len() => {
                let entries: Vec<Affine> = p0
                    .iter()
                    .zip(p1)
                    .map(|(&d0, &d1)| {
                        let mut f = b.affine(*f0 as i64 + d0, *f1 as i64 + d1);
                        f.c = 1;
                        f
                    })
                    .collect();
                let len = (p0.len() as u32).to_le_bytes();
                b.repeat(*n0, *n1, |b| {
                    b.lit(&len);
                    for f in entries {
                        b.ops.push(Op::Int(Width::U32, f));
                    }
                });
            }
            _ => return Err("the Jacobian's pattern changes shape with the size".into()),
        }
    }
    Ok(())
}

/// A run of the Jacobian's rows whose entries each are a fixed column or
/// step with the row: row `first + r` has entry `base_j + step_j·r`
/// (`None`: full rows).
type MixedRun = (usize, usize, Option<Vec<(i64, i64)>>);

/// The rows as [`MixedRun`]s: a row joins the run before it when it has as
/// many entries and each is the run's line through its first rows, a
/// fixed column or one that steps with the row (a
/// component array's cells read their own and their neighbour's states
/// and a few fixed ones: `{0, 1, 2, r - 1, r}`).
fn mixed_row_runs(rows: &[Option<Vec<u32>>]) -> Vec<MixedRun> {
    let mut runs: Vec<MixedRun> = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        if let Some((first, len, p)) = runs.last_mut() {
            let joins = match (p.as_mut(), row) {
                (None, None) => true,
                (Some(p), Some(cols)) if p.len() == cols.len() => {
                    if *len == 1 {
                        // Each entry a fixed column or the row's own.
                        let steps: Vec<i64> = p
                            .iter()
                            .zip(cols)
                            .map(|(e, &c)| i64::from(c) - e.0)
                            .collect();
                        let fits = steps.iter().all(|d| *d == 0 || *d == 1);
                        if fits {
                            for (e, d) in p.iter_mut().zip(steps) {
                                e.1 = d;
                            }
                        }
                        fits
                    } else {
                        let at = (r - *first) as i64;
                        p.iter()
                            .zip(cols)
                            .all(|(e, &c)| e.0 + e.1 * at == i64::from(c))
                    }
                }
                _ => false,
            };
            if joins {
                *len += 1;
                continue;
            }
        }
        let entries = row
            .as_ref()
            .map(|cols| cols.iter().map(|&c| (i64::from(c), 0)).collect());
        runs.push((r, 1, entries));
    }
    runs
}

/// The Jacobian as [`MixedRun`]s, when its rows do not form the same runs
/// of one relative pattern at both sizes.
fn mixed_jacobian(b: &mut Builder, i0: &SystemImage, i1: &SystemImage) -> Result<(), NotAffine> {
    let (r0, r1) = (mixed_row_runs(&i0.jacobian), mixed_row_runs(&i1.jacobian));
    let not_affine = || Err("the Jacobian's rows do not form the same runs at two sizes".into());
    if r0.len() != r1.len() {
        return not_affine();
    }
    for ((_, n0, p0), (_, n1, p1)) in r0.iter().zip(&r1) {
        match (p0, p1) {
            (None, None) => {
                let full = FULL_ROW.to_le_bytes();
                b.repeat(*n0, *n1, |b| b.lit(&full));
            }
            (Some(p0), Some(p1)) if p0.len() == p1.len() => {
                // A run of one row has no step; it may only meet a run of
                // one row.
                if (*n0 == 1) != (*n1 == 1) || p0.iter().zip(p1).any(|(x, y)| x.1 != y.1) {
                    return not_affine();
                }
                let entries: Vec<(i64, i64, i64)> =
                    p0.iter().zip(p1).map(|(x, y)| (x.0, y.0, x.1)).collect();
                let len = (p0.len() as u32).to_le_bytes();
                b.repeat(*n0, *n1, |b| {
                    b.lit(&len);
                    for (c0, c1, step) in entries {
                        b.int_k(Width::U32, c0, c1, step);
                    }
                });
            }
            _ => return not_affine(),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fmu::image::structural::resource::{evaluate, verify, Structural};

    #[test]
    fn names_runs_and_affine_evaluation() {
        assert_eq!(indexed_name("rod.T[12]"), Some(("rod.T[", "]", 12)));
        assert_eq!(indexed_name("der(rod.T[3])"), Some(("der(rod.T[", "])", 3)));
        assert_eq!(indexed_name("x"), None);
        assert_eq!(unit_runs(&[3, 4, 5, 9, 10]), vec![(3, 3), (9, 2)]);
        let ops = vec![
            Op::Literal(vec![7]),
            Op::Loop {
                count: Affine { a: 1, b: 1, c: 0 },
                body: 1,
            },
            Op::Int(Width::U32, Affine { a: 10, b: 0, c: 2 }),
        ];
        assert_eq!(
            evaluate(&ops, 1).unwrap(),
            vec![7, 10, 0, 0, 0, 12, 0, 0, 0]
        );
        let neg = vec![Op::Int(Width::U32, Affine { a: 0, b: -1, c: 0 })];
        assert!(evaluate(&neg, 3).is_err());
    }

    #[test]
    fn strided_runs_of_indices() {
        assert_eq!(strided_runs(&[32, 38, 44, 50]), vec![(32, 4, 6)]);
        assert_eq!(strided_runs(&[3, 4, 5, 9, 10]), vec![(3, 3, 1), (9, 2, 1)]);
        assert_eq!(strided_runs(&[7]), vec![(7, 1, 0)]);
        assert_eq!(strided_runs(&[9, 2, 4]), vec![(9, 1, 0), (2, 2, 2)]);
    }

    /// A chain of `n` two-member instances over one scalar: Reals `time`,
    /// then per instance `c[k].x`, `der(c[k].x)`, `c[k].g` (period 3), the
    /// states 3 apart, instance records `c[k]` with offsets 3 apart.
    fn chain(n: usize) -> SystemImage<'static> {
        use crate::fmu::image::system_image::{ClassRecord, RealRecord};
        let mut image = SystemImage {
            model_identifier: "Chain".into(),
            classes: vec![
                ClassRecord {
                    name: "Top".into(),
                    n_blocks: 1,
                    n_slots: 1,
                    n_ints: 1,
                    n_own: 0,
                },
                ClassRecord {
                    name: "Cell".into(),
                    n_blocks: 1,
                    n_slots: 3,
                    n_ints: 0,
                    n_own: 1,
                },
            ],
            integers: vec![n as i64],
            integer_reals: vec![crate::fmu::image::system_image::NOT_IN_R],
            ..SystemImage::default()
        };
        image.reals.push(RealRecord {
            start: None,
            kind: 9,
            name: "time".into(),
        });
        image.instances.push(InstanceRecord {
            class: 0,
            name: "Chain".into(),
            relation_base: 0,
            indicator_base: 0,
            off: vec![0],
            ints: vec![n as i64],
            own: vec![],
        });
        for k in 1..=n {
            let at = image.reals.len() as i32;
            for (name, kind, start) in [
                (format!("c[{k}].x"), 4, Some(1.5)),
                (format!("der(c[{k}].x)"), 5, None),
                (format!("c[{k}].g"), 1, Some(2.0)),
            ] {
                image.reals.push(RealRecord {
                    start,
                    kind,
                    name: name.into(),
                });
            }
            image.states.push(at as u32);
            image.derivatives.push(at as u32 + 1);
            image.instances.push(InstanceRecord {
                class: 1,
                name: format!("c[{k}]").into(),
                relation_base: 0,
                indicator_base: 0,
                off: vec![at, at + 1, at + 2],
                ints: vec![],
                own: vec![7],
            });
            image.jacobian.push(Some(vec![k as u32 - 1]));
        }
        image
    }

    /// Instance records, Reals in blocks of a period and strided state
    /// lists grow with the parameter: the template derived at two sizes
    /// reproduces the images at others byte for byte, and maps each member
    /// with the period as its stride.
    #[test]
    fn component_array_template_reproduces_other_sizes() {
        let guid = "{00000000-0000-0000-0000-000000000000}";
        let t = template(&chain(4), &chain(5), 4, guid).expect("affine");
        for n in [1, 2, 4, 6, 7, 100, 1000] {
            assert!(verify(&t, n as i64, &chain(n).to_bytes(guid)), "n = {n}");
        }
        assert!(!verify(&t, 6, &chain(7).to_bytes(guid)));
        let strided: Vec<_> = t.segments.iter().filter(|s| s.stride != 1).collect();
        assert_eq!(strided.len(), 3, "{:?}", t.segments);
        for (m, s) in strided.iter().enumerate() {
            assert_eq!(
                (s.stride, s.start.at(9, 0), s.len.at(9, 0)),
                (3, 1 + m as i64, 9)
            );
        }
        // No start value is computed: the resource is not version 3.
        assert!(!t.ops.iter().any(|o| matches!(o, Op::Real(_))));
    }

    /// The chain whose cells' g is `each g = 0.3/n` (program: 0.3, n, ÷).
    fn chain_g_by_n(n: usize) -> SystemImage<'static> {
        let mut image = chain(n);
        let program: std::sync::Arc<[Calc]> =
            vec![Calc::Const(0.3), Calc::Int(n as i64), Calc::Div].into();
        for k in 0..n {
            let at = 1 + 3 * k + 2;
            image.reals[at].start = Some(0.3 / n as f64);
            image.start_calcs.push((at as u32, program.clone()));
        }
        image
    }

    /// A start value the size sets is computed by the template (op 4) with
    /// the instantiator's operations: the template reproduces the images
    /// at other sizes byte for byte, each g = 0.3/n to the bit, and the
    /// resource is version 3. Without the program the size is not offered.
    #[test]
    fn start_values_the_size_sets_are_computed() {
        let guid = "{00000000-0000-0000-0000-000000000000}";
        let t = template(&chain_g_by_n(4), &chain_g_by_n(5), 4, guid).expect("affine");
        for n in [1, 2, 3, 4, 6, 7, 100, 1000] {
            assert!(
                verify(&t, n as i64, &chain_g_by_n(n).to_bytes(guid)),
                "n = {n}"
            );
        }
        let bytes = Structural {
            integer: 0,
            name: "n".into(),
            n0: 4,
            n_min: 1,
            n_max: 1000,
            start: None,
            template: t,
        }
        .to_bytes();
        assert_eq!(bytes[8..12], 3u32.to_le_bytes());
        let (mut a, mut b) = (chain_g_by_n(4), chain_g_by_n(5));
        a.start_calcs.clear();
        b.start_calcs.clear();
        let why = template(&a, &b, 4, guid).expect_err("not affine without the program");
        assert!(
            why.contains("the start value of c[1].g changes with the size"),
            "{why}"
        );
        // A program of another shape at the second size is refused too.
        let mut c = chain_g_by_n(5);
        c.start_calcs[0].1 = vec![Calc::Const(0.3), Calc::Int(5), Calc::Mul].into();
        assert!(template(&chain_g_by_n(4), &c, 4, guid).is_err());
    }
}
