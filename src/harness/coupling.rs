//! The connection file of `mofmu cosim`: a small TOML file that names the FMUs to
//! couple, their parameters, the connections `fmu.output -> fmu.input` and the run's
//! settings. [`Coupling::load`] reads it, loads every FMU and checks every name against
//! the FMUs' model descriptions; each fault is a [`Diagnostic`] (codes `CS001`…`CS011`,
//! docs/cosim.md) at its line of the file. The result is a [`Plan`]: value references
//! only, the connections in an order where every input that reaches an output directly
//! is set before that output is read.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::Diagnostic;
use crate::source::{FileId, SourceMap, Span};

use super::fmu::Fmu;
use super::model_description::{Causality, ModelDescription, ScalarVariable, VariableKind};

/// How an input moves between communication points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extrapolation {
    /// Zero-order hold: the value of the last communication point.
    Hold,
    /// First order: the value and the slope of the source output
    /// (`fmi2GetRealOutputDerivatives`), passed on by `fmi2SetRealInputDerivatives`.
    Linear,
}

impl Extrapolation {
    pub fn parse(text: &str) -> Option<Extrapolation> {
        match text {
            "hold" => Some(Extrapolation::Hold),
            "linear" => Some(Extrapolation::Linear),
            _ => None,
        }
    }
}

/// A variable of one FMU of the coupling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Port {
    /// Index into [`Coupling::fmus`].
    pub fmu: usize,
    pub reference: u32,
    pub kind: VariableKind,
}

/// A value of an FMU variable: a parameter set before initialisation, or a value
/// moved along a connection.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    Real(f64),
    Integer(i32),
    Boolean(bool),
}

/// The run settings; the command line may override each.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub start: f64,
    pub stop: f64,
    /// The communication step.
    pub step: f64,
    pub extrapolation: Extrapolation,
    /// Passed to every FMU's `fmi2SetupExperiment`.
    pub tolerance: Option<f64>,
}

/// What the master does, in value references.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub settings: Settings,
    /// Per FMU: the values set before initialisation.
    pub parameters: Vec<Vec<(Port, Value)>>,
    /// `(from, to)`: an output copied into an input, in evaluation order.
    pub connections: Vec<(Port, Port)>,
    /// Recorded columns: the name `fmu.variable` and the variable.
    pub columns: Vec<(String, Port)>,
}

/// The loaded FMUs with their names and the plan.
pub struct Coupling {
    pub names: Vec<String>,
    pub fmus: Vec<Fmu>,
    pub plan: Plan,
}

/// The faults of a connection file, with the file to render them against.
#[derive(Debug)]
pub struct CouplingError {
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

impl std::fmt::Display for CouplingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for diagnostic in &self.diagnostics {
            write!(f, "{}", diagnostic.render_human(&self.sources, false))?;
        }
        write!(
            f,
            "{} error(s) in the connection file",
            self.diagnostics.len()
        )
    }
}

impl std::error::Error for CouplingError {}

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    start: Option<Spanned<f64>>,
    stop: Option<Spanned<f64>>,
    step: Option<Spanned<f64>>,
    extrapolation: Option<Spanned<String>>,
    tolerance: Option<Spanned<f64>>,
    #[serde(default)]
    connections: Vec<Spanned<String>>,
    output: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    fmu: Vec<RawFmu>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFmu {
    name: Spanned<String>,
    path: Spanned<String>,
    #[serde(default)]
    parameters: BTreeMap<String, Spanned<toml::Value>>,
}

/// Overrides of the file's settings (the command line's options).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides {
    pub start: Option<f64>,
    pub stop: Option<f64>,
    pub step: Option<f64>,
    pub extrapolation: Option<Extrapolation>,
    pub tolerance: Option<f64>,
}

impl Coupling {
    /// Reads the connection file at `path`, loads its FMUs (paths relative to the
    /// file's directory) and checks it.
    pub fn load(path: &Path, overrides: &Overrides) -> Result<Coupling, CouplingError> {
        let mut sources = SourceMap::new();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                let file = sources.add(path.display().to_string(), "");
                let diagnostic = Diagnostic::error(
                    "CS001",
                    Span::new(file, 0, 0),
                    format!("cannot read the connection file: {e}"),
                )
                .with_label("unreadable")
                .with_help("give the path of a TOML connection file (docs/cosim.md)");
                return Err(CouplingError {
                    sources,
                    diagnostics: vec![diagnostic],
                });
            }
        };
        let file = sources.add(path.display().to_string(), text.clone());
        let base = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let mut checker = Checker {
            file,
            text: &text,
            diagnostics: Vec::new(),
        };
        let coupling = checker.coupling(&base, overrides);
        // In the order of the file (stable: one line's faults keep their order).
        checker.diagnostics.sort_by_key(|d| d.span.start);
        match coupling {
            Some(coupling) if checker.diagnostics.is_empty() => Ok(coupling),
            _ => Err(CouplingError {
                sources,
                diagnostics: checker.diagnostics,
            }),
        }
    }
}

struct Checker<'a> {
    file: FileId,
    text: &'a str,
    diagnostics: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn span(&self, range: Range<usize>) -> Span {
        Span::new(self.file, range.start, range.end)
    }

    fn error(
        &mut self,
        code: &'static str,
        range: Range<usize>,
        message: String,
        label: &str,
        help: &str,
    ) {
        let diagnostic = Diagnostic::error(code, self.span(range), message)
            .with_label(label)
            .with_help(help);
        self.diagnostics.push(diagnostic);
    }

    /// The span of `part` inside the string literal at `literal` (whose value is
    /// `value`): the part itself when the literal has no escapes, else the literal.
    fn inside(&self, literal: &Range<usize>, value: &str, part: &str) -> Range<usize> {
        let written = self.text.get(literal.clone()).unwrap_or("");
        let offset = part.as_ptr() as usize - value.as_ptr() as usize;
        if written.len() == value.len() + 2 && &written[1..written.len() - 1] == value {
            let start = literal.start + 1 + offset;
            start..start + part.len()
        } else {
            literal.clone()
        }
    }

    fn coupling(&mut self, base: &Path, overrides: &Overrides) -> Option<Coupling> {
        let raw: RawFile = match toml::from_str(self.text) {
            Ok(raw) => raw,
            Err(e) => {
                let range = e.span().unwrap_or(0..0);
                self.error(
                    "CS001",
                    range,
                    format!("connection file: {}", e.message()),
                    "here",
                    "write the file as docs/cosim.md shows: top-level settings and \
                     `connections`, then one `[[fmu]]` table (name, path, parameters) per FMU",
                );
                return None;
            }
        };
        let (names, fmus) = self.load_fmus(&raw.fmu, base)?;
        let models: Vec<&ModelDescription> = fmus.iter().map(Fmu::model_description).collect();
        let settings = self.settings(&raw, overrides, &models);
        let parameters = raw
            .fmu
            .iter()
            .enumerate()
            .map(|(index, fmu)| self.parameters(index, fmu, models[index]))
            .collect();
        let resolver = Resolver {
            names: &names,
            models: &models,
        };
        let connections = self.connections(&raw.connections, &resolver);
        let connections = self.order(connections, &models);
        let columns = self.columns(raw.output.as_deref(), &resolver);
        if let Some(settings) = &settings {
            self.capabilities(settings, &connections, &raw.fmu, &models);
        }
        let plan = Plan {
            settings: settings?,
            parameters,
            connections: connections.into_iter().map(|c| (c.from, c.to)).collect(),
            columns,
        };
        Some(Coupling { names, fmus, plan })
    }

    fn load_fmus(&mut self, raw: &[RawFmu], base: &Path) -> Option<(Vec<String>, Vec<Fmu>)> {
        if raw.is_empty() {
            self.error(
                "CS001",
                0..0,
                "connection file: no `[[fmu]]` table".into(),
                "no FMU to couple",
                "add one `[[fmu]]` table with `name` and `path` per FMU",
            );
            return None;
        }
        let mut names: Vec<String> = Vec::new();
        let mut fmus = Vec::new();
        for fmu in raw {
            let name = fmu.name.get_ref();
            if name.is_empty() || name.contains(['.', ' ', '-']) {
                self.error(
                    "CS002",
                    fmu.name.span(),
                    format!("`{name}` is not an FMU name"),
                    "not a name",
                    "name each FMU with letters, digits and `_` (connections write `name.variable`)",
                );
            } else if names.contains(name) {
                self.error(
                    "CS002",
                    fmu.name.span(),
                    format!("the FMU name `{name}` is used twice"),
                    "second use",
                    "give every `[[fmu]]` its own name",
                );
            }
            let path: PathBuf = base.join(fmu.path.get_ref());
            match Fmu::load(&path) {
                Ok(loaded) if loaded.model_description().co_simulation.is_some() => {
                    fmus.push(loaded)
                }
                Ok(_) => self.error(
                    "CS002",
                    fmu.path.span(),
                    format!("{} declares no <CoSimulation>", path.display()),
                    "Model Exchange only",
                    "export the FMU with its Co-Simulation interface (mofmu export --interface cs or both)",
                ),
                Err(e) => self.error(
                    "CS002",
                    fmu.path.span(),
                    format!("cannot load {}: {e}", path.display()),
                    "not a loadable FMU",
                    "give the path of an FMI 2.0 FMU, relative to the connection file",
                ),
            }
            names.push(name.clone());
        }
        (fmus.len() == raw.len()).then_some((names, fmus))
    }

    fn settings(
        &mut self,
        raw: &RawFile,
        overrides: &Overrides,
        models: &[&ModelDescription],
    ) -> Option<Settings> {
        let value = |cli: Option<f64>, file: &Option<Spanned<f64>>| {
            cli.or(file.as_ref().map(|s| *s.get_ref()))
        };
        let span_of = |file: &Option<Spanned<f64>>| file.as_ref().map_or(0..0, |s| s.span());
        let experiment = &models[0].default_experiment;
        let start = value(overrides.start, &raw.start)
            .or(experiment.start_time)
            .unwrap_or(0.0);
        let stop = value(overrides.stop, &raw.stop)
            .or(experiment.stop_time)
            .unwrap_or(start + 1.0);
        let step = value(overrides.step, &raw.step).unwrap_or((stop - start) / 500.0);
        let tolerance = value(overrides.tolerance, &raw.tolerance);
        let mut ok = true;
        if !(start.is_finite() && stop.is_finite() && stop > start) {
            self.error(
                "CS010",
                span_of(&raw.stop),
                format!("the stop time {stop} is not after the start time {start}"),
                "stop time",
                "set `stop` (or --stop-time) after `start`",
            );
            ok = false;
        }
        if !(step.is_finite() && step > 0.0) {
            self.error(
                "CS010",
                span_of(&raw.step),
                format!("the communication step {step} is not positive"),
                "communication step",
                "set `step` (or --step) to a positive time",
            );
            ok = false;
        }
        if tolerance.is_some_and(|t| !(t.is_finite() && t > 0.0)) {
            self.error(
                "CS010",
                span_of(&raw.tolerance),
                "the tolerance is not positive".into(),
                "tolerance",
                "set `tolerance` to a positive relative tolerance, e.g. 1e-6, or leave it out",
            );
            ok = false;
        }
        let extrapolation = match (overrides.extrapolation, &raw.extrapolation) {
            (Some(e), _) => e,
            (None, None) => Extrapolation::Hold,
            (None, Some(text)) => match Extrapolation::parse(text.get_ref()) {
                Some(e) => e,
                None => {
                    self.error(
                        "CS010",
                        text.span(),
                        format!("`{}` is not an extrapolation", text.get_ref()),
                        "unknown",
                        "write `hold` (zero-order hold) or `linear` (first-order \
                         extrapolation with output derivatives)",
                    );
                    ok = false;
                    Extrapolation::Hold
                }
            },
        };
        ok.then_some(Settings {
            start,
            stop,
            step,
            extrapolation,
            tolerance,
        })
    }

    fn parameters(
        &mut self,
        index: usize,
        raw: &RawFmu,
        model: &ModelDescription,
    ) -> Vec<(Port, Value)> {
        let mut values = Vec::new();
        for (name, value) in &raw.parameters {
            let Some(variable) = model.variable(name) else {
                self.error(
                    "CS005",
                    value.span(),
                    format!("`{}` has no variable `{name}`", raw.name.get_ref()),
                    "unknown variable",
                    "name a parameter of the FMU by its flat name, quoted (\"plant.k\" = 2)",
                );
                continue;
            };
            if !matches!(variable.causality, Causality::Parameter | Causality::Input) {
                self.error(
                    "CS006",
                    value.span(),
                    format!(
                        "`{}.{name}` is not a parameter or an input, so it cannot be set",
                        raw.name.get_ref()
                    ),
                    "not settable",
                    "set only variables of causality parameter or input",
                );
                continue;
            }
            let converted = match (variable.kind, value.get_ref()) {
                (VariableKind::Real, toml::Value::Float(x)) => Some(Value::Real(*x)),
                (VariableKind::Real, toml::Value::Integer(x)) => Some(Value::Real(*x as f64)),
                (VariableKind::Integer | VariableKind::Enumeration, toml::Value::Integer(x)) => {
                    i32::try_from(*x).ok().map(Value::Integer)
                }
                (VariableKind::Boolean, toml::Value::Boolean(b)) => Some(Value::Boolean(*b)),
                _ => None,
            };
            match converted {
                Some(v) => values.push((port(index, variable), v)),
                None => self.error(
                    "CS007",
                    value.span(),
                    format!(
                        "`{}.{name}` is {}, which this value is not",
                        raw.name.get_ref(),
                        kind_name(variable.kind)
                    ),
                    "wrong type",
                    "write a number for a Real, an integer for an Integer, true or false for a Boolean",
                ),
            }
        }
        values
    }

    fn connections(&mut self, raw: &[Spanned<String>], resolver: &Resolver<'_>) -> Vec<Connection> {
        let mut connections = Vec::new();
        let mut driven: HashMap<(usize, u32), Range<usize>> = HashMap::new();
        for line in raw {
            let text = line.get_ref();
            let Some((from, to)) = text.split_once("->") else {
                self.error(
                    "CS003",
                    line.span(),
                    format!("`{text}` is not a connection"),
                    "no `->`",
                    "write `\"fmu.output -> fmu.input\"`",
                );
                continue;
            };
            let (from, to) = (from.trim(), to.trim());
            let from_span = self.inside(&line.span(), text, from);
            let to_span = self.inside(&line.span(), text, to);
            let (Some(source), Some(target)) = (
                self.resolve(resolver, from, from_span.clone()),
                self.resolve(resolver, to, to_span.clone()),
            ) else {
                continue;
            };
            if source.1.causality != Causality::Output {
                self.error(
                    "CS006",
                    from_span,
                    format!("`{from}` is not an output"),
                    "not an output",
                    "connect from a variable of causality output",
                );
                continue;
            }
            if target.1.causality != Causality::Input {
                self.error(
                    "CS006",
                    to_span,
                    format!("`{to}` is not an input"),
                    "not an input",
                    "connect into a variable of causality input",
                );
                continue;
            }
            if source.1.kind != target.1.kind || source.1.kind == VariableKind::String {
                self.error(
                    "CS007",
                    line.span(),
                    format!(
                        "`{from}` is {} but `{to}` is {}",
                        kind_name(source.1.kind),
                        kind_name(target.1.kind)
                    ),
                    "type mismatch",
                    "connect variables of one type (Real, Integer, Boolean or Enumeration)",
                );
                continue;
            }
            let to_port = port(target.0, target.1);
            if driven
                .insert((to_port.fmu, to_port.reference), line.span())
                .is_some()
            {
                self.error(
                    "CS008",
                    to_span,
                    format!("`{to}` is connected twice"),
                    "second connection into this input",
                    "connect each input to one output",
                );
                continue;
            }
            connections.push(Connection {
                from: port(source.0, source.1),
                to: to_port,
                from_index: source.2,
                to_index: target.2,
                span: line.span(),
                text: text.clone(),
            });
        }
        connections
    }

    /// `fmu.variable` resolved to the FMU's index, the variable and its index.
    fn resolve<'m>(
        &mut self,
        resolver: &Resolver<'m>,
        name: &str,
        span: Range<usize>,
    ) -> Option<(usize, &'m ScalarVariable, usize)> {
        let Some((fmu, variable)) = name.split_once('.') else {
            self.error(
                "CS003",
                span,
                format!("`{name}` does not name an FMU's variable"),
                "no `fmu.` prefix",
                "write `fmu.variable`, with the FMU's name from its `[[fmu]]` table",
            );
            return None;
        };
        let Some(index) = resolver.names.iter().position(|n| n == fmu) else {
            let names = resolver.names.join(", ");
            self.error(
                "CS004",
                span,
                format!("no FMU is named `{fmu}`"),
                "unknown FMU",
                &format!("the FMUs of this file are: {names}"),
            );
            return None;
        };
        let model = resolver.models[index];
        match model.variables.iter().position(|v| v.name == variable) {
            Some(position) => Some((index, &model.variables[position], position)),
            None => {
                self.error(
                    "CS005",
                    span,
                    format!("`{fmu}` has no variable `{variable}`"),
                    "unknown variable",
                    "name a variable of the FMU's modelDescription.xml by its flat name",
                );
                None
            }
        }
    }

    /// Orders the connections so that an output is read after every input that reaches
    /// it directly (ModelStructure/Outputs); a loop of such dependencies is `CS009`.
    fn order(
        &mut self,
        connections: Vec<Connection>,
        models: &[&ModelDescription],
    ) -> Vec<Connection> {
        let n = connections.len();
        // before[c]: the connections whose input reaches c's source output directly.
        let before: Vec<Vec<usize>> = connections
            .iter()
            .map(|c| {
                let dependencies = models[c.from.fmu]
                    .output_dependencies
                    .iter()
                    .find(|(output, _)| *output == c.from_index)
                    .map(|(_, deps)| deps.clone());
                (0..n)
                    .filter(|&d| {
                        let d = &connections[d];
                        d.to.fmu == c.from.fmu
                            && match &dependencies {
                                Some(Some(knowns)) => knowns.contains(&d.to_index),
                                // Absent dependencies: it may depend on every known.
                                Some(None) | None => true,
                            }
                    })
                    .collect()
            })
            .collect();
        let mut placed = vec![false; n];
        let mut order = Vec::with_capacity(n);
        while order.len() < n {
            let ready = (0..n).find(|&c| !placed[c] && before[c].iter().all(|&d| placed[d]));
            match ready {
                Some(c) => {
                    placed[c] = true;
                    order.push(c);
                }
                None => {
                    self.report_loop(&connections, &before, &placed);
                    return Vec::new();
                }
            }
        }
        let mut connections: Vec<Option<Connection>> = connections.into_iter().map(Some).collect();
        order
            .into_iter()
            .filter_map(|c| connections[c].take())
            .collect()
    }

    fn report_loop(&mut self, connections: &[Connection], before: &[Vec<usize>], placed: &[bool]) {
        // Walk back from an unplaced connection until one repeats: that is a loop.
        let mut path: Vec<usize> = Vec::new();
        let mut c = (0..connections.len()).find(|&c| !placed[c]).unwrap_or(0);
        while !path.contains(&c) {
            path.push(c);
            c = before[c].iter().copied().find(|&d| !placed[d]).unwrap_or(c);
        }
        let start = path.iter().position(|&p| p == c).unwrap_or(0);
        let cycle = &path[start..];
        let listed: Vec<String> = cycle.iter().map(|&i| connections[i].text.clone()).collect();
        let mut diagnostic = Diagnostic::error(
            "CS009",
            self.span(connections[c].span.clone()),
            format!(
                "the connections form a loop of direct feed-through: {}",
                listed.join(", ")
            ),
        )
        .with_label("closes the loop")
        .with_help(
            "break the loop: one output on it must not depend directly on an input \
             (ModelStructure/Outputs), e.g. by a state in the model",
        );
        for &other in cycle.iter().filter(|&&i| i != c) {
            diagnostic =
                diagnostic.with_note(self.span(connections[other].span.clone()), "on the loop");
        }
        self.diagnostics.push(diagnostic);
    }

    fn columns(
        &mut self,
        raw: Option<&[Spanned<String>]>,
        resolver: &Resolver<'_>,
    ) -> Vec<(String, Port)> {
        let Some(raw) = raw else {
            // Every state and output of every FMU, FMU by FMU.
            let mut columns = Vec::new();
            for (index, model) in resolver.models.iter().enumerate() {
                let states = model.states().unwrap_or_default();
                for (position, variable) in model.variables.iter().enumerate() {
                    let recorded =
                        states.contains(&position) || variable.causality == Causality::Output;
                    if recorded && variable.kind != VariableKind::String {
                        let name = format!("{}.{}", resolver.names[index], variable.name);
                        columns.push((name, port(index, variable)));
                    }
                }
            }
            return columns;
        };
        let mut columns = Vec::new();
        for name in raw {
            let span = self.inside(&name.span(), name.get_ref(), name.get_ref());
            if let Some((index, variable, _)) = self.resolve(resolver, name.get_ref(), span.clone())
            {
                if variable.kind == VariableKind::String {
                    self.error(
                        "CS007",
                        span,
                        format!("`{}` is a String and cannot be recorded", name.get_ref()),
                        "String",
                        "record Real, Integer, Boolean or Enumeration variables",
                    );
                    continue;
                }
                columns.push((name.get_ref().clone(), port(index, variable)));
            }
        }
        columns
    }

    /// Linear extrapolation needs output derivatives of every source and interpolated
    /// inputs of every target.
    fn capabilities(
        &mut self,
        settings: &Settings,
        connections: &[Connection],
        raw: &[RawFmu],
        models: &[&ModelDescription],
    ) {
        if settings.extrapolation != Extrapolation::Linear {
            return;
        }
        let mut reported = vec![false; models.len()];
        for c in connections
            .iter()
            .filter(|c| c.from.kind == VariableKind::Real)
        {
            for (fmu, needs_derivatives) in [(c.from.fmu, true), (c.to.fmu, false)] {
                let cs = models[fmu].co_simulation.clone().unwrap_or_default();
                let lacking = if needs_derivatives {
                    (cs.max_output_derivative_order < 1)
                        .then_some("declares no output derivatives (maxOutputDerivativeOrder 0)")
                } else {
                    (!cs.can_interpolate_inputs)
                        .then_some("cannot interpolate inputs (canInterpolateInputs false)")
                };
                if let (Some(lacking), false) = (lacking, reported[fmu]) {
                    reported[fmu] = true;
                    self.error(
                        "CS011",
                        raw[fmu].path.span(),
                        format!(
                            "extrapolation \"linear\": `{}` {lacking}",
                            raw[fmu].name.get_ref()
                        ),
                        "this FMU",
                        "couple it with `extrapolation = \"hold\"` (zero-order hold)",
                    );
                }
            }
        }
    }
}

struct Resolver<'m> {
    names: &'m [String],
    models: &'m [&'m ModelDescription],
}

struct Connection {
    from: Port,
    to: Port,
    /// Indices into the model descriptions' variables.
    from_index: usize,
    to_index: usize,
    span: Range<usize>,
    text: String,
}

fn port(fmu: usize, variable: &ScalarVariable) -> Port {
    Port {
        fmu,
        reference: variable.value_reference,
        kind: variable.kind,
    }
}

fn kind_name(kind: VariableKind) -> &'static str {
    match kind {
        VariableKind::Real => "a Real",
        VariableKind::Integer => "an Integer",
        VariableKind::Boolean => "a Boolean",
        VariableKind::String => "a String",
        VariableKind::Enumeration => "an Enumeration",
    }
}
