//! The compiler core as one function from a checked library to everything
//! an FMU contains except compiled binaries. No I/O happens here.

use crate::classdb::ClassDb;
use crate::codegen::function::FunctionUnit;
use crate::codegen::kernel::{sanitize, Kernel};
use crate::diagnostic::Diagnostic;
use crate::fmu::description::build::{model_table, take_names};
use crate::fmu::description::expose::Expose;
use crate::fmu::description::fmi_rules::{check_table, TableError};
use crate::fmu::description::model_description::{guid_from, model_description_text};
use crate::fmu::description::table::Interfaces;
use crate::fmu::description::table::{DefaultExperiment, ModelTable, VariableType};
use crate::fmu::files::{model_spec, FmuBuildSpec};
use crate::fmu::image::compiled::{self, ScheduleChoice, ScheduleTier};
use crate::fmu::image::structural;
use crate::fmu::image::system;
use crate::instantiate::{annotate_units, instantiate, SetValue};
use crate::library::{check_library_into, Library};
use crate::resolve::tree::ClassTree;
use crate::resolve::ClassId;
use crate::syntax::ast::{ClassBody, ClassKind, Experiment};
use crate::units::{ModelUnits, UnitSignatures, Verdict};
use std::collections::HashSet;

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

/// `; did you mean `Pkg.Model`?` for a model name that is a slip of the
/// qualified name of a model or block of the library, or written without
/// its package ([`crate::names::close_names`]); with no close name, how to
/// list the classes.
pub fn did_you_mean_model(lib: &Library, model: &str) -> String {
    let models = lib.tree.classes.iter().filter(|c| {
        matches!(
            c.def.kind,
            crate::syntax::ast::ClassKind::Model | crate::syntax::ast::ClassKind::Block
        )
    });
    let close = crate::names::close_names(model, models.map(|c| c.qualified.as_str()));
    match close.as_slice() {
        [] => "; list the classes with `mofmu units FILES...` (without --model)".to_string(),
        [best] => format!("; did you mean `{best}`?"),
        [best, others @ ..] => {
            let others: Vec<String> = others.iter().map(|n| format!("`{n}`")).collect();
            format!("; did you mean `{best}`? (or {})", others.join(", "))
        }
    }
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
    /// as data (crate::fmu::image::system_image).
    pub system_resource: Vec<u8>,
    pub n_instances: usize,
    pub n_steps: usize,
    /// The FMI version of the description and the runtime's entry points.
    pub fmi_version: FmiVersion,
    /// With `--expose` other than `all`: the size in bytes of the
    /// description with every variable, and of the one written.
    pub description_bytes: Option<(u64, u64)>,
    /// Notes for the user (not errors): e.g. why an Integer parameter that
    /// sizes arrays is not offered as an FMI 3.0 structural parameter.
    pub notes: Vec<String>,
    /// The tier that runs the schedule, and its compiled unit.
    pub schedule: ScheduleChoice,
    /// `resources/mofmu_locations.txt`: the source line of every variable
    /// each class's blocks write, for run-time errors
    /// (crate::fmu::image::locations).
    pub locations: String,
}

/// The FMI standard an FMU is exported for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FmiVersion {
    /// FMI 2.0 (the default).
    #[default]
    Fmi2,
    /// FMI 3.0: the same runtime core behind the fmi3 entry points
    /// (`templates/mofmu_fmi3.c`) and an FMI 3.0 description.
    Fmi3,
}

/// How a model is exported, beside the model, the `--set` values and the
/// stop time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExportOptions {
    /// The interfaces the description declares (the binary has both).
    pub interfaces: Interfaces,
    /// The variables the description lists.
    pub expose: Expose,
    pub fmi_version: FmiVersion,
    /// Which tier runs the schedule (`--schedule`).
    pub schedule: ScheduleTier,
}

impl ExportOptions {
    /// The defaults but for the interfaces the description declares.
    fn only(interfaces: Interfaces) -> Self {
        ExportOptions {
            interfaces,
            ..ExportOptions::default()
        }
    }
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
    export_model_options(lib, model, sets, stop_time, ExportOptions::only(interfaces))
}

/// [`export_model`] with every export option (`mofmu export`).
pub fn export_model_options(
    lib: &Library,
    model: &str,
    sets: &[SetValue],
    stop_time: impl Into<Option<f64>>,
    options: ExportOptions,
) -> Result<ExportOutput, ExportError> {
    // Export only from a library that checks clean as a whole, so that an
    // FMU never comes from sources the checker rejects.
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let library_diags = check_library_into(lib, true, &mut db);
    if !library_diags.is_empty() {
        return Err(ExportError::Diagnostics(library_diags));
    }
    export_checked_options(lib, &mut db, model, sets, stop_time, options)
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
    export_checked_options(
        lib,
        db,
        model,
        sets,
        stop_time,
        ExportOptions::only(interfaces),
    )
}

/// What stops `model` from being exported, as far as the model itself is
/// concerned: its kind and experiment, the instantiation, the schedule and
/// the units of its classes (the `MX…` codes, and the faults of the classes
/// it instantiates), without checking the rest of the library and without
/// generating code. `mofmu lsp` shows these for the models its settings
/// name, so a fault in an unrelated file does not hide them. Empty when the
/// model exports (the full export still checks the whole library first).
pub fn export_faults(lib: &Library, model: &str) -> Result<Vec<Diagnostic>, ExportError> {
    let id = match exported_class(lib, model, None) {
        Ok((id, _)) => id,
        Err(ExportError::Diagnostics(ds)) => return Ok(ds),
        Err(e) => return Err(e),
    };
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    db.compile_below(id);
    let sys = match instantiate(&db, id, &[]) {
        Ok(sys) => sys,
        Err(ds) => return Ok(ds),
    };
    if let Err(ds) = crate::schedule::schedule(&sys) {
        return Ok(ds);
    }
    db.units(id);
    Ok(unit_diagnostics_below(&db, id))
}

/// The model instantiated for export, its arrays of components laid out by
/// column (docs/fmu.md, "Layout of values"), in FMI 2.0 and FMI 3.0 alike:
/// element `e`'s variable `k` of an array of n at `first(n) + k·n + e` is
/// still affine in a structural parameter n.
fn exported_system(
    db: &ClassDb,
    id: ClassId,
    sets: &[SetValue],
) -> Result<crate::instantiate::System, ExportError> {
    let mut sys = instantiate(db, id, sets).map_err(ExportError::Diagnostics)?;
    crate::instantiate::lay_out_by_column(&mut sys);
    Ok(sys)
}

/// [`export_checked`] with every export option.
///
/// FMI 3.0 at a large size of a structural parameter (`--set rod.n=1000000`)
/// is exported in O(classes): the model is exported at a small size, where
/// the template of the system image is derived and checked as for any
/// structural parameter, and the FMU starts at the size asked for (the
/// parameter's start value; the runtime lays the instance out for it at
/// instantiation). When that size is not served so (the template does not
/// reach it, or start values follow the size), the export is made at the
/// size asked for, as before.
pub fn export_checked_options(
    lib: &Library,
    db: &mut ClassDb,
    model: &str,
    sets: &[SetValue],
    stop_time: impl Into<Option<f64>>,
    options: ExportOptions,
) -> Result<ExportOutput, ExportError> {
    let stop_time: Option<f64> = stop_time.into();
    if options.fmi_version == FmiVersion::Fmi3 {
        for set in sets {
            let Some(n) = large_size(set) else {
                continue;
            };
            let small = with_set(sets, &set.path, SERVED_FROM);
            let start = Some((set.path.as_str(), n));
            if let Ok(out) = export_at(lib, db, model, &small, sets, stop_time, options, start) {
                let served = out.table.structural.as_ref().is_some_and(|s| {
                    out.table.variables[s.variable].name == set.path
                        && out.table.variables[s.variable].ty
                            == (VariableType::Integer { start: Some(n) })
                });
                if served {
                    return Ok(out);
                }
            }
        }
    }
    export_at(lib, db, model, sets, sets, stop_time, options, None)
}

/// Units: an inconsistent model is not exported; inferred units go to the
/// variables.
fn units_of(
    db: &mut ClassDb,
    id: ClassId,
    sys: &mut crate::instantiate::System,
) -> Result<(), ExportError> {
    db.units(id);
    let unit_diags = unit_diagnostics_below(db, id);
    if !unit_diags.is_empty() {
        return Err(ExportError::Diagnostics(unit_diags));
    }
    annotate_units(sys, db.unit_signatures());
    Ok(())
}

/// The FMU starts at the size asked for: the structural parameter's start.
fn starts_at(table: &mut ModelTable, start: Option<(&str, i64)>) {
    if let (Some(s), Some((name, n))) = (&table.structural, start) {
        let v = &mut table.variables[s.variable];
        if v.name == name {
            v.ty = VariableType::Integer { start: Some(n) };
        }
    }
}

/// The size a large structural set is exported at, before the FMU is made
/// to start at the size asked for.
const SERVED_FROM: i64 = 16;

/// A `--set` of a whole number above what the template needs to be
/// derived and confirmed (the exporter probes sizes up to
/// `STRUCTURAL_PROBE + 3`): worth serving from a small export.
fn large_size(set: &SetValue) -> Option<i64> {
    match set.value {
        crate::instantiate::SetLiteral::Number(x)
            if x.fract() == 0.0 && x > (SERVED_FROM + 3) as f64 && x < 1e15 =>
        {
            Some(x as i64)
        }
        _ => None,
    }
}

/// The GUID the system resource and the structural template hold until
/// the FMU is hashed.
const DRAFT_GUID: &str = "{00000000-0000-0000-0000-000000000000}";

/// The schedule of `sys` and its variable table, with the units inferred.
/// The units come first: the table, which takes them, is built on this
/// thread while a second one orders the schedule. A fault of the schedule
/// is reported before one of the units, as when they ran one after the
/// other.
fn scheduled_with_table(
    db: &mut ClassDb,
    id: ClassId,
    sys: &mut crate::instantiate::System,
    model_identifier: &str,
    stop_time: f64,
) -> Result<(crate::schedule::Schedule, ModelTable), ExportError> {
    let units = units_of(db, id, sys);
    let sys = &*sys;
    let (schedule, table) = std::thread::scope(|scope| {
        let schedule = scope.spawn(|| crate::schedule::schedule(sys));
        let table = units
            .is_ok()
            .then(|| model_table(sys, model_identifier, stop_time));
        let schedule = schedule
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (schedule, table)
    });
    let schedule = schedule.map_err(ExportError::Diagnostics)?;
    units?;
    Ok((
        schedule,
        table.expect("built when the units are consistent"),
    ))
}

/// The system resource (written with the draft GUID; it borrows the
/// variables' names, which move into the table afterwards) and the
/// schedule's tier, built on a second thread while this one runs the
/// continuous-time dependency analysis, whose state Jacobian pattern (for
/// the embedded Co-Simulation solver) the resource then takes, and adds
/// the dependencies to `table`.
fn resource_beside_dependencies(
    sys: &crate::instantiate::System,
    schedule: &crate::schedule::Schedule,
    (kernels, functions): (&[Kernel], &[FunctionUnit]),
    model_identifier: &str,
    tier: ScheduleTier,
    table: &mut ModelTable,
) -> (Vec<u8>, ScheduleChoice) {
    std::thread::scope(|scope| {
        let (give_pattern, take_pattern) = std::sync::mpsc::sync_channel(1);
        let image = scope.spawn(move || {
            let mut image = system::image(sys, kernels, schedule, model_identifier, Vec::new());
            // The compiled schedule is generated from the rolled and fused
            // steps the resource holds.
            let slots =
                |c: u32, b: u32, f: &mut dyn FnMut(usize, bool)| system::block_slots(sys, c, b, f);
            let bases = system::real_bases(sys);
            let choice = compiled::choose(tier, &image, kernels, functions, &slots, &bases);
            // Sent before this thread is joined, unless the sender panicked
            // (and the scope with it).
            image.jacobian = take_pattern.recv().unwrap_or_default();
            (image.to_bytes(DRAFT_GUID), choice)
        });
        let continuous = crate::fmu::description::dependencies::continuous(sys, schedule);
        let pattern = crate::fmu::description::dependencies::state_pattern(&continuous, sys);
        let _ = give_pattern.send(pattern);
        crate::fmu::description::dependencies::add_dependencies(table, sys, schedule, continuous);
        image
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// `check_table` of `table` on a second thread while this one runs
/// `meanwhile` (the GUID is hashed from what the FMU runs: neither reads
/// what the other writes).
fn checked_while<T: Send>(
    table: &ModelTable,
    meanwhile: impl FnOnce() -> T,
) -> (Result<(), TableError>, T) {
    std::thread::scope(|scope| {
        let checking = scope.spawn(move || check_table(table));
        let value = meanwhile();
        let checked = checking
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (checked, value)
    })
}

/// The export proper, of the model instantiated with `sets`; `asked` are
/// the sets the export was asked for (hashed into the GUID), and `start`
/// the structural parameter and size the FMU is to start at.
#[allow(clippy::too_many_arguments)]
fn export_at(
    lib: &Library,
    db: &mut ClassDb,
    model: &str,
    sets: &[SetValue],
    asked: &[SetValue],
    stop_time: Option<f64>,
    options: ExportOptions,
    start: Option<(&str, i64)>,
) -> Result<ExportOutput, ExportError> {
    let ExportOptions {
        interfaces,
        expose,
        fmi_version,
        schedule: tier,
    } = options;
    let (id, experiment) = exported_class(lib, model, stop_time)?;
    db.compile_below(id);
    let mut sys = exported_system(db, id, sets)?;
    let model_identifier = sanitize(model);
    let (schedule, mut table) =
        scheduled_with_table(db, id, &mut sys, &model_identifier, experiment.stop_time)?;
    // Before the names move into the table.
    let mut notes = state_set_notes(&sys, sets);
    // The compiled parts, then the system resource beside the table: the
    // resource borrows the variables' names, the table then takes them out
    // of the system instead of copying them (two million at 10^6 volumes).
    // Kernel generation is the class database's step: each class's kernel
    // once per run, the system file then only names them.
    let classes: Vec<ClassId> = sys.classes.iter().map(|c| c.model.id).collect();
    let kernels: Vec<Kernel> = db.kernels(&classes).map_err(ExportError::Diagnostics)?;
    let functions = function_units(&sys.classes);
    table.default_experiment = experiment;
    table.interfaces = interfaces;
    let (mut system_resource, schedule_choice) = resource_beside_dependencies(
        &sys,
        &schedule,
        (&kernels, &functions),
        &model_identifier,
        tier,
        &mut table,
    );
    take_names(&mut table, &mut sys);
    let system_c = system::generate(
        &sys,
        &kernels,
        &model_identifier,
        schedule_choice.compiled.is_some(),
    );
    table.source_files = crate::fmu::sources::source_files(
        kernels
            .iter()
            .map(|k| k.file_name.as_str())
            .chain(
                schedule_choice
                    .compiled
                    .iter()
                    .map(|c| c.file_name.as_str()),
            )
            .chain(functions.iter().map(|f| f.file_name.as_str())),
    );
    table.guid = DRAFT_GUID.to_string();
    if !sys.absent_reals.is_empty() {
        // The variables of absent conditional connectors are not the
        // model's: the description does not list them.
        let keep: Vec<bool> = (0..table.variables.len())
            .map(|i| !sys.absent_reals.contains(&i))
            .collect();
        crate::fmu::description::expose::keep_only(&mut table, &keep);
    }
    let description_bytes = exposed(&mut table, expose, fmi_version);
    if fmi_version == FmiVersion::Fmi3 {
        // The search derives the image at other sizes of an Integer
        // parameter: the model instantiated here, with the parameter set.
        let db: &ClassDb = db;
        let instantiate_at =
            |path: &str, n: i64| exported_system(db, id, &with_set(sets, path, n)).ok();
        let exported = structural::Exported {
            table: &table,
            image: &system_resource,
            kernels: &kernels,
            model_identifier: &model_identifier,
            draft_guid: DRAFT_GUID,
            instantiate: &instantiate_at,
            start,
        };
        table.structural = structural::structural_parameter(&exported, &mut notes);
        starts_at(&mut table, start);
    }
    let (n_instances, n_steps) = (sys.instances.len(), schedule.steps.len());
    let locations = crate::fmu::image::locations::locations(&sys, &lib.sources);
    // The system is no longer needed; at 10^6 volumes it is half a gigabyte.
    drop((sys, schedule));
    // The table is checked before anything is written: the description is
    // rendered straight into the archive later and cannot fail there.
    table.guid = DRAFT_GUID.to_string();
    let (checked, guid) = checked_while(&table, || {
        let guid = fmu_guid(
            lib,
            &hashed_options(model, asked, stop_time, options),
            &system_c,
            &[&system_resource, locations.as_bytes()],
            table.structural.as_ref().map(|s| s.resource.as_slice()),
            &kernels,
            &functions,
        );
        crate::fmu::image::system_image::replace_guid(&mut system_resource, DRAFT_GUID, &guid);
        guid
    });
    checked.map_err(|e| invalid_description(lib, id, e))?;
    if let Some(s) = &mut table.structural {
        structural::replace_guid(&mut s.resource, DRAFT_GUID, &guid);
    }
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
        fmi_version,
        description_bytes,
        notes,
        schedule: schedule_choice,
        locations,
    })
}

/// The class `model` names, when it can be exported, and its
/// `DefaultExperiment` (with `stop_time`, [`default_experiment`]).
/// A note for each `--set` that gives a state its start value (not a
/// parameter's value: the state then evolves from it).
fn state_set_notes(sys: &crate::instantiate::System, sets: &[SetValue]) -> Vec<String> {
    use crate::instantiate::RealKind;
    let state = |name: &str| {
        sys.reals.iter().any(|r| {
            r.kind == RealKind::State && (r.name == name || r.name.starts_with(&format!("{name}[")))
        })
    };
    sets.iter()
        .filter(|s| state(s.path.trim()))
        .map(|s| {
            format!(
                "--set {}: `{}` is a state; the value is its start value, from which the model integrates",
                s.path, s.path
            )
        })
        .collect()
}

/// The names `--set` can give a value to in `model` (`mofmu export
/// --list-parameters`): its parameters and states, each with what it is.
/// The library must check clean, as for an export.
pub fn settable_parameters(
    lib: &Library,
    model: &str,
) -> Result<Vec<crate::instantiate::Settable>, ExportError> {
    let mut db = ClassDb::new(&lib.tree, &lib.sources);
    let library_diags = check_library_into(lib, true, &mut db);
    if !library_diags.is_empty() {
        return Err(ExportError::Diagnostics(library_diags));
    }
    let (id, _) = exported_class(lib, model, None)?;
    db.compile_below(id);
    crate::instantiate::settable_names(&db, id).map_err(ExportError::Diagnostics)
}

fn exported_class(
    lib: &Library,
    model: &str,
    stop_time: Option<f64>,
) -> Result<(ClassId, DefaultExperiment), ExportError> {
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
    Ok((id, experiment))
}

/// MX006 at the model's name: the table breaks an FMI rule (`e`).
fn invalid_description(lib: &Library, id: ClassId, e: TableError) -> ExportError {
    ExportError::Diagnostics(vec![Diagnostic::error(
        "MX006",
        lib.tree.get(id).def.name.span,
        format!("the model description would be invalid: {e}"),
    )
    .with_label("invalid model description")
    .with_help("this is a bug in mofmu unless a value in the model is not finite")])
}

/// `sets` with the Integer parameter `path` set to `n` (in place of a
/// value `sets` gives it).
fn with_set(sets: &[SetValue], path: &str, n: i64) -> Vec<SetValue> {
    let mut sets: Vec<SetValue> = sets.iter().filter(|s| s.path != path).cloned().collect();
    sets.push(SetValue {
        path: path.to_string(),
        value: crate::instantiate::SetLiteral::Number(n as f64),
    });
    sets
}

/// The export's arguments as the GUID hashes them. Options added since
/// are hashed only when not the default, so a default export keeps its
/// GUID (and bytes).
fn hashed_options(
    model: &str,
    sets: &[SetValue],
    stop_time: Option<f64>,
    options: ExportOptions,
) -> String {
    let ExportOptions {
        interfaces,
        expose,
        fmi_version,
        schedule,
    } = options;
    let mut options = format!("{model}\n{sets:?}\n{stop_time:?}\n{interfaces:?}");
    if schedule != ScheduleTier::Compiled {
        options.push_str(&format!("\nschedule {schedule:?}"));
    }
    if expose != Expose::All {
        options.push_str(&format!("\nexpose {expose:?}"));
    }
    if fmi_version != FmiVersion::Fmi2 {
        options.push_str(&format!("\nfmi {fmi_version:?}"));
    }
    options
}

/// The GUID is a hash of what determines the FMU: the tool, the sources
/// and the options it was exported with (`options`, [`hashed_options`]),
/// and the generated code and system resource (and the structural one).
/// Same input, same GUID; any change, another GUID. The description
/// itself is not hashed (it follows from the same inputs), so it never has
/// to exist as a whole in memory.
fn fmu_guid(
    lib: &Library,
    options: &str,
    system_c: &str,
    resources: &[&[u8]],
    structural: Option<&[u8]>,
    kernels: &[Kernel],
    functions: &[FunctionUnit],
) -> String {
    let mut parts: Vec<&[u8]> = vec![
        env!("CARGO_PKG_VERSION").as_bytes(),
        options.as_bytes(),
        system_c.as_bytes(),
    ];
    parts.extend_from_slice(resources);
    if let Some(resource) = structural {
        parts.push(resource);
    }
    for (_, file) in lib.sources.files() {
        parts.push(file.text.as_bytes());
    }
    for k in kernels {
        parts.push(k.text.as_bytes());
    }
    for f in functions {
        parts.push(f.text.as_bytes());
    }
    guid_from(&parts)
}

/// Applies `--expose` to the table; for a choice other than `all`, the
/// description's size in bytes before and after (each rendered into a
/// counter, not into memory).
fn exposed(table: &mut ModelTable, expose: Expose, fmi: FmiVersion) -> Option<(u64, u64)> {
    if expose == Expose::All {
        return None;
    }
    let size = |table: &ModelTable| {
        let written = match fmi {
            FmiVersion::Fmi2 => {
                crate::fmu::description::model_description::write_model_description(
                    table,
                    ByteCount(0),
                )
            }
            FmiVersion::Fmi3 => {
                crate::fmu::description::fmi3::write_model_description(table, ByteCount(0))
            }
        };
        written.map(|c| c.0).unwrap_or(0)
    };
    let all = size(table);
    crate::fmu::description::expose::apply(table, expose);
    Some((all, size(table)))
}

/// A writer that only counts the bytes written.
struct ByteCount(u64);

impl std::io::Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
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
    /// The model description as text, in the FMI version of the export
    /// (the FMU's is written straight into the archive from the table).
    pub fn model_description(&self) -> String {
        match self.fmi_version {
            FmiVersion::Fmi2 => model_description_text(&self.table),
            FmiVersion::Fmi3 => {
                let bytes =
                    crate::fmu::description::fmi3::write_model_description(&self.table, Vec::new())
                        .expect("writing into memory");
                String::from_utf8(bytes).expect("the XML writer produced invalid UTF-8")
            }
        }
    }

    /// The build of the exported model (`crate::package::build_fmu` builds
    /// it). Copies the system file and resource; [`Self::take_build_spec`]
    /// moves them.
    pub fn build_spec(&self) -> FmuBuildSpec {
        self.spec_with(self.system_c.clone(), self.system_resource.clone())
    }

    /// [`Self::build_spec`] that moves the system file and resource out
    /// (leaving them empty) instead of copying them: a large model's
    /// resource is memory the export does not need twice.
    pub fn take_build_spec(&mut self) -> FmuBuildSpec {
        let system_c = std::mem::take(&mut self.system_c);
        let resource = std::mem::take(&mut self.system_resource);
        self.spec_with(system_c, resource)
    }

    fn spec_with(&self, system_c: String, system_resource: Vec<u8>) -> FmuBuildSpec {
        let kernels = self
            .kernels
            .iter()
            .map(|k| (k.file_name.as_str(), k.text.as_str()));
        let functions = self
            .functions
            .iter()
            .map(|f| (f.file_name.as_str(), f.text.as_str()));
        let spec = match self.fmi_version {
            FmiVersion::Fmi2 => model_spec,
            FmiVersion::Fmi3 => crate::fmu::files::model_spec_fmi3,
        };
        // A compiled schedule is one more unit, beside the kernels it calls.
        let schedule = self
            .schedule
            .compiled
            .as_ref()
            .map(|c| (c.file_name.as_str(), c.text.as_str()));
        let mut spec = spec(
            &self.model_identifier,
            self.table.clone(),
            kernels.chain(schedule).chain(functions),
            system_c,
            system_resource,
        );
        spec.resources.push((
            crate::fmu::image::locations::RESOURCE_NAME.into(),
            self.locations.clone().into_bytes(),
        ));
        spec
    }
}
