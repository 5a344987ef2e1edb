//! Exact directional derivatives (from the generated tangent code, through
//! linear responses by the implicit function theorem) against central
//! differences of fmi2GetDerivatives, on every example with states and on
//! the tearing fixture.

use std::path::Path;

use mofmu::harness::Fmu;

use super::export::{cases, export, library, package, shared_cache};

/// Central differences with step `h` per state; compares column by column.
pub(crate) fn check_fmu(fmu_path: &Path, label: &str) -> Result<usize, String> {
    let fmu = Fmu::load(fmu_path).map_err(|e| format!("{label}: {e}"))?;
    let md = fmu.model_description().clone();
    let (state_vr, der_vr) = md
        .state_and_derivative_references()
        .map_err(|e| format!("{label}: {e}"))?;
    if state_vr.is_empty() {
        return Ok(0);
    }
    let mut inst = fmu
        .instantiate("directional", false)
        .map_err(|e| format!("{label}: {e}"))?;
    let run = |inst: &mut mofmu::harness::fmi2::Instance<'_>| -> Result<usize, mofmu::harness::HarnessError> {
        inst.setup_experiment(None, 0.0, None)?;
        inst.enter_initialization_mode()?;
        inst.exit_initialization_mode()?;
        while inst.new_discrete_states()?.new_discrete_states_needed != 0 {}
        inst.enter_continuous_time_mode()?;
        inst.set_time(0.1)?;
        let n = state_vr.len();
        let mut x = vec![0.0; n];
        inst.get_continuous_states(&mut x)?;
        let mut checked = 0;
        for j in 0..n {
            let exact = inst.get_directional_derivative(&der_vr, &[state_vr[j]], &[1.0])?;
            let mut central = |step: f64| -> Result<Vec<f64>, mofmu::harness::HarnessError> {
                let h = step * x[j].abs().max(1.0);
                let mut plus = x.clone();
                plus[j] += h;
                let mut minus = x.clone();
                minus[j] -= h;
                let (mut fp, mut fm) = (vec![0.0; n], vec![0.0; n]);
                inst.set_continuous_states(&plus)?;
                inst.get_derivatives(&mut fp)?;
                inst.set_continuous_states(&minus)?;
                inst.get_derivatives(&mut fm)?;
                inst.set_continuous_states(&x)?;
                Ok((0..n).map(|i| (fp[i] - fm[i]) / (2.0 * h)).collect())
            };
            // A relative step of 1e-6, and 1e-3 where rounding swamps the
            // smaller one: a derivative formed from the difference of large
            // pressures (a 2 bar loop over inertances of 0.1 m^-1, in
            // TFS_CoolingLoop) carries rounding of about eps*p/L = 2e-10,
            // which a step of 1e-6 turns into 1e-4 of a unit slope. Each
            // entry is judged against the closer of the two.
            let fd = central(1e-6)?;
            let fd_wide = central(1e-3)?;
            let scale = fd.iter().chain(&exact).fold(0.0f64, |m, v| m.max(v.abs())).max(1e-12);
            for i in 0..n {
                let err = (exact[i] - fd[i]).abs().min((exact[i] - fd_wide[i]).abs());
                assert!(
                    err <= 1e-6 * scale,
                    "{label}: d der({})/d state {} exact {} vs central difference {} (error {err:e}, scale {scale:e})",
                    i,
                    j,
                    exact[i],
                    fd[i]
                );
                checked += 1;
            }
        }
        Ok(checked)
    };
    run(&mut inst).map_err(|e| format!("{label}: {e}"))
}

#[test]
fn directional_derivatives_match_central_differences() {
    let cache = shared_cache();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("directional");
    let mut seen = Vec::new();
    let mut entries = 0;
    for case in cases() {
        let key = (case.libraries.clone(), case.model.clone());
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let libs: Vec<&str> = case.libraries.iter().map(String::as_str).collect();
        let lib = library(&libs);
        let out = export(&lib, &case.model, &case.sets);
        let path = dir.join(format!("{}.fmu", case.name));
        package(&out, &path, &cache);
        entries += check_fmu(&path, &case.name).unwrap_or_else(|e| panic!("{e}"));
    }
    let lib = library(&["test_data/tearing/Slide.mo"]);
    let out = export(&lib, "Slide.Fall", &[]);
    let path = dir.join("Slide.fmu");
    package(&out, &path, &cache);
    entries += check_fmu(&path, "Slide.Fall").unwrap_or_else(|e| panic!("{e}"));
    // 8 example models and the tearing fixture: 47 Jacobian entries.
    assert!(
        entries >= 47,
        "only {entries} Jacobian entries were compared"
    );
}
