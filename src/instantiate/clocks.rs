//! MX047: a clocked partition whose interval or sub-/super-sampling factor
//! is not positive with the values the model is exported with (`--set
//! Ts=0`, a modifier `f = 0`). The FMU checks the same at its first tick
//! (`mofmu_clock_fault`), for values an importer sets, with the same words.

use super::system::{Instance, RealKind, System};
use crate::diagnostic::Diagnostic;
use crate::ir::{ClockPart, Ex, Stmt};

/// One diagnostic per clock of an instance whose first part that is not
/// positive is known at export; parts computed from calculated parameters
/// are left to the FMU.
pub(super) fn clock_faults(sys: &System) -> Vec<Diagnostic> {
    let mut diags: Vec<Diagnostic> = Vec::new();
    for inst in &sys.instances {
        // A parameter several clocks read is one fault.
        let mut named: Vec<String> = Vec::new();
        let class = &sys.classes[inst.class].causalized.causal;
        let ticks = class
            .blocks
            .iter()
            .flat_map(|b| &b.stmts)
            .filter_map(|s| match s {
                Stmt::Tick(t) => Some(t),
                _ => None,
            });
        for tick in ticks {
            let bad = tick.parts.iter().find_map(|part| {
                let value = value_of(sys, inst, &part.value)?;
                (!(value > 0.0 && value.is_finite())).then_some((part, value))
            });
            if let Some((part, value)) = bad {
                let d = not_positive(sys, inst, part, value);
                let name = d.message.split('`').nth(1).unwrap_or_default().to_string();
                if !named.contains(&name) {
                    named.push(name);
                    diags.push(d);
                }
            }
        }
    }
    diags
}

/// The value of a parameter expression of `inst`, when every parameter it
/// reads has a value at export.
fn value_of(sys: &System, inst: &Instance, e: &Ex) -> Option<f64> {
    let mut known = true;
    let folded = e.replace(&mut |x| match x {
        Ex::Var(slot, None) => {
            let real = &sys.reals[*inst.slot_offsets.get(*slot)?];
            match (real.kind, real.start) {
                (RealKind::Parameter | RealKind::Constant, Some(v)) => Some(Ex::Real(v)),
                _ => {
                    known = false;
                    None
                }
            }
        }
        _ => None,
    });
    if known {
        folded.fold(&inst.ints)
    } else {
        None
    }
}

fn not_positive(sys: &System, inst: &Instance, part: &ClockPart, value: f64) -> Diagnostic {
    let name = match &part.value {
        Ex::Var(slot, None) if part.parameter => sys.reals[inst.slot_offsets[*slot]].name.clone(),
        // An Integer parameter of the instance, by its flat name.
        _ if part.parameter && !inst.path.is_empty() => format!("{}.{}", inst.path, part.written),
        _ => part.written.clone(),
    };
    // Named as the FMU names it at its first tick (mofmu_clock_fault).
    let of = if inst.path.is_empty() {
        &sys.model_name
    } else {
        &inst.path
    };
    let at_least = if part.role == "factor" {
        "an Integer of at least 1"
    } else {
        "a value above zero"
    };
    Diagnostic::error(
        "MX047",
        part.span,
        format!(
            "`{name}` = {value} is the {} of the clock `{}` of `{of}`; it must be positive",
            part.role, part.clock
        ),
    )
    .with_label(format!("the {} is not positive", part.role))
    .with_help(format!(
        "give `{name}` {at_least} (in a modifier, or `--set {name}=...` at export): a clock ticks every interval seconds, and a factor counts ticks of the base clock"
    ))
}
