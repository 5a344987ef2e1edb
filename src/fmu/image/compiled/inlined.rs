//! The inlined loop of a fused repeat: its blocks' element entries and
//! its copies as one C loop over a tile's rounds, values handed from step
//! to step in locals ([`forwarding`]), with the checks that the loaded
//! system is laid out as the loop addresses it.

use std::collections::BTreeSet;
use std::fmt::Write;

use super::{Gen, Mode, Site};
use crate::fmu::image::forwarding::{self, Forwarding};
use crate::fmu::image::system_image::pass;
use crate::fmu::image::system_image::StepRecord;

impl Gen<'_> {
    /// Whether a repeat's `body` runs as a loop inlined into the fused
    /// loop: every block of it has element entries (a body of copies only
    /// is inlined too).
    pub(super) fn inlined(&self, body: &[usize]) -> bool {
        body.iter().all(|&j| {
            !matches!(self.steps[j], StepRecord::Block { .. }) || self.inline_element(j).is_some()
        })
    }

    /// The first part of an inlined repeat's function (`head`, steps
    /// `body`), on what [`Self::hoist`] located: its rounds [lo, hi) as
    /// one loop of inlined blocks and copies, when it may run (`el`): every
    /// block's instances lie evenly
    /// (a slot of round r lies r real strides on from round 0's) and the
    /// derivatives of the rounds are placed in one array (`mofmu_der_n`).
    /// Otherwise, and for a repeat of fewer than `MOFMU_INLINE_ROUNDS`
    /// rounds (a row of a small grid, where the batched entries are faster
    /// than a loop that first reads every offset), the rest of the
    /// function runs the rounds. In the function of a `lean` evaluation the
    /// loop leaves out the stores nothing reads ([`super::lean`]).
    pub(super) fn inline_rounds(
        &self,
        out: &mut String,
        head: usize,
        body: &[usize],
        mode: Mode,
        lean: bool,
    ) {
        let _ = writeln!(
            out,
            "    if (S[{head}].count >= MOFMU_INLINE_ROUNDS) {{\n    int el = 1;"
        );
        let guarded = self.guarded(body, mode);
        let lo = |_: usize| "lo".to_string();
        self.inline_checks(out, body, mode, guarded, &lo, "hi - lo");
        let fw = self.repeat_links(body, mode);
        let strides = self.unit_strides(body);
        self.forward_locals(out, &fw, mode, &lo, strides.as_deref());
        // A lean evaluation's loop leaves out the stores nothing reads.
        let none = BTreeSet::new();
        let sites = if lean {
            self.unit_sites(head, mode)
        } else {
            &none
        };
        self.reached_or_not(out, body, mode, &|out| {
            self.lean_locals(out, sites);
            out.push_str("    for (r = (ptrdiff_t)lo; r < (ptrdiff_t)hi; r++) {\n");
            for &j in body {
                self.element_step(out, j, mode, &fw, guarded, "lo", sites);
            }
            out.push_str("    }\n");
            self.lean_stores(out, sites, &fw, mode, "lo");
        });
        out.push_str("    return;\n    }\n    }\n");
    }

    /// The links of a repeat's body run as its own loop ([`forwarding`]).
    pub(super) fn repeat_links(&self, body: &[usize], mode: Mode) -> Forwarding {
        forwarding::find(
            self.steps,
            body,
            &|j| self.forwardable(j, mode),
            self.place,
            &|_| 0,
        )
    }

    /// Whether fused repeat unit `head` runs inlined and its loop leaves
    /// out stores in a lean evaluation in `mode`.
    pub(super) fn has_lean(&self, head: usize, mode: Mode) -> bool {
        !self.unit_sites(head, mode).is_empty()
    }

    /// The loop `emit` writes, for a `guarded` body once more for each pass
    /// of `mode` ([`Mode::passes`]) that runs some steps of `body` and not
    /// others on the exported system: with every `on<j>` a constant, when
    /// the loaded system's steps take part in that pass as the exported
    /// one's do, so the C compiler drops the steps the pass leaves out and
    /// the loads of results none of its steps reads (the cooling loop's
    /// cells after a tearing solve's first pass: the inertial pressure's
    /// chain alone, not the masses, temperatures and heat flows loaded
    /// round by round). Passes that run the same steps share one copy; any
    /// other pass runs the loop that tests `on<j>`.
    pub(super) fn reached_or_not(
        &self,
        out: &mut String,
        body: &[usize],
        mode: Mode,
        emit: &dyn Fn(&mut String),
    ) {
        let mut copies: Vec<(Vec<bool>, Vec<String>)> = Vec::new();
        for pass in mode.passes() {
            let on = self.pattern(body, pass);
            if on.iter().all(|&o| o == on[0]) {
                continue;
            }
            let test: Vec<String> = body
                .iter()
                .zip(&on)
                .map(|(&j, &o)| format!("{}(S[{j}].reached & {pass})", if o { "" } else { "!" }))
                .collect();
            let test = format!("(reached == {pass} && {})", test.join(" && "));
            match copies.iter_mut().find(|c| c.0 == on) {
                Some(c) => c.1.push(test),
                None => copies.push((on, vec![test])),
            }
        }
        for (on, tests) in &copies {
            let fixed: Vec<String> = body
                .iter()
                .zip(on)
                .map(|(&j, &o)| format!("on{j} = {}", u8::from(o)))
                .collect();
            let _ = writeln!(
                out,
                "    if ({}) {{\n    const int {};",
                tests.join(" || "),
                fixed.join(", ")
            );
            emit(out);
            out.push_str("    } else\n");
        }
        if copies.is_empty() {
            emit(out);
        } else {
            out.push_str("    {\n");
            emit(out);
            out.push_str("    }\n");
        }
    }

    /// Per step of `body`, whether pass `pass` runs it on the exported
    /// system.
    fn pattern(&self, body: &[usize], pass: u8) -> Vec<bool> {
        let at = |j: usize| self.passes.get(j).copied().unwrap_or(pass::ALL);
        body.iter().map(|&j| at(j) & pass != 0).collect()
    }

    /// Whether the inlined loop of `body` tests per step whether the pass
    /// runs it: some pass of `mode` runs some of its steps and not others.
    /// A body every pass runs all of, or none of, runs in passes that run
    /// every step of it: its loop is not guarded step by step, and a pass
    /// that leaves a step out (on another system) runs the plain loop.
    /// Guards cost the unit's compilation a quarter more time.
    pub(super) fn guarded(&self, body: &[usize], mode: Mode) -> bool {
        mode.passes().into_iter().any(|pass| {
            let on = self.pattern(body, pass);
            on.iter().any(|&o| o != on[0])
        })
    }

    /// The checks that the steps `body` may run inlined (`el`): the pass
    /// runs them (unless `guarded`), their element entries are there, their
    /// slots lie as the unit addresses them, and the derivatives of their
    /// `count` rounds from round `lo(j)` are placed in one array.
    pub(super) fn inline_checks(
        &self,
        out: &mut String,
        body: &[usize],
        mode: Mode,
        guarded: bool,
        lo: &dyn Fn(usize) -> String,
        count: &str,
    ) {
        for &j in body {
            if !guarded {
                let _ = writeln!(out, "    if (!on{j}) el = 0;");
            }
            let Some(e) = self.inline_element(j) else {
                continue;
            };
            let _ = writeln!(out, "    if (!f{j}) el = 0;");
            let mut slots = self.addressed(j, mode);
            if mode == Mode::Value {
                slots.extend(e.values.iter().filter(|v| v.1).map(|v| v.0));
            }
            for &s in &slots {
                let _ = writeln!(out, "    const ptrdiff_t o{j}_{s} = i{j}->off[{s}];");
            }
            // The loader's finding of which shared parameters stay put
            // must be the exported system's for every slot addressed.
            let fixed = self.fixed(j);
            for s in self.addressed(j, mode) {
                if self.shareable(j, s) {
                    let bit = u8::from(fixed.contains(&s));
                    let _ = writeln!(out, "    if (((S[{j}].fixed >> {s}) & 1) != {bit}) el = 0;");
                }
            }
            if let Some(b) = self.packed(j, mode) {
                for s in self.moving(j, mode) {
                    if s != b {
                        let _ = writeln!(out, "    if (o{j}_{s} != o{j}_{b} + {}) el = 0;", s - b);
                    }
                }
            }
            if mode == Mode::Value {
                for &(s, der) in &e.values {
                    if der {
                        let lo = lo(j);
                        let _ = writeln!(
                            out,
                            "    ptrdiff_t dq{j}_{s} = 0;\n    \
                             double *const db{j}_{s} = el ? mofmu_der_n(R, o{j}_{s} + (ptrdiff_t){lo} * q{j}, {count}, q{j}, ctx, &dq{j}_{s}) : NULL;\n    \
                             if (db{j}_{s} == NULL) el = 0;"
                        );
                    }
                }
            }
        }
    }

    /// The slots block step `j`'s element entry addresses in `R` (and in
    /// `dR`) in `mode`, derivatives left out.
    pub(super) fn addressed(&self, j: usize, mode: Mode) -> BTreeSet<usize> {
        let Some(e) = self.inline_element(j) else {
            return BTreeSet::new();
        };
        match mode {
            Mode::Value => e.values.iter().filter(|v| !v.1).map(|v| v.0).collect(),
            Mode::Tangent => e
                .tangent_values
                .iter()
                .chain(&e.tangents)
                .copied()
                .collect(),
        }
    }

    /// The [`Self::addressed`] slots of block step `j` but its
    /// [`Self::fixed`] ones: those that advance by the block's stride.
    pub(super) fn moving(&self, j: usize, mode: Mode) -> BTreeSet<usize> {
        let fixed = self.fixed(j);
        let mut slots = self.addressed(j, mode);
        slots.retain(|s| !fixed.contains(s));
        slots
    }

    /// Whether slot `s` of block step `j`'s class is one its batched
    /// entries let every round share ([`crate::codegen::kernel::Kernel::shareable`]).
    pub(super) fn shareable(&self, j: usize, s: usize) -> bool {
        let StepRecord::Block { instance, .. } = self.steps[j] else {
            return false;
        };
        let k = &self.kernels[(self.class_of)(instance) as usize];
        s < 64 && (k.shareable >> s) & 1 == 1
    }

    /// The slots block step `j`'s element entry reads at one offset in
    /// every round on the exported system, as the loader finds them
    /// (`mofmu_step.fixed`): shareable parameters that stay where the
    /// instance moves on, such as a model parameter every element of
    /// `a[n](each C = Ca)` reads. The loop addresses them without the
    /// round.
    pub(super) fn fixed(&self, j: usize) -> BTreeSet<usize> {
        let StepRecord::Block {
            instance, stride, ..
        } = self.steps[j]
        else {
            return BTreeSet::new();
        };
        let Some(next) = u32::try_from(i64::from(instance) + i64::from(stride)).ok() else {
            return BTreeSet::new();
        };
        let mut slots = self.addressed(j, Mode::Value);
        slots.extend(self.addressed(j, Mode::Tangent));
        let stays = |s: usize| {
            let here = (self.place)(instance, s);
            here.is_some() && (self.place)(next, s) == here
        };
        // The instance must move (a slot that is not shareable tells).
        let moves = slots
            .iter()
            .find(|&&s| !self.shareable(j, s))
            .is_some_and(|&s| !stays(s));
        slots.retain(|&s| moves && self.shareable(j, s) && stays(s));
        slots
    }

    /// The strides of `body`'s steps per round as constants, when on the
    /// exported system each is 0 or 1 (an array of components laid out by
    /// column, a scalar copied to every element): the unit checks them on
    /// the loaded system and runs its loop with them as constants, so that
    /// the C compiler steps every slot from one induction variable instead
    /// of keeping a stride and a product per slot (the cooling loop's cells
    /// spilled them to the stack). `None` when one is another number: a
    /// stride that is a record's length or a grid's row would make the
    /// unit's text differ by model, or by size.
    pub(super) fn unit_strides(&self, body: &[usize]) -> Option<Vec<(String, i64)>> {
        let mut out = Vec::new();
        for &j in body {
            match &self.steps[j] {
                StepRecord::Block {
                    instance, stride, ..
                } => {
                    let Some(&s) = self.moving(j, Mode::Value).first() else {
                        continue;
                    };
                    let next = i64::from(*instance) + i64::from(*stride);
                    let next = u32::try_from(next).ok()?;
                    let q = (self.place)(next, s)? - (self.place)(*instance, s)?;
                    out.push((format!("q{j}"), q));
                }
                StepRecord::Copy {
                    stride, sources, ..
                } if self.spelled_out(j) => {
                    out.push((format!("b{j}"), i64::from(*stride)));
                    for (k, src) in sources.iter().enumerate() {
                        out.push((format!("a{j}_{k}"), i64::from(src.stride)));
                    }
                }
                _ => {}
            }
        }
        out.iter().all(|(_, v)| (0..=1).contains(v)).then_some(out)
    }

    /// The lowest slot of block step `j`'s [`Self::addressed`] slots
    /// when, on the exported system, they lie in slot order one real
    /// apart: a round then addresses them as constant displacements from
    /// one pointer (`P<j>`, `D<j>` in `dR`), not each from an offset of
    /// its own, which took twenty registers in a cooling loop's cell and
    /// spilled them. The unit checks the layout on the loaded system.
    pub(super) fn packed(&self, j: usize, mode: Mode) -> Option<usize> {
        let StepRecord::Block { instance, .. } = self.steps[j] else {
            return None;
        };
        let slots = self.moving(j, mode);
        let &b = slots.first()?;
        let at = (self.place)(instance, b)?;
        slots
            .iter()
            .all(|&s| (self.place)(instance, s) == Some(at + (s - b) as i64))
            .then_some(b)
    }

    /// The slots of block step `j` that may run on a local in `mode`:
    /// its element entry's pointers into the array copies act on,
    /// derivatives left out (they lie where `mofmu_der_n` put them).
    pub(super) fn forwardable(&self, j: usize, mode: Mode) -> Vec<(usize, bool)> {
        let Some(e) = self.inline_element(j) else {
            return Vec::new();
        };
        let slots: Vec<usize> = match mode {
            Mode::Value => e.values.iter().filter(|v| !v.1).map(|v| v.0).collect(),
            Mode::Tangent => e.tangents.clone(),
        };
        let fixed = self.fixed(j);
        slots
            .into_iter()
            .filter(|s| !fixed.contains(s))
            .map(|s| (s, e.writes.contains(&s)))
            .collect()
    }

    /// The checks of `fw`'s links on the loaded offsets (a failed one runs
    /// the plain loop), then `if (el) {` and the locals the links pass
    /// values in, each as the slot holds it before the tile's first round.
    pub(super) fn forward_locals(
        &self,
        out: &mut String,
        fw: &Forwarding,
        mode: Mode,
        lo: &dyn Fn(usize) -> String,
        strides: Option<&[(String, i64)]>,
    ) {
        let x = mode.copies();
        for (name, v) in strides.unwrap_or_default() {
            let _ = writeln!(out, "    if ({name} != {v}) el = 0;");
        }
        for (&(c, k), l) in &fw.sources {
            let (j, s, d) = (l.block, l.slot, l.rounds);
            let _ = writeln!(
                out,
                "    if ((ptrdiff_t)sys->source_offset[S[{c}].first_source + {k}] != o{j}_{s} + ({d}) * q{j}                  || (ptrdiff_t)sys->source_stride[S[{c}].first_source + {k}] != q{j}) el = 0;"
            );
        }
        for (&c, l) in &fw.targets {
            let (j, s, d) = (l.block, l.slot, l.rounds);
            let _ = writeln!(
                out,
                "    if ((ptrdiff_t)S[{c}].target != o{j}_{s} + ({d}) * q{j} || (ptrdiff_t)S[{c}].stride != q{j}) el = 0;"
            );
        }
        for (&(r, t), l) in &fw.shared {
            let (j, s, d) = (l.block, l.slot, l.rounds);
            let _ = writeln!(
                out,
                "    if (o{r}_{t} != o{j}_{s} + ({d}) * q{j} || q{r} != q{j}) el = 0;"
            );
        }
        out.push_str("    if (el) {\n");
        for (name, v) in strides.unwrap_or_default() {
            let _ = writeln!(out, "    const ptrdiff_t {name} = {v};\n    (void){name};");
        }
        for &(j, s) in &fw.kept {
            // A slot a block writes for a copy of the next round: before
            // the first round, the copy's source as the last tile left it.
            let start = match fw.carried_source(j, s) {
                Some((c, k)) => format!("f{c}_{k}[(ptrdiff_t){} * a{c}_{k}]", lo(c)),
                None => "0.0".to_string(),
            };
            let _ = writeln!(out, "    double x{j}_{s} = {start};");
        }
        for &(j, s) in fw.fed.iter().chain(fw.shared.keys()) {
            let _ = writeln!(
                out,
                "    double x{j}_{s} = {x}[o{j}_{s} + (ptrdiff_t){} * q{j}];",
                lo(j)
            );
        }
    }

    /// Step `j` of an inlined repeat in round `r`, if the pass runs it
    /// (`on<j>`: a pass after the first of a tearing solve runs the steps
    /// the balances reach). Slots and copies that `fw` links go through
    /// their locals; the stores of `lean` are left out.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn element_step(
        &self,
        out: &mut String,
        j: usize,
        mode: Mode,
        fw: &Forwarding,
        guarded: bool,
        lo: &str,
        lean: &BTreeSet<Site>,
    ) {
        let pad = "                ";
        let StepRecord::Block { .. } = self.steps[j] else {
            if !self.spelled_out(j) {
                self.fused_step(out, j, mode);
                return;
            }
            let value = self.copy_value(j, &|k| match fw.sources.get(&(j, k)) {
                Some(l) => format!("x{}_{}", l.block, l.slot),
                None => format!("f{j}_{k}[r * a{j}_{k}]"),
            });
            // A copy the pass leaves out still hands on what the slot holds.
            let store = if lean.contains(&Site::Copy(j)) {
                String::new()
            } else {
                format!("t{j}[r * b{j}] = v; ")
            };
            match fw.targets.get(&j) {
                Some(l) if guarded => {
                    let x = mode.copies();
                    let (k, s) = (l.block, l.slot);
                    let _ = writeln!(
                        out,
                        "{pad}if (on{j}) {{ const double v = {value}; {store}x{k}_{s} = v; }}\n\
                         {pad}else x{k}_{s} = {x}[o{k}_{s} + (r + {}) * q{k}];",
                        l.rounds
                    );
                }
                Some(l) => {
                    let _ = writeln!(
                        out,
                        "{pad}{{ const double v = {value}; {store}x{}_{} = v; }}",
                        l.block, l.slot
                    );
                }
                None => {
                    let on = if guarded {
                        format!("if (on{j}) ")
                    } else {
                        String::new()
                    };
                    let _ = writeln!(out, "{pad}{on}t{j}[r * b{j}] = {value};");
                }
            }
            return;
        };
        let (prefix, b, _) = self.block(j);
        let (suffix, reals) = mode.kernel();
        let Some(e) = self.inline_element(j) else {
            let _ = writeln!(
                out,
                "{pad}{prefix}_b{b}{suffix}({reals}, i{j} + r * s{j}, ctx);"
            );
            return;
        };
        let packed = self.packed(j, mode);
        let fixed = self.fixed(j);
        // Slot `s` in `R` (`in_r`) or in the array copies act on.
        let place = |s: usize, in_r: bool| match packed {
            _ if fixed.contains(&s) => format!("{} + o{j}_{s}", if in_r { "R" } else { "dR" }),
            Some(b) => format!("{}{j} + {}", if in_r { "P" } else { "D" }, s - b),
            None => format!("{} + o{j}_{s} + r * q{j}", if in_r { "R" } else { "dR" }),
        };
        let own = mode == Mode::Value;
        let slot = |s: usize| {
            if fw.local(j, s) {
                format!("&x{j}_{s}")
            } else if lean.contains(&Site::Ptr(j, s)) {
                format!("&y{j}_{s}")
            } else {
                place(s, own)
            }
        };
        let mut args: Vec<String> = match mode {
            Mode::Value => e
                .values
                .iter()
                .map(|&(s, der)| {
                    if der {
                        format!("db{j}_{s} + (r - (ptrdiff_t){lo}) * dq{j}_{s}")
                    } else {
                        slot(s)
                    }
                })
                .collect(),
            Mode::Tangent => e
                .tangent_values
                .iter()
                .map(|&s| place(s, true))
                .chain(e.tangents.iter().map(|&s| slot(s)))
                .collect(),
        };
        args.push(format!("i{j} + r * s{j}"));
        args.push("ctx".to_string());
        let _ = writeln!(out, "{pad}{{");
        if let Some(b) = packed {
            let _ = writeln!(out, "{pad}double *const P{j} = R + o{j}_{b} + r * q{j};");
            if mode == Mode::Tangent {
                let _ = writeln!(out, "{pad}double *const D{j} = dR + o{j}_{b} + r * q{j};");
            }
            let _ = writeln!(out, "{pad}(void)P{j};");
        }
        // A slot a copy or a later block reads: the block runs on the
        // local, stored after it runs. A slot the block writes whenever it
        // runs is not loaded before (unless the pass leaves the block out),
        // one it only reads is.
        let kept: Vec<usize> = fw.kept.iter().filter(|k| k.0 == j).map(|k| k.1).collect();
        let (written, read): (Vec<usize>, Vec<usize>) =
            kept.iter().partition(|s| e.writes.contains(s));
        let load = |s: &usize| format!("x{j}_{s} = *({});", place(*s, own));
        for s in &read {
            let _ = writeln!(out, "{pad}{}", load(s));
        }
        let call = format!("{prefix}_b{b}{suffix}_e({});", args.join(", "));
        let stores: Vec<String> = kept
            .iter()
            .filter(|&&s| !lean.contains(&Site::Kept(j, s)))
            .map(|&s| format!("*({}) = x{j}_{s};", place(s, own)))
            .collect();
        if guarded {
            let mut on = vec![call];
            on.extend(stores);
            let _ = writeln!(out, "{pad}if (on{j}) {{ {} }}", on.join(" "));
            if !written.is_empty() {
                let skipped: Vec<String> = written.iter().map(load).collect();
                let _ = writeln!(out, "{pad}else {{ {} }}", skipped.join(" "));
            }
        } else {
            let _ = writeln!(out, "{pad}{call}");
            for line in &stores {
                let _ = writeln!(out, "{pad}{line}");
            }
        }
        for &s in &kept {
            for (r, t) in fw.readers(j, s) {
                let _ = writeln!(out, "{pad}x{r}_{t} = x{j}_{s}; /* shared */");
            }
        }
        let _ = writeln!(out, "{pad}}}");
    }
}
