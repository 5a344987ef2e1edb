//! `modelDescription.xml` rendering: golden files under `test_data/fmu/`
//! (rewrite them with `UPDATE_EXPECT=1` and review the diff), and the FMI
//! rules the renderer refuses to break.

use std::path::PathBuf;

use mofmu::fmu::description::model_description::{guid_from, render_model_description};
use mofmu::fmu::description::table::{
    Causality, DefaultExperiment, Dependencies, DependencyKind, DisplayUnitDefinition, Initial,
    Interfaces, ModelTable, ModelVariable, UnitDefinition, Variability, VariableType,
};

/// Every golden case: a name (`test_data/fmu/<name>.xml`) and its table.
fn golden_cases() -> Vec<(&'static str, ModelTable)> {
    vec![("decay", decay_table()), ("rod", rod_table())]
}

#[test]
fn golden_model_descriptions() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    for (name, table) in golden_cases() {
        let actual = render_model_description(&table)
            .unwrap_or_else(|e| panic!("case {name}: table rejected: {e}"));
        let path = golden_dir().join(format!("{name}.xml"));
        if update {
            std::fs::create_dir_all(golden_dir()).unwrap();
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{}: rendered XML differs (run with UPDATE_EXPECT=1 to rewrite)\n--- actual ---\n{actual}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rendering_is_deterministic() {
    let a = render_model_description(&rod_table()).unwrap();
    let b = render_model_description(&rod_table()).unwrap();
    assert_eq!(a, b);
}

#[test]
fn broken_tables_are_refused_with_the_rule_they_break() {
    // Each case breaks one rule of the otherwise valid rod table.
    type Edit = fn(&mut ModelTable);
    let cases: Vec<(Edit, &str)> = vec![
        (
            |t| set_start(t, "rod.L", f64::INFINITY),
            "start of variable `rod.L` is inf, but only finite numbers can be written",
        ),
        (
            |t| set_start(t, "rod.L", f64::NAN),
            "start of variable `rod.L` is NaN, but only finite numbers can be written",
        ),
        (
            |t| t.initial_unknowns.retain(|&i| i != 1),
            "ModelStructure/InitialUnknowns must list exactly {rod.A, rod.T[1], der(rod.T[1]), der(rod.T[2]), y} but lists {rod.T[1], der(rod.T[1]), der(rod.T[2]), y}",
        ),
        (
            |t| t.initial_unknowns.reverse(),
            "ModelStructure/InitialUnknowns must be strictly increasing",
        ),
        (
            |t| t.outputs.clear(),
            "ModelStructure/Outputs must list exactly the variables with causality output; missing {y}, not outputs {}",
        ),
        (
            |t| set_start(t, "rod.A", 1.0),
            "variable `rod.A`: a start value is not allowed (initial calculated, or independent)",
        ),
        (
            |t| set_start_none(t, "u"),
            "variable `u`: a start value is required (input, or initial exact/approx)",
        ),
        (
            |t| t.variables[0].initial = Some(Initial::Calculated),
            "variable `rod.L`: causality Parameter with variability Fixed and initial Some(Calculated) is not allowed",
        ),
        (
            |t| t.variables[0].unit = Some("furlong".into()),
            "variable `rod.L` uses unit `furlong`, which is not in UnitDefinitions",
        ),
        (
            |t| t.variables[0].name = "rod.T[1, 2]".to_string(),
            "variable name `rod.T[1, 2]` does not follow FMI's structured naming convention",
        ),
        (
            |t| t.variables[0].name = "rod.A".to_string(),
            "variable name `rod.A` is used twice",
        ),
        (
            |t| {
                t.dependencies.insert(1, dependent(&[11]));
            },
            "ModelStructure dependencies of `rod.A`: it is not listed as an unknown there",
        ),
        (
            |t| {
                t.dependencies.insert(4, dependent(&[0, 3]));
            },
            "ModelStructure dependencies of `der(rod.T[1])`: `rod.L` is not a known",
        ),
        (
            |t| {
                t.initial_dependencies.insert(4, dependent(&[2, 0]));
            },
            "ModelStructure dependencies of `der(rod.T[1])`: the indices are not strictly increasing",
        ),
        (
            |t| {
                let mut d = dependent(&[6]);
                d.kinds.clear();
                t.dependencies.insert(7, d);
            },
            "ModelStructure dependencies of `y`: 1 knowns but 0 kinds",
        ),
        (
            |t| t.derivatives.push(0),
            "ModelStructure/Derivatives: `rod.L` has no derivative attribute",
        ),
        (
            |t| t.variables.push(integer_constant("big", 9, 1 << 40)),
            "variable `big`: Integer start is outside the 32-bit range of fmi2Integer",
        ),
        (
            |t| t.description = Some("bell \u{7}".to_string()),
            "the model description contains the character U+0007, which XML 1.0 cannot represent",
        ),
        (
            |t| t.default_experiment.tolerance = 0.0,
            "default experiment: tolerance 0 is not positive",
        ),
    ];
    for (edit, message) in cases {
        let mut table = rod_table();
        edit(&mut table);
        let error = render_model_description(&table).expect_err(message);
        assert!(
            error.to_string().starts_with(message),
            "expected `{message}`, got `{error}`"
        );
    }
}

#[test]
fn structured_names() {
    use mofmu::fmu::description::fmi_rules::is_structured_name;
    let good = [
        "x",
        "_a1.b2",
        "rod.T[3]",
        "a[1,2].b[3]",
        "der(rod.T[3])",
        "der(x,2)",
        "der(a[1,2])",
        "'quoted name'.x",
        r"'it\'s'",
    ];
    let bad = [
        "", "1x", "a.", ".a", "a[]", "a[1,]", "a[ 1]", "der(x", "der()", "der(x,)", "''", "a b",
    ];
    for name in good {
        assert!(is_structured_name(name), "{name} should be accepted");
    }
    for name in bad {
        assert!(!is_structured_name(name), "{name} should be rejected");
    }
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test_data/fmu")
}

fn set_start(t: &mut ModelTable, name: &str, value: f64) {
    let v = t.variables.iter_mut().find(|v| v.name == name).unwrap();
    v.ty = VariableType::Real { start: Some(value) };
}

fn set_start_none(t: &mut ModelTable, name: &str) {
    let v = t.variables.iter_mut().find(|v| v.name == name).unwrap();
    v.ty = VariableType::Real { start: None };
}

/// A Real variable with nothing but the essentials; tests fill in the rest.
fn real(name: &str, vr: u32, causality: Causality, variability: Variability) -> ModelVariable {
    ModelVariable {
        name: name.to_string(),
        value_reference: vr,
        ty: VariableType::Real { start: None },
        causality,
        variability,
        initial: None,
        description: None,
        unit: None,
        display_unit: None,
        quantity: None,
        min: None,
        max: None,
        nominal: None,
        derivative_of: None,
    }
}

fn integer_constant(name: &str, vr: u32, value: i64) -> ModelVariable {
    ModelVariable {
        ty: VariableType::Integer { start: Some(value) },
        ..real(name, vr, Causality::Local, Variability::Constant)
    }
}

fn unit(name: &str, exponents: [i32; 8]) -> UnitDefinition {
    let [kg, m, s, a, k, mol, cd, rad] = exponents;
    UnitDefinition {
        name: name.to_string(),
        kg,
        m,
        s,
        a,
        k,
        mol,
        cd,
        rad,
        factor: 1.0,
        offset: 0.0,
        display_units: Vec::new(),
    }
}

/// dx/dt = -x with x(0) = 1: one state that is also the output. Shared
/// with the packaging tests, which build a complete FMU from it.
pub fn decay_table() -> ModelTable {
    let x = ModelVariable {
        ty: VariableType::Real { start: Some(1.0) },
        initial: Some(Initial::Exact),
        description: Some("decaying quantity".into()),
        ..real("x", 0, Causality::Output, Variability::Continuous)
    };
    let der_x = ModelVariable {
        derivative_of: Some(0),
        ..real("der(x)", 1, Causality::Local, Variability::Continuous)
    };
    let k = ModelVariable {
        ty: VariableType::Real { start: Some(1.0) },
        unit: Some("1/s".into()),
        description: Some("decay rate".into()),
        ..real("k", 2, Causality::Parameter, Variability::Fixed)
    };
    let mut table = ModelTable {
        interfaces: Interfaces::BOTH,
        model_name: "Decay".to_string(),
        model_identifier: "Decay".to_string(),
        guid: String::new(),
        description: Some("dx/dt = -k*x".to_string()),
        generation_tool: "mofmu test".to_string(),
        variables: vec![x, der_x, k],
        unit_definitions: vec![unit("1/s", [0, 0, -1, 0, 0, 0, 0, 0])],
        number_of_event_indicators: 0,
        outputs: vec![0],
        derivatives: vec![1],
        initial_unknowns: vec![1],
        dependencies: Default::default(),
        initial_dependencies: Default::default(),
        default_experiment: DefaultExperiment {
            start_time: 0.0,
            stop_time: 2.0,
            tolerance: 1e-6,
            step_size: None,
        },
        log_categories: vec![("logAll".to_string(), "Everything".to_string())],
        source_files: ["decay_system.c", "decay_fmi.c", "decay_model.c"]
            .map(str::to_string)
            .to_vec(),
        structural: None,
    };
    table.guid = guid_from(&[b"Decay", b"test"]);
    table
}

/// A representative thermal rod: parameters, a calculated parameter, a
/// state with an exact start and one whose start is calculated, their
/// derivatives, an input, an output, an Integer constant, a Boolean
/// parameter, units with display units, and text that needs escaping.
fn rod_table() -> ModelTable {
    use Causality as C;
    use Variability as V;
    let variables = vec![
        // 0
        ModelVariable {
            ty: VariableType::Real { start: Some(2.0) },
            unit: Some("m".into()),
            min: Some(0.0),
            description: Some("length <L> & \"quoted\"\nsecond line".into()),
            ..real("rod.L", 0, C::Parameter, V::Fixed)
        },
        // 1
        ModelVariable {
            unit: Some("m2".into()),
            ..real("rod.A", 1, C::CalculatedParameter, V::Fixed)
        },
        // 2: state with an exact start
        ModelVariable {
            ty: VariableType::Real {
                start: Some(293.15),
            },
            initial: Some(Initial::Exact),
            unit: Some("K".into()),
            display_unit: Some("degC".into()),
            quantity: Some("ThermodynamicTemperature".into()),
            nominal: Some(300.0),
            min: Some(0.0),
            max: Some(1e300),
            ..real("rod.T[2]", 2, C::Local, V::Continuous)
        },
        // 3: state whose start is computed from parameters
        ModelVariable {
            initial: Some(Initial::Calculated),
            unit: Some("K".into()),
            ..real("rod.T[1]", 3, C::Local, V::Continuous)
        },
        // 4, 5: derivatives (state order T[1], T[2])
        ModelVariable {
            derivative_of: Some(3),
            unit: Some("K/s".into()),
            ..real("der(rod.T[1])", 4, C::Local, V::Continuous)
        },
        ModelVariable {
            derivative_of: Some(2),
            unit: Some("K/s".into()),
            ..real("der(rod.T[2])", 5, C::Local, V::Continuous)
        },
        // 6
        ModelVariable {
            ty: VariableType::Real { start: Some(0.0) },
            unit: Some("W".into()),
            ..real("u", 6, C::Input, V::Continuous)
        },
        // 7
        ModelVariable {
            unit: Some("K".into()),
            ..real("y", 7, C::Output, V::Continuous)
        },
        // 8
        integer_constant("rod.n", 0, 2),
        // 9
        ModelVariable {
            ty: VariableType::Boolean { start: Some(true) },
            ..real("rod.insulated", 0, C::Parameter, V::Fixed)
        },
        // 10
        ModelVariable {
            ty: VariableType::Real { start: Some(-0.0) },
            nominal: Some(1e-7),
            ..real("rod.offset", 8, C::Parameter, V::Tunable)
        },
        // 11
        real("time", 9, C::Independent, V::Continuous),
    ];
    let mut kelvin = unit("K", [0, 0, 0, 0, 1, 0, 0, 0]);
    kelvin.display_units.push(DisplayUnitDefinition {
        name: "degC".to_string(),
        factor: 1.0,
        offset: -273.15,
    });
    let mut table = ModelTable {
        interfaces: Interfaces::BOTH,
        model_name: "Thermal.Rod".to_string(),
        model_identifier: "Thermal_Rod".to_string(),
        guid: String::new(),
        description: Some("A rod <with> \"heat\" & more".to_string()),
        generation_tool: "mofmu test".to_string(),
        variables,
        unit_definitions: vec![
            kelvin,
            unit("K/s", [0, 0, -1, 0, 1, 0, 0, 0]),
            unit("W", [1, 2, -3, 0, 0, 0, 0, 0]),
            unit("m", [0, 1, 0, 0, 0, 0, 0, 0]),
            unit("m2", [0, 2, 0, 0, 0, 0, 0, 0]),
            UnitDefinition {
                factor: 0.001,
                ..unit("mm", [0, 1, 0, 0, 0, 0, 0, 0])
            },
        ],
        number_of_event_indicators: 1,
        outputs: vec![7],
        derivatives: vec![4, 5],
        initial_unknowns: vec![1, 3, 4, 5, 7],
        dependencies: Default::default(),
        initial_dependencies: Default::default(),
        default_experiment: DefaultExperiment {
            start_time: 0.0,
            stop_time: 100.0,
            tolerance: 1e-6,
            step_size: Some(0.5),
        },
        log_categories: vec![
            ("logEvents".to_string(), "Events & steps".to_string()),
            ("logStatusError".to_string(), "Errors".to_string()),
        ],
        source_files: Vec::new(),
        structural: None,
    };
    table.guid = guid_from(&[b"Thermal.Rod"]);
    table
}

fn dependent(knowns: &[usize]) -> Dependencies {
    Dependencies {
        knowns: knowns.to_vec(),
        kinds: vec![DependencyKind::Dependent; knowns.len()],
    }
}

#[test]
fn dependencies_are_rendered_one_based_with_their_kinds() {
    let mut table = rod_table();
    // der(rod.T[1]) on time, rod.T[2] and u; the output on nothing.
    table.dependencies.insert(4, dependent(&[2, 6, 11]));
    table.dependencies.insert(7, dependent(&[]));
    // The calculated start rod.T[1] from the parameter rod.L.
    table.initial_dependencies.insert(3, dependent(&[0]));
    let xml = render_model_description(&table).expect("valid table");
    assert!(
        xml.contains(r#"<Unknown index="5" dependencies="3 7 12" dependenciesKind="dependent dependent dependent"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<Unknown index="8" dependencies="" dependenciesKind=""/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<Unknown index="4" dependencies="1" dependenciesKind="dependent"/>"#),
        "{xml}"
    );
    // Unknowns without an entry carry no attribute.
    assert!(xml.contains(r#"<Unknown index="6"/>"#), "{xml}");
}
