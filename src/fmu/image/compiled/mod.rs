//! The compiled schedule: a model's rolled and fused schedule written as
//! C, one more unit of the FMU beside the class kernels it calls.
//!
//! The unit is generated from the schedule's *shape* alone ([`shape`]):
//! the kinds of its steps, the class and block of each block, the form of
//! each copy (one element or more, a coefficient of one, minus one or another, the signs
//! of up to eight sources), the body of each repeat and the units of each
//! fused loop. Counts, offsets, strides and skews stay data: the code reads
//! them from the loaded system (`mofmu_step`), so one unit serves every
//! size of the model and every parameter value, and its object is cached
//! by its text like a kernel's. The runtime checks the loaded schedule
//! against the shape words the unit carries (`schedule_has_shape` in
//! `templates/mofmu_resource.inc`) and interprets a schedule of another
//! shape.
//!
//! What it saves is the interpreter's dispatch: every step's kind, the
//! entry it calls and the form of every copy are known when the unit is
//! compiled, so a tile of a fused loop is a direct call of a kernel's
//! batched entry or a copy loop with its signs and coefficient folded in.
//!
//! The unit calls the kernels, it does not compile them again: a new shape
//! that recompiled every kernel of the model in one unit on one core took
//! the cooling loop's first export from 1 s to 8–15 s, where separate
//! kernels are compiled in parallel and cached per class. What it takes in
//! are the element entries ([`Element`]) of the small blocks its fused
//! repeats run: the function of such a repeat runs a tile's rounds as one
//! loop of inlined blocks and copies over pointers computed from offsets
//! read once per tile (the loader checks that the instances lie evenly).
//! A repeat with a larger block keeps its batched-entry calls. In that
//! loop, values chained from element to element go through locals
//! ([`forwarding`]), the user functions the blocks call are defined in the
//! unit so that they inline too, and a block whose slots lie in slot order
//! is addressed from one pointer per round.
//!
//! The code runs the same kernel blocks on the same instances, in the same
//! order, as the interpreter (`templates/mofmu_schedule.inc`), and the
//! same copies with the same arithmetic (`templates/mofmu_steps.h`, or
//! that arithmetic spelled out), so both tiers give the same bits.

use std::fmt::Write;

use sha2::{Digest, Sha256};

use super::system_image::{held_until, pass, StepRecord, SystemImage};
use std::collections::{BTreeMap, BTreeSet};

use super::forwarding;
use crate::codegen::function::FunctionUnit;
use crate::codegen::kernel::{Element, Kernel};

mod inlined;
mod lean;
mod tiles;

/// The most steps a compiled schedule is generated for. A schedule whose
/// repeats do not roll up (instances of one class that are not laid out
/// alike) grows with the model; its C would too, so it stays interpreted.
pub const MAX_STEPS: usize = 2000;

/// Which tier runs a model's schedule (`mofmu export --schedule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScheduleTier {
    /// The schedule compiled to C, where its shape allows (the default).
    #[default]
    Compiled,
    /// The runtime's interpreter over the schedule as data.
    Interpreted,
}

/// The compiled schedule of one model: a C unit beside the kernels it calls.
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledSchedule {
    /// `mofmu_schedule_<hash of the text>.c`.
    pub file_name: String,
    pub text: String,
    /// Steps of the schedule (a repeat's body counted once).
    pub steps: usize,
}

/// The tier an export used, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduleChoice {
    pub compiled: Option<CompiledSchedule>,
    /// One line for the export summary.
    pub reason: String,
}

/// The shape words of `steps`, as the runtime computes them from a loaded
/// schedule (`schedule_has_shape`). `class_of` gives an instance's class.
pub fn shape(steps: &[StepRecord], class_of: &dyn Fn(u32) -> u32) -> Vec<u32> {
    let mut w = Vec::with_capacity(steps.len() * 3);
    for step in steps {
        match step {
            StepRecord::Time { .. } => w.push(0),
            StepRecord::Block {
                instance, block, ..
            } => w.extend([1, class_of(*instance), *block]),
            StepRecord::Copy {
                len,
                coefficient,
                sources,
                ..
            } => {
                w.extend([2, copy_form(*len, *coefficient)]);
                // A sum of more than two sources may grow with the model
                // (a balance over an array): its count and signs stay data.
                if sources.len() <= SPECIALISED_SOURCES {
                    w.push(sources.len() as u32);
                    w.extend(sources.iter().map(|s| u32::from(s.negative)));
                } else {
                    w.push(MANY_SOURCES);
                }
            }
            StepRecord::Repeat { body, .. } => w.extend([3, *body]),
            StepRecord::Fuse { skews } => w.extend([4, skews.len() as u32]),
        }
    }
    w
}

/// The most sources of a copy whose count and signs are part of the shape
/// (and whose arithmetic the compiled schedule spells out): a node of up
/// to eight connections (a grid's node sums four flows, a ladder's three)
/// is one loop of sums over columns. `schedule_has_shape` in
/// `templates/mofmu_resource.inc` uses the same bound.
const SPECIALISED_SOURCES: usize = forwarding::SPELLED_OUT_SOURCES;

/// The shape word of a copy of more than [`SPECIALISED_SOURCES`] sources.
const MANY_SOURCES: u32 = u32::MAX;

/// Bit 0: a copy of one element; bit 1: its coefficient is one; bit 2:
/// it is minus one (the flow of a connection, negated: spelled as a
/// negation, one cycle on a chain of elements instead of a product's four).
fn copy_form(len: u32, coefficient: f64) -> u32 {
    u32::from(len == 1)
        | (u32::from(coefficient == 1.0) << 1)
        | (u32::from(coefficient == -1.0) << 2)
}

/// Chooses the tier of the schedule of the system resource `image` and,
/// for the compiled one, generates its unit. `kernels` are the model's
/// kernels by class, `functions` its user functions.
pub fn choose(
    tier: ScheduleTier,
    image: &SystemImage,
    kernels: &[Kernel],
    functions: &[FunctionUnit],
    block_slots: &BlockSlots,
    bases: &[u32],
) -> ScheduleChoice {
    let steps = &image.steps;
    if tier == ScheduleTier::Interpreted {
        return ScheduleChoice {
            compiled: None,
            reason: "interpreted (--schedule interpreted)".to_string(),
        };
    }
    if steps.len() > MAX_STEPS {
        return ScheduleChoice {
            compiled: None,
            reason: format!(
                "interpreted: {} steps, more than the {MAX_STEPS} a compiled schedule takes \
                 (its instances do not roll up into repeats, so its C would grow with the model)",
                steps.len()
            ),
        };
    }
    let class_of = |i: u32| image.instances[i as usize].class;
    // A slot's offset in `R`, where the links of `forwarding` are looked for.
    let place = |i: u32, s: usize| {
        let off = *image.instances.get(i as usize)?.off.get(s)?;
        (off >= 0).then_some(i64::from(off))
    };
    // What a lean evaluation reads back from `R` besides the steps: the
    // residuals; and only locals may be left out.
    let local_kind = crate::instantiate::RealKind::Local as u8;
    let local = |r: usize| image.reals.get(r).is_some_and(|x| x.kind == local_kind);
    let runtime: Vec<u32> = image.balances.iter().map(|b| b.residual).collect();
    let inputs = LeanInputs {
        local: &local,
        runtime: &runtime,
        balances: !image.balances.is_empty(),
        n_reals: image.reals.len(),
    };
    let gen = Gen {
        steps,
        class_of: &class_of,
        place: &place,
        kernels,
        functions,
        passes: &image.passes,
        block_slots,
        read_by: Vec::new(),
        read_by_tangent: Vec::new(),
        bases,
        dead: BTreeSet::new(),
        dead_tangent: BTreeSet::new(),
        sites: BTreeMap::new(),
        rounds_sites: BTreeMap::new(),
    };
    let compiled = generate(gen, &inputs);
    ScheduleChoice {
        reason: format!(
            "compiled ({}, {} steps)",
            compiled.file_name, compiled.steps
        ),
        compiled: Some(compiled),
    }
}

/// What a step of the generated code acts on: values (`R`) or tangents.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Value,
    Tangent,
}

impl Mode {
    fn suffix(self) -> &'static str {
        match self {
            Mode::Value => "value",
            Mode::Tangent => "tangent",
        }
    }

    /// The array a copy acts on.
    fn copies(self) -> &'static str {
        match self {
            Mode::Value => "R",
            Mode::Tangent => "dR",
        }
    }

    /// The kernel entry's suffix and its leading arguments.
    fn kernel(self) -> (&'static str, &'static str) {
        match self {
            Mode::Value => ("", "R"),
            Mode::Tangent => ("_t", "R, dR"),
        }
    }

    /// The passes of a tearing solve that run the schedule in this mode
    /// (`templates/mofmu_linear_response.inc`) besides whole ones: the first
    /// and the final pass; the tearing matrix's tangent passes, and those
    /// of a directional derivative's final pass and of the columns it
    /// keeps.
    fn passes(self) -> [u8; 2] {
        match self {
            Mode::Value => [pass::FIRST, pass::REACHED],
            Mode::Tangent => [pass::COLUMNS, pass::REACHED],
        }
    }
}

/// A unit of a fused loop or a top-level item: a repeat (its index and
/// body length) or one step.
#[derive(Clone, Copy)]
enum Item {
    Step(usize),
    Repeat(usize, usize),
    Fuse(usize, usize),
}

struct Gen<'a> {
    steps: &'a [StepRecord],
    class_of: &'a dyn Fn(u32) -> u32,
    /// A slot's offset in `R` on the exported system (instance, slot):
    /// where [`forwarding`] looks for the links of a repeat's copies.
    place: &'a dyn Fn(u32, usize) -> Option<i64>,
    kernels: &'a [Kernel],
    /// The model's user functions: the unit defines those the blocks it
    /// inlines call, so that they inline too.
    functions: &'a [FunctionUnit],
    /// Per step, the passes of a tearing solve that run it on the exported
    /// system ([`pass`] bits; empty: every pass every step): where a pass
    /// runs some steps of a repeat's body and not others, its inlined loop
    /// tests per step whether the pass runs it.
    passes: &'a [u8],
    /// The slots block `block` of class `class` reads (`false`) and
    /// writes (`true`).
    block_slots: &'a BlockSlots<'a>,
    /// Per real, who reads it from `R` in a lean evaluation
    /// ([`lean`]); empty: no store is left out.
    read_by: Vec<u32>,
    /// The same of the tangent column in the tearing matrix's passes.
    read_by_tangent: Vec<u32>,
    /// Per real, the first real of its variable.
    bases: &'a [u32],
    /// Per fused repeat unit whose loop is inlined (its head step) and
    /// mode, the stores its lean function leaves out ([`lean`]).
    sites: BTreeMap<(usize, bool), BTreeSet<Site>>,
    /// The single copies a lean evaluation leaves out, in values and in
    /// the tearing matrix's tangent passes.
    dead: BTreeSet<usize>,
    dead_tangent: BTreeSet<usize>,
    /// Per fused loop whose repeats run as one loop ([`Gen::rounds_fn`])
    /// and mode, the stores that loop leaves out in a lean evaluation
    /// ([`lean`]): values the next unit takes in a local need not reach `R`.
    rounds_sites: BTreeMap<(usize, bool), BTreeSet<Site>>,
}

/// A fused loop's repeat units run as one loop ([`Gen::rounds_fn`]).
struct Rounds {
    /// The repeat units: their index among the loop's units, head step
    /// and body.
    repeats: Vec<(usize, usize, Vec<usize>)>,
    /// Per step of a body: its unit's skew as exported, head and count.
    unit_of: BTreeMap<usize, (i64, usize, u32)>,
}

impl Rounds {
    /// Every step of the bodies, in step order.
    fn body(&self) -> Vec<usize> {
        self.unit_of.keys().copied().collect()
    }
    /// The rounds of step `j`'s repeat.
    fn count(&self, j: usize) -> u32 {
        self.unit_of.get(&j).map_or(0, |u| u.2)
    }
}

/// A store of an inlined loop that a lean evaluation may leave out: a
/// block's local (`Kept(step, slot)`), a copy's target whose value a
/// block of the loop takes in a local (`Copy(step)`), or a slot a block
/// writes through its pointer (`Ptr(step, slot)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Site {
    Kept(usize, usize),
    Copy(usize),
    /// A slot a block assigns as a whole through its pointer, not a local:
    /// the lean loop hands the block a local of its own (`y<j>_<s>`).
    Ptr(usize, usize),
}

/// What the analysis of a lean evaluation ([`lean`]) needs of the model
/// besides the schedule.
struct LeanInputs<'a> {
    /// Whether real `r` may be left out at all: a local.
    local: &'a dyn Fn(usize) -> bool,
    /// The reals the runtime reads after the first pass (the residuals).
    runtime: &'a [u32],
    /// Whether the model has declared tearing (its evaluation runs the
    /// first pass, tangent passes and the final pass).
    balances: bool,
    n_reals: usize,
}

/// Calls the function on every slot a block of a class reads (`false`) or
/// writes (`true`): `(class, block, f)`.
pub type BlockSlots<'a> = dyn Fn(u32, u32, &mut dyn FnMut(usize, bool)) + 'a;

/// Generates the unit of the schedule `g.steps`, with the functions of a
/// lean evaluation that leave out the stores it does not need (`lean`).
fn generate(mut g: Gen, lean: &LeanInputs) -> CompiledSchedule {
    (g.read_by, g.dead) = g.lean_analysis(lean, Mode::Value);
    if lean.balances {
        (g.read_by_tangent, g.dead_tangent) = g.lean_analysis(lean, Mode::Tangent);
    }
    g.sites = g.all_lean_sites();
    g.rounds_sites = g.all_rounds_sites(lean);
    let (steps, class_of) = (g.steps, g.class_of);
    let items = g.items(0, steps.len());
    let words = shape(steps, class_of);
    let mut text = String::new();
    text.push_str(
        "/* Compiled schedule — generated by mofmu from the schedule's shape alone: \
         counts, offsets,\n   strides and skews are read from the loaded system \
         (mofmu_model.h, \"The compiled schedule\"). */\n",
    );
    text.push_str("#include <math.h>\n#include \"mofmu_model.h\"\n#include \"mofmu_steps.h\"\n\n");
    // The interpreter's tile (mofmu_schedule.inc): any tile gives the
    // same results, this one the same memory traffic.
    text.push_str("#ifndef MOFMU_FUSE_TILE\n#define MOFMU_FUSE_TILE 256\n#endif\n");
    // The order a fused loop's tiles take its single steps (by tile) and
    // its repeats (by first round) in, found at every call: by insertion
    // while that stays linear, else by merging (a plain insertion sort was
    // quadratic where the tiles do not rise with the units: half of a call
    // of the 100 x 100 grid with its `right` and `down` conductors in
    // repeats of their own).
    text.push_str(tiles::SORT_BY);
    // A repeat of fewer rounds runs through its function (the batched
    // entries): its loop would not repay reading what it needs.
    text.push_str("#ifndef MOFMU_INLINE_ROUNDS\n#define MOFMU_INLINE_ROUNDS 16\n#endif\n");
    text.push_str(
        "#if defined(__GNUC__) || defined(__clang__)\n#define MOFMU_UNIT __attribute__((noinline))\n\
         #else\n#define MOFMU_UNIT\n#endif\n\n",
    );
    // A copy that runs once per evaluation, called, not inlined: a fused
    // loop of one tile runs its single steps one after the other, and the
    // cooling loop's hundred copies inlined there doubled the time its unit
    // took to compile.
    text.push_str(
        "MOFMU_UNIT static void copy_one_(const mofmu_system *sys, const mofmu_step *st, double *X)\n\
         {\n    mofmu_copy_step(sys, st, 0, X);\n}\n\n",
    );
    // The kernels are units of their own, compiled once per class and
    // cached: this unit calls their entries directly. Their blocks are not
    // inlined here; the loops of a tile run inside the batched entries.
    text.push_str(&g.prototypes());
    text.push_str(&g.elements(&items));
    let _ = writeln!(
        text,
        "static const uint32_t shape_[{}] = {{",
        words.len().max(1)
    );
    for chunk in words.chunks(16) {
        let line: Vec<String> = chunk.iter().map(u32::to_string).collect();
        let _ = writeln!(text, "    {},", line.join(", "));
    }
    if words.is_empty() {
        text.push_str("    0,\n");
    }
    text.push_str("};\n\n");
    for mode in [Mode::Value, Mode::Tangent] {
        for item in &items {
            match *item {
                Item::Repeat(at, body) => g.repeat_fn(&mut text, at, body, mode),
                Item::Fuse(at, span) => g.fuse_fn(&mut text, at, span, mode),
                Item::Step(_) => {}
            }
        }
        g.run_fn(&mut text, &items, mode);
    }
    text.push_str(
        "static void run_(const mofmu_system *sys, double *R, double *dR, mofmu_ctx *ctx, int reached)\n{\n    \
         (void)copy_one_;\n    if (dR == NULL) {\n        run_value(sys, R, ctx, reached);\n    } else {\n        \
         run_tangent(sys, R, dR, ctx, reached);\n    }\n}\n\n",
    );
    let _ = writeln!(
        text,
        "static const mofmu_compiled_schedule schedule_ = {{ shape_, {}, run_ }};",
        words.len()
    );
    text.push_str("const mofmu_compiled_schedule *const mofmu_compiled = &schedule_;\n");
    let digest = Sha256::digest(format!("{}\n{text}", env!("CARGO_PKG_VERSION")).as_bytes());
    let hash: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    CompiledSchedule {
        file_name: format!("mofmu_schedule_{hash}.c"),
        text,
        steps: steps.len(),
    }
}

impl Gen<'_> {
    /// Prototypes of the kernels' entries.
    fn prototypes(&self) -> String {
        let mut s = String::from("/* The class kernels' entries. */\n");
        for k in self.kernels {
            s.push_str(&crate::codegen::kernel::prototypes(k));
        }
        s.push('\n');
        s
    }

    /// The items of steps `from .. to`: repeats with their bodies, fused
    /// loops with their units, single steps.
    fn items(&self, from: usize, to: usize) -> Vec<Item> {
        let mut out = Vec::new();
        let mut i = from;
        while i < to {
            match &self.steps[i] {
                StepRecord::Repeat { body, .. } => {
                    out.push(Item::Repeat(i, *body as usize));
                    i += 1 + *body as usize;
                }
                StepRecord::Fuse { .. } => {
                    let end = held_until(self.steps, i).unwrap_or(i + 1);
                    out.push(Item::Fuse(i, end - i - 1));
                    i = end;
                }
                _ => {
                    out.push(Item::Step(i));
                    i += 1;
                }
            }
        }
        out
    }

    /// The units of the fused loop at `at` spanning `span` steps, with
    /// their steps.
    fn fuse_units(&self, at: usize, span: usize) -> Vec<Unit> {
        let mut units: Vec<Unit> = Vec::new();
        let mut u_at = at + 1;
        while u_at < at + 1 + span {
            let n = self.unit_len(u_at);
            if n > 1 {
                units.push((u_at, (u_at + 1..u_at + n).collect(), true));
            } else {
                units.push((u_at, vec![u_at], false));
            }
            u_at += n;
        }
        units
    }

    /// Steps a unit starting at `at` spans (a repeat with its body, or one).
    fn unit_len(&self, at: usize) -> usize {
        match &self.steps[at] {
            StepRecord::Repeat { body, .. } => 1 + *body as usize,
            _ => 1,
        }
    }

    /// The kernel function prefix and block of block step `at`.
    fn block(&self, at: usize) -> (&str, u32, &str) {
        let StepRecord::Block {
            instance, block, ..
        } = &self.steps[at]
        else {
            unreachable!("step {at} is a block")
        };
        let k = &self.kernels[(self.class_of)(*instance) as usize];
        (&k.prefix, *block, &k.qualified)
    }

    /// A comment naming step `at`.
    fn describe(&self, at: usize) -> String {
        match &self.steps[at] {
            StepRecord::Time { .. } => "time".to_string(),
            StepRecord::Block { .. } => {
                let (_, block, class) = self.block(at);
                format!("block {block} of {class}")
            }
            StepRecord::Copy { sources, .. } if sources.len() <= SPECIALISED_SOURCES => {
                format!("copy from {} sources", sources.len())
            }
            StepRecord::Copy { .. } => format!("copy from more than {SPECIALISED_SOURCES} sources"),
            StepRecord::Repeat { body, .. } => format!("repeat of {body} steps"),
            StepRecord::Fuse { skews } => format!("fused loop of {} units", skews.len()),
        }
    }

    /// The top-level function of a mode: every item in schedule order,
    /// each skipped in a pass of `reached` steps when no balance reaches it.
    fn run_fn(&self, out: &mut String, items: &[Item], mode: Mode) {
        let (params, args) = self.mode_params(mode);
        let _ = writeln!(out, "static void run_{}({params})\n{{", mode.suffix());
        out.push_str("    const mofmu_step *S = sys->steps;\n");
        out.push_str("    (void)S;\n");
        for item in items {
            let at = match *item {
                Item::Step(at) | Item::Repeat(at, _) | Item::Fuse(at, _) => at,
            };
            let _ = writeln!(
                out,
                "    if (!reached || (S[{at}].reached & reached)) {{ /* {} */",
                self.describe(at)
            );
            match *item {
                Item::Repeat(..) => {
                    let _ = writeln!(out, "        repeat_{at}_{}({args});", mode.suffix());
                }
                Item::Fuse(..) => {
                    let _ = writeln!(out, "        fuse_{at}_{}({args});", mode.suffix());
                }
                Item::Step(at) => self.single(out, at, mode, "        ", None),
            }
            out.push_str("    }\n");
        }
        out.push_str("}\n\n");
    }

    /// Step `at` outside any repeat (its round 0).
    /// `lean`: whether the evaluation is lean (then a copy it leaves out
    /// is not written), not (it runs every step), or `None`: as
    /// `mofmu_ctx.lean` says.
    fn single(&self, out: &mut String, at: usize, mode: Mode, pad: &str, lean: Option<bool>) {
        match &self.steps[at] {
            StepRecord::Time { .. } => {
                if mode == Mode::Value {
                    let _ = writeln!(out, "{pad}R[S[{at}].target] = ctx->time;");
                }
            }
            StepRecord::Block { .. } => {
                let (prefix, b, _) = self.block(at);
                let (suffix, reals) = mode.kernel();
                let _ = writeln!(
                    out,
                    "{pad}{prefix}_b{b}{suffix}({reals}, S[{at}].inst, ctx);"
                );
            }
            StepRecord::Copy { .. } => {
                // One whose target nothing reads is left out of a lean
                // evaluation (src/fmu/image/compiled/lean.rs).
                let lean = match lean {
                    _ if !self.lean_skips(at, mode) => "",
                    None => "if (!ctx->lean) ",
                    Some(false) => "",
                    Some(true) => return,
                };
                let _ = writeln!(
                    out,
                    "{pad}{lean}copy_one_(sys, &S[{at}], {});",
                    mode.copies()
                );
            }
            StepRecord::Repeat { .. } | StepRecord::Fuse { .. } => {
                unreachable!("a repeat or fused loop is not a single step")
            }
        }
    }

    /// A repeat at `at` as the interpreter runs it (`run_repeat_rounds`):
    /// a block alone through its batched entry when the loader found its
    /// instances evenly laid out, copies that commute one loop each, any
    /// other body round by round.
    fn repeat_fn(&self, out: &mut String, at: usize, body: usize, mode: Mode) {
        let (params, _) = self.mode_params(mode);
        let _ = writeln!(
            out,
            "/* Step {at}: {}. */\nstatic void repeat_{at}_{}({params})\n{{",
            self.describe(at),
            mode.suffix()
        );
        out.push_str("    const mofmu_step *S = sys->steps;\n");
        let _ = writeln!(
            out,
            "    const size_t count = S[{at}].count;\n    size_t r;"
        );
        out.push_str("    (void)reached; (void)r;\n");
        let first = at + 1;
        let (suffix, reals) = mode.kernel();
        if body == 1 && matches!(self.steps[first], StepRecord::Block { .. }) {
            let (prefix, b, _) = self.block(first);
            let _ = writeln!(
                out,
                "    const mofmu_step *st = &S[{first}];\n    if (st->fn_n != NULL) {{\n        \
                 {prefix}_b{b}{suffix}_n({reals}, st->inst, count, st->stride, st->real_stride, ctx);\n    \
                 }} else {{\n        for (r = 0; r < count; r++) {{\n            \
                 {prefix}_b{b}{suffix}({reals}, st->inst + (ptrdiff_t)r * st->stride, ctx);\n        \
                 }}\n    }}\n}}\n"
            );
            return;
        }
        let all_copies =
            (first..first + body).all(|j| matches!(self.steps[j], StepRecord::Copy { .. }));
        if all_copies {
            let _ = writeln!(out, "    if (S[{at}].body == 1 || S[{at}].by_step) {{");
            for j in first..first + body {
                let _ = writeln!(
                    out,
                    "        if (!reached || (S[{j}].reached & reached)) mofmu_copy_rounds(sys, &S[{j}], 0, count, {});",
                    mode.copies()
                );
            }
            out.push_str("        return;\n    }\n");
        }
        out.push_str("    for (r = 0; r < count; r++) {\n");
        for j in first..first + body {
            let _ = writeln!(
                out,
                "        if (!reached || (S[{j}].reached & reached)) {{"
            );
            self.at_round(out, j, mode, "            ", "(ptrdiff_t)r");
            out.push_str("        }\n");
        }
        out.push_str("    }\n}\n\n");
    }

    /// Step `j` of a repeat's body in round `round`.
    fn at_round(&self, out: &mut String, j: usize, mode: Mode, pad: &str, round: &str) {
        let (suffix, reals) = mode.kernel();
        match &self.steps[j] {
            StepRecord::Block { .. } => {
                let (prefix, b, _) = self.block(j);
                let _ = writeln!(
                    out,
                    "{pad}{prefix}_b{b}{suffix}({reals}, S[{j}].inst + {round} * S[{j}].stride, ctx);"
                );
            }
            StepRecord::Copy { .. } => {
                let _ = writeln!(
                    out,
                    "{pad}mofmu_copy_step(sys, &S[{j}], {round}, {});",
                    mode.copies()
                );
            }
            _ => unreachable!("a repeat's body holds blocks and copies"),
        }
    }

    /// Parameters and arguments of a repeat's or fused loop's function.
    fn mode_params(&self, mode: Mode) -> (&'static str, &'static str) {
        match mode {
            Mode::Value => (
                "const mofmu_system *sys, double *R, mofmu_ctx *ctx, int reached",
                "sys, R, ctx, reached",
            ),
            Mode::Tangent => (
                "const mofmu_system *sys, double *R, double *dR, mofmu_ctx *ctx, int reached",
                "sys, R, dR, ctx, reached",
            ),
        }
    }

    /// A fused loop at `at` spanning `span` steps, as the interpreter runs
    /// it (`run_fused`): tile by tile of loop rounds, each unit's rounds
    /// that fall in the tile, unit after unit. A repeat unit is a function
    /// of its own ([`Self::unit_rounds`]), which locates what its steps
    /// touch before its rounds; a single block or copy runs through its
    /// loaded step.
    fn fuse_fn(&self, out: &mut String, at: usize, span: usize, mode: Mode) {
        let x = mode.copies();
        let units = self.fuse_units(at, span);
        // Each unit is a function of its own, so that a loop of a hundred
        // units compiles as a hundred small functions, not one that the
        // compiler takes superlinear time over; a call per unit and tile
        // costs nothing beside a tile's rounds.
        let unit_params = unit_params(mode, "lo", "hi");
        // A single block or copy runs once per evaluation: it goes through
        // the loaded step, as the interpreter runs it, not a function.
        // A unit whose loop leaves out stores in a lean evaluation gets a
        // second function for it, `unit_<k>_<mode>_lean`: one function with
        // both loops ran a small cooling loop 5-10% slower, though its
        // rounds are too few for either loop to run.
        for (head, body, _) in units.iter().filter(|u| u.2) {
            let lean = self.has_lean(*head, mode);
            for (suffix, lean) in [("", false), ("_lean", true)]
                .into_iter()
                .take(1 + usize::from(lean))
            {
                let _ = writeln!(
                    out,
                    "/* Step {head}: {}, rounds [lo, hi){}. */\nMOFMU_UNIT static void unit_{head}_{}{suffix}({unit_params})\n{{\n    \
                     const mofmu_step *S = sys->steps;\n    ptrdiff_t r;\n    (void)S; (void)r; (void)reached; (void)lo; (void)hi;",
                    self.describe(*head),
                    if lean { ", lean" } else { "" },
                    mode.suffix()
                );
                for &j in body {
                    self.hoist(out, j, x);
                }
                if self.inlined(body) {
                    self.inline_rounds(out, *head, body, mode, lean);
                }
                self.unit_rounds(out, *head, body, mode);
                out.push_str("}\n\n");
            }
        }
        let rounds = self.rounds_fn(out, at, mode);
        self.tile_loop(out, at, &units, mode, rounds);
    }

    /// The function that runs a tile's rounds of the long repeat units of
    /// fused loop `at` ([`Self::rounds_plan`]) as one loop of inlined blocks
    /// and copies, pass `t` running round `t - skew` of each unit in unit
    /// order (the order the skews were made for). Values then pass from
    /// unit to unit in locals ([`forwarding`], with the units' skews), not
    /// only within a repeat: Acc4's chain ran five loops per tile, each
    /// storing what the next loaded. The tile loop calls it for a tile that
    /// holds every such unit's rounds, no round of another unit and no
    /// single step; it returns 0 when the loaded system is not laid out as
    /// the exported one (the units' functions then run the tile), 1 when
    /// it ran. With stores a lean evaluation leaves out
    /// ([`Gen::rounds_sites`]), a second function, `_lean`, runs lean
    /// evaluations.
    fn rounds_fn(&self, out: &mut String, at: usize, mode: Mode) -> bool {
        let Some(plan) = self.rounds_plan(at) else {
            return false;
        };
        let lean = self.rounds_lean(at, mode);
        for (suffix, lean) in [("", false), ("_lean", true)]
            .into_iter()
            .take(1 + usize::from(lean))
        {
            self.rounds_variant(out, at, &plan, mode, suffix, lean);
        }
        true
    }

    /// The repeat units of fused loop `at` when its tiles may run them as
    /// one loop ([`Self::rounds_fn`]): every unit inlined, their skews a
    /// few rounds apart.
    fn rounds_plan(&self, at: usize) -> Option<Rounds> {
        let StepRecord::Fuse { skews } = &self.steps[at] else {
            return None;
        };
        let end = held_until(self.steps, at).unwrap_or(at + 1);
        let units = self.fuse_units(at, end - at - 1);
        let count = |head: usize| match self.steps[head] {
            StepRecord::Repeat { count, .. } => count,
            _ => 0,
        };
        // The repeats whose rounds span the loop but for a few passes; a
        // tile that runs them as one loop holds no round of the others (a
        // repeat of three side capacitors in a loop of 10^4 passes). Only
        // counts against the loop's length: a model whose every array has
        // three elements gets the same unit as one of fifty.
        let len = units
            .iter()
            .enumerate()
            .map(|(i, u)| skews[i].saturating_add(count(u.0).max(1)))
            .max()
            .unwrap_or(0);
        let repeats: Vec<(usize, usize, Vec<usize>)> = units
            .into_iter()
            .enumerate()
            .filter(|u| u.1 .2 && count(u.1 .0).saturating_add(ROUNDS_SPREAD) >= len)
            .map(|(i, (head, body, _))| (i, head, body))
            .collect();
        if repeats.len() < 2 || !repeats.iter().all(|u| self.inlined(&u.2)) {
            return None;
        }
        // Only repeats that run side by side: their skews lie a few rounds
        // apart, set by how far a unit looks ahead (Acc4's chain: 0 and 1),
        // not by the model's size. A loop whose repeats run one after the
        // other (the cooling loop's, skewed by thousands of rounds) never
        // has such a tile, and its skews would make the unit's text depend
        // on the size.
        let skew = repeats.iter().map(|u| skews[u.0]);
        let spread = skew.clone().max().unwrap_or(0) - skew.min().unwrap_or(0);
        let fewest = repeats.iter().map(|u| count(u.1)).min().unwrap_or(0);
        if spread > ROUNDS_SPREAD || spread >= fewest {
            return None;
        }
        let mut unit_of = BTreeMap::new();
        for (i, head, body) in &repeats {
            for &j in body {
                unit_of.insert(j, (i64::from(skews[*i]), *head, count(*head)));
            }
        }
        Some(Rounds { repeats, unit_of })
    }

    /// The links of a fused loop's repeats run as one loop: values pass
    /// from unit to unit in locals, with the units' skews.
    fn rounds_links(&self, plan: &Rounds, mode: Mode) -> forwarding::Forwarding {
        forwarding::find(
            self.steps,
            &plan.body(),
            &|j| self.forwardable(j, mode),
            self.place,
            &|j| plan.unit_of[&j].0,
        )
    }

    /// One of [`Self::rounds_fn`]'s functions: `lean` leaves out the
    /// stores of [`Gen::rounds_sites`] (its name ends in `suffix`).
    fn rounds_variant(
        &self,
        out: &mut String,
        at: usize,
        plan: &Rounds,
        mode: Mode,
        suffix: &str,
        lean: bool,
    ) {
        let StepRecord::Fuse { skews } = &self.steps[at] else {
            return;
        };
        let repeats = &plan.repeats;
        let body = plan.body();
        let x = mode.copies();
        let _ = writeln!(
            out,
            "/* Step {at}: a tile's rounds of every repeat unit as one loop{}. */\n\
             MOFMU_UNIT static int fuse_{at}_rounds_{}{suffix}({})\n{{\n    \
             const mofmu_step *S = sys->steps;\n    \
             const uint32_t *skew = sys->fuse_skew + S[{at}].first_source;\n    \
             ptrdiff_t t;\n    int el = 1;\n    (void)reached;",
            if lean { ", lean" } else { "" },
            mode.suffix(),
            unit_params(mode, "t0", "t1")
        );
        for &j in &body {
            self.hoist(out, j, x);
        }
        // The skews as exported: the links below hold for those.
        let (i0, first, _) = &repeats[0];
        for (i, head, _) in repeats {
            let _ = writeln!(
                out,
                "    const ptrdiff_t k{head} = (ptrdiff_t)skew[{i}], lo{head} = (ptrdiff_t)t0 - k{head};\n    \
                 if (k{head} - k{first} != {}) el = 0;",
                i64::from(skews[*i]) - i64::from(skews[*i0])
            );
        }
        let lo = |j: usize| format!("lo{}", plan.unit_of[&j].1);
        let guarded = self.guarded(&body, mode);
        self.inline_checks(out, &body, mode, guarded, &lo, "t1 - t0");
        let fw = self.rounds_links(plan, mode);
        let strides = self.unit_strides(&body);
        self.forward_locals(out, &fw, mode, &lo, strides.as_deref());
        let none = BTreeSet::new();
        let sites = match self.rounds_sites.get(&(at, mode == Mode::Value)) {
            Some(s) if lean => s,
            _ => &none,
        };
        self.reached_or_not(out, &body, mode, &|out| {
            self.lean_locals(out, sites);
            out.push_str("    for (t = (ptrdiff_t)t0; t < (ptrdiff_t)t1; t++) {\n");
            for (_, head, steps) in repeats {
                let _ = writeln!(out, "        {{\n        const ptrdiff_t r = t - k{head};");
                for &j in steps {
                    let lo = format!("lo{head}");
                    self.element_step(out, j, mode, &fw, guarded, &lo, sites);
                }
                out.push_str("        }\n");
            }
            out.push_str("    }\n");
            // The last round of each unit in the tile, which the next
            // tile (or a step after the loop) reads from `R`.
            for (_, head, steps) in repeats {
                let mine: BTreeSet<Site> = sites
                    .iter()
                    .filter(|site| match **site {
                        Site::Kept(j, _) | Site::Ptr(j, _) | Site::Copy(j) => steps.contains(&j),
                    })
                    .copied()
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let _ = writeln!(out, "    {{\n    const ptrdiff_t r = t - k{head};");
                self.lean_stores(out, &mine, &fw, mode, &format!("lo{head}"));
                out.push_str("    }\n");
            }
        });
        out.push_str("    return 1;\n    }\n    return 0;\n}\n\n");
    }

    /// Whether fused loop `at`'s one loop has a lean function in `mode`.
    fn rounds_lean(&self, at: usize, mode: Mode) -> bool {
        self.rounds_sites
            .get(&(at, mode == Mode::Value))
            .is_some_and(|s| !s.is_empty())
    }

    /// The element entry inlined for block step `j`, if its kernel has one.
    fn inline_element(&self, j: usize) -> Option<&Element> {
        let StepRecord::Block {
            instance, block, ..
        } = &self.steps[j]
        else {
            return None;
        };
        let k = &self.kernels[(self.class_of)(*instance) as usize];
        k.elements.get(*block as usize)?.as_ref()
    }

    /// The blocks of the fused loops' repeats: their element entries (each
    /// once), with the helpers and user-function prototypes they use.
    fn elements(&self, items: &[Item]) -> String {
        let mut seen = BTreeSet::new();
        let mut defs = String::new();
        let mut calls = BTreeSet::new();
        let mut callees = BTreeSet::new();
        for item in items {
            let Item::Fuse(at, span) = *item else {
                continue;
            };
            let mut u_at = at + 1;
            while u_at < at + 1 + span {
                let n = self.unit_len(u_at);
                for j in u_at + 1..u_at + n {
                    if let (
                        Some(e),
                        StepRecord::Block {
                            instance, block, ..
                        },
                    ) = (self.inline_element(j), &self.steps[j])
                    {
                        let class = (self.class_of)(*instance) as usize;
                        if seen.insert((class, *block)) {
                            defs.push_str(&e.text);
                            calls.insert(self.kernels[class].calls.clone());
                            callees.extend(self.kernels[class].callees.iter().cloned());
                        }
                    }
                }
                u_at += n;
            }
        }
        if defs.is_empty() {
            return String::new();
        }
        let mut s = String::from(
            "/* Element entries of the fused loops' blocks, inlined into their loops over \
             elements. */\n",
        );
        s.push_str(crate::codegen::kernel::HELPERS);
        match self.inline_functions(callees) {
            Some(functions) => s.push_str(&functions),
            None => calls.iter().for_each(|c| s.push_str(c)),
        }
        s.push_str(&defs);
        s
    }

    /// The definitions of the user functions `called` and of those they
    /// call, `static inline` (prototypes first, so any order serves), or
    /// `None` when one is not among the model's units (the blocks then
    /// call the functions' own units).
    fn inline_functions(&self, called: BTreeSet<String>) -> Option<String> {
        if called.is_empty() {
            return Some(String::new());
        }
        let mut todo: Vec<String> = called.into_iter().collect();
        let mut units = BTreeSet::new();
        let mut done = BTreeSet::new();
        while let Some(sym) = todo.pop() {
            if !done.insert(sym.clone()) {
                continue;
            }
            let u = self
                .functions
                .iter()
                .position(|f| f.outputs.contains(&sym))?;
            units.insert(u);
            todo.extend(self.functions[u].callees.iter().cloned());
        }
        let mut s = String::from(crate::codegen::function::HELPERS);
        for &u in &units {
            s.push_str(&self.functions[u].inline_prototypes);
        }
        s.push('\n');
        for &u in &units {
            s.push_str(&self.functions[u].inline_text);
            s.push('\n');
        }
        Some(s)
    }

    /// A repeat unit of a fused loop over its rounds [lo, hi), as
    /// `run_repeat_rounds` runs them.
    fn unit_rounds(&self, out: &mut String, head: usize, body: &[usize], mode: Mode) {
        let (suffix, reals) = mode.kernel();
        let pad = "    ";
        if let [j] = body {
            if let StepRecord::Block { .. } = self.steps[*j] {
                let (prefix, b, _) = self.block(*j);
                let _ = writeln!(
                    out,
                    "{pad}if (f{j}) {prefix}_b{b}{suffix}_n({reals}, i{j} + (ptrdiff_t)lo * s{j}, hi - lo, s{j}, q{j}, ctx);\n\
                     {pad}else for (r = (ptrdiff_t)lo; r < (ptrdiff_t)hi; r++) {prefix}_b{b}{suffix}({reals}, i{j} + r * s{j}, ctx);"
                );
                return;
            }
        }
        let all_copies = body
            .iter()
            .all(|&j| matches!(self.steps[j], StepRecord::Copy { .. }));
        if all_copies {
            let _ = writeln!(out, "{pad}if (S[{head}].body == 1 || S[{head}].by_step) {{");
            for &j in body {
                let _ = writeln!(
                    out,
                    "{pad}    for (r = (ptrdiff_t)lo; r < (ptrdiff_t)hi; r++) {{"
                );
                self.fused_step(out, j, mode);
                let _ = writeln!(out, "{pad}    }}");
            }
            let _ = writeln!(out, "{pad}}} else {{");
        }
        let _ = writeln!(
            out,
            "{pad}for (r = (ptrdiff_t)lo; r < (ptrdiff_t)hi; r++) {{"
        );
        for &j in body {
            self.fused_step(out, j, mode);
        }
        let _ = writeln!(out, "{pad}}}");
        if all_copies {
            let _ = writeln!(out, "{pad}}}");
        }
    }

    /// What step `j` of a fused loop touches, located before the loop.
    fn hoist(&self, out: &mut String, j: usize, x: &str) {
        match &self.steps[j] {
            StepRecord::Block { .. } => {
                let _ = writeln!(
                    out,
                    "    const mofmu_inst *const i{j} = S[{j}].inst;\n    \
                     const ptrdiff_t s{j} = S[{j}].stride, q{j} = S[{j}].real_stride;\n    \
                     const int f{j} = S[{j}].fn_n != NULL, on{j} = !reached || (S[{j}].reached & reached);\n    \
                     (void)q{j}; (void)f{j}; (void)on{j};"
                );
            }
            StepRecord::Copy { sources, .. } if self.spelled_out(j) => {
                let _ = writeln!(
                    out,
                    "    double *const t{j} = {x} + S[{j}].target;\n    \
                     const ptrdiff_t b{j} = S[{j}].stride;\n    \
                     const double c{j} = S[{j}].coefficient;\n    \
                     const int on{j} = !reached || (S[{j}].reached & reached);\n    (void)c{j};"
                );
                for k in 0..sources.len() {
                    let _ = writeln!(
                        out,
                        "    const double *const f{j}_{k} = {x} + sys->source_offset[S[{j}].first_source + {k}];\n    \
                         const ptrdiff_t a{j}_{k} = sys->source_stride[S[{j}].first_source + {k}];"
                    );
                }
            }
            _ => {
                let _ = writeln!(
                    out,
                    "    const int on{j} = !reached || (S[{j}].reached & reached);"
                );
            }
        }
    }

    /// Step `j` of a fused loop in round `r`, on what [`Self::hoist`] located.
    fn fused_step(&self, out: &mut String, j: usize, mode: Mode) {
        let (suffix, reals) = mode.kernel();
        let pad = "            ";
        let on = format!("if (on{j}) ");
        match &self.steps[j] {
            StepRecord::Block { .. } => {
                let (prefix, b, _) = self.block(j);
                let _ = writeln!(
                    out,
                    "{pad}{on}{prefix}_b{b}{suffix}({reals}, i{j} + r * s{j}, ctx);"
                );
            }
            StepRecord::Copy { .. } if self.spelled_out(j) => {
                let value = self.copy_value(j, &|k| format!("f{j}_{k}[r * a{j}_{k}]"));
                let _ = writeln!(out, "{pad}{on}t{j}[r * b{j}] = {value};");
            }
            StepRecord::Copy { .. } => {
                let _ = writeln!(
                    out,
                    "{pad}{on}mofmu_copy_step(sys, &S[{j}], r, {});",
                    mode.copies()
                );
            }
            _ => unreachable!("a fused unit holds blocks and copies"),
        }
    }
}

impl Gen<'_> {
    /// Whether copy step `j` is spelled out in C (one element, at most
    /// [`SPECIALISED_SOURCES`] sources), not run by `mofmu_copy_step`.
    fn spelled_out(&self, j: usize) -> bool {
        matches!(&self.steps[j], StepRecord::Copy { len: 1, sources, .. }
            if (1..=SPECIALISED_SOURCES).contains(&sources.len()))
    }

    /// The value spelled-out copy `j` assigns, source `k` read as
    /// `term(k)`: as mofmu_copy_step computes it, the signed sum, then the
    /// coefficient (a product with one leaves every bit).
    fn copy_value(&self, j: usize, term: &dyn Fn(usize) -> String) -> String {
        let StepRecord::Copy {
            coefficient,
            sources,
            ..
        } = &self.steps[j]
        else {
            unreachable!("a copy's value")
        };
        let mut sum = if sources[0].negative {
            format!("-{}", term(0))
        } else {
            term(0)
        };
        // Left to right, as mofmu_copy_step sums them.
        for (k, s) in sources.iter().enumerate().skip(1) {
            let op = if s.negative { '-' } else { '+' };
            sum = format!("({sum}) {op} {}", term(k));
        }
        // A product with one leaves every bit; one with minus one is the
        // negation, bit for bit (as mofmu_copy_rounds_1 folds signs).
        if *coefficient == 1.0 {
            sum
        } else if *coefficient == -1.0 {
            format!("-({sum})")
        } else {
            format!("c{j} * ({sum})")
        }
    }
}

/// A unit of a fused loop: its head step, its steps, whether a repeat.
type Unit = (usize, Vec<usize>, bool);

/// Parameters and arguments of a fused loop's unit over rounds [lo, hi).
fn unit_params(mode: Mode, lo: &str, hi: &str) -> String {
    let dr = match mode {
        Mode::Value => "",
        Mode::Tangent => "double *dR, ",
    };
    format!("const mofmu_system *sys, size_t {lo}, size_t {hi}, double *R, {dr}mofmu_ctx *ctx, int reached")
}

/// The most rounds the skews of a fused loop's repeats may lie apart for
/// them to run as one loop ([`Gen::rounds_fn`]).
const ROUNDS_SPREAD: u32 = 8;

/// The arguments of a call of a repeat's unit over rounds `[lo, hi)`.
fn unit_args(mode: Mode, lo: &str, hi: &str) -> String {
    match mode {
        Mode::Value => format!("sys, {lo}, {hi}, R, ctx, reached"),
        Mode::Tangent => format!("sys, {lo}, {hi}, R, dR, ctx, reached"),
    }
}
