//! Builds the one variable table of a model from its instantiated system.

use super::table::DisplayUnitDefinition;
use super::table::{
    Causality, DefaultExperiment, Initial, Interfaces, ModelTable, ModelVariable, UnitDefinition,
    Variability, VariableType,
};
use crate::instantiate::{RealKind, RealVar, System};
use crate::ir::Discrete;
use crate::units::parse::{parse, parse_unit};

/// The table without a GUID; the caller hashes everything and fills it in.
/// The Real variables' names are left empty: [`take_names`] moves them in
/// from `sys` once nothing borrows them any more (export renders the system
/// resource, which borrows them, while it builds the table). Their texts
/// are shared with `sys`.
pub fn model_table(sys: &System, model_identifier: &str, stop_time: f64) -> ModelTable {
    let mut variables = Vec::with_capacity(sys.reals.len() + sys.ints.len());
    let mut outputs = Vec::new();
    let mut initial_unknowns = Vec::new();
    let mut next_discrete_integer = sys.ints.iter().filter(|iv| !iv.boolean).count() as u32;
    let mut next_discrete_boolean = sys.ints.iter().filter(|iv| iv.boolean).count() as u32;
    for (i, r) in sys.reals.iter().enumerate() {
        let (causality, mut variability, initial, start) = declared_as(r);
        if r.discrete_time {
            variability = Variability::Discrete;
        }
        match r.kind {
            RealKind::Output => {
                outputs.push(i);
                initial_unknowns.push(i);
            }
            RealKind::CalculatedParameter | RealKind::StateCalculated | RealKind::Derivative => {
                initial_unknowns.push(i)
            }
            _ => {}
        }
        let unit = r.unit.clone().filter(|u| !u.is_empty());
        // A discrete variable is stored in R but declared with its own
        // type, after the parameters of that type.
        let (value_reference, ty, variability) = match r.discrete {
            None => (i as u32, VariableType::Real { start }, variability),
            // An input declares its start value (FMI 2.0: an input has
            // one); a computed discrete variable has none.
            Some(Discrete::Integer) => {
                next_discrete_integer += 1;
                (
                    next_discrete_integer - 1,
                    VariableType::Integer {
                        start: start.map(|s| s as i64),
                    },
                    Variability::Discrete,
                )
            }
            Some(Discrete::Boolean) => {
                next_discrete_boolean += 1;
                (
                    next_discrete_boolean - 1,
                    VariableType::Boolean {
                        start: start.map(|s| s != 0.0),
                    },
                    Variability::Discrete,
                )
            }
        };
        let unit = unit.filter(|_| r.discrete.is_none());
        variables.push(ModelVariable {
            name: String::new(),
            value_reference,
            ty,
            causality,
            variability,
            initial,
            description: r.description.clone(),
            display_unit: if unit.is_some() {
                r.display_unit.clone()
            } else {
                None
            },
            unit,
            quantity: r.quantity.clone(),
            min: r.min,
            max: r.max,
            nominal: r.nominal.filter(|n| *n > 0.0),
            derivative_of: r.derivative_of,
        });
    }
    push_integers(&mut variables, sys);
    let unit_definitions = unit_definitions(&mut variables);
    ModelTable {
        interfaces: Interfaces::BOTH,
        model_name: sys.model_name.clone(),
        model_identifier: model_identifier.to_string(),
        guid: String::new(),
        description: None,
        generation_tool: format!("mofmu {}", env!("CARGO_PKG_VERSION")),
        variables,
        unit_definitions,
        number_of_event_indicators: sys.n_indicators as usize,
        outputs,
        derivatives: sys.derivatives.clone(),
        initial_unknowns,
        dependencies: Default::default(),
        initial_dependencies: Default::default(),
        default_experiment: DefaultExperiment {
            start_time: 0.0,
            stop_time,
            tolerance: 1e-6,
            step_size: None,
        },
        log_categories: [
            ("logEvents", "Events and event iterations"),
            ("logStatusWarning", "Warnings"),
            ("logStatusError", "Errors, including failed evaluations"),
            ("logAll", "Everything"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect(),
        // The kernels are known only after code generation; export fills
        // this in.
        source_files: Vec::new(),
        structural: None,
    }
}

/// How a Real of kind `r.kind` is declared: its causality, variability,
/// initial and start value.
fn declared_as(r: &RealVar) -> (Causality, Variability, Option<Initial>, Option<f64>) {
    match r.kind {
        RealKind::Time => (Causality::Independent, Variability::Continuous, None, None),
        RealKind::Constant => (
            Causality::Local,
            Variability::Constant,
            Some(Initial::Exact),
            r.start,
        ),
        RealKind::Parameter => (
            Causality::Parameter,
            Variability::Fixed,
            Some(Initial::Exact),
            r.start,
        ),
        RealKind::CalculatedParameter => (
            Causality::CalculatedParameter,
            Variability::Fixed,
            Some(Initial::Calculated),
            None,
        ),
        RealKind::State => (
            Causality::Local,
            Variability::Continuous,
            Some(Initial::Exact),
            r.start,
        ),
        RealKind::StateCalculated => (
            Causality::Local,
            Variability::Continuous,
            Some(Initial::Calculated),
            None,
        ),
        RealKind::Derivative => (
            Causality::Local,
            Variability::Continuous,
            Some(Initial::Calculated),
            None,
        ),
        RealKind::Input => (
            Causality::Input,
            Variability::Continuous,
            None,
            r.start.or(Some(0.0)),
        ),
        RealKind::Output => (
            Causality::Output,
            Variability::Continuous,
            Some(Initial::Calculated),
            None,
        ),
        RealKind::Local => (
            Causality::Local,
            Variability::Continuous,
            Some(Initial::Calculated),
            None,
        ),
    }
}

/// The Integer and Boolean variables, after the Reals.
fn push_integers(variables: &mut Vec<ModelVariable>, sys: &System) {
    // Integer and Boolean value references count separately, in the
    // order of the runtime's two tables.
    let (mut next_integer, mut next_boolean) = (0u32, 0u32);
    for iv in &sys.ints {
        let counter = if iv.boolean {
            &mut next_boolean
        } else {
            &mut next_integer
        };
        let value_reference = *counter;
        *counter += 1;
        variables.push(ModelVariable {
            name: iv.name.clone(),
            value_reference,
            ty: if iv.boolean {
                VariableType::Boolean {
                    start: Some(iv.value != 0),
                }
            } else if let Some(e) = &iv.enumeration {
                VariableType::Enumeration {
                    start: Some(iv.value),
                    declared: e.clone(),
                }
            } else {
                VariableType::Integer {
                    start: Some(iv.value),
                }
            },
            causality: Causality::Local,
            variability: Variability::Constant,
            initial: Some(Initial::Exact),
            description: iv.description.clone(),
            unit: None,
            display_unit: None,
            quantity: None,
            min: None,
            max: None,
            nominal: None,
            derivative_of: None,
        });
    }
}

/// Moves the Real variables' names out of `sys` into the table that
/// [`model_table`] made of it (the first `sys.reals.len()` variables, before
/// any is dropped from the table).
pub fn take_names(table: &mut ModelTable, sys: &mut System) {
    for (v, r) in table.variables.iter_mut().zip(sys.reals.iter_mut()) {
        v.name = std::mem::take(&mut r.name);
    }
}

/// One definition per unit a variable names, with the display units that
/// variables of that unit ask for. A unit FMI cannot describe (an unknown
/// string, or non-integer exponents) is dropped from its variables rather
/// than declared wrongly; so is a display unit of another dimension.
fn unit_definitions(variables: &mut [ModelVariable]) -> Vec<UnitDefinition> {
    // Sorted and deduplicated as borrowed texts (neighbours mostly share
    // one: the elements of an array), each unit copied once.
    let mut names: Vec<&str> = variables.iter().filter_map(|v| v.unit.as_deref()).collect();
    names.dedup();
    names.sort_unstable();
    names.dedup();
    let names: Vec<String> = names.into_iter().map(str::to_string).collect();
    let mut defs: Vec<UnitDefinition> = Vec::new();
    for name in names {
        let Some(b) = parse_unit(&name) else {
            for v in variables
                .iter_mut()
                .filter(|v| v.unit.as_deref() == Some(name.as_str()))
            {
                v.unit = None;
                v.display_unit = None;
            }
            continue;
        };
        defs.push(UnitDefinition {
            name,
            kg: b.exponents[0],
            m: b.exponents[1],
            s: b.exponents[2],
            a: b.exponents[3],
            k: b.exponents[4],
            mol: b.exponents[5],
            cd: b.exponents[6],
            rad: b.exponents[7],
            factor: b.factor,
            offset: b.offset,
            display_units: Vec::new(),
        });
    }
    for v in variables.iter_mut() {
        let (Some(unit), Some(display)) = (v.unit.clone(), v.display_unit.clone()) else {
            v.display_unit = None;
            continue;
        };
        let def = defs.iter_mut().find(|d| *d.name == *unit);
        let (Some(def), Ok(u), Ok(d)) = (def, parse(&unit), parse(&display)) else {
            v.display_unit = None;
            continue;
        };
        // Same dimension (the radian counted), else the display unit is
        // dropped; unit checking reports it (UC007).
        if u.exponents != d.exponents || display == unit {
            v.display_unit = None;
            continue;
        }
        // value_SI = fu * value + ou = fd * shown + od, so
        // shown = (fu / fd) * value + (ou - od) / fd.
        let factor = u.factor / d.factor;
        let offset = (u.offset - d.offset) / d.factor;
        if !def.display_units.iter().any(|x| *x.name == *display) {
            def.display_units.push(DisplayUnitDefinition {
                name: display.to_string(),
                factor,
                offset,
            });
        }
    }
    for def in &mut defs {
        def.display_units.sort_by(|a, b| a.name.cmp(&b.name));
    }
    defs
}
