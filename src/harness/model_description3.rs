//! Reading an FMI 3.0 `modelDescription.xml`, and its scalar view: the same
//! [`ModelDescription`] the FMI 2.0 reader gives, so that the loops, the
//! recorder, the input binding and the integrator read one shape whatever
//! the version.
//!
//! FMI 3.0 declares arrays (`<Dimension>`, fixed or sized by a structural
//! parameter) and names every variable by one value reference. The scalar
//! view has one [`ScalarVariable`] per element (`rod.T[3]`, row-major
//! `A[1,2]` for a matrix), whose `value_reference` is a *harness reference*:
//! its position in [`ScalarView::elements`], which says which FMI 3 variable
//! and which element it is. The view depends on the sizes, so it is built
//! for given values of the structural parameters ([`Fmi3Description::view`]).

use std::collections::HashMap;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use super::error::HarnessError;
use super::model_description::{
    attributes, element_name, invalid, parse_boolean, parse_causality, parse_initial, parse_number,
    parse_variability, Causality, CoSimulationCapabilities, DefaultExperiment, Initial,
    ModelDescription, ScalarVariable, Variability, VariableKind,
};

/// An unknown of the model structure by its scalar variable, with the
/// scalar variables it depends on (`None`: all of them).
type Expanded = (usize, Option<Vec<usize>>);

/// An unknown whose dependencies are expanded to more element pairs than this
/// is taken as "may depend on every known" (an array listed by its value
/// reference depends on every element of each array it names, which at
/// n = 10^5 would be 10^10 pairs).
const MAX_EXPANDED_DEPENDENCIES: usize = 4_000_000;

/// The FMI 3.0 types of variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fmi3Type {
    Float32,
    Float64,
    Int8,
    UInt8,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int64,
    UInt64,
    Boolean,
    String,
    Binary,
    Clock,
    Enumeration,
}

impl Fmi3Type {
    fn from_element(name: &str) -> Option<Fmi3Type> {
        Some(match name {
            "Float32" => Fmi3Type::Float32,
            "Float64" => Fmi3Type::Float64,
            "Int8" => Fmi3Type::Int8,
            "UInt8" => Fmi3Type::UInt8,
            "Int16" => Fmi3Type::Int16,
            "UInt16" => Fmi3Type::UInt16,
            "Int32" => Fmi3Type::Int32,
            "UInt32" => Fmi3Type::UInt32,
            "Int64" => Fmi3Type::Int64,
            "UInt64" => Fmi3Type::UInt64,
            "Boolean" => Fmi3Type::Boolean,
            "String" => Fmi3Type::String,
            "Binary" => Fmi3Type::Binary,
            "Clock" => Fmi3Type::Clock,
            "Enumeration" => Fmi3Type::Enumeration,
            _ => return None,
        })
    }

    /// The kind of the scalar view (`None`: the harness does not read it).
    fn kind(self) -> Option<VariableKind> {
        Some(match self {
            Fmi3Type::Float32 | Fmi3Type::Float64 => VariableKind::Real,
            Fmi3Type::Int8
            | Fmi3Type::UInt8
            | Fmi3Type::Int16
            | Fmi3Type::UInt16
            | Fmi3Type::Int32
            | Fmi3Type::UInt32
            | Fmi3Type::Int64
            | Fmi3Type::UInt64 => VariableKind::Integer,
            Fmi3Type::Enumeration => VariableKind::Enumeration,
            Fmi3Type::Boolean => VariableKind::Boolean,
            Fmi3Type::String => VariableKind::String,
            Fmi3Type::Binary | Fmi3Type::Clock => return None,
        })
    }
}

/// One `<Dimension>`: a fixed extent or the value reference of the
/// structural parameter that holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dimension {
    Fixed(u64),
    Parameter(u32),
}

/// One variable of an FMI 3.0 description.
#[derive(Debug, Clone, PartialEq)]
pub struct Fmi3Variable {
    pub name: String,
    pub value_reference: u32,
    pub ty: Fmi3Type,
    pub causality: Causality,
    /// `causality="structuralParameter"` (then `causality` is `Parameter`).
    pub structural: bool,
    pub variability: Variability,
    pub initial: Option<Initial>,
    /// The `start` attribute as written (one value per element of an array,
    /// or one for all).
    pub start: Option<String>,
    /// The value reference of the state this is the derivative of.
    pub derivative: Option<u32>,
    pub dimensions: Vec<Dimension>,
}

/// An entry of `ModelStructure`: a value reference and its dependencies
/// (`None` when the attribute is absent: it may depend on every known).
#[derive(Debug, Clone, PartialEq)]
pub struct Fmi3Unknown {
    pub value_reference: u32,
    pub dependencies: Option<Vec<u32>>,
}

/// What the harness reads of an FMI 3.0 `modelDescription.xml`.
#[derive(Debug, Clone, PartialEq)]
pub struct Fmi3Description {
    pub model_name: String,
    pub instantiation_token: String,
    pub model_identifier: String,
    pub model_exchange: bool,
    pub co_simulation: Option<CoSimulationCapabilities>,
    /// `providesDirectionalDerivatives` of the interface the harness uses.
    pub provides_directional_derivatives: bool,
    pub default_experiment: DefaultExperiment,
    pub variables: Vec<Fmi3Variable>,
    pub outputs: Vec<Fmi3Unknown>,
    pub derivatives: Vec<Fmi3Unknown>,
    pub event_indicators: Vec<Fmi3Unknown>,
}

/// One element of the scalar view: FMI 3 variable `variable` (its index in
/// [`Fmi3Description::variables`]), element `index` of its row-major
/// elements (0 for a scalar).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Element {
    pub variable: usize,
    pub index: usize,
}

/// The scalar view at given sizes: the version-neutral description and what
/// each harness reference stands for.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalarView {
    pub model: ModelDescription,
    /// Harness reference `r` is element `elements[r]`.
    pub elements: Vec<Element>,
    /// Per FMI 3 variable, its number of elements at these sizes.
    pub lengths: Vec<usize>,
}

impl Fmi3Description {
    /// Parses `modelDescription.xml` text of FMI version 3.0.
    pub fn parse(xml: &str) -> Result<Fmi3Description, HarnessError> {
        Parser3::default().run(xml)
    }

    /// The variable with this value reference.
    pub fn by_reference(&self, vr: u32) -> Option<(usize, &Fmi3Variable)> {
        self.variables
            .iter()
            .enumerate()
            .find(|(_, v)| v.value_reference == vr)
    }

    /// The structural parameters' start values.
    pub fn default_sizes(&self) -> Result<HashMap<u32, u64>, HarnessError> {
        let mut sizes = HashMap::new();
        for v in self.variables.iter().filter(|v| v.structural) {
            if let Some(start) = &v.start {
                let n: u64 = parse_number("start", start.trim())?;
                sizes.insert(v.value_reference, n);
            }
        }
        Ok(sizes)
    }

    /// The number of elements of `variable` at `sizes` (values of the
    /// structural parameters by value reference).
    pub fn length(
        &self,
        variable: &Fmi3Variable,
        sizes: &HashMap<u32, u64>,
    ) -> Result<usize, HarnessError> {
        let mut n: usize = 1;
        for d in &variable.dimensions {
            let extent = match *d {
                Dimension::Fixed(e) => e,
                Dimension::Parameter(vr) => *sizes.get(&vr).ok_or_else(|| {
                    invalid(format!(
                        "a <Dimension> of `{}` names value reference {vr}, which is no \
                         structural parameter with a start value",
                        variable.name
                    ))
                })?,
            };
            n = n
                .checked_mul(usize::try_from(extent).unwrap_or(usize::MAX))
                .ok_or_else(|| invalid(format!("`{}` has too many elements", variable.name)))?;
        }
        Ok(n)
    }

    /// The extents of `variable`'s dimensions at `sizes`.
    fn extents(&self, variable: &Fmi3Variable, sizes: &HashMap<u32, u64>) -> Vec<usize> {
        variable
            .dimensions
            .iter()
            .map(|d| match *d {
                Dimension::Fixed(e) => e as usize,
                Dimension::Parameter(vr) => sizes.get(&vr).copied().unwrap_or(0) as usize,
            })
            .collect()
    }

    /// The scalar view with the structural parameters at `sizes`.
    pub fn view(&self, sizes: &HashMap<u32, u64>) -> Result<ScalarView, HarnessError> {
        let mut elements = Vec::new();
        let mut lengths = Vec::with_capacity(self.variables.len());
        let mut first = Vec::with_capacity(self.variables.len());
        let mut variables = Vec::new();
        for (i, v) in self.variables.iter().enumerate() {
            let n = self.length(v, sizes)?;
            lengths.push(n);
            first.push(elements.len());
            let Some(kind) = v.ty.kind() else {
                continue;
            };
            let starts: Vec<&str> = v
                .start
                .as_deref()
                .map(|s| s.split_ascii_whitespace().collect())
                .unwrap_or_default();
            let extents = self.extents(v, sizes);
            for k in 0..n {
                let name = if v.dimensions.is_empty() {
                    v.name.clone()
                } else {
                    format!("{}[{}]", v.name, subscripts(&extents, k))
                };
                let start = match starts.len() {
                    0 => None,
                    1 => Some(starts[0].to_string()),
                    _ => starts.get(k).map(|s| s.to_string()),
                };
                elements.push(Element {
                    variable: i,
                    index: k,
                });
                variables.push(ScalarVariable {
                    name,
                    value_reference: (elements.len() - 1) as u32,
                    causality: v.causality,
                    variability: v.variability,
                    initial: v.initial,
                    kind,
                    start,
                    derivative: None,
                    structural: v.structural,
                });
            }
        }
        let position: HashMap<u32, usize> = self
            .variables
            .iter()
            .enumerate()
            .map(|(i, v)| (v.value_reference, i))
            .collect();
        let variable_of = |vr: u32, what: &str| {
            position.get(&vr).copied().ok_or_else(|| {
                invalid(format!(
                    "{what} names value reference {vr}, which no variable has"
                ))
            })
        };
        // The derivatives' `derivative` attributes, element by element.
        for (i, v) in self.variables.iter().enumerate() {
            let Some(state) = v.derivative else {
                continue;
            };
            let s = variable_of(state, &format!("the derivative attribute of `{}`", v.name))?;
            if lengths[s] != lengths[i] {
                return Err(invalid(format!(
                    "`{}` has {} elements, its state `{}` {}",
                    v.name, lengths[i], self.variables[s].name, lengths[s]
                )));
            }
            for k in 0..lengths[i] {
                variables[first[i] + k].derivative = Some(first[s] + k);
            }
        }
        let expand =
            |unknowns: &[Fmi3Unknown], what: &str| -> Result<Vec<Expanded>, HarnessError> {
                let mut out = Vec::new();
                for u in unknowns {
                    let i = variable_of(u.value_reference, what)?;
                    let dependencies = match &u.dependencies {
                        None => None,
                        Some(vrs) => {
                            let mut knowns = Vec::new();
                            for &vr in vrs {
                                let j = variable_of(vr, what)?;
                                knowns.extend(first[j]..first[j] + lengths[j]);
                            }
                            (knowns.len().saturating_mul(lengths[i]) <= MAX_EXPANDED_DEPENDENCIES)
                                .then_some(knowns)
                        }
                    };
                    for k in 0..lengths[i] {
                        out.push((first[i] + k, dependencies.clone()));
                    }
                }
                Ok(out)
            };
        let derivatives = expand(
            &self.derivatives,
            "ModelStructure/ContinuousStateDerivative",
        )?;
        let output_dependencies = expand(&self.outputs, "ModelStructure/Output")?;
        let mut number_of_event_indicators = 0;
        for u in &self.event_indicators {
            number_of_event_indicators +=
                lengths[variable_of(u.value_reference, "ModelStructure/EventIndicator")?];
        }
        let model = ModelDescription {
            fmi_version: "3.0".into(),
            model_name: self.model_name.clone(),
            guid: self.instantiation_token.clone(),
            model_identifier: self.model_identifier.clone(),
            model_exchange: self.model_exchange,
            co_simulation: self.co_simulation.clone(),
            number_of_event_indicators,
            default_experiment: self.default_experiment.clone(),
            variables,
            derivatives: derivatives.iter().map(|(i, _)| *i).collect(),
            derivative_dependencies: derivatives.into_iter().map(|(_, d)| d).collect(),
            provides_directional_derivative: self.provides_directional_derivatives,
            output_dependencies,
        };
        Ok(ScalarView {
            model,
            elements,
            lengths,
        })
    }
}

/// The 1-based subscripts of row-major element `k` of an array of `extents`.
fn subscripts(extents: &[usize], mut k: usize) -> String {
    let mut parts = vec![0usize; extents.len()];
    for (d, &e) in extents.iter().enumerate().rev() {
        let e = e.max(1);
        parts[d] = k % e + 1;
        k /= e;
    }
    parts
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Event-driven parser state.
#[derive(Default)]
struct Parser3 {
    path: Vec<String>,
    fmi_version: Option<String>,
    model_name: String,
    token: String,
    me_identifier: Option<String>,
    me_directional: bool,
    cs_directional: bool,
    co_simulation: Option<CoSimulationCapabilities>,
    default_experiment: DefaultExperiment,
    variables: Vec<Fmi3Variable>,
    outputs: Vec<Fmi3Unknown>,
    derivatives: Vec<Fmi3Unknown>,
    event_indicators: Vec<Fmi3Unknown>,
}

impl Parser3 {
    fn run(mut self, xml: &str) -> Result<Fmi3Description, HarnessError> {
        let mut reader = Reader::from_str(xml);
        loop {
            let event = reader.read_event().map_err(|e| {
                invalid(format!(
                    "XML error at byte {}: {e}",
                    reader.error_position()
                ))
            })?;
            match event {
                Event::Start(element) => {
                    self.element(&element)?;
                    self.path.push(element_name(&element)?);
                }
                Event::Empty(element) => self.element(&element)?,
                Event::End(_) => {
                    self.path.pop();
                }
                Event::Eof => break,
                _ => {}
            }
        }
        self.finish()
    }

    fn element(&mut self, element: &BytesStart<'_>) -> Result<(), HarnessError> {
        let name = element_name(element)?;
        let parent = self.path.last().map(String::as_str);
        match (parent, name.as_str()) {
            (None, "fmiModelDescription") => {
                for (key, value) in attributes(element)? {
                    match key.as_str() {
                        "fmiVersion" => self.fmi_version = Some(value.into_owned()),
                        "modelName" => self.model_name = value.into_owned(),
                        "instantiationToken" => self.token = value.into_owned(),
                        _ => {}
                    }
                }
            }
            (Some("fmiModelDescription"), "ModelExchange") => {
                for (key, value) in attributes(element)? {
                    match key.as_str() {
                        "modelIdentifier" => self.me_identifier = Some(value.into_owned()),
                        "providesDirectionalDerivatives" => {
                            self.me_directional = parse_boolean(&key, &value)?
                        }
                        _ => {}
                    }
                }
            }
            (Some("fmiModelDescription"), "CoSimulation") => {
                let mut cs = CoSimulationCapabilities::default();
                for (key, value) in attributes(element)? {
                    match key.as_str() {
                        "modelIdentifier" => cs.model_identifier = value.into_owned(),
                        "canHandleVariableCommunicationStepSize" => {
                            cs.can_handle_variable_communication_step_size =
                                parse_boolean(&key, &value)?
                        }
                        "maxOutputDerivativeOrder" => {
                            cs.max_output_derivative_order = parse_number(&key, &value)?
                        }
                        "providesDirectionalDerivatives" => {
                            self.cs_directional = parse_boolean(&key, &value)?
                        }
                        _ => {}
                    }
                }
                self.co_simulation = Some(cs);
            }
            (Some("fmiModelDescription"), "DefaultExperiment") => {
                let experiment = &mut self.default_experiment;
                for (key, value) in attributes(element)? {
                    let slot = match key.as_str() {
                        "startTime" => &mut experiment.start_time,
                        "stopTime" => &mut experiment.stop_time,
                        "tolerance" => &mut experiment.tolerance,
                        "stepSize" => &mut experiment.step_size,
                        _ => continue,
                    };
                    *slot = Some(parse_number(&key, &value)?);
                }
            }
            (Some("ModelVariables"), kind) => self.variable(kind, element)?,
            (Some(parent), "Dimension")
                if Fmi3Type::from_element(parent).is_some()
                    && self.path.iter().rev().nth(1).map(String::as_str)
                        == Some("ModelVariables") =>
            {
                self.dimension(element)?
            }
            (Some("ModelStructure"), list) => {
                let target = match list {
                    "Output" => &mut self.outputs,
                    "ContinuousStateDerivative" => &mut self.derivatives,
                    "EventIndicator" => &mut self.event_indicators,
                    _ => return Ok(()),
                };
                target.push(unknown3(element, list)?);
            }
            _ => {}
        }
        Ok(())
    }

    fn variable(&mut self, kind: &str, element: &BytesStart<'_>) -> Result<(), HarnessError> {
        let Some(ty) = Fmi3Type::from_element(kind) else {
            return Ok(());
        };
        let mut name = None;
        let mut value_reference = None;
        let mut causality = Causality::Local;
        let mut structural = false;
        let mut variability = None;
        let mut initial = None;
        let mut start = None;
        let mut derivative = None;
        for (key, value) in attributes(element)? {
            match key.as_str() {
                "name" => name = Some(value.into_owned()),
                "valueReference" => value_reference = Some(parse_number(&key, &value)?),
                "causality" if value == "structuralParameter" => {
                    causality = Causality::Parameter;
                    structural = true;
                }
                "causality" => causality = parse_causality(&value)?,
                "variability" => variability = Some(parse_variability(&value)?),
                "initial" => initial = Some(parse_initial(&value)?),
                "start" => start = Some(value.into_owned()),
                "derivative" => derivative = Some(parse_number(&key, &value)?),
                _ => {}
            }
        }
        let position = self.variables.len() + 1;
        let name = name.ok_or_else(|| invalid(format!("variable #{position} has no `name`")))?;
        let value_reference = value_reference
            .ok_or_else(|| invalid(format!("variable `{name}` has no `valueReference`")))?;
        // FMI 3.0's default variability: continuous for floats, discrete
        // for the other types.
        let variability = variability.unwrap_or(match ty {
            Fmi3Type::Float32 | Fmi3Type::Float64 => Variability::Continuous,
            _ => Variability::Discrete,
        });
        self.variables.push(Fmi3Variable {
            name,
            value_reference,
            ty,
            causality,
            structural,
            variability,
            initial,
            start,
            derivative,
            dimensions: Vec::new(),
        });
        Ok(())
    }

    fn dimension(&mut self, element: &BytesStart<'_>) -> Result<(), HarnessError> {
        let Some(variable) = self.variables.last_mut() else {
            return Ok(());
        };
        let mut dimension = None;
        for (key, value) in attributes(element)? {
            match key.as_str() {
                "start" => dimension = Some(Dimension::Fixed(parse_number(&key, &value)?)),
                "valueReference" => {
                    dimension = Some(Dimension::Parameter(parse_number(&key, &value)?))
                }
                _ => {}
            }
        }
        let dimension = dimension.ok_or_else(|| {
            invalid(format!(
                "a <Dimension> of `{}` has neither `start` nor `valueReference`",
                variable.name
            ))
        })?;
        variable.dimensions.push(dimension);
        Ok(())
    }

    fn finish(self) -> Result<Fmi3Description, HarnessError> {
        let fmi_version = self.fmi_version.ok_or_else(|| {
            invalid("the root element is not <fmiModelDescription fmiVersion=...>")
        })?;
        if !fmi_version.starts_with("3.") {
            return Err(HarnessError::UnsupportedFmiVersion(fmi_version));
        }
        let model_exchange = self.me_identifier.is_some();
        let model_identifier = match (self.me_identifier, &self.co_simulation) {
            (Some(id), _) if !id.is_empty() => id,
            (None, Some(cs)) if !cs.model_identifier.is_empty() => cs.model_identifier.clone(),
            _ => {
                return Err(invalid(
                    "there is no <ModelExchange modelIdentifier=...> or <CoSimulation \
                     modelIdentifier=...> element with a name",
                ))
            }
        };
        if model_identifier.contains(['/', '\\']) || model_identifier.contains("..") {
            return Err(invalid(format!(
                "modelIdentifier `{model_identifier}` is not a plain file name"
            )));
        }
        Ok(Fmi3Description {
            model_name: self.model_name,
            instantiation_token: self.token,
            model_identifier,
            model_exchange,
            provides_directional_derivatives: if model_exchange {
                self.me_directional
            } else {
                self.cs_directional
            },
            co_simulation: self.co_simulation,
            default_experiment: self.default_experiment,
            variables: self.variables,
            outputs: self.outputs,
            derivatives: self.derivatives,
            event_indicators: self.event_indicators,
        })
    }
}

/// The `valueReference` and `dependencies` of a `ModelStructure` entry.
fn unknown3(element: &BytesStart<'_>, list: &str) -> Result<Fmi3Unknown, HarnessError> {
    let mut value_reference = None;
    let mut dependencies = None;
    for (key, value) in attributes(element)? {
        match key.as_str() {
            "valueReference" => value_reference = Some(parse_number(&key, &value)?),
            "dependencies" => {
                dependencies = Some(
                    value
                        .split_ascii_whitespace()
                        .map(|known| parse_number(&key, known))
                        .collect::<Result<Vec<u32>, _>>()?,
                )
            }
            _ => {}
        }
    }
    let value_reference = value_reference
        .ok_or_else(|| invalid(format!("a ModelStructure/{list} has no `valueReference`")))?;
    Ok(Fmi3Unknown {
        value_reference,
        dependencies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="Rod" instantiationToken="{t}">
  <ModelExchange modelIdentifier="Rod" providesDirectionalDerivatives="true"/>
  <ModelVariables>
    <UInt64 name="n" valueReference="9" causality="structuralParameter" variability="fixed" start="3"/>
    <Float64 name="time" valueReference="0" causality="independent"/>
    <Float64 name="T" valueReference="1" start="1 2 3"><Dimension valueReference="9"/></Float64>
    <Float64 name="der(T)" valueReference="4" derivative="1"><Dimension valueReference="9"/></Float64>
    <Float64 name="A" valueReference="20" causality="parameter" variability="fixed" start="1">
      <Dimension start="2"/><Dimension start="3"/></Float64>
  </ModelVariables>
  <ModelStructure>
    <ContinuousStateDerivative valueReference="4" dependencies="1"/>
  </ModelStructure>
</fmiModelDescription>"#;

    #[test]
    fn arrays_become_elements_at_the_sizes_given() {
        let d = Fmi3Description::parse(ROD).unwrap();
        let view = d.view(&d.default_sizes().unwrap()).unwrap();
        let names: Vec<&str> = view
            .model
            .variables
            .iter()
            .map(|v| v.name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "n",
                "time",
                "T[1]",
                "T[2]",
                "T[3]",
                "der(T)[1]",
                "der(T)[2]",
                "der(T)[3]",
                "A[1,1]",
                "A[1,2]",
                "A[1,3]",
                "A[2,1]",
                "A[2,2]",
                "A[2,3]"
            ]
        );
        assert_eq!(view.model.variables[3].start.as_deref(), Some("2"));
        assert_eq!(view.model.states().unwrap(), [2, 3, 4]);
        assert_eq!(view.model.derivative_dependencies[1], Some(vec![2, 3, 4]));
        let bigger = d.view(&HashMap::from([(9, 5)])).unwrap();
        assert_eq!(bigger.model.states().unwrap().len(), 5);
        assert_eq!(
            bigger.elements[6],
            Element {
                variable: 2,
                index: 4
            }
        );
    }
}
