//! The compiler core as one function from a checked library to everything
//! an FMU contains except compiled binaries. No I/O happens here.

use crate::classdb::ClassDb;
use crate::codegen::function::FunctionUnit;
use crate::codegen::kernel::{sanitize, Kernel};
use crate::diagnostic::Diagnostic;
use crate::fmu::build::{model_table, take_names};
use crate::fmu::expose::Expose;
use crate::fmu::files::{model_spec, FmuBuildSpec};
use crate::fmu::fmi_rules::check_table;
use crate::fmu::model_description::{guid_from, model_description_text};
use crate::fmu::system;
use crate::fmu::table::Interfaces;
use crate::fmu::table::{DefaultExperiment, ModelTable};
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
/// qualified name of a model or block of the library.
pub fn did_you_mean_model(lib: &Library, model: &str) -> String {
    let models = lib.tree.classes.iter().filter(|c| {
        matches!(
            c.def.kind,
            crate::syntax::ast::ClassKind::Model | crate::syntax::ast::ClassKind::Block
        )
    });
    let by_qualified =
        crate::check::teach::closest(model, models.clone().map(|c| c.qualified.as_str()));
    // A short name written without its package: the models of that name.
    let by_name = models
        .filter(|c| c.name == model || c.qualified.ends_with(&format!(".{model}")))
        .map(|c| c.qualified.as_str())
        .next();
    match by_qualified.or(by_name) {
        Some(best) => format!("; did you mean `{best}`?"),
        None => String::new(),
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
    /// as data (crate::fmu::system_image).
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
    let options = ExportOptions {
        interfaces,
        ..ExportOptions::default()
    };
    export_model_options(lib, model, sets, stop_time, options)
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
    let options = ExportOptions {
        interfaces,
        ..ExportOptions::default()
    };
    export_checked_options(lib, db, model, sets, stop_time, options)
}

/// [`export_checked`] with every export option.
pub fn export_checked_options(
    lib: &Library,
    db: &mut ClassDb,
    model: &str,
    sets: &[SetValue],
    stop_time: impl Into<Option<f64>>,
    options: ExportOptions,
) -> Result<ExportOutput, ExportError> {
    let ExportOptions {
        interfaces,
        expose,
        fmi_version,
    } = options;
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
    // The compiled parts, then the system resource beside the table: the
    // resource borrows the variables' names, the table then takes them out
    // of the system instead of copying them (two million at 10^6 volumes).
    const DRAFT_GUID: &str = "{00000000-0000-0000-0000-000000000000}";
    // Kernel generation is the class database's step: each class's kernel
    // once per run, the system file then only names them.
    let classes: Vec<ClassId> = sys.classes.iter().map(|c| c.model.id).collect();
    let kernels: Vec<Kernel> = db.kernels(&classes).map_err(ExportError::Diagnostics)?;
    let functions = function_units(&sys.classes);
    let system_c = system::generate(&sys, &kernels, &model_identifier);
    // One continuous-time dependency analysis serves the Jacobian pattern of
    // the embedded Co-Simulation solver and the model description.
    let continuous = crate::fmu::dependencies::continuous(&sys, &schedule);
    let pattern = crate::fmu::dependencies::state_pattern(&continuous, &sys);
    // The system resource (which borrows the variables' names) on a second
    // thread while this one builds the variable table and its
    // dependencies; the names move into the table once both are done.
    let (mut system_resource, mut table) = std::thread::scope(|scope| {
        let (sys, schedule) = (&sys, &schedule);
        let image = scope.spawn(|| {
            system::image(sys, &kernels, schedule, &model_identifier, pattern).to_bytes(DRAFT_GUID)
        });
        let mut table = model_table(sys, &model_identifier, experiment.stop_time);
        table.default_experiment = experiment;
        table.interfaces = interfaces;
        crate::fmu::dependencies::add_dependencies(&mut table, sys, schedule, continuous);
        let image = image
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (image, table)
    });
    take_names(&mut table, &mut sys);
    table.source_files = crate::fmu::sources::source_files(
        kernels
            .iter()
            .map(|k| k.file_name.as_str())
            .chain(functions.iter().map(|f| f.file_name.as_str())),
    );
    table.guid = DRAFT_GUID.to_string();
    if !sys.absent_reals.is_empty() {
        // The variables of absent conditional connectors are not the
        // model's: the description does not list them.
        let keep: Vec<bool> = (0..table.variables.len())
            .map(|i| !sys.absent_reals.contains(&i))
            .collect();
        crate::fmu::expose::keep_only(&mut table, &keep);
    }
    let description_bytes = exposed(&mut table, expose, fmi_version);
    let mut notes = Vec::new();
    if fmi_version == FmiVersion::Fmi3 {
        let probe = ImageProbe {
            db,
            id,
            sets,
            kernels: &kernels,
            model_identifier: &model_identifier,
            draft_guid: DRAFT_GUID,
        };
        table.structural = structural_parameter(&probe, &table, &system_resource, &mut notes);
    }
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
        // Options added since are hashed only when not the default, so a
        // default export keeps its GUID (and bytes).
        let mut options = format!("{model}\n{sets:?}\n{stop_time:?}\n{interfaces:?}");
        if expose != Expose::All {
            options.push_str(&format!("\nexpose {expose:?}"));
        }
        if fmi_version != FmiVersion::Fmi2 {
            options.push_str(&format!("\nfmi {fmi_version:?}"));
        }
        let mut parts: Vec<&[u8]> = vec![
            env!("CARGO_PKG_VERSION").as_bytes(),
            options.as_bytes(),
            system_c.as_bytes(),
            &system_resource,
        ];
        if let Some(s) = &table.structural {
            parts.push(&s.resource);
        }
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
    if let Some(s) = &mut table.structural {
        crate::fmu::structural::replace_guid(&mut s.resource, DRAFT_GUID, &guid);
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
    })
}

/// What deriving the system image at another value of one Integer
/// parameter needs.
struct ImageProbe<'a> {
    db: &'a ClassDb<'a>,
    id: ClassId,
    sets: &'a [SetValue],
    kernels: &'a [Kernel],
    model_identifier: &'a str,
    draft_guid: &'a str,
}

impl ImageProbe<'_> {
    /// The model instantiated with `path` set to `n`, or None when it does
    /// not instantiate at that size.
    fn system(&self, path: &str, n: i64) -> Option<crate::instantiate::System> {
        let mut sets: Vec<SetValue> = self
            .sets
            .iter()
            .filter(|s| s.path != path)
            .cloned()
            .collect();
        sets.push(SetValue {
            path: path.to_string(),
            value: crate::instantiate::SetLiteral::Number(n as f64),
        });
        instantiate(self.db, self.id, &sets).ok()
    }

    /// The system image of an instantiated model, or None when it does
    /// not schedule.
    fn image_of(
        &self,
        sys: &crate::instantiate::System,
    ) -> Option<crate::fmu::system_image::SystemImage<'static>> {
        let schedule = crate::schedule::schedule(sys).ok()?;
        let continuous = crate::fmu::dependencies::continuous(sys, &schedule);
        let pattern = crate::fmu::dependencies::state_pattern(&continuous, sys);
        Some(
            system::image(sys, self.kernels, &schedule, self.model_identifier, pattern)
                .into_owned(),
        )
    }

    /// The system image with `path` set to `n`, or None when the model
    /// does not instantiate or schedule at that size.
    fn image(&self, path: &str, n: i64) -> Option<crate::fmu::system_image::SystemImage<'static>> {
        self.image_of(&self.system(path, n)?)
    }

    /// Whether the template `t`, derived from the images `i0` and `i1` at
    /// sizes `m0` and `m0 + 1`, serves the size `n` below `m0`, where the
    /// exporter writes the same schedule another way: a repeat of fewer
    /// rounds than it rolls (`system_image::roll_up`) stays plain in the
    /// image, the template keeps it rolled. The template's output at `n`
    /// must be the image at `n` (byte for byte `expect`, when given: the
    /// exported image) but for the schedule and its marks, and its schedule
    /// must run the image's operations in the image's order
    /// (`system_image::plain_steps`), with the fused loops and the steps a
    /// linear response reaches that the analyses give for it
    /// (`system::schedule_holds`). The FMU then computes at `n` what the
    /// FMU exported at `n` computes, bit for bit.
    fn equivalent(
        &self,
        path: &str,
        n: i64,
        t: &crate::fmu::structural::Template,
        derived: (&SystemImageOf, &SystemImageOf, i64),
        expect: Option<&[u8]>,
    ) -> bool {
        let Some(sys) = self.system(path, n) else {
            return false;
        };
        let Some(image) = self.image_of(&sys) else {
            return false;
        };
        if expect.is_some_and(|bytes| image.to_bytes(self.draft_guid) != bytes) {
            return false;
        }
        self.equivalent_image(&sys, image, n, t, derived)
    }

    /// [`Self::equivalent`] for the model already instantiated at `n`
    /// (`sys`) and its image.
    fn equivalent_image(
        &self,
        sys: &crate::instantiate::System,
        image: SystemImageOf,
        n: i64,
        t: &crate::fmu::structural::Template,
        (i0, i1, m0): (&SystemImageOf, &SystemImageOf, i64),
    ) -> bool {
        use crate::fmu::system_image::plain_steps;
        let Some(steps) = crate::fmu::structural::steps_at(i0, i1, m0, n) else {
            return false;
        };
        match (plain_steps(&steps), plain_steps(&image.steps)) {
            (Some(a), Some(b)) if a == b => {}
            _ => return false,
        }
        if !system::schedule_holds(sys, &steps, &i0.reached) {
            return false;
        }
        let rolled = crate::fmu::system_image::SystemImage {
            steps,
            reached: i0.reached.clone(),
            ..image
        };
        crate::fmu::structural::verify(t, n, &rolled.to_bytes(self.draft_guid))
    }
}

/// A system image the exporter derived at a probe size.
type SystemImageOf = crate::fmu::system_image::SystemImage<'static>;

/// Why a template failed when the number of Reals itself is not affine in
/// the size: sizes m0, m0 + 1 and m0 + 2 do not add the same number (an
/// n × n array, `Real M[n, n]`), which no `<Dimension>` of one structural
/// parameter declares and no affine template lays out.
fn faster_than_affine(
    probe: &ImageProbe,
    name: &str,
    m0: i64,
    i0: &SystemImageOf,
    i1: &SystemImageOf,
) -> Option<String> {
    let i2 = probe.image(name, m0 + 2)?;
    let (a, b, c) = (i0.reals.len(), i1.reals.len(), i2.reals.len());
    (c + a != 2 * b).then(|| {
        format!(
            "the number of Reals is not affine in it ({a}, {b} and {c} at {name} = {m0}, {} \
             and {}), as with an array of {name} × {name} elements; every array it sizes must \
             have {name} elements",
            m0 + 1,
            m0 + 2
        )
    })
}

/// How many sizes below the exported one are tried for the structural
/// parameter's smallest admitted value (when the template is derived at
/// the exported size; from the small size, every size down to 1).
const STRUCTURAL_DOWN: i64 = 8;

/// The largest size at which a structural parameter's template is derived:
/// the template is affine in the size, so it is derived from small images
/// (`min(n0, STRUCTURAL_PROBE)` and the next three sizes) and checked
/// against the exported image at n0. A rod exported at 10^6 volumes then
/// costs four instantiations of 16 to 19 volumes, not of 10^6.
const STRUCTURAL_PROBE: i64 = 16;

/// FMI 3.0: the Integer parameter that sizes the model's arrays, offered as
/// a structural parameter when the system image is affine in it
/// (`crate::fmu::structural`); otherwise a note says why not.
fn structural_parameter(
    probe: &ImageProbe,
    table: &ModelTable,
    image0: &[u8],
    notes: &mut Vec<String>,
) -> Option<crate::fmu::table::StructuralParameter> {
    use crate::fmu::structural::{template, verify, Structural, Template};
    use crate::fmu::table::{Causality, StructuralParameter, VariableType};
    let mut chosen: Option<StructuralParameter> = None;
    for (index, v) in table.variables.iter().enumerate() {
        // A size is a constant of the FMI 2.0 FMU (a local constant) or a
        // parameter; either may become structural.
        let VariableType::Integer { start: Some(n0) } = &v.ty else {
            continue;
        };
        if !matches!(v.causality, Causality::Parameter | Causality::Local) {
            continue;
        }
        let n0 = *n0;
        // The template is derived at a small size when the exported n0 is
        // larger (and then checked against the exported image), else at n0
        // itself; when that fails, at the small size again above a small
        // n0, where the image's schedule may not yet roll what larger
        // sizes roll (then n0 must be served by an equivalent schedule).
        // Ok((m0, template, images at m0 and m0 + 1)) or why not: the
        // first reason, the one at the exported size.
        let small = n0.clamp(1, STRUCTURAL_PROBE);
        let bases = if small < n0 {
            vec![small, n0]
        } else if n0 < STRUCTURAL_PROBE {
            vec![n0, STRUCTURAL_PROBE]
        } else {
            vec![n0]
        };
        type Derived = (i64, Template, SystemImageOf, SystemImageOf);
        let mut derived: Option<Result<Derived, String>> = None;
        for m0 in bases {
            let (Some(i0), Some(i1)) = (probe.image(&v.name, m0), probe.image(&v.name, m0 + 1))
            else {
                continue;
            };
            if i0.reals.len() == i1.reals.len()
                || (m0 == n0 && i0.to_bytes(probe.draft_guid) != image0)
            {
                // Sizes nothing, or the probe does not reproduce the export.
                derived = None;
                break;
            }
            let result = template(&i0, &i1, m0, probe.draft_guid)
                .map_err(|why| faster_than_affine(probe, &v.name, m0, &i0, &i1).unwrap_or(why))
                .and_then(|t| {
                    // Two sizes determine the template; two more must confirm
                    // it, and so must the exported image when derived away
                    // from it (byte for byte, or below m0 by an equivalent
                    // schedule).
                    let confirmed = [m0 + 2, m0 + 3].iter().all(|&m| {
                        probe
                            .image(&v.name, m)
                            .is_some_and(|i| verify(&t, m, &i.to_bytes(probe.draft_guid)))
                    }) && (m0 == n0
                        || verify(&t, n0, image0)
                        || (n0 < m0
                            && probe.equivalent(&v.name, n0, &t, (&i0, &i1, m0), Some(image0))));
                    if !confirmed {
                        Err(
                            "the system tables are not affine in it (sizes n + 2 and n + 3 differ \
                         from the straight line through n and n + 1)"
                                .into(),
                        )
                    } else if i0.n_event_indicators != i1.n_event_indicators {
                        Err("the number of event indicators follows it".into())
                    } else {
                        Ok(t)
                    }
                });
            match (result, &derived) {
                (Ok(t), _) => {
                    derived = Some(Ok((m0, t, i0, i1)));
                    break;
                }
                (Err(why), None) => derived = Some(Err(why)),
                (Err(_), Some(_)) => {}
            }
        }
        let Some(derived) = derived else {
            continue;
        };
        if let Some(c) = &chosen {
            notes.push(format!(
                "{} also sizes arrays; an FMU offers one structural parameter ({}), so {} keeps \
                 its exported value",
                v.name, table.variables[c.variable].name, v.name
            ));
            continue;
        }
        let not_offered = |why: String| {
            format!(
                "{} sizes arrays but is not offered as an FMI 3.0 structural parameter: {why}; \
                 the FMU is for {} = {n0} only",
                v.name, v.name
            )
        };
        let (m0, mut t, i0, i1) = match derived {
            Ok(d) => d,
            Err(why) => {
                notes.push(not_offered(why));
                continue;
            }
        };
        // The value-reference map is by the Reals' indices at the exported
        // size: each run's first index and length at n0 (both affine).
        for seg in &mut t.segments {
            seg.vr0 = seg.start.at(n0, 0) as u32;
            seg.len0 = seg.len.at(n0, 0) as u32;
        }
        // The Real a note names by its value reference.
        let real_name = |vr: u32| {
            table
                .variables
                .iter()
                .find(|x| x.value_reference == vr && matches!(x.ty, VariableType::Real { .. }))
                .map_or_else(|| format!("value reference {vr}"), |x| x.name.clone())
        };
        // Every run of Reals whose length follows the parameter must be one
        // array of the description, named by its first element: a run of
        // stride 1 an array of Reals (`rod.T`), a member of a component
        // array's instances (stride m) a member array (`cap.T`).
        let varying: Vec<u32> = t
            .segments
            .iter()
            .filter(|s| s.len.b != 0)
            .map(|s| s.vr0)
            .collect();
        let arrays = crate::fmu::fmi3_arrays::arrays_sized(table, &varying);
        let array_at: std::collections::HashMap<u32, (usize, usize)> = arrays
            .groups
            .iter()
            .map(|g| (table.variables[g.first].value_reference, (g.len, g.stride)))
            .collect();
        let hidden = varying.iter().find(|vr| {
            let seg = t
                .segments
                .iter()
                .find(|s| s.vr0 == **vr)
                .expect("a segment");
            let stride = seg.stride as u32;
            let exposed = table.variables.iter().any(|x| {
                matches!(x.ty, VariableType::Real { .. })
                    && x.value_reference >= seg.vr0
                    && (x.value_reference - seg.vr0) % stride == 0
                    && (x.value_reference - seg.vr0) / stride < seg.len0
            });
            exposed && array_at.get(vr) != Some(&(seg.len0 as usize, seg.stride as usize))
        });
        if let Some(vr) = hidden {
            let name = real_name(*vr);
            notes.push(not_offered(format!(
                "the Reals from {name} on grow with it but are not one FMI 3 array of the \
                 description (their value references would move)"
            )));
            continue;
        }
        // A `<Dimension>` names the parameter itself, so every array that
        // follows it must have exactly n elements: `Real gap[n - 1]` or
        // `y[2*n]` cannot be declared (FMI 3.0 has no size expressions,
        // and a structural parameter cannot be calculated from another).
        let off_size = t.segments.iter().find(|s| {
            s.len.b != 0
                && (s.len.a, s.len.b) != (0, 1)
                && array_at.get(&s.vr0) == Some(&(s.len0 as usize, s.stride as usize))
        });
        if let Some(s) = off_size {
            let name = arrays
                .groups
                .iter()
                .find(|g| table.variables[g.first].value_reference == s.vr0)
                .map_or_else(|| format!("value reference {}", s.vr0), |g| g.name.clone());
            let size = match (s.len.a, s.len.b) {
                (a, 1) if a < 0 => format!("{} - {}", v.name, -a),
                (a, 1) => format!("{} + {a}", v.name),
                (0, b) => format!("{b}*{}", v.name),
                (a, b) if a < 0 => format!("{b}*{} - {}", v.name, -a),
                (a, b) => format!("{b}*{} + {a}", v.name),
            };
            notes.push(not_offered(format!(
                "{name} has {size} elements, and an FMI 3.0 <Dimension> can only name the \
                 structural parameter itself"
            )));
            continue;
        }
        // The smallest size the template serves (its image, or below m0
        // an equivalent one): a few below n0, or down to 1 from the size
        // it was derived at when that is not n0.
        let lowest = if m0 != n0 {
            1
        } else {
            1.max(m0 - STRUCTURAL_DOWN)
        };
        let mut n_min = m0;
        for m in (lowest..m0).rev() {
            // One instantiation at m serves both checks.
            let served = probe.system(&v.name, m).is_some_and(|sys| {
                probe.image_of(&sys).is_some_and(|image| {
                    verify(&t, m, &image.to_bytes(probe.draft_guid))
                        || probe.equivalent_image(&sys, image, m, &t, (&i0, &i1, m0))
                })
            });
            if !served {
                break;
            }
            n_min = m;
        }
        if n_min > n0 {
            notes.push(not_offered(format!(
                "the template derived at {} = {m0} does not serve the sizes from {n0} to {}",
                v.name,
                n_min - 1
            )));
            continue;
        }
        // The largest: the Reals a model may have (MX007), 32-bit indices.
        let (a, b) = t
            .segments
            .iter()
            .fold((0i64, 0i64), |(a, b), s| (a + s.len.a, b + s.len.b));
        let cap = crate::instantiate::MAX_REALS.min(i32::MAX as usize) as i64;
        let n_max = if b > 0 {
            (cap - a) / b
        } else {
            i64::from(i32::MAX)
        };
        let resource = Structural {
            integer: v.value_reference,
            name: v.name.clone(),
            n0,
            n_min,
            n_max,
            template: t,
        }
        .to_bytes();
        chosen = Some(StructuralParameter {
            variable: index,
            varying,
            resource,
        });
    }
    chosen
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
                crate::fmu::model_description::write_model_description(table, ByteCount(0))
            }
            FmiVersion::Fmi3 => crate::fmu::fmi3::write_model_description(table, ByteCount(0)),
        };
        written.map(|c| c.0).unwrap_or(0)
    };
    let all = size(table);
    crate::fmu::expose::apply(table, expose);
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
                let bytes = crate::fmu::fmi3::write_model_description(&self.table, Vec::new())
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
        spec(
            &self.model_identifier,
            self.table.clone(),
            kernels.chain(functions),
            system_c,
            system_resource,
        )
    }
}
