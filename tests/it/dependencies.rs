//! `ModelStructure` dependencies against the FMU itself: every example (and
//! the tearing and input/output fixtures) is exported, loaded through the
//! harness, and each known is perturbed in turn. An unknown whose declared
//! dependencies leave that known out must come back bit for bit unchanged;
//! a declared dependency may be zero (the analysis is conservative).
//!
//! Continuous-time mode: states, inputs and time are perturbed, outputs and
//! derivatives read. Initialization mode: parameters, exact start values and
//! inputs are perturbed, the initial unknowns read.

use std::collections::BTreeSet;
use std::path::Path;

use mofmu::export::{export_model, ExportError, ExportOutput};
use mofmu::fmu::description::table::{Causality, Initial, ModelTable, Variability};
use mofmu::harness::Fmu;
use mofmu::instantiate::SetValue;
use mofmu::library::load_library;
use mofmu::loader::load_paths;
use mofmu::package::{build_fmu, ObjectCache};

struct Case {
    name: &'static str,
    libraries: &'static [&'static str],
    model: &'static str,
    sets: &'static [(&'static str, f64)],
}

const SIGNALS: &[&str] = &["examples/Base.mo", "examples/Signals.mo"];
const THERMAL: &[&str] = &["examples/Base.mo", "examples/Thermal"];
const PLANAR: &[&str] = &["examples/Base.mo", "examples/Signals.mo", "examples/Planar"];

const CASES: &[Case] = &[
    Case {
        name: "StepIntegrator",
        libraries: SIGNALS,
        model: "Signals.Examples.StepIntegrator",
        sets: &[],
    },
    Case {
        name: "FirstOrderStep",
        libraries: SIGNALS,
        model: "Signals.Examples.FirstOrderStep",
        sets: &[],
    },
    Case {
        name: "SineRampAdd",
        libraries: SIGNALS,
        model: "Signals.Examples.SineRampAdd",
        sets: &[],
    },
    Case {
        name: "PIControlLoop",
        libraries: SIGNALS,
        model: "Signals.Examples.PIControlLoop",
        sets: &[],
    },
    Case {
        name: "TwoCapacitors",
        libraries: THERMAL,
        model: "Thermal.Examples.TwoCapacitors",
        sets: &[],
    },
    Case {
        name: "CapacitorCooling",
        libraries: THERMAL,
        model: "Thermal.Examples.CapacitorCooling",
        sets: &[],
    },
    Case {
        name: "HeatedCapacitor",
        libraries: THERMAL,
        model: "Thermal.Examples.HeatedCapacitor",
        sets: &[],
    },
    Case {
        name: "RodHeating",
        libraries: THERMAL,
        model: "Thermal.Examples.RodHeating",
        sets: &[],
    },
    Case {
        name: "RodHeating_n10",
        libraries: THERMAL,
        model: "Thermal.Examples.RodHeating",
        sets: &[("rod.n", 10.0)],
    },
    Case {
        name: "RodHeating_n50",
        libraries: THERMAL,
        model: "Thermal.Examples.RodHeating",
        sets: &[("rod.n", 50.0)],
    },
    Case {
        name: "PlanarDoublePendulum",
        libraries: PLANAR,
        model: "Planar.Examples.DoublePendulum",
        sets: &[],
    },
    Case {
        name: "PlanarCraneCrabControlled",
        libraries: PLANAR,
        model: "Planar.Examples.CraneCrabControlled",
        sets: &[],
    },
    Case {
        name: "PlanarKinematicLoop",
        libraries: PLANAR,
        model: "Planar.Examples.KinematicLoop",
        sets: &[],
    },
    Case {
        name: "Fall",
        libraries: &["test_data/tearing/Slide.mo"],
        model: "Slide.Fall",
        sets: &[],
    },
    Case {
        name: "InOut",
        libraries: &["examples/Base.mo", "test_data/dependencies/InOut.mo"],
        model: "InOut.Plant",
        sets: &[],
    },
    Case {
        name: "Switch",
        libraries: &["examples/Base.mo", "test_data/events/Switch.mo"],
        model: "Switch.RiseThenDecay",
        sets: &[],
    },
];

fn export(case: &Case) -> (ExportOutput, std::path::PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let paths: Vec<_> = case.libraries.iter().map(|p| root.join(p)).collect();
    let lib = load_library(load_paths(&paths).expect("libraries load"));
    let sets: Vec<SetValue> = case
        .sets
        .iter()
        .map(|(path, value)| SetValue {
            path: path.to_string(),
            value: (*value).into(),
        })
        .collect();
    let out = match export_model(&lib, case.model, &sets, 1.0) {
        Ok(o) => o,
        Err(ExportError::Diagnostics(d)) => panic!("{}: export failed: {d:?}", case.name),
        Err(e) => panic!("{}: export failed: {e:?}", case.name),
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dependencies");
    let cache = ObjectCache::new(dir.join("cache"));
    let fmu = dir.join(format!("{}.fmu", case.name));
    build_fmu(&out.build_spec(), &fmu, Some(&cache)).expect("packaging works");
    (out, fmu)
}

/// Counts of what one case checked.
#[derive(Default, Debug)]
struct Counts {
    /// (unknown, known) pairs declared absent and found exactly zero.
    absent: usize,
    /// Declared pairs, and how many of them changed under perturbation.
    declared: usize,
    declared_nonzero: usize,
}

fn vr(i: usize) -> u32 {
    u32::try_from(i).expect("value references fit in 32 bits")
}

fn perturbation(value: f64) -> f64 {
    1e-3 * value.abs().max(1.0)
}

/// One mode of one case: what is read and what is declared.
struct Check<'a> {
    case: &'a str,
    mode: &'a str,
    table: &'a ModelTable,
    declared: &'a dyn Fn(usize) -> BTreeSet<usize>,
    unknowns: &'a [usize],
}

/// Compares two evaluations of the unknowns after perturbing `known`.
fn compare(c: &Check<'_>, known: usize, base: &[f64], perturbed: &[f64], counts: &mut Counts) {
    let Check {
        case,
        mode,
        table,
        declared,
        unknowns,
    } = *c;
    for (k, &u) in unknowns.iter().enumerate() {
        let changed = base[k].to_bits() != perturbed[k].to_bits();
        if declared(u).contains(&known) {
            counts.declared += 1;
            counts.declared_nonzero += usize::from(changed);
        } else {
            counts.absent += 1;
            assert!(
                !changed,
                "{case} ({mode}): `{}` changed from {} to {} when `{}` was perturbed, \
                 but its declared dependencies leave `{}` out",
                table.variables[u].name,
                base[k],
                perturbed[k],
                table.variables[known].name,
                table.variables[known].name,
            );
        }
    }
}

fn continuous_mode(case: &Case, table: &ModelTable, fmu: &Fmu, counts: &mut Counts) {
    let mut inst = fmu
        .instantiate("dependencies", false)
        .expect("instantiates");
    crate::export::continuous_time(&mut inst);

    let unknowns: Vec<usize> = table
        .outputs
        .iter()
        .chain(&table.derivatives)
        .copied()
        .collect();
    for &u in &unknowns {
        assert!(
            table.dependencies.contains_key(&u),
            "{}: `{}` has no declared dependencies",
            case.name,
            table.variables[u].name
        );
    }
    let declared =
        |u: usize| -> BTreeSet<usize> { table.dependencies[&u].knowns.iter().copied().collect() };
    let states: Vec<usize> = table
        .derivatives
        .iter()
        .map(|&d| table.variables[d].derivative_of.expect("a state"))
        .collect();
    let inputs: Vec<usize> = (0..table.variables.len())
        .filter(|&i| table.variables[i].causality == Causality::Input)
        .collect();
    let refs: Vec<u32> = unknowns.iter().map(|&u| vr(u)).collect();

    // A point away from the start values, so that differences of states
    // (heat flows, control errors) are not all zero.
    let mut x = vec![0.0; states.len()];
    inst.get_continuous_states(&mut x).expect("states");
    for (j, v) in x.iter_mut().enumerate() {
        *v += 0.1 * (j as f64 + 1.0) * v.abs().max(1.0);
    }
    let t = 0.3;
    let input_refs: Vec<u32> = inputs.iter().map(|&i| vr(i)).collect();
    let u0 = inst.get_real(&input_refs).expect("inputs");

    let evaluate = |inst: &mut mofmu::harness::fmi2::Instance<'_>,
                    time: f64,
                    states: &[f64],
                    inputs: &[f64]|
     -> Vec<f64> {
        inst.set_time(time).expect("set time");
        inst.set_continuous_states(states).expect("set states");
        inst.set_real(&input_refs, inputs).expect("set inputs");
        inst.get_real(&refs).expect("unknowns")
    };
    let check = Check {
        case: case.name,
        mode: "continuous",
        table,
        declared: &declared,
        unknowns: &unknowns,
    };
    let base = evaluate(&mut inst, t, &x, &u0);
    for (j, &s) in states.iter().enumerate() {
        let mut xp = x.clone();
        xp[j] += perturbation(xp[j]);
        let p = evaluate(&mut inst, t, &xp, &u0);
        compare(&check, s, &base, &p, counts);
    }
    for (j, &i) in inputs.iter().enumerate() {
        let mut up = u0.clone();
        up[j] += perturbation(up[j]);
        let p = evaluate(&mut inst, t, &x, &up);
        compare(&check, i, &base, &p, counts);
    }
    let p = evaluate(&mut inst, t + 0.01, &x, &u0);
    compare(&check, 0, &base, &p, counts);
}

fn initialization_mode(case: &Case, table: &ModelTable, fmu: &Fmu, counts: &mut Counts) {
    let mut inst = fmu
        .instantiate("dependencies", false)
        .expect("instantiates");
    inst.setup_experiment(None, 0.0, None).expect("setup");
    inst.enter_initialization_mode().expect("init");
    let unknowns = table.initial_unknowns.clone();
    for &u in &unknowns {
        assert!(
            table.initial_dependencies.contains_key(&u),
            "{}: initial unknown `{}` has no declared dependencies",
            case.name,
            table.variables[u].name
        );
    }
    let declared = |u: usize| -> BTreeSet<usize> {
        table.initial_dependencies[&u]
            .knowns
            .iter()
            .copied()
            .collect()
    };
    // Knowns of initialization that the importer can set: inputs,
    // parameters and exact start values of states (all Reals here).
    let knowns: Vec<usize> = (0..table.variables.len())
        .filter(|&i| {
            let v = &table.variables[i];
            matches!(
                v.ty,
                mofmu::fmu::description::table::VariableType::Real { .. }
            ) && (v.causality == Causality::Input
                || v.causality == Causality::Parameter
                || (v.variability == Variability::Continuous && v.initial == Some(Initial::Exact)))
        })
        .collect();
    let refs: Vec<u32> = unknowns.iter().map(|&u| vr(u)).collect();
    let check = Check {
        case: case.name,
        mode: "initialization",
        table,
        declared: &declared,
        unknowns: &unknowns,
    };
    let base = inst.get_real(&refs).expect("initial unknowns");
    for &k in &knowns {
        let original = inst.get_real(&[vr(k)]).expect("known")[0];
        inst.set_real(&[vr(k)], &[original + perturbation(original)])
            .expect("set known");
        let p = inst.get_real(&refs).expect("initial unknowns");
        inst.set_real(&[vr(k)], &[original]).expect("restore known");
        compare(&check, k, &base, &p, counts);
    }
    let again = inst.get_real(&refs).expect("initial unknowns");
    assert_eq!(
        base.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        again.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        "{}: restoring the knowns did not restore the initial unknowns",
        case.name
    );
}

#[test]
fn declared_dependencies_never_miss_a_nonzero_entry() {
    let mut report = Vec::new();
    let mut total = Counts::default();
    for case in CASES {
        let (out, path) = export(case);
        let fmu = Fmu::load(&path).expect("loads");
        let mut counts = Counts::default();
        continuous_mode(case, &out.table, &fmu, &mut counts);
        initialization_mode(case, &out.table, &fmu, &mut counts);
        // Every declared dependency list of these models is exact except
        // where whole arrays are read (the rod): at least some declared
        // entries must be non-zero, or the check proves nothing.
        assert!(
            counts.declared_nonzero > 0,
            "{}: no declared dependency was non-zero",
            case.name
        );
        report.push(format!(
            "{}: {} absent pairs zero, {}/{} declared pairs non-zero",
            case.name, counts.absent, counts.declared_nonzero, counts.declared
        ));
        total.absent += counts.absent;
        total.declared += counts.declared;
        total.declared_nonzero += counts.declared_nonzero;
    }
    println!("{}", report.join("\n"));
    // The fixtures together exercise both sides of the check.
    assert!(total.absent > 100, "{total:?}");
}

/// The rod of 50 volumes declares exactly the tridiagonal pattern: the
/// derivative of volume i depends on the temperatures of volumes i-1, i and
/// i+1 and nothing else (3n - 2 entries), and perturbing each state in turn
/// changes exactly the declared derivatives.
#[test]
fn rod_declares_exactly_the_tridiagonal_pattern() {
    let n = 50;
    let case = CASES
        .iter()
        .find(|c| c.name == "RodHeating_n50")
        .expect("the case exists");
    let (out, path) = export(case);
    let table = &out.table;
    let states: Vec<usize> = table
        .derivatives
        .iter()
        .map(|&d| table.variables[d].derivative_of.expect("a state"))
        .collect();
    assert_eq!(states.len(), n);
    let mut entries = 0;
    for (i, &d) in table.derivatives.iter().enumerate() {
        let declared: Vec<usize> = table.dependencies[&d]
            .knowns
            .iter()
            .map(|k| {
                states.iter().position(|s| s == k).unwrap_or_else(|| {
                    panic!("`{}` depends on a non-state", table.variables[d].name)
                })
            })
            .collect();
        let expected: Vec<usize> = (i.saturating_sub(1)..=(i + 1).min(n - 1)).collect();
        assert_eq!(declared, expected, "`{}`", table.variables[d].name);
        entries += declared.len();
    }
    assert_eq!(entries, 3 * n - 2);
    // The system resource carries the same pattern for the Co-Simulation
    // solver: its last section before the checksum, a count and the states
    // per row.
    let mut expected = Vec::new();
    for i in 0..n {
        let row: Vec<u32> = (i.saturating_sub(1)..=(i + 1).min(n - 1))
            .map(|k| k as u32)
            .collect();
        expected.extend_from_slice(&(row.len() as u32).to_le_bytes());
        for k in row {
            expected.extend_from_slice(&k.to_le_bytes());
        }
    }
    let resource = &out.system_resource;
    let end = resource.len() - 8;
    assert_eq!(
        &resource[end - expected.len()..end],
        expected.as_slice(),
        "the Jacobian pattern in the system resource"
    );

    let fmu = Fmu::load(&path).expect("loads");
    let mut counts = Counts::default();
    continuous_mode(case, table, &fmu, &mut counts);
    // Every declared entry is non-zero at a generic point: the pattern is
    // exact, not merely conservative.
    assert_eq!(counts.declared, 3 * n - 2, "{counts:?}");
    assert_eq!(counts.declared_nonzero, counts.declared, "{counts:?}");
    assert_eq!(counts.absent, n * n + n - (3 * n - 2), "{counts:?}");
}
