//! Values an inlined repeat of the compiled schedule hands from step to
//! step in locals, not through `R`.
//!
//! A chain of elements passes a value down the chain: in the cooling
//! loop, a cell's block writes `outlet.r`, a copy puts it in the next
//! cell's `inlet.r`, and that cell's block reads it one round later. In
//! memory each link is a store and a load of the address just stored to,
//! so a round waits for the last one's store to reach its load: the loop
//! runs at the latency of the chain, not at the speed of its arithmetic.
//! The C compiler cannot see that the copy's source is the block's slot
//! (the offsets are data), so the unit says so: where a copy's source is a
//! slot a block of the same body wrote in this round or the last, or its
//! target a slot a block reads in this round or the next, the value goes
//! through a local the inlined blocks are handed instead of the slot's
//! address. Every store stays (other steps and the FMU read `R`); only the
//! loads on the chain go.
//!
//! The same holds between two blocks: a cell's temperature, written by one
//! block and read by the blocks of its heat flow and its derivative, goes
//! from the writer's local to the readers' ([`Forwarding::shared`]).
//!
//! The links are found on the exported system's offsets and checked again
//! by the generated code on the loaded ones (a failed check runs the
//! repeat's plain loop), so a unit that a cache hands to a system laid out
//! otherwise stays right. The arithmetic is untouched: the same bits.

use std::collections::{BTreeMap, BTreeSet};

use super::system_image::StepRecord;

/// The most sources of a copy the compiled tier spells out as a sum
/// (`compiled::SPECIALISED_SOURCES`): a longer copy has no links.
pub const SPELLED_OUT_SOURCES: usize = 8;

/// A block's slot in a round of the repeat: `block` is the block's step,
/// `rounds` how many rounds the block's round lies from the copy's;
/// `carried` whether the block wrote it one pass of the loop earlier than
/// the copy reads it (the local then carries it from one to the next).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    pub block: usize,
    pub slot: usize,
    pub rounds: i64,
    pub carried: bool,
}

/// The links of one repeat's body in one pass (values or tangents).
#[derive(Debug, Default)]
pub struct Forwarding {
    /// A copy's source `(copy, source)`: the block slot it reads.
    pub sources: BTreeMap<(usize, usize), Link>,
    /// A copy's target: the block slot it is.
    pub targets: BTreeMap<usize, Link>,
    /// Block slots copies read: the block runs on a local that is loaded
    /// from the slot before and stored to it after.
    pub kept: BTreeSet<(usize, usize)>,
    /// Block slots copies write: the block reads the local the copy set.
    pub fed: BTreeSet<(usize, usize)>,
    /// A block's slot that another block of the body wrote (`block`,
    /// `slot` of the link, `rounds` its round from the reader's): the
    /// reader runs on a local the writer sets after it runs.
    pub shared: BTreeMap<(usize, usize), Link>,
}

impl Forwarding {
    /// Whether slot `slot` of block step `block` runs on a local.
    pub fn local(&self, block: usize, slot: usize) -> bool {
        self.kept.contains(&(block, slot))
            || self.fed.contains(&(block, slot))
            || self.shared.contains_key(&(block, slot))
    }

    /// The slots that read what block step `block` writes to its slot
    /// `slot`: the writer sets their locals after it runs.
    pub fn readers(&self, block: usize, slot: usize) -> Vec<(usize, usize)> {
        self.shared
            .iter()
            .filter(|(_, l)| l.block == block && l.slot == slot)
            .map(|(&k, _)| k)
            .collect()
    }

    /// The first source link of a copy that reads `(block, slot)` as the
    /// last round wrote it: the local starts from that source.
    pub fn carried_source(&self, block: usize, slot: usize) -> Option<(usize, usize)> {
        self.sources
            .iter()
            .find(|(_, l)| l.block == block && l.slot == slot && l.carried)
            .map(|(&k, _)| k)
    }
}

/// The links of loop body `body` (step indices in order). `slots(j)`
/// are the slots block step `j` may run on a local (its element entry's
/// pointers of this pass, derivatives left out), with whether the block
/// writes them; `place(instance, slot)`
/// is the slot's offset in `R` on the exported system; `skew(j)` how many
/// passes of the loop step `j`'s round 0 lies after the first (0 in one
/// repeat's body; the units' skews when a fused loop's repeats run as one
/// loop, where a pass runs round `t - skew` of each).
pub fn find(
    steps: &[StepRecord],
    body: &[usize],
    slots: &dyn Fn(usize) -> Vec<(usize, bool)>,
    place: &dyn Fn(u32, usize) -> Option<i64>,
    skew: &dyn Fn(usize) -> i64,
) -> Forwarding {
    // Each block slot's offset in round 0 and its stride per round.
    let mut located: Vec<(usize, usize, usize, i64, i64)> = Vec::new();
    let mut written: BTreeSet<(usize, usize)> = BTreeSet::new();
    for (pos, &j) in body.iter().enumerate() {
        let StepRecord::Block {
            instance, stride, ..
        } = steps[j]
        else {
            continue;
        };
        let Some(next) = u32::try_from(i64::from(instance) + i64::from(stride)).ok() else {
            continue;
        };
        for (s, writes) in slots(j) {
            if let (Some(at), Some(then)) = (place(instance, s), place(next, s)) {
                located.push((pos, j, s, at, then - at));
                if writes {
                    written.insert((j, s));
                }
            }
        }
    }
    let mut f = Forwarding::default();
    for (pc, &c) in body.iter().enumerate() {
        let StepRecord::Copy {
            target,
            stride,
            len: 1,
            sources,
            ..
        } = &steps[c]
        else {
            continue;
        };
        // A copy the compiled tier spells out (a node's flow sum of up to
        // eight connections); a longer one runs through its loaded step.
        if !(1..=SPELLED_OUT_SOURCES).contains(&sources.len()) {
            continue;
        }
        // A source is written before the copy reads it: earlier in this
        // pass, or (a block after the copy) in the last pass.
        for (k, src) in sources.iter().enumerate() {
            let read = (pc, c, i64::from(src.offset), i64::from(src.stride));
            if let Some(l) = writer(&located, read, skew, &|j, s| !f.fed.contains(&(j, s))) {
                f.sources.insert((c, k), l);
                f.kept.insert((l.block, l.slot));
            }
        }
        // The block's round in the pass `passes` after the copy's, counted
        // from the copy's round.
        let rounds = |j: usize, passes: i64| passes + skew(c) - skew(j);
        // The target is read after the copy writes it: later in this
        // pass, or (a block before the copy) in the next.
        let hit = located.iter().find(|&&(pos, j, s, at, q)| {
            let passes = if pos > pc { 0 } else { 1 };
            q == i64::from(*stride)
                && i64::from(*target) == at + rounds(j, passes) * q
                && !f.kept.contains(&(j, s))
                && !f.fed.contains(&(j, s))
        });
        if let Some(&(pos, j, s, _, _)) = hit {
            let passes = if pos > pc { 0 } else { 1 };
            f.targets.insert(
                c,
                Link {
                    block: j,
                    slot: s,
                    rounds: rounds(j, passes),
                    carried: false,
                },
            );
            f.fed.insert((j, s));
        }
    }
    share(&mut f, &located, &written, skew);
    f
}

/// The links from block to block: a slot one block of the body reads that
/// another wrote, earlier in this pass or (a writer after the reader) in
/// the last. A slot a copy already feeds or reads is left as it is.
fn share(
    f: &mut Forwarding,
    located: &[(usize, usize, usize, i64, i64)],
    written: &BTreeSet<(usize, usize)>,
    skew: &dyn Fn(usize) -> i64,
) {
    for &(pr, r, sr, at_r, q_r) in located {
        if written.contains(&(r, sr)) || f.fed.contains(&(r, sr)) || f.kept.contains(&(r, sr)) {
            continue;
        }
        let mine = |w: usize, sw: usize| w != r && written.contains(&(w, sw));
        if let Some(l) = writer(located, (pr, r, at_r, q_r), skew, &mine) {
            f.shared.insert((r, sr), l);
            f.kept.insert((l.block, l.slot));
        }
    }
}

/// The block slot of `located` that wrote what a step reads (`read`: its
/// position in the body, its step, the offset it reads in its round 0 and
/// the stride per round): written earlier in this pass, or by a block after
/// the reader in the last pass (`carried`); `accept(block, slot)` filters
/// the candidates. The link's `rounds` are the writer's round counted from
/// the reader's.
fn writer(
    located: &[(usize, usize, usize, i64, i64)],
    read: (usize, usize, i64, i64),
    skew: &dyn Fn(usize) -> i64,
    accept: &dyn Fn(usize, usize) -> bool,
) -> Option<Link> {
    let (pr, r, offset, stride) = read;
    located.iter().find_map(|&(pw, w, sw, at, q)| {
        let passes = if pw < pr { 0 } else { -1 };
        let rounds = passes + skew(r) - skew(w);
        (q == stride && offset == at + rounds * q && accept(w, sw)).then_some(Link {
            block: w,
            slot: sw,
            rounds,
            carried: passes == -1,
        })
    })
}
