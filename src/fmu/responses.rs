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

use super::fusion::{step_accesses, Accesses};
use super::system_image::StepRecord;

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
    let mut at = 0;
    while at < steps.len() {
        match &steps[at] {
            StepRecord::Time { .. } | StepRecord::Fuse { .. } => at += 1,
            StepRecord::Repeat { count, body } => {
                let body = *body as usize;
                for round in 0..*count {
                    for k in at + 1..at + 1 + body {
                        if mark(&steps[k], round, accesses, &mut reached) {
                            marked[k] = true;
                        }
                    }
                }
                marked[at] = marked[at + 1..at + 1 + body].iter().any(|&m| m);
                at += 1 + body;
            }
            step => {
                marked[at] = mark(step, 0, accesses, &mut reached);
                at += 1;
            }
        }
    }
    mark_fused_loops(steps, &mut marked);
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

/// A fused loop is marked when one of its units is.
fn mark_fused_loops(steps: &[StepRecord], marked: &mut [bool]) {
    let mut at = 0;
    while at < steps.len() {
        if let StepRecord::Fuse { skews } = &steps[at] {
            let mut end = at + 1;
            for _ in 0..skews.len() {
                end += match &steps[end] {
                    StepRecord::Repeat { body, .. } => 1 + *body as usize,
                    _ => 1,
                };
            }
            marked[at] = marked[at + 1..end].iter().any(|&m| m);
        }
        at += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fmu::system_image::Source;

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

    /// Reals 0..10: a copy chain 1 -> 2 -> ... driven from real 0 (the
    /// balance) only from real 5 on, beside copies that never see it.
    #[test]
    fn only_the_steps_downstream_of_a_balance_are_marked() {
        let accesses = Accesses {
            base: (0..10).collect(),
            block: Box::new(|_, _, _| {}),
        };
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
}
