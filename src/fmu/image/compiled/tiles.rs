//! A fused loop's function: its units tile by tile (each repeat unit over
//! the rounds that fall in the tile, each single step where its one round
//! does), or in their order where the loop is one tile, and the one loop
//! that runs a tile's repeats together ([`Gen::rounds_fn`]).

use std::fmt::Write;

use super::{unit_args, unit_params, Gen, Mode, Unit};
use crate::fmu::image::system_image::held_until;

impl Gen<'_> {
    /// The part of a fused loop's function that runs a loop of one tile
    /// (where C condition `when` holds): its units in their order, each
    /// repeat over all its rounds, each single step by a direct call.
    fn one_tile(&self, out: &mut String, units: &[Unit], mode: Mode, when: &str) {
        let m = mode.suffix();
        let _ = writeln!(out, "    if ({when}) {{");
        // A lean evaluation runs its own sequence: the units' lean
        // functions, without the single copies it leaves out, and no test
        // per step in either (a test per step made a small cooling loop's
        // fused loop a third slower).
        let lean_unit = |head: usize| self.has_lean(head, mode);
        let any_lean = units.iter().any(|&(head, _, repeat)| {
            if repeat {
                lean_unit(head)
            } else {
                self.lean_skips(head, mode)
            }
        });
        let sequences: &[bool] = if any_lean { &[true, false] } else { &[false] };
        for &lean in sequences {
            if lean {
                out.push_str("        if (ctx->lean) {\n");
            }
            for &(head, _, repeat) in units {
                if lean && !repeat && self.lean_skips(head, mode) {
                    continue;
                }
                let _ = writeln!(
                    out,
                    "        if (!reached || (S[{head}].reached & reached)) {{"
                );
                if repeat {
                    let args = unit_args(mode, "0", &format!("S[{head}].count"));
                    let suffix = if lean && lean_unit(head) { "_lean" } else { "" };
                    let _ = writeln!(out, "            unit_{head}_{m}{suffix}({args});");
                } else {
                    self.single(out, head, mode, "            ", Some(lean));
                }
                out.push_str("        }\n");
            }
            if lean {
                out.push_str("        return;\n        }\n");
            }
        }
        out.push_str("        return;\n    }\n");
    }

    /// The tables of fused loop `at`'s repeat units' functions: those a
    /// full evaluation calls, and those a lean one does.
    fn unit_tables(&self, out: &mut String, at: usize, units: &[Unit], mode: Mode) {
        let m = mode.suffix();
        let unit_params = unit_params(mode, "lo", "hi");
        for (table, lean) in [("fn", false), ("lean", true)] {
            let fns: Vec<String> = units
                .iter()
                .filter(|u| u.2)
                .map(|(head, _, _)| {
                    let lean = lean && self.has_lean(*head, mode);
                    format!("unit_{head}_{m}{}", if lean { "_lean" } else { "" })
                })
                .collect();
            let _ = writeln!(
                out,
                "static void (*const fuse_{at}_repeat_{table}_{m}[{}])({unit_params}) = {{ {} }};",
                fns.len(),
                fns.join(", ")
            );
        }
    }

    /// The tables of fused loop `at`'s single steps (unit, step, whether a
    /// lean evaluation leaves it out) and repeat units (unit, step, their
    /// functions); the numbers of each.
    fn tile_tables(
        &self,
        out: &mut String,
        at: usize,
        units: &[Unit],
        mode: Mode,
    ) -> (usize, usize) {
        let m = mode.suffix();
        let sole = |name: &str, items: Vec<String>, ty: &str| {
            format!(
                "static const {ty} fuse_{at}_{name}_{m}[{}] = {{ {} }};\n",
                items.len(),
                items.join(", ")
            )
        };
        let singles: Vec<(usize, usize)> = units
            .iter()
            .enumerate()
            .filter(|(_, u)| !u.2)
            .map(|(i, u)| (i, u.0))
            .collect();
        let repeats: Vec<(usize, usize)> = units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.2)
            .map(|(i, u)| (i, u.0))
            .collect();
        let list = |v: &[(usize, usize)], f: fn(&(usize, usize)) -> usize| {
            v.iter().map(|x| f(x).to_string()).collect::<Vec<_>>()
        };
        if !singles.is_empty() {
            out.push_str(&sole("single_unit", list(&singles, |x| x.0), "uint32_t"));
            out.push_str(&sole("single_step", list(&singles, |x| x.1), "uint32_t"));
            // Those a lean evaluation leaves out.
            let lean = singles
                .iter()
                .map(|x| u8::from(self.lean_skips(x.1, mode)).to_string())
                .collect();
            out.push_str(&sole("single_lean", lean, "unsigned char"));
        }
        if !repeats.is_empty() {
            out.push_str(&sole("repeat_unit", list(&repeats, |x| x.0), "uint32_t"));
            out.push_str(&sole("repeat_step", list(&repeats, |x| x.1), "uint32_t"));
            self.unit_tables(out, at, units, mode);
        }
        (singles.len(), repeats.len())
    }

    /// The function of fused loop `at` over its `units` (head, steps,
    /// whether a repeat), tile by tile: in unit order, the repeat units
    /// whose rounds fall in the tile (each through its function) and the
    /// single steps whose skew (their one round) falls in it. The single
    /// steps are put in the order they run once per evaluation (by tile,
    /// then by unit): a tile then costs its repeat units and the single
    /// steps it holds, not a test of every unit, which in the cooling loop
    /// (149 single steps beside 6 repeats) was a fifth of the time.
    pub(super) fn tile_loop(
        &self,
        out: &mut String,
        at: usize,
        units: &[Unit],
        mode: Mode,
        rounds: bool,
    ) {
        let (params, _) = self.mode_params(mode);
        let x = mode.copies();
        let m = mode.suffix();
        let (ns, nr) = self.tile_tables(out, at, units, mode);
        let _ = writeln!(
            out,
            "\n/* Step {at}: {}. */\nstatic void fuse_{at}_{m}({params})\n{{\n    \
             const mofmu_step *S = sys->steps;\n    \
             const uint32_t *skew = sys->fuse_skew + S[{at}].first_source;\n    \
             const size_t len = S[{at}].len;\n    size_t t0;\n    (void)skew;",
            self.describe(at),
        );
        // Where the repeats run mostly one after another (an array walked
        // in passes that each need the end of the one before: their rounds
        // add up to less than twice the loop's), a tile keeps little in the
        // cache from one unit to the next and pays each unit's set-up: the
        // whole loop is then one tile.
        out.push_str("    size_t tile = MOFMU_FUSE_TILE;\n");
        if nr > 0 {
            let _ = writeln!(
                out,
                "    if (len > MOFMU_FUSE_TILE) {{\n        size_t u, rounds = 0;\n        \
                 for (u = 0; u < {nr}; u++) rounds += S[fuse_{at}_repeat_step_{m}[u]].count;\n        \
                 if (rounds < 2 * len) tile = len;\n    }}"
            );
        }
        // A loop of one tile (a small model, or one whose repeats run one
        // after another) runs its units in their order, which is the order
        // the tiles below run them in: each repeat over all its rounds (a
        // repeat's skew and count end within the loop), each single step by
        // a direct call, without the tiles' bookkeeping (the sorts and the
        // list of repeats). A loop whose tiles run its repeats as one loop
        // keeps the tiles.
        let whole = if rounds || nr == 0 {
            "len <= MOFMU_FUSE_TILE"
        } else {
            "len <= MOFMU_FUSE_TILE || tile == len"
        };
        self.one_tile(out, units, mode, whole);
        if ns > 0 {
            let _ = writeln!(
                out,
                "    uint32_t order[{ns}], in[{ns}], spare[{ns}];\n    size_t i, p = 0;\n    \
                 /* The single steps by tile, then by unit: each one's tile, dividing only\n       \
                 where it is past the first. */\n    \
                 for (i = 0; i < {ns}; i++) {{\n        \
                 const size_t s = skew[fuse_{at}_single_unit_{m}[i]];\n        \
                 in[i] = (uint32_t)(s < tile ? 0 : tile == MOFMU_FUSE_TILE ? s / MOFMU_FUSE_TILE : s / tile);\n        \
                 order[i] = (uint32_t)i;\n    }}\n    \
                 mofmu_sort_by_(order, spare, in, {ns});"
            );
        }
        if nr > 0 {
            // Each repeat's first round in the loop and the round after its
            // last, read once, and the repeats by first round: a tile runs
            // the repeats it holds rounds of from a list of them in unit
            // order, which takes in those that start in it and lets go of
            // those that end in it. (The grid's 203 repeats, each in a few
            // of some 40 tiles, were each tested in every tile: the tests
            // and the reads of the steps took half of the time its units
            // took.)
            let _ = writeln!(
                out,
                "    size_t end[{nr}], r, a, na = 0, nb = 0;\n    \
                 uint32_t first[{nr}], by_first[{nr}], active[{nr}], spare_r[{nr}];\n    \
                 for (r = 0; r < {nr}; r++) {{\n        \
                 first[r] = skew[fuse_{at}_repeat_unit_{m}[r]];\n        \
                 end[r] = (size_t)first[r] + S[fuse_{at}_repeat_step_{m}[r]].count;\n        \
                 by_first[r] = (uint32_t)r;\n    }}\n    \
                 mofmu_sort_by_(by_first, spare_r, first, {nr});"
            );
        }
        out.push_str(
            "    for (t0 = 0; t0 < len; t0 += tile) {\n        \
             const size_t t1 = t0 + tile;\n        (void)t1;\n",
        );
        // The single steps of this tile still to run (those before unit
        // `until`, when given), each through its loaded step; `pad` is the
        // indentation of the loop.
        let run_single = |pad: &str, until: &str| {
            let call = match mode {
                Mode::Value => "head->fn(R, head->inst, ctx);",
                Mode::Tangent => "head->tangent(R, dR, head->inst, ctx);",
            };
            format!(
                "{pad}while (p < {ns} && skew[fuse_{at}_single_unit_{m}[order[p]]] < t1{until}) {{\n\
                 {pad}    const size_t q = order[p++];\n\
                 {pad}    const mofmu_step *head = &S[fuse_{at}_single_step_{m}[q]];\n\
                 {pad}    if (reached && !(head->reached & reached)) continue;\n\
                 {pad}    if (ctx->lean && fuse_{at}_single_lean_{m}[q]) continue;\n\
                 {pad}    if (head->tag == MOFMU_STEP_COPY) mofmu_copy_step(sys, head, 0, {x});\n\
                 {pad}    else {call}\n\
                 {pad}}}\n"
            )
        };
        if rounds {
            self.rounds_call(out, at, mode, ns);
        }
        if nr > 0 {
            let _ = writeln!(
                out,
                "        size_t keep = 0;\n        \
                 while (nb < {nr} && first[by_first[nb]] < t1) {{\n            \
                 const uint32_t x = by_first[nb++];\n            \
                 for (a = na++; a > 0 && active[a - 1] > x; a--) active[a] = active[a - 1];\n            \
                 active[a] = x;\n        }}\n        \
                 for (a = 0; a < na; a++) {{\n            \
                 r = active[a];\n            \
                 if (end[r] > t1) active[keep++] = (uint32_t)r;\n            \
                 if (end[r] <= t0) continue;\n            \
                 const mofmu_step *head = &S[fuse_{at}_repeat_step_{m}[r]];\n            \
                 const size_t k = first[r];\n            \
                 size_t lo = t0 > k ? t0 - k : 0, hi = t1 > k ? t1 - k : 0;"
            );
            if ns > 0 {
                out.push_str(&run_single(
                    "            ",
                    &format!(
                        " && fuse_{at}_single_unit_{m}[order[p]] < fuse_{at}_repeat_unit_{m}[r]"
                    ),
                ));
            }
            let args = unit_args(mode, "lo", "hi");
            let _ = writeln!(
                out,
                "            if (hi > head->count) hi = head->count;\n            \
                 if (lo < hi && (!reached || (head->reached & reached))) (ctx->lean ? fuse_{at}_repeat_lean_{m} : fuse_{at}_repeat_fn_{m})[r]({args});\n        }}\n        \
                 na = keep;"
            );
        }
        if ns > 0 {
            out.push_str(&run_single("        ", ""));
        }
        out.push_str("    }\n}\n\n");
    }

    /// In fused loop `at`'s tile loop, the call of its one-loop function
    /// ([`Self::rounds_fn`]) for a tile inside the rounds of every repeat
    /// that function runs, outside those of the others, and with no single
    /// step (`ns` single steps).
    fn rounds_call(&self, out: &mut String, at: usize, mode: Mode, ns: usize) {
        let Some(plan) = self.rounds_plan(at) else {
            return;
        };
        let m = mode.suffix();
        // A tile inside the rounds of every repeat the one loop runs, with
        // no round of another repeat and no single step.
        let inside = if ns > 0 {
            format!("!(p < {ns} && skew[fuse_{at}_single_unit_{m}[order[p]]] < t1)")
        } else {
            "1".to_string()
        };
        let _ = writeln!(
            out,
            "        {{\n            int inside = {inside};\n            size_t k;\n            (void)k;"
        );
        let end = held_until(self.steps, at).unwrap_or(at + 1);
        for (i, (head, _, repeat)) in self.fuse_units(at, end - at - 1).iter().enumerate() {
            if !repeat {
                continue;
            }
            let test = if plan.repeats.iter().any(|u| u.1 == *head) {
                format!(
                    "t0 < k || t1 - k > S[{head}].count || (reached && !(S[{head}].reached & reached))"
                )
            } else {
                format!(
                    "t1 > k && t0 < k + S[{head}].count && (!reached || (S[{head}].reached & reached))"
                )
            };
            let _ = writeln!(
                out,
                "            k = skew[{i}];\n            if ({test}) inside = 0;"
            );
        }
        let args = unit_args(mode, "t0", "t1");
        let call = if self.rounds_lean(at, mode) {
            format!("(ctx->lean ? fuse_{at}_rounds_{m}_lean : fuse_{at}_rounds_{m})")
        } else {
            format!("fuse_{at}_rounds_{m}")
        };
        let _ = writeln!(
            out,
            "            if (inside && {call}({args})) continue;\n        }}"
        );
    }
}

/// `mofmu_sort_by_`: orders `n` indices (`order`, 0 to n - 1 on entry) by
/// their keys, stably (equal keys keep their order), with `spare` for room:
/// by insertion while that moves at most 16n indices (nearly in order, as
/// usual), else by merging from the start.
pub(super) const SORT_BY: &str = "
static inline void mofmu_sort_by_(uint32_t *order, uint32_t *spare, const uint32_t *key, size_t n)
{
    uint32_t *from = order, *to = spare, *swap;
    size_t i, j, w, moves = 0;
    for (i = 1; i < n; i++) {
        const uint32_t x = order[i];
        for (j = i; j > 0 && key[order[j - 1]] > key[x] && moves < 16 * n; j--, moves++) order[j] = order[j - 1];
        order[j] = x;
        if (moves >= 16 * n) break;
    }
    if (i >= n) return;
    for (i = 0; i < n; i++) order[i] = (uint32_t)i;
    for (w = 1; w < n; w *= 2) {
        for (i = 0; i < n; i += 2 * w) {
            const size_t mid = i + w < n ? i + w : n, hi = i + 2 * w < n ? i + 2 * w : n;
            size_t l = i, h = mid, o = i;
            while (l < mid && h < hi) to[o++] = key[from[h]] < key[from[l]] ? from[h++] : from[l++];
            while (l < mid) to[o++] = from[l++];
            while (h < hi) to[o++] = from[h++];
        }
        swap = from; from = to; to = swap;
    }
    if (from != order) for (i = 0; i < n; i++) order[i] = from[i];
}
";
