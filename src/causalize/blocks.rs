//! The split of a class's ordered assignments into blocks by the inputs
//! they depend on.

use std::collections::{BTreeSet, HashMap};

use crate::ir::{self, Block, SlotId, Stmt};

pub fn stmt_io(s: &Stmt, reads: &mut Vec<SlotId>, writes: &mut Vec<SlotId>) {
    match s {
        Stmt::Assign {
            target,
            index,
            value,
            ..
        } => {
            value.slots(reads);
            if let Some(i) = index {
                i.slots(reads);
            }
            writes.push(*target);
        }
        Stmt::For { lo, hi, body, .. } => {
            lo.slots(reads);
            hi.slots(reads);
            for b in body {
                stmt_io(b, reads, writes);
            }
        }
        Stmt::Clocked { fire, body } => {
            reads.push(*fire);
            for b in body {
                stmt_io(b, reads, writes);
            }
        }
        Stmt::Tick(t) => {
            // The shift reads the values of the tick before, which the
            // partition's equations write after it: not a dependency.
            t.interval.slots(reads);
            writes.extend([t.ticks, t.first, t.fire]);
            for b in &t.shift {
                stmt_io(b, &mut Vec::new(), writes);
            }
            for b in &t.start {
                stmt_io(b, reads, writes);
            }
        }
    }
}

/// Groups statements by the set of inputs they depend on. Groups are
/// ordered by the size of that set, which is a valid order because a
/// statement's set contains the sets of everything it reads.
pub fn split_blocks(stmts: &[Stmt], slots: &[ir::Slot]) -> Vec<Block> {
    let mut deps_of_slot: HashMap<SlotId, BTreeSet<SlotId>> = HashMap::new();
    let mut groups: Vec<(BTreeSet<SlotId>, usize, Block)> = Vec::new();
    for (k, s) in stmts.iter().enumerate() {
        let mut reads = Vec::new();
        let mut writes = Vec::new();
        stmt_io(s, &mut reads, &mut writes);
        let mut deps = BTreeSet::new();
        for r in &reads {
            if slots[*r].is_input {
                deps.insert(*r);
            }
            if let Some(d) = deps_of_slot.get(r) {
                deps.extend(d.iter().copied());
            }
        }
        for w in &writes {
            deps_of_slot
                .entry(*w)
                .or_default()
                .extend(deps.iter().copied());
        }
        match groups.iter_mut().find(|g| g.0 == deps) {
            Some(g) => {
                g.2.stmts.push(s.clone());
                g.2.reads.extend(reads);
                g.2.writes.extend(writes);
            }
            None => groups.push((
                deps.clone(),
                k,
                Block {
                    inputs: deps.iter().copied().collect(),
                    stmts: vec![s.clone()],
                    writes,
                    reads,
                },
            )),
        }
    }
    groups.sort_by_key(|g| (g.0.len(), g.1));
    groups
        .into_iter()
        .map(|(_, _, mut b)| {
            b.reads.sort_unstable();
            b.reads.dedup();
            b.writes.sort_unstable();
            b.writes.dedup();
            b
        })
        .collect()
}
