//! The compiled schedule's inlined loops against the interpreter, to the
//! bit, at sizes where a fused loop holds whole tiles: the derivatives, and
//! the directional derivatives (the tangent pass, and in the cooling loop
//! the splitter's declared tearing), of Acc4's chain and of the cooling
//! loop. The `fmu-tests/` cases (checked by `fingerprint.py --tiers`) fit
//! their repeats in one tile of 256 rounds; these run over several tiles.

use std::path::Path;

use mofmu::harness::Fmu;

use super::export::{
    continuous_time, export, export_interpreted, library, package, set, shared_cache,
};

/// What an FMU computes at its start states shifted two ways: derivatives,
/// then every Real (after derivatives that a lean evaluation gave, a full
/// one: src/fmu/image/compiled/lean.rs), and the directional derivatives of all
/// derivatives along a few states, as bits.
fn numbers(path: &Path) -> Vec<u64> {
    let fmu = Fmu::load(path).expect("the FMU loads");
    let md = fmu.model_description().clone();
    let (state_vr, der_vr) = md.state_and_derivative_references().expect("states");
    let reals: Vec<u32> = md
        .variables
        .iter()
        .filter(|v| v.kind == mofmu::harness::model_description::VariableKind::Real)
        .map(|v| v.value_reference)
        .collect();
    let mut inst = fmu.instantiate("tiers", false).expect("instantiate");
    continuous_time(&mut inst);
    let n = state_vr.len();
    let mut x = vec![0.0; n];
    inst.get_continuous_states(&mut x).expect("states");
    let mut bits = Vec::new();
    for shift in [1e-3, -2e-3] {
        let moved: Vec<f64> = x
            .iter()
            .enumerate()
            .map(|(i, v)| v + shift * (1.0 + (i % 7) as f64) * v.abs().max(1.0))
            .collect();
        inst.set_continuous_states(&moved).expect("states");
        let mut dx = vec![0.0; n];
        inst.get_derivatives(&mut dx).expect("derivatives");
        bits.extend(dx.iter().map(|v| v.to_bits()));
        // Asked again with nothing changed: the same derivatives.
        inst.get_derivatives(&mut dx).expect("derivatives");
        bits.extend(dx.iter().map(|v| v.to_bits()));
        let all = inst.get_real(&reals).expect("every Real");
        bits.extend(all.iter().map(|v| v.to_bits()));
        for j in [0, n / 2, n - 1] {
            let d = inst
                .get_directional_derivative(&der_vr, &[state_vr[j]], &[1.0])
                .expect("directional derivative");
            bits.extend(d.iter().map(|v| v.to_bits()));
        }
    }
    bits
}

/// Exports `model` both ways, checks the compiled unit inlines element
/// entries and holds each text of `holds` (what it shows, what its absence
/// means), and compares what the two FMUs compute.
fn tiers_agree(
    paths: &[&str],
    model: &str,
    sets: &[mofmu::instantiate::SetValue],
    holds: &[(&str, &str)],
) {
    let lib = library(paths);
    let compiled = export(&lib, model, sets);
    let text = &compiled
        .schedule
        .compiled
        .as_ref()
        .unwrap_or_else(|| panic!("{model}: {}", compiled.schedule.reason))
        .text;
    assert!(
        text.contains("_e(") && text.contains("if (el) {"),
        "{model}: the compiled schedule inlines no block"
    );
    for (needle, absent) in holds {
        assert!(
            text.contains(needle),
            "{model}: the compiled schedule {absent}"
        );
    }
    let interpreted = export_interpreted(&lib, model, sets);
    assert!(interpreted.schedule.compiled.is_none());
    let dir = tempfile::tempdir().expect("temp dir");
    let (a, b) = (dir.path().join("c.fmu"), dir.path().join("i.fmu"));
    package(&compiled, &a, &shared_cache());
    package(&interpreted, &b, &shared_cache());
    let (x, y) = (numbers(&a), numbers(&b));
    assert_eq!(x.len(), y.len());
    if let Some(k) = (0..x.len()).find(|&k| x[k] != y[k]) {
        panic!(
            "{model}: number {k} of {} differs: compiled {:e}, interpreted {:e}",
            x.len(),
            f64::from_bits(x[k]),
            f64::from_bits(y[k])
        );
    }
}

#[test]
fn a_long_chain_computes_the_same_bits_inlined_and_interpreted() {
    tiers_agree(
        &[
            "examples/Base.mo",
            "examples/Thermal",
            "test_data/language/Acc4.mo",
        ],
        "Acc4.Chain",
        &[
            set("n", 600.0),
            set("cap[200].C", 80.0),
            set("link[450].G", 1.5),
        ],
        &[
            // A tile's rounds of all five repeats in one loop, a copy's
            // value handed from one repeat's block to another's in a local
            // (src/fmu/image/forwarding.rs).
            ("_rounds_value(", "runs no tile of its repeats as one loop"),
            ("= v; x", "forwards no copy"),
        ],
    );
}

#[test]
fn a_long_cooling_loop_computes_the_same_bits_inlined_and_interpreted() {
    tiers_agree(
        &[
            "examples/Base.mo",
            "examples/Signals.mo",
            "examples/Thermal",
            "examples/ThermoFluidStream",
        ],
        "ThermoFluidStream.Examples.CoolingLoop",
        &[set("n", 400.0)],
        &[
            ("= v; x", "forwards no copy"),
            // A cell's temperature, mass and heat flow handed from the
            // block that writes them to the block that reads them.
            ("; /* shared */", "hands no block's value to another block"),
            // A cell's loop again for the passes of a tearing solve that
            // run some of its steps, with the others left out (the fused
            // loop's own tests read `if (reached && `, so that text would
            // not show it).
            (
                "    if ((reached == ",
                "has no loop of a pass's steps alone",
            ),
            // The loops that leave out the stores nothing reads when only
            // the derivatives are wanted (src/fmu/image/compiled/lean.rs).
            ("_value_lean(", "has no lean loop"),
        ],
    );
}
