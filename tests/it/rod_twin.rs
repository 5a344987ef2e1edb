//! The FMU of the heated rod against its hand-written C twin
//! (benches/twins/rod_twin.c, compiled with the same flags): the
//! generated kernels compute the same operations in the same order, so the
//! derivatives must agree bit for bit, and the directional derivatives
//! (from the generated tangent code) with the twin's hand-written tangent.

use std::path::Path;

use mofmu::harness::fmi2::Instance;
use mofmu::harness::Fmu;
use mofmu::instantiate::SetValue;

use super::export::{export, library, package, shared_cache};

#[path = "../../benches/twins/mod.rs"]
mod twin;

/// The FMU of `model` from `files` with the Integer parameter `size` set to
/// `n`, exported into this test's directory as `<name>_<n>.fmu`.
fn sized_fmu(files: &[&str], model: &str, size: &str, n: usize, name: &str) -> Fmu {
    let lib = library(files);
    let sets = [SetValue {
        path: size.into(),
        value: (n as f64).into(),
    }];
    let out = export(&lib, model, &sets);
    let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("rod_twin")
        .join(format!("{name}_{n}.fmu"));
    package(&out, &path, &shared_cache());
    Fmu::load(&path).unwrap()
}

/// The FMU of the rod with `n` volumes.
fn rod_fmu(n: usize) -> Fmu {
    sized_fmu(
        &["examples/Base.mo", "examples/Thermal"],
        "Thermal.Examples.RodHeating",
        "rod.n",
        n,
        "RodHeating",
    )
}

/// An instance of `fmu` in continuous-time mode, with the value references
/// of its states and derivatives.
fn integrating(fmu: &Fmu) -> (Instance<'_>, Vec<u32>, Vec<u32>) {
    let (state_vr, der_vr) = fmu
        .model_description()
        .state_and_derivative_references()
        .unwrap();
    let mut inst = fmu.instantiate("twin", false).unwrap();
    inst.setup_experiment(None, 0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    while inst
        .new_discrete_states()
        .unwrap()
        .new_discrete_states_needed
        != 0
    {}
    inst.enter_continuous_time_mode().unwrap();
    (inst, state_vr, der_vr)
}

#[test]
fn rod_derivatives_are_bit_identical_to_the_hand_written_twin() {
    let twin = twin::RodTwin::build().unwrap_or_else(|e| panic!("building the twin: {e}"));
    for n in [2usize, 3, 57] {
        let fmu = rod_fmu(n);
        let md = fmu.model_description();
        let names: Vec<&str> = md
            .states()
            .unwrap()
            .iter()
            .map(|i| md.variables[*i].name.as_str())
            .collect();
        let expected: Vec<String> = (1..=n).map(|i| format!("rod.T[{i}]")).collect();
        assert_eq!(
            names, expected,
            "the states are the rod's temperatures in order"
        );
        let (mut inst, state_vr, der_vr) = integrating(&fmu);
        // Uneven temperatures, so every term of every equation matters.
        let t: Vec<f64> = (0..n)
            .map(|i| 300.0 + 97.3 * ((i as f64) * 0.731).sin() + 1e-3 * i as f64)
            .collect();
        inst.set_continuous_states(&t).unwrap();
        let mut ours = vec![0.0; n];
        inst.get_derivatives(&mut ours).unwrap();
        let mut theirs = vec![0.0; n];
        twin.derivatives(&t, &mut theirs);
        for i in 0..n {
            assert_eq!(
                ours[i].to_bits(),
                theirs[i].to_bits(),
                "n={n}: der(rod.T[{}]) is {:e} from the FMU and {:e} from the twin",
                i + 1,
                ours[i],
                theirs[i]
            );
        }
        // The tangent along a direction that moves every state.
        let v: Vec<f64> = (0..n).map(|i| 1.0 + ((i as f64) * 1.3).cos()).collect();
        let ours = inst
            .get_directional_derivative(&der_vr, &state_vr, &v)
            .unwrap();
        let mut theirs = vec![0.0; n];
        twin.tangent(&v, &mut theirs);
        for i in 0..n {
            let scale = theirs.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            assert!(
                (ours[i] - theirs[i]).abs() <= 1e-13 * scale,
                "n={n}: tangent {} is {:e} from the FMU and {:e} from the twin",
                i + 1,
                ours[i],
                theirs[i]
            );
        }
    }
}

/// The runtime copies the seeds and the tangents as blocks when the value
/// references are consecutive, and finds that out eight references at a
/// time in blocks of 256: a reference out of order anywhere (in the first
/// vector, at a block boundary, in the scalar tail) must send the call
/// down the element-by-element path, which gives the same tangent in the
/// order asked for; references that would wrap past `u32::MAX` are refused.
#[test]
fn directional_derivatives_follow_the_order_of_the_references() {
    let twin = twin::RodTwin::build().unwrap_or_else(|e| panic!("building the twin: {e}"));
    let n = 600usize;
    let fmu = rod_fmu(n);
    let (mut inst, state_vr, der_vr) = integrating(&fmu);
    let v: Vec<f64> = (0..n).map(|i| 1.0 + ((i as f64) * 1.3).cos()).collect();
    let mut expected = vec![0.0; n];
    twin.tangent(&v, &mut expected);
    let scale = expected.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let close = |got: &[f64], want: &[f64], what: &str| {
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            assert!(
                (g - w).abs() <= 1e-13 * scale,
                "{what}: element {i} is {g:e}, the twin gives {w:e}"
            );
        }
    };
    // Positions of a swap of two neighbours: inside the first vector of
    // eight, across vector and block boundaries, and in the scalar tail.
    for p in [
        0usize, 1, 6, 7, 8, 254, 255, 256, 257, 263, 511, 512, 591, 597, 598,
    ] {
        let mut order: Vec<usize> = (0..n).collect();
        order.swap(p, p + 1);
        let knowns: Vec<u32> = order.iter().map(|&i| state_vr[i]).collect();
        let seeds: Vec<f64> = order.iter().map(|&i| v[i]).collect();
        let got = inst
            .get_directional_derivative(&der_vr, &knowns, &seeds)
            .unwrap();
        close(&got, &expected, &format!("known references swapped at {p}"));
        let unknowns: Vec<u32> = order.iter().map(|&i| der_vr[i]).collect();
        let got = inst
            .get_directional_derivative(&unknowns, &state_vr, &v)
            .unwrap();
        let want: Vec<f64> = order.iter().map(|&i| expected[i]).collect();
        close(&got, &want, &format!("unknown references swapped at {p}"));
    }
    // A run that is consecutive only modulo 2^32 is not a run: the first
    // reference is out of range and the call is refused.
    let mut wrapped: Vec<u32> = vec![u32::MAX];
    wrapped.extend(0..(n as u32 - 1));
    assert!(
        inst.get_directional_derivative(&der_vr, &wrapped, &v)
            .is_err(),
        "references wrapping past u32::MAX must be refused"
    );
}

/// fmi2GetDerivatives of a model whose derivatives are consecutive and
/// touched by kernels alone evaluates them straight into the caller's array
/// (no copy out of R). The values left behind must stay consistent: the
/// derivatives read back through fmi2GetReal and a second
/// fmi2GetDerivatives are the same bits; a non-finite derivative is
/// fmi2Discard naming it (in the vector loop and in its scalar tail), and
/// the instance computes the next point as before.
#[test]
fn derivatives_evaluated_into_the_callers_array_stay_consistent() {
    let twin = twin::RodTwin::build().unwrap_or_else(|e| panic!("building the twin: {e}"));
    // 100 volumes: twelve vectors of eight and a tail of four.
    let n = 100;
    let fmu = rod_fmu(n);
    let (mut inst, _, der_vr) = integrating(&fmu);
    // The discard names the derivative through the logger.
    inst.set_debug_logging(true).unwrap();
    let t: Vec<f64> = (0..n)
        .map(|i| 300.0 + 41.0 * ((i as f64) * 0.37).cos())
        .collect();
    inst.set_continuous_states(&t).unwrap();
    let mut ours = vec![f64::NAN; n];
    inst.get_derivatives(&mut ours).unwrap();
    let mut theirs = vec![0.0; n];
    twin.derivatives(&t, &mut theirs);
    assert_eq!(bits(&ours), bits(&theirs), "the derivatives are the twin's");
    // Finite states whose derivative overflows at volume `bad` alone.
    let discards = [3usize, 98].map(|bad| (bad, 1.5e306, format!("der(rod.T[{}])", bad + 1)));
    stays_consistent(&mut inst, &der_vr, &t, &theirs, &discards);
}

/// An importer that asks again without changing anything (a second
/// fmi2GetDerivatives, or the same states set again first) gets the same
/// bits: the first call evaluates into its array, the second into R, the
/// later ones read R. A changed state then evaluates again.
#[test]
fn derivatives_asked_again_at_the_same_states_are_the_same_bits() {
    let twin = twin::RodTwin::build().unwrap_or_else(|e| panic!("building the twin: {e}"));
    let n = 100;
    let fmu = rod_fmu(n);
    let (mut inst, _, _) = integrating(&fmu);
    let t: Vec<f64> = (0..n)
        .map(|i| 300.0 + 41.0 * ((i as f64) * 0.37).cos())
        .collect();
    let mut theirs = vec![0.0; n];
    twin.derivatives(&t, &mut theirs);
    inst.set_continuous_states(&t).unwrap();
    for call in 0..5 {
        if call >= 3 {
            inst.set_continuous_states(&t).unwrap();
        }
        let mut ours = vec![f64::NAN; n];
        inst.get_derivatives(&mut ours).unwrap();
        assert_eq!(bits(&ours), bits(&theirs), "call {call} at the same states");
    }
    let mut moved = t.clone();
    moved[50] += 1.0;
    twin.derivatives(&moved, &mut theirs);
    inst.set_continuous_states(&moved).unwrap();
    let mut ours = vec![f64::NAN; n];
    inst.get_derivatives(&mut ours).unwrap();
    assert_eq!(bits(&ours), bits(&theirs), "after a changed state");
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// After `fmi2GetDerivatives` at the states `t` gave `expected`: fmi2GetReal
/// of the derivatives and a second call give the same bits, and each of
/// `discards` (a state's index, a finite value for it whose derivatives
/// overflow, and the derivative the discard must name) is fmi2Discard
/// naming that derivative, after which `t` gives `expected` again.
fn stays_consistent(
    inst: &mut Instance<'_>,
    der_vr: &[u32],
    t: &[f64],
    expected: &[f64],
    discards: &[(usize, f64, String)],
) {
    let read_back = inst.get_real(der_vr).unwrap();
    assert_eq!(
        bits(&read_back),
        bits(expected),
        "fmi2GetReal of the derivatives"
    );
    let mut again = vec![0.0; t.len()];
    inst.get_derivatives(&mut again).unwrap();
    assert_eq!(bits(&again), bits(expected), "a second fmi2GetDerivatives");
    for (bad, value, name) in discards {
        let mut huge = t.to_vec();
        huge[*bad] = *value;
        inst.set_continuous_states(&huge).unwrap();
        let mut out = vec![0.0; t.len()];
        let err = inst.get_derivatives(&mut out).unwrap_err().to_string();
        assert!(
            err.contains("Discard") && err.contains(name.as_str()),
            "state {bad} at {value:e} is fmi2Discard naming {name}: {err}"
        );
        inst.set_continuous_states(t).unwrap();
        inst.get_derivatives(&mut out).unwrap();
        assert_eq!(bits(&out), bits(expected), "the point after the discard");
    }
}

/// The floating-point exception flags of this thread (glibc on x86-64).
#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
mod fenv {
    pub const INVALID: i32 = 0x01;
    pub const DIVBYZERO: i32 = 0x04;
    pub const OVERFLOW: i32 = 0x08;
    pub const ALL: i32 = 0x3d;

    #[link(name = "m")]
    extern "C" {
        fn fetestexcept(excepts: i32) -> i32;
        fn feclearexcept(excepts: i32) -> i32;
        fn feraiseexcept(excepts: i32) -> i32;
    }

    pub fn test(excepts: i32) -> i32 {
        // SAFETY: C99 functions on this thread's floating-point environment.
        unsafe { fetestexcept(excepts) }
    }

    pub fn clear() {
        // SAFETY: as above.
        unsafe { feclearexcept(ALL) };
    }

    pub fn raise(excepts: i32) {
        // SAFETY: as above; the exceptions are masked (Rust's default), so
        // raising sets the flags and traps nothing.
        unsafe { feraiseexcept(excepts) };
    }
}

/// In continuous-time mode the runtime checks an evaluation's results for
/// finiteness by watching the floating-point exception flags (once R has
/// been found finite), not by scanning them. That must find every
/// non-finite derivative the scan found, whatever flags the importer had
/// raised before the call, and keep the importer's flags: the ones it had
/// stay raised, and a clean evaluation raises none.
#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
#[test]
fn the_flag_watch_finds_each_discard_and_keeps_the_importers_flags() {
    let twin = twin::RodTwin::build().unwrap_or_else(|e| panic!("building the twin: {e}"));
    let n = 100;
    let fmu = rod_fmu(n);
    let (mut inst, _, _) = integrating(&fmu);
    inst.set_debug_logging(true).unwrap();
    let t: Vec<f64> = (0..n)
        .map(|i| 300.0 + 41.0 * ((i as f64) * 0.53).sin())
        .collect();
    let mut theirs = vec![0.0; n];
    twin.derivatives(&t, &mut theirs);
    let mut ours = vec![0.0; n];
    fenv::clear();
    // The first evaluations of the phase scan; the later ones watch.
    for round in 0..4 {
        let mut moved = t.clone();
        moved[round] += 1e-9;
        inst.set_continuous_states(&moved).unwrap();
        inst.get_derivatives(&mut ours).unwrap();
    }
    inst.set_continuous_states(&t).unwrap();
    inst.get_derivatives(&mut ours).unwrap();
    assert_eq!(bits(&ours), bits(&theirs), "watched derivatives");
    assert_eq!(
        fenv::test(fenv::ALL & !0x20),
        0,
        "a clean evaluation raises no flag but inexact"
    );
    let discard = |inst: &mut Instance<'_>, bad: usize, how: &str| {
        let mut huge = t.clone();
        huge[bad] = 1.5e306;
        inst.set_continuous_states(&huge).unwrap();
        let mut out = vec![0.0; n];
        let err = inst.get_derivatives(&mut out).unwrap_err().to_string();
        let name = format!("der(rod.T[{}])", bad + 1);
        assert!(
            err.contains("Discard") && err.contains(&name),
            "{how}: the overflow at volume {} is fmi2Discard naming {name}: {err}",
            bad + 1
        );
    };
    // Watched, with the flags clear before the call: the overflow's flag
    // reveals the discard, and stays raised afterwards.
    discard(&mut inst, 57, "flags clear");
    assert_ne!(fenv::test(fenv::OVERFLOW), 0, "the overflow stays raised");
    // With the importer's flags raised before the call (they hide nothing)
    // and kept after it.
    fenv::clear();
    fenv::raise(fenv::INVALID | fenv::OVERFLOW | fenv::DIVBYZERO);
    inst.set_continuous_states(&t).unwrap();
    inst.get_derivatives(&mut ours).unwrap();
    assert_eq!(
        bits(&ours),
        bits(&theirs),
        "with the importer's flags raised"
    );
    assert_eq!(
        fenv::test(fenv::INVALID | fenv::OVERFLOW | fenv::DIVBYZERO),
        fenv::INVALID | fenv::OVERFLOW | fenv::DIVBYZERO,
        "the importer's flags are kept"
    );
    discard(&mut inst, 3, "flags raised");
    assert_eq!(
        fenv::test(fenv::INVALID | fenv::OVERFLOW | fenv::DIVBYZERO),
        fenv::INVALID | fenv::OVERFLOW | fenv::DIVBYZERO,
        "the importer's flags are kept after a discard"
    );
    // After the discards the instance computes the next point as before.
    fenv::clear();
    inst.set_continuous_states(&t).unwrap();
    inst.get_derivatives(&mut ours).unwrap();
    assert_eq!(bits(&ours), bits(&theirs), "the point after the discards");
}

/// Acc4's chain: its derivatives lie one stride apart in R (one per
/// capacitor), and fmi2GetDerivatives evaluates them straight into the
/// caller's array through the batched kernel entries. They follow the
/// closed form der(T[i]) = (Q[i] - Q[i+1])/C with Q[i] = G*(T[i-1] - T[i])
/// (T[0] the source's 400 K, Q[n+1] = 0); fmi2GetReal and a second call give
/// the same bits; an overflowing derivative is fmi2Discard naming it, and
/// the next point is computed as before.
/// The FMU of Acc4's chain with `n` elements.
fn chain_fmu(n: usize) -> Fmu {
    sized_fmu(
        &[
            "examples/Base.mo",
            "examples/Thermal",
            "test_data/language/Acc4.mo",
        ],
        "Acc4.Chain",
        "n",
        n,
        "Chain",
    )
}

/// The chain's FMU against its hand-written twin (benches/twins/chain_twin.c):
/// the derivatives and every variable the twin stores, bit for bit.
#[test]
fn chain_derivatives_and_variables_are_bit_identical_to_the_hand_written_twin() {
    let twin = twin::ChainTwin::build().unwrap_or_else(|e| panic!("building the twin: {e}"));
    // The element record of chain_twin.c, in its order.
    let members = [
        "link[{}].Q_flow",
        "link[{}].port_a.T",
        "link[{}].port_a.Q_flow",
        "link[{}].port_b.T",
        "link[{}].port_b.Q_flow",
        "cap[{}].T",
        "cap[{}].port.T",
        "cap[{}].port.Q_flow",
        "der(cap[{}].T)",
    ];
    assert_eq!(members.len(), twin::CHAIN_VARIABLES);
    // At 1,000 elements the middle tiles run the units as one loop, whose
    // lean function hands values on in locals and stores only each tile's
    // last round: two lean evaluations at other states, then every
    // variable.
    for n in [1usize, 2, 3, 40, 1000] {
        let fmu = chain_fmu(n);
        let md = fmu.model_description();
        let vr_of = |name: &str| {
            md.variables
                .iter()
                .find(|v| v.name == name)
                .unwrap_or_else(|| panic!("n={n}: no variable {name}"))
                .value_reference
        };
        let names: Vec<String> = (1..=n)
            .flat_map(|i| members.iter().map(move |m| m.replace("{}", &i.to_string())))
            .collect();
        let vrs: Vec<u32> = names.iter().map(|name| vr_of(name)).collect();
        let (mut inst, _, _) = integrating(&fmu);
        let states = |phase: f64| -> Vec<f64> {
            (0..n)
                .map(|i| 300.0 + 61.7 * ((i as f64) * 0.593 + phase).sin() + 1e-3 * i as f64)
                .collect()
        };
        let mut ours = vec![0.0; n];
        let (mut theirs, mut theirs_too) = (vec![0.0; n], vec![0.0; n]);
        for phase in [1.9, 0.7] {
            let t = states(phase);
            inst.set_continuous_states(&t).unwrap();
            inst.get_derivatives(&mut ours).unwrap();
            twin.derivatives(&t, &mut theirs);
            assert_eq!(
                bits(&ours),
                bits(&theirs),
                "n={n}: lean derivatives at phase {phase}"
            );
        }
        let t = states(0.0);
        inst.set_continuous_states(&t).unwrap();
        inst.get_derivatives(&mut ours).unwrap();
        let ours_all = inst.get_real(&vrs).unwrap();
        let mut variables = vec![0.0; twin::CHAIN_VARIABLES * n];
        twin.derivatives(&t, &mut theirs);
        twin.all(&t, &mut theirs_too, &mut variables);
        for i in 0..n {
            assert_eq!(
                (ours[i].to_bits(), ours[i].to_bits()),
                (theirs[i].to_bits(), theirs_too[i].to_bits()),
                "n={n}: der(cap[{}].T) is {:e} from the FMU, {:e} and {:e} from the twin",
                i + 1,
                ours[i],
                theirs[i],
                theirs_too[i]
            );
        }
        for (k, name) in names.iter().enumerate() {
            assert_eq!(
                ours_all[k].to_bits(),
                variables[k].to_bits(),
                "n={n}: {name} is {:e} from the FMU and {:e} from the twin",
                ours_all[k],
                variables[k]
            );
        }
    }
}

#[test]
fn chain_derivatives_into_the_callers_array_follow_the_closed_form() {
    let n = 37;
    let fmu = chain_fmu(n);
    let (mut inst, _, der_vr) = integrating(&fmu);
    inst.set_debug_logging(true).unwrap();
    let (g, c) = (2.0, 50.0);
    let t: Vec<f64> = (0..n)
        .map(|i| 300.0 + 37.0 * ((i as f64) * 0.41).sin())
        .collect();
    let q = |i: usize| {
        if i == n {
            0.0
        } else {
            g * ((if i == 0 { 400.0 } else { t[i - 1] }) - t[i])
        }
    };
    inst.set_continuous_states(&t).unwrap();
    let mut ours = vec![f64::NAN; n];
    inst.get_derivatives(&mut ours).unwrap();
    for (i, &got) in ours.iter().enumerate() {
        let want = (q(i) - q(i + 1)) / c;
        assert!(
            (got - want).abs() <= 1e-13 * want.abs().max(1.0),
            "der(cap[{}].T) = {got} against the closed form {want}",
            i + 1
        );
    }
    // A temperature that overflows the flows on both sides of capacitor
    // bad + 1: the first non-finite derivative is its left neighbour's (or
    // its own, first).
    let discards =
        [0usize, 20, n - 1].map(|bad| (bad, 1.7e308, format!("der(cap[{}].T)", bad.max(1))));
    stays_consistent(&mut inst, &der_vr, &t, &ours, &discards);
}

/// ThermoFluid Stream's CoolingLoop against its hand-written twin
/// (benches/twins/cooling_twin.c: the textbook equations, the path's total
/// pressures eliminated by hand instead of the declared tearing): the
/// derivatives agree to rounding at the start, at states moved off it, and
/// with the loop's flow reversed.
#[test]
fn cooling_loop_derivatives_agree_with_the_hand_written_twin() {
    let twin = twin::CoolingTwin::build().unwrap_or_else(|e| panic!("building the twin: {e}"));
    for n in [1usize, 4, 37] {
        let fmu = sized_fmu(
            &[
                "examples/Base.mo",
                "examples/Signals.mo",
                "examples/Thermal",
                "examples/ThermoFluidStream",
            ],
            "ThermoFluidStream.Examples.CoolingLoop",
            "n",
            n,
            "CoolingLoop",
        );
        let md = fmu.model_description();
        let names: Vec<&str> = md
            .states()
            .unwrap()
            .iter()
            .map(|i| md.variables[*i].name.as_str())
            .collect();
        let mut expected = [
            "volume.p",
            "volume.U_med",
            "volume.m_flow_in",
            "heaterWall.T",
            "heater.h",
            "junction.mA",
        ]
        .map(String::from)
        .to_vec();
        expected.extend((1..=n).map(|i| format!("pipe[{i}].h")));
        assert_eq!(names, expected, "the twin's state order");
        let (mut inst, _, der_vr) = integrating(&fmu);
        let mut start = vec![0.0; 6 + n];
        inst.get_continuous_states(&mut start).unwrap();
        let moved: Vec<f64> = start
            .iter()
            .enumerate()
            .map(|(i, x)| x * (1.0 + 1e-3 * ((i as f64) * 1.7).sin()) + 1e-3 * i as f64)
            .collect();
        let mut reversed = moved.clone();
        reversed[2] = -0.4; // the loop's flow
        reversed[5] = -0.1; // the flow through resA
        for (case, x) in [
            ("start", &start),
            ("moved", &moved),
            ("reversed", &reversed),
        ] {
            inst.set_continuous_states(x).unwrap();
            let mut ours = vec![0.0; 6 + n];
            inst.get_derivatives(&mut ours).unwrap();
            let mut theirs = vec![0.0; 6 + n];
            twin.derivatives(x, &mut theirs);
            let worst = twin::CoolingTwin::worst_relative(&ours, &theirs);
            assert!(
                worst <= 1e-10,
                "n={n}, {case}: the FMU's derivatives are {worst:e} (relative) from the twin's:\n{ours:?}\n{theirs:?}"
            );
        }
        // The states and the derivatives lie in R as six scalars and one
        // run over the cells (consecutive, the cells laid out by column):
        // what fmi2GetDerivatives copied out by runs is what fmi2GetReal
        // reads, and an overflow in the run is named.
        if n == 37 {
            // The discard names the derivative through the logger.
            inst.set_debug_logging(true).unwrap();
            inst.set_continuous_states(&moved).unwrap();
            let mut ours = vec![0.0; 6 + n];
            inst.get_derivatives(&mut ours).unwrap();
            let discards =
                [0usize, 20].map(|cell| (6 + cell, 1.7e308, format!("der(pipe[{}].h)", cell + 1)));
            stays_consistent(&mut inst, &der_vr, &moved, &ours, &discards);
        }
    }
}

/// Issue 60's ladder, its elements' parameters bound by modifiers
/// (`Ladder.Ladder`) and read from an inner world (`LadderInner.Ladder`),
/// and its plate (`Grid.Grid`), against their hand-written twins
/// (benches/twins/ladder_twin.c and grid_twin.c) as the interleaved bench
/// times them: the states in the twin's order, the derivatives of both of
/// its entries and every variable the FMU exposes, bit for bit.
#[test]
fn ladder_and_grid_are_bit_identical_to_their_hand_written_twins() {
    let ladder = twin::SizedTwin::ladder().unwrap_or_else(|e| panic!("building the twin: {e}"));
    for (file, model, name) in [
        ("test_data/ladder/Ladder.mo", "Ladder.Ladder", "Ladder"),
        (
            "test_data/ladder/LadderInner.mo",
            "LadderInner.Ladder",
            "LadderInner",
        ),
        // Its chains' conductors two repeats, which the compiled schedule
        // runs as one loop with the capacitors but the side capacitors.
        (
            "test_data/ladder/Ladder.mo",
            "Ladder.LadderSplit",
            "LadderSplit",
        ),
    ] {
        // At 1,200 rungs the middle tiles of LadderSplit run its long
        // repeats as one loop, and a lean evaluation leaves out stores.
        for n in [2usize, 3, 50, 1200] {
            let fmu = sized_fmu(
                &["examples/Base.mo", "examples/Thermal", file],
                model,
                "n",
                n,
                name,
            );
            let mut states: Vec<String> = ["a", "b"]
                .iter()
                .flat_map(|c| (1..=n).map(move |i| format!("{c}[{i}].T")))
                .collect();
            states.extend((1..=3).map(|k| format!("c[{k}].T")));
            let what = format!("{model}, n={n}");
            agrees_with_sized_twin(&fmu, &ladder, n, &states, &ladder_layout(n), &what);
        }
    }
    let grid = twin::SizedTwin::grid().unwrap_or_else(|e| panic!("building the twin: {e}"));
    for n in [2usize, 3, 12, 60] {
        let fmu = sized_fmu(
            &[
                "examples/Base.mo",
                "examples/Thermal",
                "test_data/ladder/Grid.mo",
            ],
            "Grid.Grid",
            "n",
            n,
            "Grid",
        );
        let states: Vec<String> = (1..=n)
            .flat_map(|i| (1..=n).map(move |j| format!("cap[{i},{j}].T")))
            .collect();
        let what = format!("Grid.Grid, n={n}");
        agrees_with_sized_twin(&fmu, &grid, n, &states, &grid_layout(n), &what);
    }
}

/// The variables of a HeatCapacitor `c` as the twins store them.
fn capacitor(c: &str) -> Vec<Option<String>> {
    [".port.T", ".port.Q_flow", ".T"]
        .iter()
        .map(|m| Some(format!("{c}{m}")))
        .chain([Some(format!("der({c}.T)"))])
        .collect()
}

/// The variables of a ThermalConductor `g` as the twins store them; a
/// conductor that does not exist leaves its slots unnamed.
fn conductor(g: &str, exists: bool) -> Vec<Option<String>> {
    [
        ".port_a.T",
        ".port_a.Q_flow",
        ".port_b.T",
        ".port_b.Q_flow",
        ".Q_flow",
    ]
    .iter()
    .map(|m| exists.then(|| format!("{g}{m}")))
    .collect()
}

/// The variable of each double ladder_twin_all stores at n rungs.
fn ladder_layout(n: usize) -> Vec<Option<String>> {
    let mut layout = Vec::new();
    for i in 1..=n {
        layout.extend(capacitor(&format!("a[{i}]")));
        layout.extend(capacitor(&format!("b[{i}]")));
        layout.extend(conductor(&format!("ga[{i}]"), i < n));
        layout.extend(conductor(&format!("gb[{i}]"), i < n));
        layout.extend(conductor(&format!("rung[{i}]"), true));
    }
    layout.extend(["source.port.T", "source.port.Q_flow"].map(|v| Some(v.to_string())));
    layout.extend(conductor("feed", true));
    for k in 1..=3 {
        layout.extend(capacitor(&format!("c[{k}]")));
    }
    for k in 1..=3 {
        layout.extend(conductor(&format!("ck[{k}]"), true));
    }
    layout
}

/// The variable of each double grid_twin_all stores at n x n cells.
fn grid_layout(n: usize) -> Vec<Option<String>> {
    let mut layout = Vec::new();
    for i in 1..=n {
        for j in 1..=n {
            layout.extend(capacitor(&format!("cap[{i},{j}]")));
            layout.extend(conductor(&format!("right[{i},{j}]"), j < n));
            layout.extend(conductor(&format!("down[{i},{j}]"), i < n));
        }
    }
    layout.extend(["source.port.T", "source.port.Q_flow"].map(|v| Some(v.to_string())));
    layout.extend(conductor("feed", true));
    layout
}

/// `fmu` at size `n` against `twin`: its states are `states`, its
/// continuous variables are the named slots of `layout`, and at uneven
/// temperatures its derivatives and those variables are the twin's bits.
fn agrees_with_sized_twin(
    fmu: &Fmu,
    twin: &twin::SizedTwin,
    n: usize,
    states: &[String],
    layout: &[Option<String>],
    what: &str,
) {
    use mofmu::harness::model_description::{Causality, Variability};
    let md = fmu.model_description();
    let names: Vec<&str> = md
        .states()
        .unwrap()
        .iter()
        .map(|i| md.variables[*i].name.as_str())
        .collect();
    assert_eq!(names, states, "{what}: the twin's state order");
    assert_eq!(states.len(), twin.states(n), "{what}: the number of states");
    assert_eq!(layout.len(), twin.variables(n), "{what}: the twin's layout");
    let mut exposed: Vec<&str> = md
        .variables
        .iter()
        .filter(|v| {
            v.variability == Variability::Continuous && v.causality != Causality::Independent
        })
        .map(|v| v.name.as_str())
        .collect();
    let mut kept: Vec<&str> = layout.iter().flatten().map(String::as_str).collect();
    exposed.sort_unstable();
    kept.sort_unstable();
    assert_eq!(
        kept, exposed,
        "{what}: the twin keeps every variable the FMU exposes"
    );
    let vr_of = |name: &str| {
        md.variables
            .iter()
            .find(|v| v.name == name)
            .map(|v| v.value_reference)
            .unwrap_or_else(|| panic!("{what}: no variable {name}"))
    };
    let vrs: Vec<u32> = layout.iter().flatten().map(|name| vr_of(name)).collect();
    let (mut inst, _, _) = integrating(fmu);
    let at = |phase: f64| -> Vec<f64> {
        (0..states.len())
            .map(|i| 300.0 + 61.7 * ((i as f64) * 0.593 + phase).sin() + 1e-3 * i as f64)
            .collect()
    };
    let mut ours = vec![0.0; states.len()];
    let (mut lean, mut every) = (vec![0.0; states.len()], vec![0.0; states.len()]);
    // Lean evaluations one after another first: what one leaves out of `R`
    // must not be what the next reads.
    for phase in [1.9, 0.7] {
        let x = at(phase);
        inst.set_continuous_states(&x).unwrap();
        inst.get_derivatives(&mut ours).unwrap();
        twin.derivatives(n, &x, &mut lean);
        assert_eq!(
            bits(&ours),
            bits(&lean),
            "{what}: derivatives at phase {phase}"
        );
    }
    let x = at(0.0);
    inst.set_continuous_states(&x).unwrap();
    inst.get_derivatives(&mut ours).unwrap();
    let ours_all = inst.get_real(&vrs).unwrap();
    let mut variables = vec![0.0; layout.len()];
    twin.derivatives(n, &x, &mut lean);
    twin.all(n, &x, &mut every, &mut variables);
    for i in 0..x.len() {
        assert_eq!(
            (ours[i].to_bits(), ours[i].to_bits()),
            (lean[i].to_bits(), every[i].to_bits()),
            "{what}: der({}) is {:e} from the FMU, {:e} and {:e} from the twin",
            states[i],
            ours[i],
            lean[i],
            every[i]
        );
    }
    let theirs_all = layout
        .iter()
        .zip(&variables)
        .filter(|(name, _)| name.is_some());
    for ((name, theirs), ours) in theirs_all.zip(&ours_all) {
        assert_eq!(
            ours.to_bits(),
            theirs.to_bits(),
            "{what}: {} is {ours:e} from the FMU and {theirs:e} from the twin",
            name.as_deref().unwrap_or_default()
        );
    }
}
