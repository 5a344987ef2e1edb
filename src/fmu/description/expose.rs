//! `mofmu export --expose`: which variables the model description lists.
//!
//! FMI 2.0 lists every scalar, so a large model's description is mostly
//! internal variables (the rod at 10^5 volumes: 71 MB). Leaving them out
//! changes nothing in the binary or the system resource: the kept variables
//! keep their value references (indices into `R` and the Integer and
//! Boolean tables), so the runtime serves the smaller description as it is.
//! Only `ModelStructure`, which names variables by their position in
//! `ModelVariables`, is renumbered.

use std::collections::BTreeMap;

use crate::fmu::description::table::{Causality, Dependencies, ModelTable};

/// The variables a description lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Expose {
    /// Every variable (the FMU as before `--expose` existed).
    #[default]
    All,
    /// Inputs, outputs, parameters (`parameter` and `calculatedParameter`
    /// causality), continuous states and their derivatives, and `time`.
    Interface,
    /// Continuous states and their derivatives, inputs, outputs and `time`.
    States,
}

/// Whether `expose` keeps each variable of `table`, by index.
fn kept(table: &ModelTable, expose: Expose) -> Vec<bool> {
    let vars = &table.variables;
    let mut keep = vec![expose == Expose::All; vars.len()];
    if expose == Expose::All {
        return keep;
    }
    for (i, v) in vars.iter().enumerate() {
        let wanted = match v.causality {
            Causality::Input | Causality::Output | Causality::Independent => true,
            Causality::Parameter | Causality::CalculatedParameter => expose == Expose::Interface,
            Causality::Local => false,
        };
        if wanted {
            keep[i] = true;
        }
        if let Some(state) = v.derivative_of {
            keep[i] = true;
            keep[state] = true;
        }
    }
    keep
}

/// Leaves out of `table` the variables `expose` does not keep. Value
/// references are unchanged; `Outputs`, `Derivatives`, `InitialUnknowns`,
/// their dependencies and `derivative` attributes are renumbered, and an
/// initial unknown or a dependency on a variable left out is dropped (a
/// parameter that is not listed cannot be set by the importer, so to it
/// the parameter is a constant). Dependencies of outputs and derivatives
/// are on states, inputs and `time`, which every choice keeps.
pub fn apply(table: &mut ModelTable, expose: Expose) {
    if expose == Expose::All {
        return;
    }
    let keep = kept(table, expose);
    keep_only(table, &keep);
}

/// Leaves out of `table` the variables whose `keep` flag is false (by
/// index), renumbering as [`apply`] does: `--expose`, and the variables of
/// absent conditional connectors, which no model description lists.
pub fn keep_only(table: &mut ModelTable, keep: &[bool]) {
    let mut new_index = vec![usize::MAX; keep.len()];
    let mut next = 0;
    for (i, &k) in keep.iter().enumerate() {
        if k {
            new_index[i] = next;
            next += 1;
        }
    }
    let variables = std::mem::take(&mut table.variables);
    table.variables = variables
        .into_iter()
        .zip(keep)
        .filter(|(_, &k)| k)
        .map(|(mut v, _)| {
            v.derivative_of = v.derivative_of.map(|s| new_index[s]);
            v
        })
        .collect();
    let renumber = |list: &mut Vec<usize>| {
        list.retain(|&i| keep[i]);
        for i in list.iter_mut() {
            *i = new_index[*i];
        }
    };
    renumber(&mut table.outputs);
    renumber(&mut table.derivatives);
    renumber(&mut table.initial_unknowns);
    let remap = |map: &mut BTreeMap<usize, Dependencies>| {
        *map = std::mem::take(map)
            .into_iter()
            .filter(|(unknown, _)| keep[*unknown])
            .map(|(unknown, d)| {
                let mut out = Dependencies::default();
                for (k, kind) in d.knowns.into_iter().zip(d.kinds) {
                    if keep[k] {
                        out.knowns.push(new_index[k]);
                        out.kinds.push(kind);
                    }
                }
                (new_index[unknown], out)
            })
            .collect();
    };
    remap(&mut table.dependencies);
    remap(&mut table.initial_dependencies);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fmu::description::table::{
        DefaultExperiment, DependencyKind, Initial, Interfaces, ModelVariable, Variability,
        VariableType,
    };

    fn var(name: &str, causality: Causality, variability: Variability) -> ModelVariable {
        ModelVariable {
            name: name.to_string(),
            value_reference: 0,
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

    /// time, p (parameter), k (calculated), a (local), x (state), der(x),
    /// y (output): `states` keeps time, x, der(x), y and renumbers.
    #[test]
    fn states_keeps_states_and_interface_and_renumbers() {
        let mut vars = vec![
            var("time", Causality::Independent, Variability::Continuous),
            var("p", Causality::Parameter, Variability::Fixed),
            var("k", Causality::CalculatedParameter, Variability::Fixed),
            var("a", Causality::Local, Variability::Continuous),
            var("x", Causality::Local, Variability::Continuous),
            var("der(x)", Causality::Local, Variability::Continuous),
            var("y", Causality::Output, Variability::Continuous),
        ];
        for (i, v) in vars.iter_mut().enumerate() {
            v.value_reference = i as u32;
        }
        vars[1].ty = VariableType::Real { start: Some(1.0) };
        vars[4].ty = VariableType::Real { start: Some(0.0) };
        vars[4].initial = Some(Initial::Exact);
        vars[5].derivative_of = Some(4);
        let dep = |knowns: Vec<usize>| Dependencies {
            kinds: vec![DependencyKind::Dependent; knowns.len()],
            knowns,
        };
        let mut table = ModelTable {
            interfaces: Interfaces::BOTH,
            model_name: "M".into(),
            model_identifier: "M".into(),
            guid: "{00000000-0000-0000-0000-000000000000}".into(),
            description: None,
            generation_tool: "mofmu".into(),
            variables: vars,
            unit_definitions: vec![],
            number_of_event_indicators: 0,
            outputs: vec![6],
            derivatives: vec![5],
            initial_unknowns: vec![2, 5, 6],
            dependencies: [(5, dep(vec![4])), (6, dep(vec![4]))].into(),
            initial_dependencies: [(2, dep(vec![1])), (5, dep(vec![1, 4])), (6, dep(vec![4]))]
                .into(),
            default_experiment: DefaultExperiment {
                start_time: 0.0,
                stop_time: 1.0,
                tolerance: 1e-6,
                step_size: None,
            },
            log_categories: vec![],
            source_files: vec![],
            structural: None,
        };
        let mut interface = table.clone();
        apply(&mut table, Expose::States);
        let names: Vec<&str> = table.variables.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["time", "x", "der(x)", "y"]);
        let vrs: Vec<u32> = table.variables.iter().map(|v| v.value_reference).collect();
        assert_eq!(vrs, [0, 4, 5, 6]);
        assert_eq!(table.variables[2].derivative_of, Some(1));
        assert_eq!(
            (table.outputs.clone(), table.derivatives.clone()),
            (vec![3], vec![2])
        );
        assert_eq!(table.initial_unknowns, [2, 3]);
        assert_eq!(table.dependencies[&2].knowns, [1]);
        assert_eq!(table.initial_dependencies[&2].knowns, [1]);
        assert!(!table.initial_dependencies.contains_key(&0));
        crate::fmu::description::fmi_rules::check_table(&table).unwrap();

        apply(&mut interface, Expose::Interface);
        let names: Vec<&str> = interface
            .variables
            .iter()
            .map(|v| v.name.as_str())
            .collect();
        assert_eq!(names, ["time", "p", "k", "x", "der(x)", "y"]);
        assert_eq!(interface.initial_unknowns, [2, 4, 5]);
        assert_eq!(interface.initial_dependencies[&4].knowns, [1, 3]);
        crate::fmu::description::fmi_rules::check_table(&interface).unwrap();
    }
}
