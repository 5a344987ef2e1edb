//! The FMU of the heated rod against its hand-written C twin
//! (benches/rod_twin/rod_twin.c, compiled with the same flags): the
//! generated kernels compute the same operations in the same order, so the
//! derivatives must agree bit for bit, and the directional derivatives
//! (from the generated tangent code) with the twin's hand-written tangent.

use std::path::Path;

use mofmu::harness::Fmu;
use mofmu::instantiate::SetValue;

use super::export::{export, library, package, shared_cache};

#[path = "../../benches/rod_twin/mod.rs"]
mod twin;

#[test]
fn rod_derivatives_are_bit_identical_to_the_hand_written_twin() {
    let twin = twin::RodTwin::build().unwrap_or_else(|e| panic!("building the twin: {e}"));
    let lib = library(&["examples/Base.mo", "examples/Thermal"]);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rod_twin");
    for n in [2usize, 3, 57] {
        let sets = [SetValue {
            path: "rod.n".into(),
            value: n as f64,
        }];
        let out = export(&lib, "Thermal.Examples.RodHeating", &sets);
        let path = dir.join(format!("RodHeating_{n}.fmu"));
        package(&out, &path, &shared_cache());
        let fmu = Fmu::load(&path).unwrap();
        let md = fmu.model_description().clone();
        let states = md.states().unwrap();
        let names: Vec<&str> = states
            .iter()
            .map(|i| md.variables[*i].name.as_str())
            .collect();
        let expected: Vec<String> = (1..=n).map(|i| format!("rod.T[{i}]")).collect();
        assert_eq!(
            names, expected,
            "the states are the rod's temperatures in order"
        );
        let state_vr: Vec<u32> = states
            .iter()
            .map(|i| md.variables[*i].value_reference)
            .collect();
        let der_vr: Vec<u32> = md
            .derivatives
            .iter()
            .map(|i| md.variables[*i].value_reference)
            .collect();
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
