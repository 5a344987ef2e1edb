//! The steps a linear response's balance reaches. The runtime solves
//! declared tearing by a pass at zero balances, one tangent pass per
//! balance and a final pass with the balances found
//! (`templates/mofmu_evaluation.inc`, `mofmu_evaluate`). Only the steps that
//! read a balance, directly or through what other such steps write, can
//! compute anything else in the passes after the first: every other step
//! computes the same values again, and tangents that are zero. The runtime
//! runs only the marked steps in those passes, so a balance at one end of a
//! long array of components costs one pass over the steps it reaches, not
//! one over the whole schedule.
//!
//! Marks are found per variable (every element of an array counts as its
//! whole variable) and per step of a repeat's body over all its rounds, so
//! they can only mark too much, which costs time and never changes a value.
//!
//! Of the steps a balance reaches, the tearing matrix needs only those a
//! residual depends on ([`needed_by_residuals`]): the others (in a cooling
//! loop, every cell's acceleration, handed from cell to cell) compute
//! values that only the final pass keeps. So the first pass leaves them
//! out, since the final pass runs them with the balances found, and so do
//! the tangent passes that fill the matrix. [`pass_flags`] writes both
//! marks as the runtime reads them (`mofmu_step.reached`).

use super::fusion::{step_accesses, Accesses};
use super::system_image::{held_until, pass, StepRecord};

/// Per step of `steps` (rolled up and fused), whether it lies downstream of
/// a balance (`balances`: their reals): a block or copy that reads a
/// variable a balance or a marked step wrote; a repeat or a fused loop when
/// a step it holds is marked. Time steps are never marked.
pub fn reached_by_balances(
    steps: &[StepRecord],
    accesses: &Accesses,
    balances: &[u32],
) -> Vec<bool> {
    let mut marked = vec![false; steps.len()];
    if balances.is_empty() {
        return marked;
    }
    let mut reached = vec![false; accesses.base.len()];
    for &b in balances {
        reached[accesses.base[b as usize] as usize] = true;
    }
    for (first, body, count) in runs(steps) {
        for round in 0..count {
            for k in first..first + body {
                if mark(&steps[k], round, accesses, &mut reached) {
                    marked[k] = true;
                }
            }
        }
    }
    join_heads(steps, &mut marked, |a, b| a || b);
    marked
}

/// Per step, which passes run it ([`pass`]): a block or copy by its marks
/// (`reached` from [`reached_by_balances`], `needed` from
/// [`needed_by_residuals`]), a repeat or a fused loop when a pass runs a
/// step it holds; a time step only in the first pass.
pub fn pass_flags(steps: &[StepRecord], reached: &[bool], needed: &[bool]) -> Vec<u8> {
    let leaf = |k: usize| match (reached[k], needed[k]) {
        (true, true) => pass::ALL,
        (true, false) => pass::REACHED,
        (false, _) => pass::FIRST,
    };
    let mut flags: Vec<u8> = (0..steps.len()).map(leaf).collect();
    join_heads(steps, &mut flags, |a, b| a | b);
    flags
}

/// Per step of `steps`, whether a residual (`residuals`: their reals)
/// depends on what it writes: a block or copy, in some round, writes a
/// variable a residual or a later such step reads (repeats and fused
/// loops are left unmarked: [`pass_flags`] joins their contents). Found
/// backwards over the rounds as the schedule runs them, so, as
/// [`reached_by_balances`], it marks per variable and can only mark too
/// much. No residuals, no marks.
pub fn needed_by_residuals(
    steps: &[StepRecord],
    accesses: &Accesses,
    residuals: &[u32],
) -> Vec<bool> {
    let mut marked = vec![false; steps.len()];
    if residuals.is_empty() {
        return marked;
    }
    let mut needed = vec![false; accesses.base.len()];
    for &r in residuals {
        needed[accesses.base[r as usize] as usize] = true;
    }
    // Backwards: the last round's steps first, each round's last step first.
    let order = runs(steps)
        .into_iter()
        .rev()
        .flat_map(|(first, body, count)| {
            (0..count)
                .rev()
                .flat_map(move |round| (first..first + body).rev().map(move |k| (k, round)))
        });
    for (k, round) in order {
        let mut writes = false;
        step_accesses(&steps[k], round, accesses, &mut |v, write| {
            writes |= write && needed[v];
        });
        if writes {
            marked[k] = true;
            step_accesses(&steps[k], round, accesses, &mut |v, write| {
                if !write {
                    needed[v] = true;
                }
            });
        }
    }
    marked
}

/// Whether round `round` of a block or copy reads a reached variable; if
/// so, what it writes is reached too.
fn mark(step: &StepRecord, round: u32, accesses: &Accesses, reached: &mut [bool]) -> bool {
    let mut reads = false;
    step_accesses(step, round, accesses, &mut |v, write| {
        reads |= !write && reached[v];
    });
    if reads {
        step_accesses(step, round, accesses, &mut |v, write| {
            if write {
                reached[v] = true;
            }
        });
    }
    reads
}

/// The blocks and copies of `steps` as the schedule runs them, unit by
/// unit: (first step, steps, rounds), a repeat's body for its count of
/// rounds, any other block or copy once. Time steps and fused loops' heads
/// hold none.
fn runs(steps: &[StepRecord]) -> Vec<(usize, usize, u32)> {
    let mut runs = Vec::new();
    let mut at = 0;
    while at < steps.len() {
        match &steps[at] {
            StepRecord::Time { .. } | StepRecord::Fuse { .. } => at += 1,
            StepRecord::Repeat { count, body } => {
                runs.push((at + 1, *body as usize, *count));
                at += 1 + *body as usize;
            }
            _ => {
                runs.push((at, 1, 1));
                at += 1;
            }
        }
    }
    runs
}

/// Each repeat's and fused loop's mark, `join` over the marks of the steps
/// it holds (heads after their contents: a fused loop's units may be
/// repeats).
fn join_heads<T: Copy + Default>(steps: &[StepRecord], marks: &mut [T], join: fn(T, T) -> T) {
    for at in (0..steps.len()).rev() {
        if let Some(end) = held_until(steps, at) {
            marks[at] = marks[at + 1..end]
                .iter()
                .fold(T::default(), |a, &m| join(a, m));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fmu::image::system_image::Source;

    fn copy(target: u32, from: u32, stride: i32) -> StepRecord {
        StepRecord::Copy {
            target,
            stride,
            len: 1,
            coefficient: 1.0,
            sources: vec![Source {
                offset: from,
                stride,
                negative: false,
            }],
        }
    }

    /// Ten reals, each its own variable, and no blocks.
    fn ten_reals() -> Accesses<'static> {
        Accesses {
            base: (0..10).collect(),
            block: Box::new(|_, _, _| {}),
        }
    }

    /// Reals 0..10: a copy chain 1 -> 2 -> ... driven from real 0 (the
    /// balance) only from real 5 on, beside copies that never see it.
    #[test]
    fn only_the_steps_downstream_of_a_balance_are_marked() {
        let accesses = ten_reals();
        let steps = vec![
            StepRecord::Time { target: 9 },
            // R[2] = R[1], R[3] = R[2]: not reached.
            StepRecord::Repeat { count: 2, body: 1 },
            copy(2, 1, 1),
            // R[5] = R[0]: reads the balance.
            copy(5, 0, 0),
            StepRecord::Fuse { skews: vec![0, 0] },
            // R[6] = R[5], R[7] = R[6], R[8] = R[7]: reached.
            StepRecord::Repeat { count: 3, body: 1 },
            copy(6, 5, 1),
            // R[4] = R[3]: not reached.
            copy(4, 3, 0),
        ];
        let marked = reached_by_balances(&steps, &accesses, &[0]);
        assert_eq!(
            marked,
            vec![false, false, false, true, true, true, true, false]
        );
        assert!(reached_by_balances(&steps, &accesses, &[])
            .iter()
            .all(|&m| !m));
    }

    /// Reals 0..10, balance 0, residual 6: R[5] = R[0], then a chain
    /// R[6] = R[5], R[7] = R[6] of which only the first round feeds the
    /// residual, beside R[8] = R[5] that nothing reads and R[3] = R[2],
    /// which the balance never reaches.
    #[test]
    fn only_the_steps_a_residual_depends_on_fill_the_tearing_matrix() {
        let accesses = ten_reals();
        let steps = vec![
            StepRecord::Time { target: 9 },
            copy(3, 2, 0),
            copy(5, 0, 0),
            StepRecord::Fuse { skews: vec![0, 0] },
            StepRecord::Repeat { count: 2, body: 1 },
            copy(6, 5, 1),
            copy(8, 5, 0),
        ];
        let reached = reached_by_balances(&steps, &accesses, &[0]);
        let needed = needed_by_residuals(&steps, &accesses, &[6]);
        assert_eq!(needed, vec![false, false, true, false, false, true, false]);
        let (first, reached_only) = (pass::FIRST, pass::REACHED);
        assert_eq!(
            pass_flags(&steps, &reached, &needed),
            vec![
                first,
                first,
                pass::ALL,
                pass::ALL,
                pass::ALL,
                pass::ALL,
                reached_only,
            ]
        );
        // The chain's second round (R[7] = R[6]) only the final pass needs,
        // but a step is marked for all its rounds: the repeat runs in every
        // pass. A copy nothing reads runs in the final pass alone.
        let none = needed_by_residuals(&steps, &accesses, &[]);
        assert!(none.iter().all(|&m| !m));
    }
}
