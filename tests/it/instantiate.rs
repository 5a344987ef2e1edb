//! Phase-level tests of instantiate, through its one entry point
//! (`instantiate` over a checked class database), with fixtures in
//! `test_data/instantiate/` named by feature: component arrays, inner and
//! outer, conditional components and `--set` literals.

use mofmu::classdb::ClassDb;
use mofmu::instantiate::{instantiate, SetLiteral, SetValue, System};
use mofmu::library::{check_library_into, Library};

use super::export::library;

fn fixture(file: &str) -> Library {
    library(&[
        "examples/Base.mo",
        "examples/Thermal",
        &format!("test_data/instantiate/{file}"),
    ])
}

/// The system of `model` with `sets`, or the instantiation's diagnostics
/// by code.
fn system(lib: &Library, model: &str, sets: &[(&str, SetLiteral)]) -> Result<System, Vec<String>> {
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let diags = check_library_into(lib, true, &mut db);
    assert!(diags.is_empty(), "the fixture checks clean: {diags:?}");
    let id = lib.tree.find_qualified(model).expect("the model exists");
    db.compile_below(id);
    let sets: Vec<SetValue> = sets
        .iter()
        .map(|(path, value)| SetValue {
            path: path.to_string(),
            value: value.clone(),
        })
        .collect();
    instantiate(&db, id, &sets).map_err(|ds| ds.into_iter().map(|d| d.code.to_string()).collect())
}

fn paths(sys: &System) -> Vec<&str> {
    sys.instances.iter().map(|i| i.path.as_str()).collect()
}

fn real<'s>(sys: &'s System, name: &str) -> Option<&'s mofmu::instantiate::RealVar> {
    sys.reals.iter().find(|r| r.name == name)
}

#[test]
fn a_component_array_has_one_instance_per_element_at_the_size_its_parameter_gives() {
    let lib = fixture("component_arrays.mo");
    for n in [3usize, 7] {
        let sys = system(
            &lib,
            "ComponentArrays.Chain",
            &[("n", SetLiteral::Number(n as f64))],
        )
        .unwrap();
        let model = &sys.instances[0];
        // The array components' elements, in order.
        let caps: Vec<&str> = sys
            .instances
            .iter()
            .filter(|i| i.path.starts_with("cap["))
            .map(|i| i.path.as_str())
            .collect();
        let expected: Vec<String> = (1..=n).map(|i| format!("cap[{i}]")).collect();
        assert_eq!(caps, expected, "n = {n}");
        assert!(model.elements.iter().any(|e| e.len() == n), "n = {n}");
        // One state per capacitor, and each element's parameter set by the
        // `each` modifier (the state's start is calculated from it).
        assert_eq!(sys.states.len(), n, "n = {n}");
        for i in 1..=n {
            let t = sys
                .reals
                .iter()
                .position(|r| r.name == format!("cap[{i}].T"))
                .expect("a temperature per element");
            assert!(sys.states.contains(&t), "cap[{i}].T is a state");
            let t0 = real(&sys, &format!("cap[{i}].T0")).expect("a parameter per element");
            assert_eq!(t0.start, Some(300.0), "cap[{i}].T0");
        }
        // Every element of the array is of the one class.
        let classes: std::collections::BTreeSet<usize> = sys
            .instances
            .iter()
            .filter(|i| i.path.starts_with("link["))
            .map(|i| i.class)
            .collect();
        assert_eq!(classes.len(), 1);
    }
}

#[test]
fn an_outer_world_shares_the_inner_worlds_parameters() {
    let lib = fixture("inner_outer.mo");
    let sys = system(&lib, "InnerOuter.Moon", &[]).unwrap();
    let g = real(&sys, "world.g").expect("the inner world's parameter");
    assert_eq!(g.start, Some(1.62));
    // The outer worlds are no variables of their own: both balls read the
    // inner world's slot.
    for ball in ["ball", "other"] {
        assert!(
            real(&sys, &format!("{ball}.world.g")).is_none(),
            "{ball} has a world of its own: {:?}",
            sys.reals.iter().map(|r| &r.name).collect::<Vec<_>>()
        );
    }
    let world = paths(&sys).iter().position(|p| *p == "world").unwrap();
    let g_index = sys
        .class_of(world)
        .model
        .var("g")
        .expect("World declares g");
    let g_offset = sys.instances[world].var_offset[g_index].expect("g is a Real");
    for ball in ["ball", "other"] {
        let inst = paths(&sys).iter().position(|p| *p == ball).unwrap();
        assert!(
            sys.instances[inst].slot_offsets.contains(&g_offset),
            "{ball}'s kernel does not read the inner world's g"
        );
    }
}

#[test]
fn a_parameter_bound_to_an_outer_parameter_is_the_inner_ones_real() {
    let lib = fixture("inner_outer.mo");
    let sys = system(&lib, "InnerOuter.Weights", &[]).unwrap();
    let world = paths(&sys).iter().position(|p| *p == "world").unwrap();
    let g = sys.class_of(world).model.var("g").unwrap();
    let g_offset = sys.instances[world].var_offset[g].unwrap();
    let offset_of_a = |path: &str| {
        let inst = paths(&sys).iter().position(|p| *p == path).unwrap();
        let a = sys.class_of(inst).model.var("a").unwrap();
        sys.instances[inst].var_offset[a].unwrap()
    };
    // `a = world.g`: every element reads the inner world's real, and is no
    // variable of its own.
    for k in 1..=3 {
        assert_eq!(offset_of_a(&format!("w[{k}]")), g_offset, "w[{k}].a");
        assert!(real(&sys, &format!("w[{k}].a")).is_none());
    }
    // A modifier replaces the binding: `heavy.a` is a parameter of its own.
    assert_ne!(offset_of_a("heavy"), g_offset);
    assert_eq!(real(&sys, "heavy.a").and_then(|r| r.start), Some(2.0));
}

#[test]
fn a_conditional_component_is_present_or_absent_by_its_boolean() {
    let lib = fixture("conditional.mo");
    let with = system(&lib, "Conditional.MaybeHeated", &[]).unwrap();
    assert!(paths(&with).contains(&"heater"), "{:?}", paths(&with));
    assert!(real(&with, "heater.Q_flow").is_some());
    let without = system(
        &lib,
        "Conditional.MaybeHeated",
        &[("withHeater", SetLiteral::Bool(false))],
    )
    .unwrap();
    assert!(
        !paths(&without).contains(&"heater"),
        "{:?}",
        paths(&without)
    );
    assert!(real(&without, "heater.Q_flow").is_none());
    // The rest of the model is the same.
    assert_eq!(with.states.len(), without.states.len());
}

#[test]
fn set_literals_are_checked_against_the_parameters_type() {
    let lib = fixture("conditional.mo");
    let model = "Conditional.MaybeHeated";
    // An enumeration literal by name, a Boolean by `true`/`false`.
    assert!(system(&lib, model, &[("mode", SetLiteral::Literal("Off".into()))]).is_ok());
    assert!(system(&lib, model, &[("withHeater", SetLiteral::Bool(true))]).is_ok());
    // A literal of no such enumeration, a number for a Boolean, a Boolean
    // for a number: each is its own diagnostic.
    let codes = |sets: &[(&str, SetLiteral)]| system(&lib, model, sets).err().unwrap_or_default();
    let wrong_literal = codes(&[("mode", SetLiteral::Literal("Boost".into()))]);
    let number_for_bool = codes(&[("withHeater", SetLiteral::Number(1.0))]);
    let bool_for_number = codes(&[("body.C", SetLiteral::Bool(true))]);
    for (what, found) in [
        ("a literal of no such enumeration", &wrong_literal),
        ("a number for a Boolean", &number_for_bool),
        ("a Boolean for a number", &bool_for_number),
    ] {
        assert_eq!(found.len(), 1, "{what}: {found:?}");
        assert!(found[0].starts_with("MX02"), "{what}: {found:?}");
    }
}

/// `cap[n, m]`: n*m instances named `cap[i,j]`, row-major (the last index
/// fastest), at the sizes the parameters give; a matrix modifier gives
/// element `[i, j]` its part; `--set cap[2,1].C` sets that element only;
/// an element outside the array is MX038, a misshaped value MX046.
#[test]
fn a_two_dimensional_component_array_is_laid_out_row_major() {
    let lib = fixture("component_grids.mo");
    for (n, m) in [(2usize, 3usize), (4, 1)] {
        let sys = system(
            &lib,
            "ComponentGrids.Grid",
            &[
                ("n", SetLiteral::Number(n as f64)),
                ("m", SetLiteral::Number(m as f64)),
                ("cap[2,1].C", SetLiteral::Number(7.0)),
            ],
        )
        .unwrap();
        let caps: Vec<&str> = paths(&sys)
            .into_iter()
            .filter(|p| p.starts_with("cap["))
            .collect();
        let expected: Vec<String> = (1..=n)
            .flat_map(|i| (1..=m).map(move |j| format!("cap[{i},{j}]")))
            .collect();
        assert_eq!(caps, expected, "{n} x {m}");
        assert_eq!(sys.states.len(), n * m);
        assert_eq!(
            sys.instances[0]
                .shapes
                .iter()
                .filter(|s| **s == [n, m])
                .count(),
            2
        );
        for i in 1..=n {
            for j in 1..=m {
                let c = real(&sys, &format!("cap[{i},{j}].C")).expect("C per element");
                let want = if (i, j) == (2, 1) { 7.0 } else { 1000.0 };
                assert_eq!(c.start, Some(want), "cap[{i},{j}].C at {n} x {m}");
            }
        }
    }
    let sys = system(&lib, "ComponentGrids.Fixed", &[]).unwrap();
    for (i, j, want) in [(1, 1, 10.0), (1, 3, 30.0), (2, 1, 40.0), (2, 3, 60.0)] {
        let c = real(&sys, &format!("cap[{i},{j}].C")).expect("C per element");
        assert_eq!(c.start, Some(want), "cap[{i},{j}].C");
    }
    let bad = system(
        &lib,
        "ComponentGrids.Grid",
        &[("cap[3,1].C", SetLiteral::Number(7.0))],
    );
    assert_eq!(bad.err(), Some(vec!["MX038".to_string()]));
    let bad = system(
        &lib,
        "ComponentGrids.Grid",
        &[("cap[1].C", SetLiteral::Number(7.0))],
    );
    assert_eq!(bad.err(), Some(vec!["MX038".to_string()]));
}

/// Issue 60: `HeatCapacitor a[n](each C = Ca)` with `Ca` a Real parameter
/// of the model was MC124. Each element's `C` is now the model's `Ca` (the
/// FMU declares `Ca`, not `a[k].C`); `C = Gk` gives element k `Gk[k]`.
/// The ladder with `Ca` set by an importer before initialisation, exported
/// with `--set Ca=65` (compiling nothing, the same `.so`), and written with
/// literals run equal to the bit, FMI 2 and FMI 3.
#[test]
fn array_modifiers_bound_to_model_parameters() {
    use crate::export::{export, package, set, zip_entry};
    use mofmu::harness::{simulate, SimOptions};
    use mofmu::package::ObjectCache;
    let bound = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/ladder/Ladder.mo",
    ]);
    let literal = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/ladder/LadderLiteral.mo",
    ]);
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = ObjectCache::new(dir.path().join("cache"));
    let model = "Ladder.Ladder";
    let plain = dir.path().join("bound.fmu");
    package(&export(&bound, model, &[]), &plain, &cache);
    let at65 = dir.path().join("set.fmu");
    let report = package(&export(&bound, model, &[set("Ca", 65.0)]), &at65, &cache);
    assert_eq!(report.objects_compiled, 0, "--set Ca compiled new objects");
    let so = "binaries/linux64/Ladder_Ladder.so";
    assert_eq!(
        zip_entry(&plain, so),
        zip_entry(&at65, so),
        "one library for every Ca"
    );
    let written = dir.path().join("literal.fmu");
    package(&export(&literal, model, &[]), &written, &cache);

    let description = String::from_utf8(zip_entry(&plain, "modelDescription.xml")).unwrap();
    assert!(description.contains("name=\"Ca\""));
    assert!(!description.contains("name=\"a[1].C\""), "a[k].C is Ca");
    assert!(!description.contains("name=\"c[2].C\""), "c[k].C is Gk[k]");
    // Ca lies outside the array, which is laid out by column all the same:
    // the states of consecutive elements are consecutive reals.
    let reference = |name: &str| -> u64 {
        let at = description
            .find(&format!("name=\"{name}\" valueReference=\""))
            .unwrap_or_else(|| panic!("{name} is declared"));
        let rest = &description[at + name.len() + 24..];
        rest[..rest.find('"').unwrap()].parse().unwrap()
    };
    assert_eq!(reference("a[2].T"), reference("a[1].T") + 1, "a by column");
    assert_eq!(reference("b[2].T"), reference("b[1].T") + 1, "b by column");

    let run = |fmu: &std::path::Path, starts: Vec<(String, f64)>| {
        let options = SimOptions {
            stop_time: Some(100.0),
            start_values: starts,
            ..SimOptions::default()
        };
        simulate(fmu, &options).expect("the ladder runs")
    };
    let by_importer = run(&plain, vec![("Ca".to_string(), 65.0)]);
    let default = run(&plain, Vec::new());
    for other in [run(&at65, Vec::new()), run(&written, Vec::new())] {
        assert_eq!(other.names, by_importer.names);
        assert!(
            other
                .rows
                .iter()
                .flatten()
                .zip(by_importer.rows.iter().flatten())
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "runs differ"
        );
    }
    // Ca matters: the default (Ca = 50) warms the first chain faster.
    let a1 = |r: &mofmu::harness::SimResult| r.column("a[1].T").unwrap()[10];
    assert!(a1(&default) > a1(&by_importer) + 1e-3);
    // The interpreted tier gives the compiled one's bits (a node of the
    // ladder sums three flows: a copy of three sources, spelled out in
    // the compiled schedule).
    use mofmu::export::{export_model_options, ExportOptions, FmiVersion};
    use mofmu::fmu::image::compiled::ScheduleTier;
    let interpreted = dir.path().join("interpreted.fmu");
    let options = ExportOptions {
        schedule: ScheduleTier::Interpreted,
        ..ExportOptions::default()
    };
    let out = export_model_options(&bound, model, &[], None, options)
        .unwrap_or_else(|e| panic!("interpreted export: {e:?}"));
    package(&out, &interpreted, &cache);
    let run_i = run(&interpreted, vec![("Ca".to_string(), 65.0)]);
    assert!(
        run_i
            .rows
            .iter()
            .flatten()
            .zip(by_importer.rows.iter().flatten())
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        "the tiers differ"
    );
    // FMI 3.0: the same run.
    let options = ExportOptions {
        fmi_version: FmiVersion::Fmi3,
        ..ExportOptions::default()
    };
    let three = dir.path().join("bound3.fmu");
    let out3 = export_model_options(&bound, model, &[], None, options)
        .unwrap_or_else(|e| panic!("FMI 3 export: {e:?}"));
    package(&out3, &three, &cache);
    let run3 = run(&three, vec![("Ca".to_string(), 65.0)]);
    assert!(
        run3.rows
            .iter()
            .flatten()
            .zip(by_importer.rows.iter().flatten())
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        "FMI 3.0 differs"
    );
}
