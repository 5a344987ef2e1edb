//! The compiler core as one function from source texts to everything an
//! FMU contains except compiled binaries. No I/O happens here.

use crate::classdb::ClassDb;
use crate::codegen::function::FunctionUnit;
use crate::codegen::kernel::{sanitize, Kernel};
use crate::codegen::system;
use crate::diagnostic::Diagnostic;
use crate::fmu::build::model_table;
use crate::fmu::fmi_rules::check_table;
use crate::fmu::model_description::{guid_from, model_description_text};
use crate::fmu::table::Interfaces;
use crate::fmu::table::{DefaultExperiment, ModelTable};
use crate::instantiate::{annotate_units, instantiate, instantiate_for_check, SetValue};
use crate::resolve::tree::ClassTree;
use crate::resolve::ClassId;
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::ast::{ClassBody, ClassKind, Experiment, StoredDefinition};
use crate::syntax::parse;
use crate::units::{ModelUnits, UnitSignatures, Verdict};
use std::collections::HashSet;

/// Parsed sources and their class tree.
pub struct Library {
    pub sources: SourceMap,
    pub tree: ClassTree,
    /// Syntax and tree-building diagnostics.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses files given as (name, text) in load order.
pub fn load_library(files: Vec<(String, String)>) -> Library {
    let mut sources = SourceMap::new();
    let mut parsed: Vec<StoredDefinition> = Vec::new();
    let mut diagnostics = Vec::new();
    for (name, text) in files {
        let id = sources.add(name, text);
        let (def, diags) = parse_file(id, &sources.get(id).text);
        diagnostics.extend(diags);
        parsed.push(def);
    }
    library_of(sources, &parsed, diagnostics)
}

/// One file's syntax tree, and its syntax diagnostics and those of the
/// rules that need only the syntax tree.
pub(crate) fn parse_file(file: FileId, text: &str) -> (StoredDefinition, Vec<Diagnostic>) {
    let (def, mut diags) = parse(file, text);
    diags.extend(crate::check::check_file(&def));
    (def, diags)
}

/// The library of parsed files (in load order) with their diagnostics.
pub(crate) fn library_of(
    sources: SourceMap,
    parsed: &[StoredDefinition],
    mut diagnostics: Vec<Diagnostic>,
) -> Library {
    let (tree, diags) = ClassTree::build(parsed);
    diagnostics.extend(diags);
    Library {
        sources,
        tree,
        diagnostics,
    }
}

/// Checks every class of the library that can be compiled on its own:
/// non-partial models, blocks and connectors; units included.
pub fn check_library(lib: &Library) -> Vec<Diagnostic> {
    check_library_with(lib, true)
}

/// [`check_library`], with unit checking optional (to measure its cost).
pub fn check_library_with(lib: &Library, check_units: bool) -> Vec<Diagnostic> {
    check_library_into(lib, check_units, &mut ClassDb::new(&lib.tree, &lib.sources))
}

/// [`check_library_with`] that leaves every class it compiled in `db` (a
/// new database of `lib`): one pass in load order elaborates, causalises
/// and unit-checks each class once, and checking a class as the system of
/// its components reads its components' entries from there. An export goes
/// on with the same database ([`export_checked`]).
pub fn check_library_into(lib: &Library, check_units: bool, db: &mut ClassDb) -> Vec<Diagnostic> {
    let mut diags = lib.diagnostics.clone();
    for i in 0..lib.tree.classes.len() {
        let id = ClassId(i as u32);
        diags.extend(check_class(lib, db, id, check_units).diagnostics);
    }
    // The unit diagnostics follow, class by class in the order their units
    // were checked: each compiled class in load order, after the classes
    // of its components.
    let signatures = db.unit_signatures();
    for id in signatures.order() {
        diags.extend(signatures.diagnostics(*id).iter().cloned());
    }
    finish_check(lib, diags)
}

/// What `check` found at one class, in the order it found it.
pub(crate) struct ClassCheck {
    /// Diagnostics of elaboration, of the connector's member order, of
    /// causalisation and of the system check, in the order found. Unit
    /// diagnostics are not among them: the database keeps those with the
    /// class's signature.
    pub diagnostics: Vec<Diagnostic>,
    /// The class was compiled, so `check` asked for its units.
    pub compiled: bool,
}

/// Checks one class as the pass over the library does at that class:
/// elaboration, then a connector's member order, or a compilable class's
/// causalisation, units (when `check_units`; its components' classes
/// first) and its check as the system of its components.
pub(crate) fn check_class(
    lib: &Library,
    db: &mut ClassDb,
    id: ClassId,
    check_units: bool,
) -> ClassCheck {
    let mut diags = Vec::new();
    let node = lib.tree.get(id);
    let kind = node.def.kind;
    let skipped = ClassCheck {
        diagnostics: Vec::new(),
        compiled: false,
    };
    // A specialisation is compiled for the models that use it (its class
    // as written was checked; what the redeclarations change is checked at
    // the redeclarations and where the models use it).
    if matches!(node.def.body, ClassBody::Short(_))
        || node.specialisation.is_some()
        || crate::resolve::elaborate::is_linear_response(node)
    {
        return skipped;
    }
    match kind {
        ClassKind::Model | ClassKind::Block | ClassKind::Connector | ClassKind::Class => {}
        // A function is resolved and checked once, on its own; a record
        // is its fields.
        ClassKind::Function | ClassKind::Record => {
            if has_load_diagnostic(lib, id) {
                return skipped;
            }
            let result = if kind == ClassKind::Function {
                db.function(id).map(|_| ())
            } else {
                db.model(id).map(|_| ())
            };
            return ClassCheck {
                diagnostics: result.err().unwrap_or_default(),
                compiled: false,
            };
        }
        _ => return skipped,
    }
    let model = match db.model(id) {
        Ok(m) => m,
        Err(ds) => {
            return ClassCheck {
                diagnostics: ds,
                compiled: false,
            }
        }
    };
    if kind == ClassKind::Connector {
        return ClassCheck {
            diagnostics: db.check_connector(id),
            compiled: false,
        };
    }
    if model.partial {
        return skipped;
    }
    // A class that uses an eliminated feature was already reported at
    // that line; causalising it anyway would report the same line again
    // (e.g. `delay(...)` as an unknown function) or guess at what the
    // rejected construct determined.
    if has_load_diagnostic(lib, id) {
        return skipped;
    }
    if let Err(ds) = db.entry(id) {
        return ClassCheck {
            diagnostics: ds,
            compiled: false,
        };
    }
    // Units: each class once, a class with components from their
    // signatures (so the fault shows at the lowest level).
    if check_units {
        db.units(id);
    }
    // Every class is also checked as the system it forms with its
    // components (its linear responses included): inputs connected,
    // blocks acyclic, parameters set, residuals affine in the balances.
    // So `check` finds every compliance fault `export` would.
    db.compile_below(id);
    match instantiate_for_check(db, id) {
        Ok(sys) => {
            if let Err(ds) = crate::schedule::schedule(&sys) {
                diags.extend(ds);
            }
        }
        Err(ds) => diags.extend(ds),
    }
    ClassCheck {
        diagnostics: diags,
        compiled: true,
    }
}

/// Whether a syntax, eliminated-feature or tree diagnostic lies inside the
/// class's text.
pub(crate) fn has_load_diagnostic(lib: &Library, id: ClassId) -> bool {
    let span = lib.tree.get(id).def.span;
    lib.diagnostics.iter().any(|d| contains(span, d.span))
}

/// The diagnostics of a whole library put in their final form: those that
/// repeat a line already rejected for an eliminated feature dropped,
/// sorted by place (stable, so diagnostics at one place keep the order
/// they were found in), duplicates dropped.
pub(crate) fn finish_check(lib: &Library, mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    drop_consequences_of_eliminated(lib, &mut diags);
    diags.sort_by_key(|d| (d.span.file, d.span.start));
    diags.dedup();
    crate::check::teach::teach(&lib.sources, &lib.tree, &mut diags);
    diags
}

/// One line, one diagnostic: a line rejected for an eliminated feature
/// (`MC1xx`, e.g. a `stream` member) is not reported again for what later
/// phases make of it (the same member as a potential without causality).
fn drop_consequences_of_eliminated(lib: &Library, diags: &mut Vec<Diagnostic>) {
    let line = |d: &Diagnostic| {
        let file = lib.sources.get(d.span.file);
        (d.span.file, file.line_col(d.span.start).0)
    };
    let eliminated: std::collections::HashSet<_> = diags
        .iter()
        .filter(|d| d.code.starts_with("MC1"))
        .map(line)
        .collect();
    if eliminated.is_empty() {
        return;
    }
    // A connector that uses an eliminated feature (a `stream` member, an
    // `expandable` prefix) is acausal by design; the feature is the one
    // reason it is rejected, so its member order is not reported too.
    let mut rejected_connectors = Vec::new();
    for d in diags.iter().filter(|d| d.code.starts_with("MC1")) {
        let innermost = lib
            .tree
            .classes
            .iter()
            .filter(|c| contains(c.def.span, d.span))
            .min_by_key(|c| c.def.span.end - c.def.span.start);
        if let Some(c) = innermost.filter(|c| c.def.kind == ClassKind::Connector) {
            rejected_connectors.push(c.def.span);
        }
    }
    diags.retain(|d| {
        if d.code.starts_with("MC1") || d.code.starts_with("MS") {
            return true;
        }
        let order = matches!(d.code, "MC013" | "MC014");
        let in_rejected = order && rejected_connectors.iter().any(|s| contains(*s, d.span));
        !in_rejected && !eliminated.contains(&line(d))
    });
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.file == inner.file && outer.start <= inner.start && inner.end <= outer.end
}

/// A class's unit verdict and the variables it leaves open.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassVerdict {
    pub class: String,
    pub verdict: Verdict,
    pub open: Vec<String>,
}

/// The unit verdict of every class `check_library` checks, in library
/// order, with the diagnostics of inconsistent ones.
pub fn unit_verdicts(lib: &Library) -> (Vec<ClassVerdict>, Vec<Diagnostic>) {
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let mut out = Vec::new();
    for (i, node) in lib.tree.classes.iter().enumerate() {
        let id = crate::resolve::ClassId(i as u32);
        if matches!(node.def.body, ClassBody::Short(_))
            || crate::resolve::elaborate::is_linear_response(node)
            || node.def.prefixes.partial.is_some()
            || !matches!(
                node.def.kind,
                ClassKind::Model | ClassKind::Block | ClassKind::Class
            )
        {
            continue;
        }
        if db.units(id).is_none() {
            continue;
        }
        if let Some(m) = crate::units::model_units(db.unit_signatures(), id) {
            let open = m.open().into_iter().map(str::to_string).collect();
            out.push(ClassVerdict {
                class: m.qualified,
                verdict: m.verdict,
                open,
            });
        }
    }
    let mut diags = unit_diagnostics(&db);
    diags.sort_by_key(|d| (d.span.file, d.span.start));
    (out, diags)
}

/// The unit diagnostics of every class the database checked, in the order
/// it checked them.
fn unit_diagnostics(db: &ClassDb) -> Vec<Diagnostic> {
    let signatures = db.unit_signatures();
    let order = signatures.order().iter();
    order
        .flat_map(|id| signatures.diagnostics(*id).iter().cloned())
        .collect()
}

/// The units of every variable of `model`.
pub fn model_units(
    lib: &Library,
    model: &str,
) -> Result<(ModelUnits, Vec<Diagnostic>), ExportError> {
    if !lib.diagnostics.is_empty() {
        return Err(ExportError::Diagnostics(lib.diagnostics.clone()));
    }
    let id = lib
        .tree
        .find_qualified(model)
        .ok_or_else(|| ExportError::UnknownModel(model.to_string()))?;
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    if db.units(id).is_none() {
        return Err(ExportError::Diagnostics(
            db.model(id).err().unwrap_or_default(),
        ));
    }
    let mut diags = unit_diagnostics(&db);
    diags.sort_by_key(|d| (d.span.file, d.span.start));
    let m = crate::units::model_units(db.unit_signatures(), id)
        .ok_or_else(|| ExportError::UnknownModel(model.to_string()))?;
    Ok((m, diags))
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The model name does not name a class of the library.
    #[error("no class `{0}` in the loaded libraries")]
    UnknownModel(String),
    /// The name is a class that cannot be exported (a package, a
    /// connector, a type); `models` are exportable classes inside it.
    #[error("`{name}` is a {kind}, not a model{}", models_hint(models))]
    NotAModel {
        name: String,
        kind: &'static str,
        models: Vec<String>,
    },
    #[error("{} diagnostic(s)", .0.len())]
    Diagnostics(Vec<Diagnostic>),
}

fn models_hint(models: &[String]) -> String {
    const SHOWN: usize = 8;
    match models.len() {
        0 => String::new(),
        n if n <= SHOWN => format!("; models in it: {}", models.join(", ")),
        n => format!(
            "; models in it: {}, and {} more",
            models[..SHOWN].join(", "),
            n - SHOWN
        ),
    }
}

/// The classes under `id` (itself excluded) that can be exported: models
/// and blocks that are not partial.
fn exportable_below(tree: &ClassTree, id: crate::resolve::ClassId) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack: Vec<_> = tree.get(id).children.iter().rev().copied().collect();
    while let Some(c) = stack.pop() {
        let node = tree.get(c);
        if matches!(node.def.kind, ClassKind::Model | ClassKind::Block)
            && node.def.prefixes.partial.is_none()
        {
            out.push(node.qualified.clone());
        }
        stack.extend(node.children.iter().rev().copied());
    }
    out
}

/// Everything the packaging step needs.
#[derive(Debug, Clone)]
pub struct ExportOutput {
    pub model_identifier: String,
    /// The checked variable table, from which the model description is
    /// rendered (shared with the build, which writes it into the archive).
    pub table: std::sync::Arc<ModelTable>,
    pub kernels: Vec<Kernel>,
    /// The user functions the model's classes call, each once.
    pub functions: Vec<FunctionUnit>,
    pub system_c: String,
    /// `resources/mofmu_system.bin`: variables, instances and the schedule
    /// as data (crate::fmu::system_image).
    pub system_resource: Vec<u8>,
    pub n_instances: usize,
    pub n_steps: usize,
}

/// Compiles `model` of the library into kernels, a system file and a model
/// description that declares both FMI interfaces. `stop_time` is the
/// explicit stop time of the `DefaultExperiment` (an `f64`, or `None` for the
/// model's `experiment` annotation; see [`default_experiment`]).
pub fn export_model(
    lib: &Library,
    model: &str,
    sets: &[SetValue],
    stop_time: impl Into<Option<f64>>,
) -> Result<ExportOutput, ExportError> {
    export_model_with(lib, model, sets, stop_time, Interfaces::BOTH)
}

/// [`export_model`] declaring only the given interfaces in the model
/// description (the binary implements both either way).
pub fn export_model_with(
    lib: &Library,
    model: &str,
    sets: &[SetValue],
    stop_time: impl Into<Option<f64>>,
    interfaces: Interfaces,
) -> Result<ExportOutput, ExportError> {
    // Export only from a library that checks clean as a whole, so that an
    // FMU never comes from sources the checker rejects.
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let library_diags = check_library_into(lib, true, &mut db);
    if !library_diags.is_empty() {
        return Err(ExportError::Diagnostics(library_diags));
    }
    export_checked(lib, &mut db, model, sets, stop_time, interfaces)
}

/// [`export_model_with`] after the check: goes on with the database a clean
/// [`check_library_into`] of `lib` filled, and reads every class's model,
/// causalised form and unit signature from there. What the check had no
/// need of is built there once, on first use: the kernels, each into its
/// class's entry (and the compiled form of a class the check does not
/// compile, such as a partial model asked for by name).
pub fn export_checked(
    lib: &Library,
    db: &mut ClassDb,
    model: &str,
    sets: &[SetValue],
    stop_time: impl Into<Option<f64>>,
    interfaces: Interfaces,
) -> Result<ExportOutput, ExportError> {
    let stop_time: Option<f64> = stop_time.into();
    let id = lib
        .tree
        .find_qualified(model)
        .ok_or_else(|| ExportError::UnknownModel(model.to_string()))?;
    let kind = lib.tree.get(id).def.kind;
    if !matches!(kind, ClassKind::Model | ClassKind::Block | ClassKind::Class) {
        return Err(ExportError::NotAModel {
            name: model.to_string(),
            kind: kind.keyword(),
            models: exportable_below(&lib.tree, id),
        });
    }
    let class = &lib.tree.get(id).def;
    let experiment = default_experiment(class.experiment.as_ref(), stop_time)
        .map_err(|d| ExportError::Diagnostics(vec![d]))?;
    db.compile_below(id);
    let mut sys = instantiate(db, id, sets).map_err(ExportError::Diagnostics)?;
    let schedule = crate::schedule::schedule(&sys).map_err(ExportError::Diagnostics)?;
    // Units: an inconsistent model is not exported; inferred units go to
    // the variables.
    db.units(id);
    let unit_diags = unit_diagnostics_below(db, id);
    if !unit_diags.is_empty() {
        return Err(ExportError::Diagnostics(unit_diags));
    }
    annotate_units(&mut sys, db.unit_signatures());
    let model_identifier = sanitize(model);
    // The compiled parts and the system resource first: the table then
    // takes the variables' names and texts out of the system instead of
    // copying them (two million of each at 10^6 volumes).
    const DRAFT_GUID: &str = "{00000000-0000-0000-0000-000000000000}";
    let kernels: Vec<Kernel> = sys
        .classes
        .iter()
        .map(|c| crate::codegen::kernel::of(c).clone())
        .collect();
    let functions = function_units(&sys.classes);
    let system_c = system::generate(&sys, &model_identifier);
    // One continuous-time dependency analysis serves the Jacobian pattern of
    // the embedded Co-Simulation solver and the model description.
    let continuous = crate::fmu::dependencies::continuous(&sys, &schedule);
    let pattern = crate::fmu::dependencies::state_pattern(&continuous, &sys);
    let mut system_resource =
        system::image(&sys, &schedule, &model_identifier, pattern).to_bytes(DRAFT_GUID);
    let mut table = model_table(&mut sys, &model_identifier, experiment.stop_time);
    table.default_experiment = experiment;
    table.interfaces = interfaces;
    crate::fmu::dependencies::add_dependencies(&mut table, &sys, &schedule, continuous);
    table.source_files = crate::fmu::sources::source_files(
        kernels
            .iter()
            .map(|k| k.file_name.as_str())
            .chain(functions.iter().map(|f| f.file_name.as_str())),
    );
    let (n_instances, n_steps) = (sys.instances.len(), schedule.steps.len());
    // The system is no longer needed; at 10^6 volumes it is half a gigabyte.
    drop(sys);
    drop(schedule);
    // The table is checked before anything is written: the description is
    // rendered straight into the archive later and cannot fail there.
    table.guid = DRAFT_GUID.to_string();
    check_table(&table).map_err(|e| {
        ExportError::Diagnostics(vec![Diagnostic::error(
            "MX006",
            lib.tree.get(id).def.name.span,
            format!("the model description would be invalid: {e}"),
        )
        .with_label("invalid model description")
        .with_help("this is a bug in mofmu unless a value in the model is not finite")])
    })?;
    // The GUID is a hash of what determines the FMU: the tool, the sources
    // and the options it was exported with, and the generated code and
    // system resource. Same input, same GUID; any change, another GUID. The
    // description itself is not hashed (it follows from the same inputs),
    // so it never has to exist as a whole in memory.
    let guid = {
        let options = format!("{model}\n{sets:?}\n{stop_time:?}\n{interfaces:?}");
        let mut parts: Vec<&[u8]> = vec![
            env!("CARGO_PKG_VERSION").as_bytes(),
            options.as_bytes(),
            system_c.as_bytes(),
            &system_resource,
        ];
        for (_, file) in lib.sources.files() {
            parts.push(file.text.as_bytes());
        }
        for k in &kernels {
            parts.push(k.text.as_bytes());
        }
        for f in &functions {
            parts.push(f.text.as_bytes());
        }
        guid_from(&parts)
    };
    crate::fmu::system_image::replace_guid(&mut system_resource, DRAFT_GUID, &guid);
    table.guid = guid;
    Ok(ExportOutput {
        model_identifier,
        table: std::sync::Arc::new(table),
        kernels,
        functions,
        system_c,
        system_resource,
        n_instances,
        n_steps,
    })
}

/// The C units of the user functions the classes call, each once (a
/// function called by several classes is compiled once).
fn function_units(classes: &[std::sync::Arc<crate::classdb::ClassEntry>]) -> Vec<FunctionUnit> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for c in classes {
        for f in crate::resolve::function::functions_of(&c.model) {
            if seen.insert(f.id) {
                out.push(crate::codegen::function::unit(&f));
            }
        }
    }
    out
}

/// The FMU's `DefaultExperiment`: the model's `experiment` annotation, with
/// an explicit `stop_time` (`mofmu export --stop-time`) in place of its
/// `StopTime`. What neither gives is start 0, stop 1, tolerance 1e-6 and no
/// step size. A value an importer could not use is MX030 at the annotation.
pub fn default_experiment(
    annotation: Option<&Experiment>,
    stop_time: Option<f64>,
) -> Result<DefaultExperiment, Diagnostic> {
    let Some(a) = annotation else {
        return Ok(DefaultExperiment {
            start_time: 0.0,
            stop_time: stop_time.unwrap_or(1.0),
            tolerance: 1e-6,
            step_size: None,
        });
    };
    let e = DefaultExperiment {
        start_time: a.start_time.unwrap_or(0.0),
        stop_time: stop_time.or(a.stop_time).unwrap_or(1.0),
        tolerance: a.tolerance.unwrap_or(1e-6),
        step_size: a.interval,
    };
    let problem = if !(e.start_time.is_finite() && e.stop_time.is_finite()) {
        Some("its start and stop times must be finite".to_string())
    } else if e.stop_time <= e.start_time {
        Some(format!(
            "its stop time {} is not after its start time {}{}",
            e.stop_time,
            e.start_time,
            if stop_time.is_some() {
                " (the stop time is the one given to export)"
            } else {
                ""
            }
        ))
    } else if !(e.tolerance > 0.0 && e.tolerance < 1.0) {
        Some(format!(
            "its Tolerance {} is not between 0 and 1",
            e.tolerance
        ))
    } else if e.step_size.is_some_and(|h| !(h.is_finite() && h > 0.0)) {
        Some("its Interval must be positive".to_string())
    } else {
        None
    };
    match problem {
        None => Ok(e),
        Some(problem) => Err(Diagnostic::error(
            "MX030",
            a.span,
            format!("the experiment cannot be the FMU's DefaultExperiment: {problem}"),
        )
        .with_label("experiment annotation")
        .with_help(
            "give StartTime < StopTime, 0 < Tolerance < 1 and a positive Interval \
             (or another --stop-time)",
        )),
    }
}

/// The unit diagnostics of class `id` and of the classes of its components,
/// recursively: each class after its components' classes, each once.
fn unit_diagnostics_below(db: &ClassDb, id: ClassId) -> Vec<Diagnostic> {
    fn visit(
        signatures: &UnitSignatures,
        id: ClassId,
        seen: &mut HashSet<ClassId>,
        out: &mut Vec<Diagnostic>,
    ) {
        if !seen.insert(id) {
            return;
        }
        let Some(units) = signatures.get(id) else {
            return;
        };
        for sub in &units.subs {
            visit(signatures, sub.class, seen, out);
        }
        out.extend(signatures.diagnostics(id).iter().cloned());
    }
    let mut out = Vec::new();
    visit(db.unit_signatures(), id, &mut HashSet::new(), &mut out);
    out
}

impl ExportOutput {
    /// The model description as text (the FMU's is written straight into
    /// the archive from the table).
    pub fn model_description(&self) -> String {
        model_description_text(&self.table)
    }
}
