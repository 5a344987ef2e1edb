//! What a template derived at two sizes must pass before its parameter is
//! offered as structural: further sizes confirm it (byte for byte, or below
//! the derivation size by an equivalent schedule), every run of Reals it
//! grows is one FMI 3 array of exactly n elements, and it serves a range of
//! sizes around the exported one.

use std::collections::HashMap;
use std::rc::Rc;

use super::model::{NotAffine, Template};
use super::probe::{SizeProbe, SystemImageOf};
use super::resource::verify;
use super::template::steps_at;
use crate::fmu::description::fmi3_arrays::arrays_sized;
use crate::fmu::description::table::{ModelTable, VariableType};
use crate::fmu::image::system::schedule_holds;
use crate::fmu::image::system_image::{plain_steps, SystemImage};
use crate::instantiate::System;

/// How many sizes below the exported one are tried for the structural
/// parameter's smallest admitted value (when the template is derived at
/// the exported size; from the small size, every size down to 1).
const STRUCTURAL_DOWN: i64 = 8;

/// The images a template was derived from: at `m0` and `m0 + 1`.
pub type Pair<'x> = (&'x SystemImageOf, &'x SystemImageOf, i64);

/// The template `t`, derived from the images `i0` and `i1` at `m0` and
/// `m0 + 1`, when two more sizes confirm it, and so does the exported image
/// (`image0`, at `n0`) when derived away from it (byte for byte, or below
/// m0 by an equivalent schedule); else why not.
pub fn confirmed(
    probe: &SizeProbe,
    t: Template,
    (i0, i1, m0): Pair,
    n0: i64,
    image0: &[u8],
) -> Result<Template, NotAffine> {
    // Two sizes determine the template; two more must confirm
    // it, and so must the exported image when derived away
    // from it (byte for byte, or below m0 by an equivalent
    // schedule).
    let confirmed = [m0 + 2, m0 + 3].iter().all(|&m| {
        probe
            .image(m)
            .is_some_and(|i| verify(&t, m, &i.to_bytes(probe.draft_guid)))
    }) && (m0 == n0
        || verify(&t, n0, image0)
        || (n0 < m0 && equivalent(probe, n0, &t, (i0, i1, m0), Some(image0))));
    if !confirmed {
        Err(
            "the system tables are not affine in it (sizes n + 2 and n + 3 differ \
         from the straight line through n and n + 1)"
                .into(),
        )
    } else if i0.n_event_indicators != i1.n_event_indicators {
        Err("the number of event indicators follows it".into())
    } else {
        Ok(t)
    }
}

/// Why a template failed when the number of Reals itself is not affine in
/// the size: sizes m0, m0 + 1 and m0 + 2 do not add the same number (an
/// n × n array, `Real M[n, n]`), which no `<Dimension>` of one structural
/// parameter declares and no affine template lays out.
pub fn faster_than_affine(probe: &SizeProbe, name: &str, (i0, i1, m0): Pair) -> Option<String> {
    let i2 = probe.image(m0 + 2)?;
    let (a, b, c) = (i0.reals.len(), i1.reals.len(), i2.reals.len());
    (c + a != 2 * b).then(|| {
        format!(
            "the number of Reals is not affine in it ({a}, {b} and {c} at {name} = {m0}, {} \
             and {}), as with an array of {name} × {name} elements; every array it sizes must \
             have {name} elements",
            m0 + 1,
            m0 + 2
        )
    })
}

/// Whether the template `t`, derived from the images `i0` and `i1` at
/// sizes `m0` and `m0 + 1`, serves the size `n` below `m0`, where the
/// exporter writes the same schedule another way: a repeat of fewer
/// rounds than it rolls (`system_image::roll_up`) stays plain in the
/// image, the template keeps it rolled. The template's output at `n`
/// must be the image at `n` (byte for byte `expect`, when given: the
/// exported image) but for the schedule and its marks, and its schedule
/// must run the image's operations in the image's order
/// (`system_image::plain_steps`), with the fused loops and the steps a
/// linear response reaches that the analyses give for it
/// (`system::schedule_holds`). The FMU then computes at `n` what the
/// FMU exported at `n` computes, bit for bit.
fn equivalent(
    probe: &SizeProbe,
    n: i64,
    t: &Template,
    derived: Pair,
    expect: Option<&[u8]>,
) -> bool {
    let Some(at) = probe.at(n) else {
        return false;
    };
    if expect.is_some_and(|bytes| at.image.to_bytes(probe.draft_guid) != bytes) {
        return false;
    }
    equivalent_image(&at.sys, at.image, n, t, derived, probe.draft_guid)
}

/// [`equivalent`] for the model instantiated at `n` (`sys`) and its image.
fn equivalent_image(
    sys: &System,
    image: Rc<SystemImageOf>,
    n: i64,
    t: &Template,
    (i0, i1, m0): Pair,
    draft_guid: &str,
) -> bool {
    let Some(steps) = steps_at(i0, i1, m0, n) else {
        return false;
    };
    match (plain_steps(&steps), plain_steps(&image.steps)) {
        (Some(a), Some(b)) if a == b => {}
        _ => return false,
    }
    if !schedule_holds(sys, &steps, &i0.passes) {
        return false;
    }
    // The image of a size the probe keeps is shared: the rolled one is a copy.
    let image = Rc::try_unwrap(image).unwrap_or_else(|shared| (*shared).clone());
    let rolled = SystemImage {
        steps,
        passes: i0.passes.clone(),
        ..image
    };
    verify(t, n, &rolled.to_bytes(draft_guid))
}

/// The value references of the runs of Reals that grow with the parameter
/// (`name`), when every one is one array of the description of exactly
/// `name` elements; else why not. `t`'s segments carry their first value
/// reference and length at the exported size.
pub fn description_arrays(
    table: &ModelTable,
    t: &Template,
    name: &str,
) -> Result<Vec<u32>, String> {
    // The Real a note names by its value reference.
    let real_name = |vr: u32| {
        table
            .variables
            .iter()
            .find(|x| x.value_reference == vr && matches!(x.ty, VariableType::Real { .. }))
            .map_or_else(|| format!("value reference {vr}"), |x| x.name.clone())
    };
    // Every run of Reals whose length follows the parameter must be one
    // array of the description, named by its first element: a run of
    // stride 1 an array of Reals (`rod.T`), a member of a component
    // array's instances (stride m) a member array (`cap.T`).
    let varying: Vec<u32> = t
        .segments
        .iter()
        .filter(|s| s.len.b != 0)
        .map(|s| s.vr0)
        .collect();
    let arrays = arrays_sized(table, &varying);
    let array_at: HashMap<u32, (usize, usize)> = arrays
        .groups
        .iter()
        .map(|g| (table.variables[g.first].value_reference, (g.len, g.stride)))
        .collect();
    let hidden = varying.iter().find(|vr| {
        let seg = t
            .segments
            .iter()
            .find(|s| s.vr0 == **vr)
            .expect("a segment");
        let stride = seg.stride as u32;
        let exposed = table.variables.iter().any(|x| {
            matches!(x.ty, VariableType::Real { .. })
                && x.value_reference >= seg.vr0
                && (x.value_reference - seg.vr0) % stride == 0
                && (x.value_reference - seg.vr0) / stride < seg.len0
        });
        exposed && array_at.get(vr) != Some(&(seg.len0 as usize, seg.stride as usize))
    });
    if let Some(vr) = hidden {
        let first = real_name(*vr);
        return Err(format!(
            "the Reals from {first} on grow with it but are not one FMI 3 array of the \
             description (their value references would move)"
        ));
    }
    // A `<Dimension>` names the parameter itself, so every array that
    // follows it must have exactly n elements: `Real gap[n - 1]` or
    // `y[2*n]` cannot be declared (FMI 3.0 has no size expressions,
    // and a structural parameter cannot be calculated from another).
    let off_size = t.segments.iter().find(|s| {
        s.len.b != 0
            && (s.len.a, s.len.b) != (0, 1)
            && array_at.get(&s.vr0) == Some(&(s.len0 as usize, s.stride as usize))
    });
    if let Some(s) = off_size {
        let array = arrays
            .groups
            .iter()
            .find(|g| table.variables[g.first].value_reference == s.vr0)
            .map_or_else(|| format!("value reference {}", s.vr0), |g| g.name.clone());
        let size = match (s.len.a, s.len.b) {
            (a, 1) if a < 0 => format!("{name} - {}", -a),
            (a, 1) => format!("{name} + {a}"),
            (0, b) => format!("{b}*{name}"),
            (a, b) if a < 0 => format!("{b}*{name} - {}", -a),
            (a, b) => format!("{b}*{name} + {a}"),
        };
        return Err(format!(
            "{array} has {size} elements, and an FMI 3.0 <Dimension> can only name the \
             structural parameter itself"
        ));
    }
    Ok(varying)
}

/// The smallest size the template serves (its image, or below m0
/// an equivalent one): a few below n0, or down to 1 from the size
/// it was derived at when that is not n0.
pub fn smallest(probe: &SizeProbe, t: &Template, (i0, i1, m0): Pair, n0: i64) -> i64 {
    let lowest = if m0 != n0 {
        1
    } else {
        1.max(m0 - STRUCTURAL_DOWN)
    };
    let mut n_min = m0;
    for m in (lowest..m0).rev() {
        // One model and image at m serves both checks.
        let served = probe.at(m).is_some_and(|at| {
            verify(t, m, &at.image.to_bytes(probe.draft_guid))
                || equivalent_image(&at.sys, at.image, m, t, (i0, i1, m0), probe.draft_guid)
        });
        if !served {
            break;
        }
        n_min = m;
    }
    n_min
}

/// The largest size the template serves: the Reals the FMI 3.0 value
/// references can name (Float64 value references are indices in R, below
/// the Integers' base). Not MX007's bound, which is what an export may
/// build in memory: an FMU that serves a size builds nothing at export.
pub fn largest(t: &Template) -> i64 {
    let (a, b) = t
        .segments
        .iter()
        .fold((0i64, 0i64), |(a, b), s| (a + s.len.a, b + s.len.b));
    let cap = i64::from(crate::fmu::description::fmi3::INTEGER_BASE) - 1;
    if b > 0 {
        (cap - a) / b
    } else {
        i64::from(i32::MAX)
    }
}
