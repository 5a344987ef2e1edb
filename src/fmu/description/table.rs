//! The one table of model variables. It is the single source of truth that
//! renders both `modelDescription.xml` and the C tables of the FMU.

use std::sync::Arc;

/// FMI 2.0 causality.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Causality {
    Parameter,
    CalculatedParameter,
    Input,
    Output,
    Local,
    Independent,
}

/// FMI 2.0 variability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variability {
    Constant,
    Fixed,
    Tunable,
    Discrete,
    Continuous,
}

/// FMI 2.0 `initial` attribute; `None` in [`ModelVariable::initial`] means
/// the attribute is left out (the FMI default for the combination applies).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Initial {
    Exact,
    Approx,
    Calculated,
}

/// The FMI type of a variable and its start value, if it has one.
#[derive(Debug, Clone, PartialEq)]
pub enum VariableType {
    Real {
        start: Option<f64>,
    },
    Integer {
        start: Option<i64>,
    },
    Boolean {
        start: Option<bool>,
    },
    /// An enumeration (an Integer value reference): `declared` is its type,
    /// listed once in `<TypeDefinitions>`.
    Enumeration {
        start: Option<i64>,
        declared: std::sync::Arc<crate::ir::EnumerationType>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelVariable {
    /// Flat Modelica name: `rod.T[3]`, `der(rod.T[3])`, `integ.y`.
    pub name: String,
    /// Value references are unique per FMI type; the table assigns them.
    pub value_reference: u32,
    pub ty: VariableType,
    pub causality: Causality,
    pub variability: Variability,
    pub initial: Option<Initial>,
    /// Shared with the system's variables: the elements of an array share
    /// one text.
    pub description: Option<Arc<str>>,
    pub unit: Option<Arc<str>>,
    pub display_unit: Option<Arc<str>>,
    pub quantity: Option<Arc<str>>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub nominal: Option<f64>,
    /// For `der(x)`: the index (0-based) of `x` in [`ModelTable::variables`].
    pub derivative_of: Option<usize>,
}

/// What the generated FMU offers at the top of `modelDescription.xml`.
#[derive(Debug, Clone, PartialEq)]
pub struct DefaultExperiment {
    pub start_time: f64,
    pub stop_time: f64,
    pub tolerance: f64,
    pub step_size: Option<f64>,
}

/// A unit used by some variable, for `UnitDefinitions`. Exponents of the
/// SI base units (kg, m, s, A, K, mol, cd) and rad, with factor and offset.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitDefinition {
    pub name: String,
    pub kg: i32,
    pub m: i32,
    pub s: i32,
    pub a: i32,
    pub k: i32,
    pub mol: i32,
    pub cd: i32,
    pub rad: i32,
    pub factor: f64,
    pub offset: f64,
    /// Display units a variable of this unit may name in `displayUnit`.
    pub display_units: Vec<DisplayUnitDefinition>,
}

/// A display unit of a [`UnitDefinition`]: a value shown in this unit is
/// `factor * value + offset`, where `value` is in the defining unit (so
/// `degC` under `K` has factor 1 and offset -273.15).
#[derive(Debug, Clone, PartialEq)]
pub struct DisplayUnitDefinition {
    pub name: String,
    pub factor: f64,
    pub offset: f64,
}

/// FMI 2.0 `dependenciesKind`: how a known enters an unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DependencyKind {
    /// No particular structure: `f(v)`.
    Dependent,
    /// A constant factor: `c*v`.
    Constant,
    /// A factor of fixed parameters: `p*v`.
    Fixed,
    /// A factor of tunable parameters.
    Tunable,
    /// A factor of discrete variables.
    Discrete,
}

/// The knowns one unknown of `ModelStructure` depends on: indices (0-based,
/// increasing) into [`ModelTable::variables`], each with its kind.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Dependencies {
    pub knowns: Vec<usize>,
    pub kinds: Vec<DependencyKind>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelTable {
    /// Which FMI interfaces the FMU declares (the binary implements both).
    pub interfaces: Interfaces,
    /// Qualified Modelica name of the exported model.
    pub model_name: String,
    /// C identifier used for the shared library and the function prefix.
    pub model_identifier: String,
    /// Derived from a hash of everything else, never random, so that the
    /// same input gives a byte-identical FMU.
    pub guid: String,
    pub description: Option<String>,
    pub generation_tool: String,
    pub variables: Vec<ModelVariable>,
    pub unit_definitions: Vec<UnitDefinition>,
    pub number_of_event_indicators: usize,
    /// Indices (0-based) into `variables`, in the order FMI wants them.
    pub outputs: Vec<usize>,
    pub derivatives: Vec<usize>,
    pub initial_unknowns: Vec<usize>,
    /// Dependencies of the unknowns of `Outputs` and `Derivatives` on the
    /// knowns of continuous-time and event mode (inputs, states, time), by
    /// the unknown's index. An unknown without an entry is written without
    /// `dependencies` (it may depend on every known).
    pub dependencies: std::collections::BTreeMap<usize, Dependencies>,
    /// Dependencies of the `InitialUnknowns` on the knowns of
    /// initialization (inputs, exact parameters and start values, time).
    pub initial_dependencies: std::collections::BTreeMap<usize, Dependencies>,
    pub default_experiment: DefaultExperiment,
    /// Log categories declared in the XML and honoured by the runtime.
    pub log_categories: Vec<(String, String)>,
    /// The C units in `sources/` (`<SourceFiles>`), so that an importer can
    /// rebuild the binary; see [`crate::fmu::sources`].
    pub source_files: Vec<String>,
    /// FMI 3.0: the structural parameter, when the model has one
    /// (`crate::fmu::image::structural`); always `None` for FMI 2.0.
    pub structural: Option<StructuralParameter>,
}

/// An Integer parameter that sizes arrays, offered as an FMI 3.0
/// `structuralParameter` (see `crate::fmu::image::structural`).
#[derive(Debug, Clone, PartialEq)]
pub struct StructuralParameter {
    /// Its index in `variables`.
    pub variable: usize,
    /// The value references (indices in R at the exported size) of the
    /// Real runs whose length follows the parameter: each must be one FMI 3
    /// array, whose `<Dimension>` names the parameter.
    pub varying: Vec<u32>,
    /// `resources/mofmu_struct.bin`.
    pub resource: Vec<u8>,
}

/// The FMI 2.0 interfaces an FMU declares in its model description. Every
/// mofmu binary implements both; `mofmu export --interface` chooses which
/// ones importers are offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interfaces {
    pub model_exchange: bool,
    pub co_simulation: bool,
}

impl Interfaces {
    pub const BOTH: Interfaces = Interfaces {
        model_exchange: true,
        co_simulation: true,
    };
    pub const MODEL_EXCHANGE: Interfaces = Interfaces {
        model_exchange: true,
        co_simulation: false,
    };
    pub const CO_SIMULATION: Interfaces = Interfaces {
        model_exchange: false,
        co_simulation: true,
    };
}

impl Default for Interfaces {
    fn default() -> Interfaces {
        Interfaces::BOTH
    }
}
