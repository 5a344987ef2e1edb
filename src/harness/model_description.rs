//! Reading the parts of an FMI 2.0 `modelDescription.xml` that the harness needs, and
//! the version-neutral [`ModelDescription`] the loops read (FMI 3.0's scalar view is
//! built in `model_description3`).

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// The FMI attributes have one type each, shared with the exporter.
pub use crate::fmu::description::table::{Causality, Initial, Variability};

use super::error::HarnessError;

/// What the harness reads of a `modelDescription.xml`.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelDescription {
    pub fmi_version: String,
    pub model_name: String,
    pub guid: String,
    /// `@modelIdentifier` of `ModelExchange` (or of `CoSimulation` when there is no
    /// `ModelExchange`): the base name of the shared library.
    pub model_identifier: String,
    /// Whether the FMU declares `ModelExchange`.
    pub model_exchange: bool,
    /// The `CoSimulation` element, when the FMU declares one.
    pub co_simulation: Option<CoSimulationCapabilities>,
    pub number_of_event_indicators: usize,
    pub default_experiment: DefaultExperiment,
    /// Every `ScalarVariable`, in file order (so index `i` is FMI's 1-based `i + 1`).
    pub variables: Vec<ScalarVariable>,
    /// `ModelStructure/Derivatives`: 0-based indices into `variables`, in file order.
    /// The i-th continuous state is the variable whose derivative is listed i-th.
    pub derivatives: Vec<usize>,
    /// Per entry of `derivatives`, its `dependencies` as 0-based indices into
    /// `variables`; `None` when the attribute is absent (it may depend on every known).
    pub derivative_dependencies: Vec<Option<Vec<usize>>>,
    /// `ModelExchange/@providesDirectionalDerivative`.
    pub provides_directional_derivative: bool,
    /// `ModelStructure/Outputs`: per output, its index (0-based into `variables`) and its
    /// `dependencies` (0-based; `None` when absent: it may depend on every known). A
    /// co-simulation master reads which inputs reach an output directly from these.
    pub output_dependencies: Vec<(usize, Option<Vec<usize>>)>,
}

/// The capability flags of `CoSimulation` that a master needs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CoSimulationCapabilities {
    pub model_identifier: String,
    pub can_handle_variable_communication_step_size: bool,
    pub can_interpolate_inputs: bool,
    /// `maxOutputDerivativeOrder` (0 when absent).
    pub max_output_derivative_order: u32,
}

/// `DefaultExperiment`: every attribute is optional.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DefaultExperiment {
    pub start_time: Option<f64>,
    pub stop_time: Option<f64>,
    pub tolerance: Option<f64>,
    pub step_size: Option<f64>,
}

/// One `ScalarVariable`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalarVariable {
    pub name: String,
    pub value_reference: u32,
    pub causality: Causality,
    pub variability: Variability,
    pub initial: Option<Initial>,
    pub kind: VariableKind,
    /// The `start` attribute as written.
    pub start: Option<String>,
    /// For a Real that is a derivative: 0-based index of the variable it is the
    /// derivative of (FMI writes it 1-based).
    pub derivative: Option<usize>,
    /// An FMI 3.0 `structuralParameter` (set in configuration mode, before
    /// the instance is laid out; `causality` is then `Parameter`).
    pub structural: bool,
}

/// The type element inside a `ScalarVariable`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariableKind {
    Real,
    Integer,
    Boolean,
    String,
    Enumeration,
}

impl ModelDescription {
    /// Parses `modelDescription.xml` text.
    pub fn parse(xml: &str) -> Result<ModelDescription, HarnessError> {
        Parser::default().run(xml)
    }

    /// The variable with this exact name.
    pub fn variable(&self, name: &str) -> Option<&ScalarVariable> {
        self.variables.iter().find(|v| v.name == name)
    }

    /// Indices (into `variables`) of the continuous states, in state-vector order.
    pub fn states(&self) -> Result<Vec<usize>, HarnessError> {
        self.derivatives
            .iter()
            .map(|&der| {
                let variable = self
                    .variables
                    .get(der)
                    .ok_or_else(|| invalid(format!("derivative index {der} is out of range")))?;
                match variable.derivative {
                    Some(state) if state < self.variables.len() => Ok(state),
                    _ => Err(invalid(format!(
                        "`{}` is listed in ModelStructure/Derivatives but has no valid \
                         `derivative` attribute",
                        variable.name
                    ))),
                }
            })
            .collect()
    }

    /// The value references of the continuous states and of their
    /// derivatives, both in state-vector order: what an integrator passes
    /// to `fmi2GetDirectionalDerivative` for the Jacobian.
    pub fn state_and_derivative_references(&self) -> Result<(Vec<u32>, Vec<u32>), HarnessError> {
        let reference = |i: &usize| self.variables[*i].value_reference;
        let states = self.states()?.iter().map(reference).collect();
        let derivatives = self.derivatives.iter().map(reference).collect();
        Ok((states, derivatives))
    }
}

pub(super) fn invalid(message: impl Into<String>) -> HarnessError {
    HarnessError::ModelDescription(message.into())
}

/// Event-driven parser state: the element path and the partly built result.
#[derive(Default)]
struct Parser {
    path: Vec<String>,
    fmi_version: Option<String>,
    model_name: String,
    guid: String,
    model_identifier: Option<String>,
    co_simulation: Option<CoSimulationCapabilities>,
    number_of_event_indicators: usize,
    default_experiment: DefaultExperiment,
    variables: Vec<ScalarVariable>,
    /// 1-based `derivative` attributes, checked once all variables are known.
    raw_derivative: Vec<Option<usize>>,
    /// Whether each variable has had its type element yet.
    typed: Vec<bool>,
    /// 1-based `index` attributes of `ModelStructure/Derivatives/Unknown`, with their
    /// 1-based `dependencies`.
    raw_derivatives: Vec<usize>,
    raw_derivative_dependencies: Vec<Option<Vec<usize>>>,
    /// 1-based `index` and `dependencies` of `ModelStructure/Outputs/Unknown`.
    raw_outputs: Vec<(usize, Option<Vec<usize>>)>,
    provides_directional_derivative: bool,
}

impl Parser {
    fn run(mut self, xml: &str) -> Result<ModelDescription, HarnessError> {
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
        let grandparent = self
            .path
            .len()
            .checked_sub(2)
            .map(|i| self.path[i].as_str());
        match (grandparent, parent, name.as_str()) {
            (None, None, "fmiModelDescription") => {
                for (key, value) in attributes(element)? {
                    match key.as_str() {
                        "fmiVersion" => self.fmi_version = Some(value.into_owned()),
                        "modelName" => self.model_name = value.into_owned(),
                        "guid" => self.guid = value.into_owned(),
                        "numberOfEventIndicators" => {
                            self.number_of_event_indicators = parse_number(&key, &value)?
                        }
                        _ => {}
                    }
                }
            }
            (_, Some("fmiModelDescription"), "ModelExchange") => {
                for (key, value) in attributes(element)? {
                    match key.as_str() {
                        "modelIdentifier" => self.model_identifier = Some(value.into_owned()),
                        "providesDirectionalDerivative" => {
                            self.provides_directional_derivative = parse_boolean(&key, &value)?
                        }
                        _ => {}
                    }
                }
            }
            (_, Some("fmiModelDescription"), "CoSimulation") => {
                let mut cs = CoSimulationCapabilities::default();
                for (key, value) in attributes(element)? {
                    match key.as_str() {
                        "modelIdentifier" => cs.model_identifier = value.into_owned(),
                        "canHandleVariableCommunicationStepSize" => {
                            cs.can_handle_variable_communication_step_size = value == "true"
                        }
                        "canInterpolateInputs" => cs.can_interpolate_inputs = value == "true",
                        "maxOutputDerivativeOrder" => {
                            cs.max_output_derivative_order = parse_number(&key, &value)?
                        }
                        _ => {}
                    }
                }
                self.co_simulation = Some(cs);
            }
            (_, Some("fmiModelDescription"), "DefaultExperiment") => {
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
            (_, Some("ModelVariables"), "ScalarVariable") => self.scalar_variable(element)?,
            (Some("ModelVariables"), Some("ScalarVariable"), kind) => {
                self.variable_type(kind, element)?
            }
            (Some("ModelStructure"), Some("Derivatives"), "Unknown") => {
                let (index, dependencies) = unknown(element, "Derivatives")?;
                self.raw_derivatives.push(index);
                self.raw_derivative_dependencies.push(dependencies);
            }
            (Some("ModelStructure"), Some("Outputs"), "Unknown") => {
                self.raw_outputs.push(unknown(element, "Outputs")?);
            }
            _ => {}
        }
        Ok(())
    }

    fn scalar_variable(&mut self, element: &BytesStart<'_>) -> Result<(), HarnessError> {
        let mut name = None;
        let mut value_reference = None;
        let mut causality = Causality::Local;
        let mut variability = Variability::Continuous;
        let mut initial = None;
        for (key, value) in attributes(element)? {
            match key.as_str() {
                "name" => name = Some(value.into_owned()),
                "valueReference" => value_reference = Some(parse_number(&key, &value)?),
                "causality" => causality = parse_causality(&value)?,
                "variability" => variability = parse_variability(&value)?,
                "initial" => initial = Some(parse_initial(&value)?),
                _ => {}
            }
        }
        let position = self.variables.len() + 1;
        let name =
            name.ok_or_else(|| invalid(format!("ScalarVariable #{position} has no `name`")))?;
        let value_reference = value_reference
            .ok_or_else(|| invalid(format!("ScalarVariable `{name}` has no `valueReference`")))?;
        self.variables.push(ScalarVariable {
            name,
            value_reference,
            causality,
            variability,
            initial,
            // Corrected by the type element that follows; a ScalarVariable without one is
            // rejected in `finish`.
            kind: VariableKind::String,
            start: None,
            derivative: None,
            structural: false,
        });
        self.raw_derivative.push(None);
        self.typed.push(false);
        Ok(())
    }

    fn variable_type(&mut self, kind: &str, element: &BytesStart<'_>) -> Result<(), HarnessError> {
        let kind = match kind {
            "Real" => VariableKind::Real,
            "Integer" => VariableKind::Integer,
            "Boolean" => VariableKind::Boolean,
            "String" => VariableKind::String,
            "Enumeration" => VariableKind::Enumeration,
            _ => return Ok(()),
        };
        let Some(variable) = self.variables.last_mut() else {
            return Ok(());
        };
        variable.kind = kind;
        if let Some(typed) = self.typed.last_mut() {
            *typed = true;
        }
        for (key, value) in attributes(element)? {
            match key.as_str() {
                "start" => variable.start = Some(value.into_owned()),
                "derivative" if kind == VariableKind::Real => {
                    let index: usize = parse_number(&key, &value)?;
                    if let Some(slot) = self.raw_derivative.last_mut() {
                        *slot = Some(index);
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<ModelDescription, HarnessError> {
        let fmi_version = self.fmi_version.ok_or_else(|| {
            invalid("the root element is not <fmiModelDescription fmiVersion=...>")
        })?;
        if fmi_version != "2.0" {
            return Err(HarnessError::UnsupportedFmiVersion(fmi_version));
        }
        let model_exchange = self.model_identifier.is_some();
        let model_identifier = match (self.model_identifier, &self.co_simulation) {
            (Some(id), _) if !id.is_empty() => id,
            (Some(_), _) => return Err(invalid("ModelExchange has an empty `modelIdentifier`")),
            (None, Some(cs)) if !cs.model_identifier.is_empty() => cs.model_identifier.clone(),
            (None, Some(_)) => return Err(invalid("CoSimulation has an empty `modelIdentifier`")),
            (None, None) => {
                return Err(invalid(
                    "there is no <ModelExchange modelIdentifier=...> or <CoSimulation \
                     modelIdentifier=...> element",
                ))
            }
        };
        if model_identifier.contains(['/', '\\']) || model_identifier.contains("..") {
            return Err(invalid(format!(
                "modelIdentifier `{model_identifier}` is not a plain file name"
            )));
        }
        let count = self.variables.len();
        let mut variables = self.variables;
        if let Some(untyped) = variables
            .iter()
            .zip(&self.typed)
            .find(|(_, typed)| !**typed)
        {
            return Err(invalid(format!(
                "ScalarVariable `{}` has no Real, Integer, Boolean, String or Enumeration element",
                untyped.0.name
            )));
        }
        for (variable, raw) in variables.iter_mut().zip(self.raw_derivative) {
            if let Some(index) = raw {
                if index == 0 || index > count {
                    return Err(invalid(format!(
                        "`{}` has derivative=\"{index}\", but there are {count} variables",
                        variable.name
                    )));
                }
                variable.derivative = Some(index - 1);
            }
        }
        let mut derivatives = Vec::with_capacity(self.raw_derivatives.len());
        for index in self.raw_derivatives {
            if index == 0 || index > count {
                return Err(invalid(format!(
                    "ModelStructure/Derivatives lists index {index}, but there are {count} variables"
                )));
            }
            if variables[index - 1].derivative.is_none() {
                return Err(invalid(format!(
                    "ModelStructure/Derivatives lists `{}`, which has no `derivative` attribute",
                    variables[index - 1].name
                )));
            }
            derivatives.push(index - 1);
        }
        let mut derivative_dependencies = Vec::with_capacity(derivatives.len());
        for (&derivative, raw) in derivatives.iter().zip(self.raw_derivative_dependencies) {
            let Some(raw) = raw else {
                derivative_dependencies.push(None);
                continue;
            };
            let mut knowns = Vec::with_capacity(raw.len());
            for index in raw {
                if index == 0 || index > count {
                    return Err(invalid(format!(
                        "the dependencies of `{}` list index {index}, but there are {count} \
                         variables",
                        variables[derivative].name
                    )));
                }
                knowns.push(index - 1);
            }
            derivative_dependencies.push(Some(knowns));
        }
        let mut output_dependencies = Vec::with_capacity(self.raw_outputs.len());
        for (index, raw) in self.raw_outputs {
            let in_range = |i: &usize| (1..=count).contains(i);
            if !in_range(&index) || !raw.iter().flatten().all(in_range) {
                return Err(invalid(format!(
                    "ModelStructure/Outputs lists output {index} or a dependency of it out of \
                     range: there are {count} variables"
                )));
            }
            let knowns = raw.map(|raw| raw.iter().map(|i| i - 1).collect());
            output_dependencies.push((index - 1, knowns));
        }
        Ok(ModelDescription {
            output_dependencies,
            fmi_version,
            model_name: self.model_name,
            guid: self.guid,
            model_identifier,
            model_exchange,
            co_simulation: self.co_simulation,
            number_of_event_indicators: self.number_of_event_indicators,
            default_experiment: self.default_experiment,
            variables,
            derivatives,
            derivative_dependencies,
            provides_directional_derivative: self.provides_directional_derivative,
        })
    }
}

/// The 1-based `index` and `dependencies` of a `ModelStructure/<list>/Unknown`.
fn unknown(
    element: &BytesStart<'_>,
    list: &str,
) -> Result<(usize, Option<Vec<usize>>), HarnessError> {
    let mut index = None;
    let mut dependencies = None;
    for (key, value) in attributes(element)? {
        match key.as_str() {
            "index" => index = Some(parse_number(&key, &value)?),
            "dependencies" => {
                dependencies = Some(
                    value
                        .split_ascii_whitespace()
                        .map(|known| parse_number(&key, known))
                        .collect::<Result<Vec<usize>, _>>()?,
                )
            }
            _ => {}
        }
    }
    let index =
        index.ok_or_else(|| invalid(format!("a ModelStructure/{list}/Unknown has no `index`")))?;
    Ok((index, dependencies))
}

pub(super) fn element_name(element: &BytesStart<'_>) -> Result<String, HarnessError> {
    std::str::from_utf8(element.local_name().as_ref())
        .map(str::to_string)
        .map_err(|_| invalid("an element name is not UTF-8"))
}

pub(super) fn attributes<'a>(
    element: &'a BytesStart<'_>,
) -> Result<Vec<(String, Cow<'a, str>)>, HarnessError> {
    let mut result = Vec::new();
    for attribute in element.attributes() {
        let attribute = attribute.map_err(|e| invalid(format!("bad attribute: {e}")))?;
        let key = std::str::from_utf8(attribute.key.local_name().as_ref())
            .map_err(|_| invalid("an attribute name is not UTF-8"))?
            .to_string();
        let value = attribute
            .unescape_value()
            .map_err(|e| invalid(format!("bad value of attribute `{key}`: {e}")))?;
        result.push((key, value));
    }
    Ok(result)
}

pub(super) fn parse_number<T: std::str::FromStr>(
    key: &str,
    value: &str,
) -> Result<T, HarnessError> {
    value.trim().parse().map_err(|_| {
        invalid(format!(
            "attribute `{key}` has the non-numeric value \"{value}\""
        ))
    })
}

pub(super) fn parse_boolean(key: &str, value: &str) -> Result<bool, HarnessError> {
    match value.trim() {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(invalid(format!(
            "attribute `{key}` has the non-Boolean value \"{value}\""
        ))),
    }
}

pub(super) fn parse_causality(value: &str) -> Result<Causality, HarnessError> {
    Ok(match value {
        "parameter" => Causality::Parameter,
        "calculatedParameter" => Causality::CalculatedParameter,
        "input" => Causality::Input,
        "output" => Causality::Output,
        "local" => Causality::Local,
        "independent" => Causality::Independent,
        _ => return Err(invalid(format!("unknown causality \"{value}\""))),
    })
}

pub(super) fn parse_variability(value: &str) -> Result<Variability, HarnessError> {
    Ok(match value {
        "constant" => Variability::Constant,
        "fixed" => Variability::Fixed,
        "tunable" => Variability::Tunable,
        "discrete" => Variability::Discrete,
        "continuous" => Variability::Continuous,
        _ => return Err(invalid(format!("unknown variability \"{value}\""))),
    })
}

pub(super) fn parse_initial(value: &str) -> Result<Initial, HarnessError> {
    Ok(match value {
        "exact" => Initial::Exact,
        "approx" => Initial::Approx,
        "calculated" => Initial::Calculated,
        _ => return Err(invalid(format!("unknown initial \"{value}\""))),
    })
}
