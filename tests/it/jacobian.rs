//! The Jacobian `mofmu simulate` hands its solver: built on the rod's declared
//! (tridiagonal) pattern and filled one colour at a time, by directional
//! derivatives or by difference quotients, it must equal the Jacobian of
//! `fmi2GetDerivatives` column by column (one state perturbed at a time,
//! independently of the pattern and the colouring).

use std::cell::RefCell;
use std::path::Path;

use diffsol::{FaerVec, Matrix, NonLinearOpJacobian, OdeEquations, Op, Vector};
use mofmu::export::export_model;
use mofmu::harness::integrator::{FmuOde, OdeStructure};
use mofmu::harness::Fmu;
use mofmu::instantiate::SetValue;
use mofmu::library::load_library;
use mofmu::loader::load_paths;
use mofmu::package::{build_fmu, ObjectCache};

fn rod_fmu(n: usize) -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let paths = [root.join("examples/Base.mo"), root.join("examples/Thermal")];
    let lib = load_library(load_paths(&paths).expect("libraries load"));
    let sets = [SetValue {
        path: "rod.n".into(),
        value: (n as f64).into(),
    }];
    let out = export_model(&lib, "Thermal.Examples.RodHeating", &sets, 1.0).expect("exports");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("jacobian");
    let cache = ObjectCache::new(dir.join("cache"));
    let fmu = dir.join(format!("RodHeating_{n}.fmu"));
    build_fmu(&out.build_spec(), &fmu, Some(&cache)).expect("packaging works");
    fmu
}

/// The solver's Jacobian at a point away from the start values, and the one of
/// forward differences, as dense rows.
fn jacobians(fmu: &Fmu, directional: bool) -> (Vec<Vec<f64>>, Vec<Vec<f64>>, usize) {
    let model = fmu.model_description();
    let states = model.states().expect("states");
    let n = states.len();
    let mut inst = fmu.instantiate("jacobian", false).expect("instantiates");
    let mut x = vec![0.0; n];
    crate::export::continuous_time(&mut inst);
    inst.get_continuous_states(&mut x).expect("states");
    let instance: RefCell<mofmu::harness::DynInstance<'_>> = RefCell::new(Box::new(inst));
    // Distinct temperatures, so that no difference of neighbours vanishes.
    for (i, v) in x.iter_mut().enumerate() {
        *v += 7.0 * ((i * i) % 11) as f64;
    }
    let mut structure = OdeStructure::declared(model, &states);
    structure.directional = directional;
    let ode = FmuOde::new(&instance, structure, &x, &vec![1.0; n]).expect("equations");
    let t = 0.3;
    let y = FaerVec::from_vec(x.clone(), *ode.context());
    let rhs = ode.rhs();
    let matrix = rhs.jacobian(&y, t);
    let mut solver_rows = vec![vec![0.0; n]; n];
    let mut e = FaerVec::zeros(n, *ode.context());
    let mut column = FaerVec::zeros(n, *ode.context());
    for j in 0..n {
        e.set_index(j, 1.0);
        matrix.gemv(1.0, &e, 0.0, &mut column);
        e.set_index(j, 0.0);
        for (i, row) in solver_rows.iter_mut().enumerate() {
            row[j] = column.get_index(i);
        }
    }
    let mut reference_rows = vec![vec![0.0; n]; n];
    let mut inst = instance.borrow_mut();
    let f = |inst: &mut dyn mofmu::harness::FmiInstance, x: &[f64]| {
        let mut dx = vec![0.0; n];
        inst.set_time(t).expect("time");
        inst.set_continuous_states(x).expect("states");
        inst.get_derivatives(&mut dx).expect("derivatives");
        dx
    };
    let base = f(inst.as_mut(), &x);
    for j in 0..n {
        let mut xp = x.clone();
        let h = 1e-6 * x[j].abs().max(1.0);
        xp[j] += h;
        let fp = f(inst.as_mut(), &xp);
        for i in 0..n {
            reference_rows[i][j] = (fp[i] - base[i]) / h;
        }
    }
    (solver_rows, reference_rows, n)
}

fn assert_same(solver: &[Vec<f64>], reference: &[Vec<f64>], n: usize, what: &str) {
    let scale = reference
        .iter()
        .flatten()
        .fold(0.0f64, |m, v| m.max(v.abs()));
    for i in 0..n {
        for j in 0..n {
            let (a, b) = (solver[i][j], reference[i][j]);
            assert!(
                (a - b).abs() <= 1e-5 * scale,
                "{what}: J[{i}][{j}] = {a}, differences give {b} (scale {scale})"
            );
            if i.abs_diff(j) > 1 {
                assert_eq!(a, 0.0, "{what}: J[{i}][{j}] outside the pattern");
            }
        }
    }
}

#[test]
fn colour_compressed_jacobian_equals_differences_of_the_derivatives() {
    let path = rod_fmu(40);
    let fmu = Fmu::load(&path).expect("loads");
    let (solver, reference, n) = jacobians(&fmu, true);
    assert_eq!(n, 40);
    assert_same(&solver, &reference, n, "directional derivatives");
    let (solver, reference, n) = jacobians(&fmu, false);
    assert_same(&solver, &reference, n, "difference quotients");
}
