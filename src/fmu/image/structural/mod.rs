//! FMI 3.0 structural parameters: one FMU for any array size.
//!
//! An Integer parameter that sizes arrays (`rod.n`) may become a
//! `structuralParameter` when the system image is *affine* in it: every
//! count, offset, stride, index and loop bound of the image at size `n` is
//! `a + b·n`, and every variable-length table (the Reals' start values,
//! kinds and names, the states, the derivatives, the Jacobian's rows) is a
//! fixed list of runs whose lengths are affine in `n` and whose entries are
//! affine in `n` and in their position `k` in the run. For the size of a
//! component array (`cap[n]`) the runs have a period: instance records
//! `cap[k]` whose offsets step by the same amount, Reals in blocks of `m`
//! names of one index (`cap[k].C`, …, `der(cap[k].T)`), states `v, v + m, …`. The exporter derives
//! the image at a size `n0` and at `n0 + 1` (in this module `n0` is the
//! size the template is derived at: the exported size, or 16 when the
//! exported size is larger, [`structural_parameter`]), builds from the two a
//! [`Template`] (a short program of literal bytes, affine integers, loops
//! and indexed names), and accepts it only when the template evaluated at
//! further sizes reproduces, byte for byte, the image exported at those
//! sizes ([`verify`]). The runtime (`templates/mofmu_fmi3_structural.inc`) evaluates the
//! same template at `fmi3ExitConfigurationMode` and loads the bytes as it
//! loads `resources/mofmu_system.bin`: nothing is compiled at run time.
//!
//! Value references: the description's Float64 value references are the
//! variables' indices in `R` at `n0`. At another `n` a variable moves in
//! `R`; the runtime maps a description value reference through the
//! [`Segment`] table (per run of Reals: its first value reference and
//! length at `n0`, its start and length at `n` as `a + b·n`; a member of a
//! block run is a segment of stride `m`, element k at `start + k·m`). A run
//! whose length changes with `n` must be one FMI 3 array of the description
//! (named by its first element, so its value reference stays valid at any
//! size: an array of Reals, or for a segment of stride m a member array
//! `cap.T`); a scalar keeps its value reference whatever the size.
//!
//! Resource `resources/mofmu_struct.bin`, little-endian:
//!
//! ```text
//! "MOFMUSTR" u32 version(1 to 4) u32 integer (the parameter's index in the
//! Integer table) str name  i64 n0  i64 n_min  i64 n_max  [i64 start: version 4]
//! u32 segments { u32 vr0  u32 len0  i64 start_a  i64 start_b  i64 len_a  i64 len_b
//!                [i64 stride: versions 2 to 4] }
//! u32 ops { u8 0 u32 len bytes                                  literal
//!         | u8 1 u8 width(0 u32, 1 i32, 2 i64) i64 a i64 b i64 c  a + b·n + c·k
//!         | u8 2 i64 a i64 b u32 body                           loop: the next
//!                 `body` ops a + b·n times, k = 0, 1, …
//!         | u8 3 str prefix str suffix i64 a i64 b i64 c        the string
//!                 prefix + decimal(a + b·n + c·k) + suffix
//!         | u8 4 u32 steps { u8 tag  24 bytes }                  version 3 only:
//!                 the f64 a postfix program computes (8 bytes): tag 0 a
//!                 constant (its bits in the first 8 bytes), 1 the integer
//!                 a + b·n + c·k (three i64) as a double, 2 negation, 3 +,
//!                 4 −, 5 ×, 6 ÷ (operands popped, the result pushed; the
//!                 rest of the 24 bytes zero); at most 32 steps, one value
//!                 left }
//! u64 FNV-1a of every byte before it
//! ```
//!
//! Version 4 (version 3's layout with the size the FMU starts at) is
//! written only when that size is not n0: an export at a large size served
//! from the image at a small one (`crate::export`), whose runtime lays the
//! instance out for the start size when it is made.
//! Version 2 is written only when a segment has a stride other than 1 (a
//! component array's size); otherwise the file is version 1, byte for byte
//! what it was before strides. Version 3 (segments as in version 2) is
//! written only when the template has an op 4: a start value the size sets
//! (`each V = 2e-3/n`). The instantiator keeps the expression it folded
//! such a value from ([`crate::ir::Ex::calc`], `System::start_calcs`); where
//! the two images' start values differ, the template computes the value
//! from n by that program, each Integer affine through the two sizes, with
//! the operations of [`crate::ir::Ex::fold`] in its order, which the C
//! runtime (built with `-ffp-contract=off`) repeats in IEEE doubles.
//!
//! The template's output is the system image without its checksum.
//!
//! The files: [`model`] the template, [`template`] its derivation from two
//! images, [`resource`] its evaluation and the resource file, [`probe`] the
//! images at other sizes (each size built once), [`check`] what a derived
//! template must pass; this file the search over the Integer parameters.

pub mod check;
pub mod model;
pub mod probe;
pub mod resource;
pub mod template;

pub use model::{Affine, NotAffine, Op, Segment, Step, Template, Width};
pub use probe::{Instantiate, SizeProbe, SystemImageOf, STRUCTURAL_PROBE};
pub use resource::{evaluate, replace_guid, verify, Structural, RESOURCE_NAME};
pub use template::{steps_at, template};

use std::rc::Rc;

use crate::codegen::kernel::Kernel;
use crate::fmu::description::table::{
    Causality, ModelTable, ModelVariable, StructuralParameter, VariableType,
};

/// What the search reads of the export.
pub struct Exported<'a> {
    /// The checked variable table at the exported size.
    pub table: &'a ModelTable,
    /// The system image at the exported size, written with `draft_guid`.
    pub image: &'a [u8],
    pub kernels: &'a [Kernel],
    pub model_identifier: &'a str,
    /// The GUID the images hold until the FMU is hashed.
    pub draft_guid: &'a str,
    /// The model at another value of one Integer parameter.
    pub instantiate: &'a Instantiate<'a>,
    /// A size the FMU is to start at instead of the exported one: the
    /// parameter's name and the size (an export at a large size served
    /// from the image at a small one). The parameter is offered only when
    /// its template serves that size and computes no start value from it.
    pub start: Option<(&'a str, i64)>,
}

/// A template with the size it was derived at and the images there and
/// one size above.
struct Derived {
    m0: i64,
    template: Template,
    i0: Rc<SystemImageOf>,
    i1: Rc<SystemImageOf>,
}

/// FMI 3.0: the Integer parameter that sizes the model's arrays, offered as
/// a structural parameter when the system image is affine in it;
/// otherwise a note says why not.
pub fn structural_parameter(
    exported: &Exported,
    notes: &mut Vec<String>,
) -> Option<StructuralParameter> {
    let table = exported.table;
    let mut chosen: Option<StructuralParameter> = None;
    for (index, v) in table.variables.iter().enumerate() {
        // A size is a constant of the FMI 2.0 FMU (a local constant) or a
        // parameter; either may become structural.
        let VariableType::Integer { start: Some(n0) } = &v.ty else {
            continue;
        };
        if !matches!(v.causality, Causality::Parameter | Causality::Local) {
            continue;
        }
        let n0 = *n0;
        let probe = SizeProbe::new(
            exported.instantiate,
            &v.name,
            exported.kernels,
            exported.model_identifier,
            exported.draft_guid,
        );
        let Some(derived) = derive(&probe, &v.name, n0, exported.image) else {
            continue;
        };
        if let Some(c) = &chosen {
            notes.push(format!(
                "{} also sizes arrays; an FMU offers one structural parameter ({}), so {} keeps \
                 its exported value",
                v.name, table.variables[c.variable].name, v.name
            ));
            continue;
        }
        let start = exported
            .start
            .and_then(|(name, n)| (name == v.name).then_some(n));
        match derived.and_then(|d| offer(table, &probe, v, n0, d, start)) {
            Ok((varying, resource)) => {
                chosen = Some(StructuralParameter {
                    variable: index,
                    varying,
                    resource,
                })
            }
            Err(why) => notes.push(format!(
                "{} sizes arrays but is not offered as an FMI 3.0 structural parameter: {why}; \
                 the FMU is for {} = {n0} only",
                v.name, v.name
            )),
        }
    }
    chosen
}

/// The template of the parameter exported at `n0`, or why not; None when
/// the parameter sizes nothing or the probe does not reproduce the export.
///
/// The template is derived at a small size when the exported n0 is
/// larger (and then checked against the exported image), else at n0
/// itself; when that fails, at the small size again above a small
/// n0, where the image's schedule may not yet roll what larger
/// sizes roll (then n0 must be served by an equivalent schedule).
/// The reason given is the first, the one at the exported size.
fn derive(
    probe: &SizeProbe,
    name: &str,
    n0: i64,
    image0: &[u8],
) -> Option<Result<Derived, NotAffine>> {
    let small = n0.clamp(1, STRUCTURAL_PROBE);
    let bases = if small < n0 {
        vec![small, n0]
    } else if n0 < STRUCTURAL_PROBE {
        vec![n0, STRUCTURAL_PROBE]
    } else {
        vec![n0]
    };
    let mut derived: Option<Result<Derived, NotAffine>> = None;
    for m0 in bases {
        let (Some(i0), Some(i1)) = (probe.image(m0), probe.image(m0 + 1)) else {
            continue;
        };
        if i0.reals.len() == i1.reals.len() || (m0 == n0 && i0.to_bytes(probe.draft_guid) != image0)
        {
            // Sizes nothing, or the probe does not reproduce the export.
            return None;
        }
        let pair = (&*i0, &*i1, m0);
        let result = template(&i0, &i1, m0, probe.draft_guid)
            .map_err(|why| check::faster_than_affine(probe, name, pair).unwrap_or(why))
            .and_then(|t| check::confirmed(probe, t, pair, n0, image0));
        match (result, &derived) {
            (Ok(template), _) => {
                return Some(Ok(Derived {
                    m0,
                    template,
                    i0,
                    i1,
                }))
            }
            (Err(why), None) => derived = Some(Err(why)),
            (Err(_), Some(_)) => {}
        }
    }
    derived
}

/// The parameter `v` (exported at `n0`) offered with its template: the
/// value references of the runs of Reals that follow it and
/// `resources/mofmu_struct.bin`; or why it is not offered.
fn offer(
    table: &ModelTable,
    probe: &SizeProbe,
    v: &ModelVariable,
    n0: i64,
    derived: Derived,
    start: Option<i64>,
) -> Result<(Vec<u32>, Vec<u8>), String> {
    let Derived {
        m0,
        template: mut t,
        i0,
        i1,
    } = derived;
    // The value-reference map is by the Reals' indices at the exported
    // size: each run's first index and length at n0 (both affine).
    for seg in &mut t.segments {
        seg.vr0 = seg.start.at(n0, 0) as u32;
        seg.len0 = seg.len.at(n0, 0) as u32;
    }
    let varying = check::description_arrays(table, &t, &v.name)?;
    // An FMU that starts at another size than its image's was derived
    // away from the size it serves: checked down to 1, as one exported
    // large and derived small.
    let n_min = check::smallest(probe, &t, (&i0, &i1, m0), start.unwrap_or(n0));
    if n_min > n0 {
        return Err(format!(
            "the template derived at {} = {m0} does not serve the sizes from {n0} to {}",
            v.name,
            n_min - 1
        ));
    }
    let n_max = check::largest(&t);
    if let Some(n) = start {
        if n < n_min || n > n_max {
            return Err(format!(
                "{} = {n} is outside the sizes its template serves ({n_min} to {n_max})",
                v.name
            ));
        }
        if t.ops.iter().any(|o| matches!(o, Op::Real(_))) {
            return Err(format!(
                "start values follow {} (the description lists them at the exported size)",
                v.name
            ));
        }
    }
    let resource = Structural {
        integer: v.value_reference,
        name: v.name.clone(),
        n0,
        n_min,
        n_max,
        start,
        template: t,
    }
    .to_bytes();
    Ok((varying, resource))
}
