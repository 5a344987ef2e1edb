//! Arrays of components laid out by column: the same variable of every
//! element side by side in `R` (`pipe[1].h`, `pipe[2].h`, …), instead of
//! one element's variables after another.
//!
//! A right-hand side walks an array of components in several passes when
//! its causality runs both ways along it (the cooling loop's cells: the
//! enthalpy downstream, the mass flow back up, the pressures down, the
//! accelerations back), and each pass reads and writes a few of an
//! element's variables. Element by element, those few lie in a record of
//! 28 reals, four cache lines, and every pass brings in two or three lines
//! per element for a handful of numbers. By column, a pass streams the few
//! arrays it uses, a line of each for eight elements, and the states and
//! derivatives of the elements are arrays of their own.
//!
//! Only what does not change a kernel is laid out so: an array whose
//! elements are the same structure of instances with scalar Real
//! variables only (a kernel addresses an array variable from its first
//! element), each element's variables one block of `R`. Element `e`'s
//! variable `k` moves from `first + e·m + k` to `first + k·n + e`; an
//! element's slots are then all one real from the next element's, so a
//! rolled repeat over the elements steps by one. The order of the states
//! and of every other list stays as it was; only where the reals lie
//! changes (and with it their value references). Arrays declared one after
//! another whose elements are the same structure move as one block (see
//! [`blocks`]). A parameter every element shares (bound to the model's
//! own, `a[n](each C = Ca)`) lies outside the block and stays there.

use std::collections::BTreeSet;

use super::system::System;

/// One array of components that moves: its elements' variables are
/// `R[first .. first + n·m)`, element by element.
struct Block {
    first: usize,
    n: usize,
    m: usize,
}

/// Lays out every array of components that allows it by column (see the
/// module's comment), remapping every index into `R` the system holds.
pub fn lay_out_by_column(sys: &mut System) {
    let blocks = blocks(sys);
    if blocks.is_empty() {
        return;
    }
    let mut to: Vec<usize> = (0..sys.reals.len()).collect();
    for b in &blocks {
        for e in 0..b.n {
            for k in 0..b.m {
                to[b.first + e * b.m + k] = b.first + k * b.n + e;
            }
        }
    }
    remap(sys, &to);
}

/// The arrays of components that can move, outermost first; an array
/// inside an element of one that moves stays as its element lays it out
/// (it moves with the element). Arrays declared one after another whose
/// elements are the same structure move as one: element by element they
/// lie one stride apart across the arrays (a grid's conductors `right` and
/// `down`), so the schedule may run them as one repeat, and by column they
/// must stay so.
fn blocks(sys: &System) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for p in 0..sys.instances.len() {
        let arrays = &sys.instances[p].elements;
        let mut k = 0;
        while k < arrays.len() {
            let mut run: Vec<usize> = arrays[k].clone();
            let mut found = (run.len() >= 2).then(|| block(sys, &run)).flatten();
            k += 1;
            while found.is_some() && k < arrays.len() && arrays[k].len() >= 2 {
                let longer: Vec<usize> = run.iter().chain(&arrays[k]).copied().collect();
                let Some(b) = block(sys, &longer) else {
                    break;
                };
                (run, found) = (longer, Some(b));
                k += 1;
            }
            let Some(b) = found else {
                continue;
            };
            let inside = out
                .iter()
                .any(|o| b.first >= o.first && b.first < o.first + o.n * o.m);
            if !inside {
                out.push(b);
            }
        }
    }
    out
}

/// The block of an array of components whose elements are `elements`,
/// when each element is the same structure of instances (one after
/// another), its Real variables scalars that fill one block of `R` of the
/// same size, the elements' blocks one after another. A variable every
/// element reads at one offset outside the block (a parameter bound to
/// the model's, `a[n](each C = Ca)`) is shared: it stays where it is.
fn block(sys: &System, elements: &[usize]) -> Option<Block> {
    let n = elements.len();
    let per = elements[1].checked_sub(elements[0])?;
    if per == 0 || elements.windows(2).any(|w| w[1] != w[0] + per) {
        return None;
    }
    if elements[0] + n * per > sys.instances.len() {
        return None;
    }
    // The first element's block: every real its instances lay out but
    // those the second element has at the same offset (shared).
    let mut reals = BTreeSet::new();
    let mut shared = BTreeSet::new();
    for t in elements[0]..elements[0] + per {
        let (inst, next) = (&sys.instances[t], &sys.instances[t + per]);
        if next.var_offset.len() != inst.var_offset.len() {
            return None;
        }
        for (v, off) in inst.var_offset.iter().enumerate() {
            if let Some(o) = off {
                if inst.var_len[v] != 1 {
                    return None;
                }
                if next.var_offset[v] == Some(*o) {
                    shared.insert(*o);
                } else {
                    reals.insert(*o);
                }
            }
        }
        reals.extend(inst.der_offset.iter().flatten().copied());
        // A sub-component outside the element (none is, as instances nest)
        // would break the block.
        if inst
            .subs
            .iter()
            .flatten()
            .any(|&s| s < elements[0] || s >= elements[0] + per)
        {
            return None;
        }
    }
    let (&first, &last) = (reals.first()?, reals.last()?);
    let m = last + 1 - first;
    if m < 2 || reals.len() != m || first + n * m > sys.reals.len() {
        return None;
    }
    if shared.iter().any(|&o| o >= first && o < first + n * m) {
        return None;
    }
    // An offset of element e: the first's moved by `shift`, or a shared
    // one where it is.
    let moved =
        |x: usize, y: usize, shift: usize| x + shift == y || (x == y && shared.contains(&x));
    // Every element the first shifted by e·m reals and e·per instances.
    for (e, &at) in elements.iter().enumerate().skip(1) {
        let shift = e * m;
        for t in 0..per {
            let (a, b) = (&sys.instances[elements[0] + t], &sys.instances[at + t]);
            let same = a.class == b.class
                && a.var_len == b.var_len
                && a.var_offset.len() == b.var_offset.len()
                && a.var_offset
                    .iter()
                    .zip(&b.var_offset)
                    .all(|(x, y)| match (x, y) {
                        (Some(x), Some(y)) => moved(*x, *y, shift),
                        (None, None) => true,
                        _ => false,
                    })
                && shifted(&a.der_offset, &b.der_offset, shift)
                && a.slot_offsets.len() == b.slot_offsets.len()
                && a.slot_offsets
                    .iter()
                    .zip(&b.slot_offsets)
                    .all(|(x, y)| moved(*x, *y, shift));
            if !same {
                return None;
            }
        }
    }
    Some(Block { first, n, m })
}

/// Whether offsets `b` are offsets `a` moved by `shift` (the same ones
/// present).
fn shifted(a: &[Option<usize>], b: &[Option<usize>], shift: usize) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => x + shift == *y,
            (None, None) => true,
            _ => false,
        })
}

/// Moves real `i` to `to[i]` (a permutation) in every table of `sys`.
fn remap(sys: &mut System, to: &[usize]) {
    // Each real moved once into its place, read from where it was.
    let mut from = vec![0; to.len()];
    for (i, &t) in to.iter().enumerate() {
        from[t] = i;
    }
    let mut reals: Vec<Option<_>> = std::mem::take(&mut sys.reals)
        .into_iter()
        .map(Some)
        .collect();
    sys.reals = from
        .iter()
        .map(|&i| reals[i].take().expect("the layout is a permutation"))
        .collect();
    for s in sys
        .reals
        .iter_mut()
        .filter_map(|r| r.derivative_of.as_mut())
    {
        *s = to[*s];
    }
    for inst in &mut sys.instances {
        for o in inst
            .var_offset
            .iter_mut()
            .chain(inst.der_offset.iter_mut())
            .flatten()
        {
            *o = to[*o];
        }
        for o in &mut inst.slot_offsets {
            *o = to[*o];
        }
    }
    for i in sys.states.iter_mut().chain(sys.derivatives.iter_mut()) {
        *i = to[*i];
    }
    for b in &mut sys.balances {
        b.balance = to[b.balance];
        b.residual = to[b.residual];
    }
    sys.absent_reals = sys.absent_reals.iter().map(|&i| to[i]).collect();
    for (i, _) in &mut sys.start_calcs {
        *i = to[*i];
    }
    sys.start_calcs.sort_by_key(|(i, _)| *i);
}
