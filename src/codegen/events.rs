//! The `events` entry of a class kernel (DESIGN §2.2c): after an evaluation
//! at an event, the runtime calls it on every instance of the class to
//! move each value the class keeps into its left limit (`pre`), each
//! reinitialised state to its new value, and to report a `terminate`. The
//! runtime's helpers (`mofmu_pre`, `mofmu_reinit`, `mofmu_terminate`,
//! mofmu_model.h) say what changed, so the event iteration knows when to
//! stop and which variables keep changing. Like the rest of the kernel it
//! is generated from the class alone: element counts come from the
//! instance's Integer parameters.

use std::fmt::Write;

use super::c_text::c_string;
use crate::ir::{Arith, CausalClass, Ex};

/// The definition of `<prefix>_events`, or nothing for a class without
/// events.
pub fn function(class: &CausalClass, prefix: &str) -> String {
    let Some(events) = &class.events else {
        return String::new();
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "/* Events: left limits, reinitialised states and terminations, moved after an\n   evaluation at an event; returns what changed (MOFMU_EVENTS_*). */"
    );
    let _ = writeln!(
        s,
        "int {prefix}_events(double *R, const mofmu_inst *in, mofmu_ctx *ctx)\n{{\n    int changed = 0;"
    );
    for (value, pre, count) in &events.pre {
        let _ = writeln!(
            s,
            "    changed |= mofmu_pre(R, ctx, in, in->off[{value}], in->off[{pre}], {}); /* pre({}) */",
            count_c(count),
            class.slots[*value].name.replace("*/", "* /")
        );
    }
    for (state, value) in &events.reinit {
        let _ = writeln!(
            s,
            "    changed |= mofmu_reinit(R, ctx, in, in->off[{state}], in->off[{value}]); /* reinit({}) */",
            class.slots[*state].name.replace("*/", "* /")
        );
    }
    for (flag, message) in &events.terminate {
        let _ = writeln!(
            s,
            "    if (R[in->off[{flag}]] != 0.0) {{\n        changed |= mofmu_terminate(ctx, in, \"{}\");\n    }}",
            c_string(message)
        );
    }
    s.push_str("    return changed;\n}\n\n");
    s
}

/// The prototype of `<prefix>_events`.
pub fn prototype(prefix: &str) -> String {
    format!("int {prefix}_events(double *R, const mofmu_inst *in, mofmu_ctx *ctx);\n")
}

/// An element count, an Integer expression of the class's Integer
/// parameters and literals, as C over the instance record.
fn count_c(e: &Ex) -> String {
    match e {
        Ex::Int(i) => format!("INT64_C({i})"),
        Ex::IntParam(k) => format!("in->ints[{k}]"),
        Ex::Neg(a) => format!("(-{})", count_c(a)),
        Ex::Bin(op @ (Arith::Add | Arith::Sub | Arith::Mul), a, b) => {
            let o = match op {
                Arith::Add => "+",
                Arith::Sub => "-",
                _ => "*",
            };
            format!("({} {o} {})", count_c(a), count_c(b))
        }
        other => unreachable!("an element count is affine in Integer parameters: {other:?}"),
    }
}
