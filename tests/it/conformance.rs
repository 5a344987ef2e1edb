//! The standard's state machine as a test: every case of
//! `fmu-tests/cases.toml`, exported as FMI 2.0 and as FMI 3.0, is walked
//! through the states of Model Exchange and of Co-Simulation. In every state
//! where the standard lets an importer read variables, every declared
//! variable is read with the getter of its type (an FMI 3 array whole) and
//! must give OK; a getter of another type must give Error. In every state,
//! the calls the standard forbids there must give Error and a logged
//! message that names the function called (an FMI 3 FMU names FMI 3
//! functions), and leave the instance as it was: the walk goes on from
//! the same state. This is what the reference importer (fmusim) relies on:
//! it reads every declared variable after initialization, in
//! Co-Simulation too, and sizes arrays with `fmi3GetUInt64`.

use std::collections::HashMap;
use std::ffi::{c_char, c_void, CStr, CString};
use std::path::{Path, PathBuf};

use mofmu::export::{export_model_options, ExportOptions, FmiVersion};
use mofmu::harness::fmi2::Fmi2Library;
use mofmu::harness::model_description::{ModelDescription, VariableKind};
use mofmu::harness::model_description3::{Fmi3Description, Fmi3Type};
use mofmu::harness::unzip::extract;
use mofmu::harness::HarnessError;
use mofmu::instantiate::{SetLiteral, SetValue};
use mofmu::library::load_library;
use mofmu::loader::load_paths;
use mofmu::package::{build_fmu, ObjectCache};

use super::runtime::repo_path;

/// One case of `fmu-tests/cases.toml`, as far as the walk needs it.
#[derive(serde::Deserialize)]
struct Case {
    name: String,
    libraries: Vec<String>,
    model: String,
    stop_time: f64,
    #[serde(default)]
    set: Vec<String>,
}

#[derive(serde::Deserialize)]
struct Cases {
    case: Vec<Case>,
}

/// The tally of one walk: checks made and the failures, one line each.
#[derive(Default)]
struct Tally {
    checks: usize,
    failures: Vec<String>,
}

impl Tally {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.checks += 1;
        if !ok {
            self.failures.push(what());
        }
    }
}

fn export(case: &Case, dir: &Path, version: FmiVersion) -> PathBuf {
    let paths: Vec<_> = case.libraries.iter().map(|p| repo_path(p)).collect();
    let lib = load_library(load_paths(&paths).expect("libraries load"));
    let sets: Vec<SetValue> = case
        .set
        .iter()
        .map(|s| {
            let (path, value) = s.split_once('=').expect("PATH=VALUE");
            SetValue {
                path: path.to_string(),
                value: SetLiteral::parse(value).expect("a value"),
            }
        })
        .collect();
    let options = ExportOptions {
        fmi_version: version,
        ..ExportOptions::default()
    };
    let out = export_model_options(&lib, &case.model, &sets, case.stop_time, options)
        .unwrap_or_else(|e| panic!("{}: export failed: {e:?}", case.name));
    let cache = ObjectCache::new(Path::new(env!("CARGO_TARGET_TMPDIR")).join("misuse-cache"));
    let fmu = dir.join(format!("{}-{version:?}.fmu", case.name));
    build_fmu(&out.build_spec(), &fmu, Some(&cache)).expect("packaging works");
    fmu
}

#[test]
#[ignore = "slow tier (about 3 min): scripts/test-all runs it with --include-ignored"]
fn every_case_walks_the_state_machine_of_fmi2_and_fmi3() {
    let text = std::fs::read_to_string(repo_path("fmu-tests/cases.toml")).expect("cases.toml");
    let cases: Cases = toml::from_str(&text).expect("cases.toml parses");
    let work = tempfile::tempdir().expect("temporary directory");
    let (mut total2, mut total3) = (Tally::default(), Tally::default());
    for case in &cases.case {
        let fmu2 = export(case, work.path(), FmiVersion::Fmi2);
        let fmu3 = export(case, work.path(), FmiVersion::Fmi3);
        let mut t2 = Tally::default();
        walk2(&fmu2, case.stop_time, &mut t2);
        let mut t3 = Tally::default();
        walk3(&fmu3, case.stop_time, &mut t3);
        println!(
            "{}: FMI 2.0 {} checks, FMI 3.0 {} checks",
            case.name, t2.checks, t3.checks
        );
        for (total, t, v) in [(&mut total2, t2, "2.0"), (&mut total3, t3, "3.0")] {
            total.checks += t.checks;
            total.failures.extend(
                t.failures
                    .into_iter()
                    .map(|f| format!("{} FMI {v}: {f}", case.name)),
            );
        }
    }
    println!(
        "{} cases: FMI 2.0 {} checks, FMI 3.0 {} checks, {} failures",
        cases.case.len(),
        total2.checks,
        total3.checks,
        total2.failures.len() + total3.failures.len()
    );
    let failures: Vec<_> = total2.failures.iter().chain(&total3.failures).collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures
            .iter()
            .take(60)
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    // Every case has variables of its own in every state.
    assert!(total3.checks > 100 * cases.case.len());
}

// ---------------------------------------------------------------------------
// FMI 2.0, through the harness's FMI 2.0 wrapper (its errors carry the log)
// ---------------------------------------------------------------------------

/// The refusal of an FMI 2.0 call: Error, and a logged message naming it.
fn refused2<T>(result: Result<T, HarnessError>, function: &str) -> Result<(), String> {
    match result {
        Err(HarnessError::FmiStatus {
            status: "Error",
            log,
            ..
        }) => {
            if log.iter().any(|l| l.contains(function)) {
                Ok(())
            } else {
                Err(format!(
                    "{function}: Error without a message naming it: {log:?}"
                ))
            }
        }
        Err(e) => Err(format!("{function}: {e}")),
        Ok(_) => Err(format!("{function}: allowed")),
    }
}

/// Reads every declared variable with the getter of its type.
fn read_all2(
    inst: &mut mofmu::harness::fmi2::Instance<'_>,
    model: &ModelDescription,
    state: &str,
    t: &mut Tally,
) {
    for v in &model.variables {
        let r = [v.value_reference];
        let result = match v.kind {
            VariableKind::Real => inst.get_real(&r).map(|_| ()),
            VariableKind::Integer | VariableKind::Enumeration => inst.get_integer(&r).map(|_| ()),
            VariableKind::Boolean => inst.get_boolean(&r).map(|_| ()),
            VariableKind::String => continue,
        };
        t.check(result.is_ok(), || {
            format!("{state}: get {}: {:?}", v.name, result.err())
        });
    }
}

fn walk2(fmu: &Path, stop: f64, t: &mut Tally) {
    let dir = extract(fmu).expect("unpacks");
    let xml = std::fs::read_to_string(dir.path().join("modelDescription.xml")).unwrap();
    let model = ModelDescription::parse(&xml).expect("FMI 2.0 description");
    let so = dir
        .path()
        .join(format!("binaries/linux64/{}.so", model.model_identifier));
    let library = Fmi2Library::load(&so).expect("loads");
    let resources = format!("file://{}", dir.path().join("resources").display());
    let nx = model.derivatives.len();
    let nz = model.number_of_event_indicators;
    let first_real = model
        .variables
        .iter()
        .find(|v| v.kind == VariableKind::Real)
        .map(|v| v.value_reference)
        .unwrap_or(0);

    // Model Exchange.
    let mut inst = library
        .instantiate("walk", &model.guid, &resources, false)
        .expect("instantiates");
    let (mut x, mut z) = (vec![0.0; nx], vec![0.0; nz]);
    // Instantiated: FMI 2.0 allows no getter before initialization.
    let e = refused2(inst.get_real(&[first_real]), "fmi2GetReal");
    t.check(e.is_ok(), || format!("Instantiated: {e:?}"));
    let e = refused2(
        inst.exit_initialization_mode(),
        "fmi2ExitInitializationMode",
    );
    t.check(e.is_ok(), || format!("Instantiated: {e:?}"));
    let e = refused2(
        inst.enter_continuous_time_mode(),
        "fmi2EnterContinuousTimeMode",
    );
    t.check(e.is_ok(), || format!("Instantiated: {e:?}"));
    let e = refused2(inst.do_step(0.0, 0.1), "fmi2DoStep");
    t.check(e.is_ok(), || format!("Instantiated: {e:?}"));
    inst.setup_experiment(None, 0.0, Some(stop)).expect("setup");
    inst.enter_initialization_mode()
        .expect("initialization mode");
    read_all2(&mut inst, &model, "initializationMode", t);
    let e = refused2(inst.new_discrete_states(), "fmi2NewDiscreteStates");
    t.check(e.is_ok(), || format!("initializationMode: {e:?}"));
    let e = refused2(inst.set_continuous_states(&x), "fmi2SetContinuousStates");
    t.check(e.is_ok() || nx == 0, || {
        format!("initializationMode: {e:?}")
    });
    inst.exit_initialization_mode()
        .expect("exit initialization");
    read_all2(&mut inst, &model, "eventMode", t);
    let e = refused2(
        inst.completed_integrator_step(),
        "fmi2CompletedIntegratorStep",
    );
    t.check(e.is_ok(), || format!("eventMode: {e:?}"));
    while inst
        .new_discrete_states()
        .expect("event iteration")
        .new_discrete_states_needed
        != 0
    {}
    inst.enter_continuous_time_mode()
        .expect("continuous-time mode");
    read_all2(&mut inst, &model, "continuousTimeMode", t);
    let e = refused2(inst.new_discrete_states(), "fmi2NewDiscreteStates");
    t.check(e.is_ok(), || format!("continuousTimeMode: {e:?}"));
    let e = refused2(
        inst.enter_initialization_mode(),
        "fmi2EnterInitializationMode",
    );
    t.check(e.is_ok(), || format!("continuousTimeMode: {e:?}"));
    if nx > 0 {
        inst.get_continuous_states(&mut x).expect("states");
        inst.get_derivatives(&mut x.clone()).expect("derivatives");
    }
    if nz > 0 {
        inst.get_event_indicators(&mut z).expect("indicators");
    }
    inst.set_time(1e-6 * stop).expect("time");
    inst.completed_integrator_step().expect("step");
    read_all2(&mut inst, &model, "continuousTimeMode after a step", t);
    inst.terminate().expect("terminate");
    read_all2(&mut inst, &model, "terminated", t);
    let e = refused2(inst.set_time(stop), "fmi2SetTime");
    t.check(e.is_ok(), || format!("terminated: {e:?}"));
    drop(inst);

    // Co-Simulation.
    let mut inst = library
        .instantiate_as("walk", &model.guid, &resources, false, true)
        .expect("instantiates as Co-Simulation");
    let e = refused2(inst.get_real(&[first_real]), "fmi2GetReal");
    t.check(e.is_ok(), || format!("CS Instantiated: {e:?}"));
    inst.setup_experiment(None, 0.0, Some(stop)).expect("setup");
    inst.enter_initialization_mode()
        .expect("initialization mode");
    read_all2(&mut inst, &model, "CS initializationMode", t);
    let e = refused2(inst.do_step(0.0, 0.1), "fmi2DoStep");
    t.check(e.is_ok(), || format!("CS initializationMode: {e:?}"));
    inst.exit_initialization_mode()
        .expect("exit initialization");
    read_all2(&mut inst, &model, "CS stepComplete", t);
    for (result, function) in [
        (inst.set_time(0.0), "fmi2SetTime"),
        (inst.enter_event_mode(), "fmi2EnterEventMode"),
    ] {
        let e = refused2(result, function);
        t.check(e.is_ok(), || format!("CS stepComplete: {e:?}"));
    }
    let e = refused2(inst.get_event_indicators(&mut z), "fmi2GetEventIndicators");
    t.check(e.is_ok() || nz == 0, || format!("CS stepComplete: {e:?}"));
    inst.do_step(0.0, stop / 10.0).expect("a step");
    read_all2(&mut inst, &model, "CS stepComplete after a step", t);
    inst.terminate().expect("terminate");
    read_all2(&mut inst, &model, "CS terminated", t);
    let e = refused2(inst.do_step(stop / 10.0, stop / 10.0), "fmi2DoStep");
    t.check(e.is_ok(), || format!("CS terminated: {e:?}"));
}

// ---------------------------------------------------------------------------
// FMI 3.0, over the library's own symbols
// ---------------------------------------------------------------------------

const OK: i32 = 0;
const ERROR: i32 = 3;

/// What the FMU logged last, and whether an FMI 2 name appeared anywhere.
#[derive(Default)]
struct Log3 {
    last: String,
    status: i32,
    count: usize,
    fmi2_named: Vec<String>,
}

unsafe extern "C" fn log3(
    env: *mut c_void,
    status: i32,
    _category: *const c_char,
    message: *const c_char,
) {
    // SAFETY: the walk passes its own Log3 and FMI gives a C string.
    let (log, message) = unsafe { (&mut *(env as *mut Log3), CStr::from_ptr(message)) };
    log.last = message.to_string_lossy().into_owned();
    log.status = status;
    log.count += 1;
    if log.last.contains("fmi2") {
        log.fmi2_named.push(log.last.clone());
    }
}

type Inst = *mut c_void;
type Plain = unsafe extern "C" fn(Inst) -> i32;
type Get<T> = unsafe extern "C" fn(Inst, *const u32, usize, *mut T, usize) -> i32;
type Vector = unsafe extern "C" fn(Inst, *mut f64, usize) -> i32;
type InstantiateMe = unsafe extern "C" fn(
    *const c_char,
    *const c_char,
    *const c_char,
    bool,
    bool,
    *mut c_void,
    unsafe extern "C" fn(*mut c_void, i32, *const c_char, *const c_char),
) -> Inst;
#[allow(clippy::type_complexity)]
type InstantiateCs = unsafe extern "C" fn(
    *const c_char,
    *const c_char,
    *const c_char,
    bool,
    bool,
    bool,
    bool,
    *const u32,
    usize,
    *mut c_void,
    unsafe extern "C" fn(*mut c_void, i32, *const c_char, *const c_char),
    *const c_void,
) -> Inst;
type EnterInit = unsafe extern "C" fn(Inst, bool, f64, f64, bool, f64) -> i32;
type Update = unsafe extern "C" fn(
    Inst,
    *mut bool,
    *mut bool,
    *mut bool,
    *mut bool,
    *mut bool,
    *mut f64,
) -> i32;
type Completed = unsafe extern "C" fn(Inst, bool, *mut bool, *mut bool) -> i32;
type DoStep =
    unsafe extern "C" fn(Inst, f64, f64, bool, *mut bool, *mut bool, *mut bool, *mut f64) -> i32;

/// The FMU's FMI 3 library and what the walk needs of its description.
struct Fmu3 {
    lib: libloading::Library,
    description: Fmi3Description,
    lengths: HashMap<u32, usize>,
    token: CString,
    resources: CString,
    nx: usize,
    nz: usize,
    log: Box<Log3>,
}

impl Fmu3 {
    fn sym<T: Copy>(&self, name: &str) -> T {
        // SAFETY: the caller names the FMI 3.0 type of the function.
        unsafe {
            *self
                .lib
                .get::<T>(name.as_bytes())
                .unwrap_or_else(|_| panic!("{name}"))
        }
    }

    /// Calls `f` expecting a refusal: Error, a logged error naming
    /// `function`; the state must be as before (`still` reads time there).
    fn refused(
        &mut self,
        inst: Inst,
        state: &str,
        function: &str,
        f: impl FnOnce() -> i32,
        t: &mut Tally,
    ) {
        self.log.count = 0;
        let status = f();
        let named =
            self.log.count > 0 && self.log.status == ERROR && self.log.last.contains(function);
        t.check(status == ERROR && named, || {
            format!(
                "{state}: {function} gave {status}, logged \"{}\"",
                self.log.last
            )
        });
        let get: Get<f64> = self.sym("fmi3GetFloat64");
        let (time, mut value) = (0u32, 0.0);
        // SAFETY: one value reference, one value.
        let again = unsafe { get(inst, &time, 1, &mut value, 1) };
        t.check(again == OK, || {
            format!(
                "{state}: after the refused {function} the instance no longer reads: {}",
                self.log.last
            )
        });
    }

    /// Every declared variable read with the getter of its type (OK), and
    /// with a getter of another type (Error).
    fn read_all(&mut self, inst: Inst, state: &str, t: &mut Tally) {
        let mut buffer = vec![0u64; 1];
        for i in 0..self.description.variables.len() {
            let v = &self.description.variables[i];
            let (vr, ty, name) = (v.value_reference, v.ty, v.name.clone());
            let n = self.lengths[&vr];
            if buffer.len() < n.max(1) {
                buffer.resize(n.max(1), 0);
            }
            let p = buffer.as_mut_ptr();
            macro_rules! get {
                ($name:literal, $t:ty) => {{
                    let f: Get<$t> = self.sym($name);
                    // SAFETY: the buffer holds n values of 8 bytes or less.
                    unsafe { f(inst, &vr, 1, p.cast::<$t>(), n) }
                }};
            }
            let status = match ty {
                Fmi3Type::Float64 => get!("fmi3GetFloat64", f64),
                Fmi3Type::Float32 => get!("fmi3GetFloat32", f32),
                Fmi3Type::Int8 => get!("fmi3GetInt8", i8),
                Fmi3Type::UInt8 => get!("fmi3GetUInt8", u8),
                Fmi3Type::Int16 => get!("fmi3GetInt16", i16),
                Fmi3Type::UInt16 => get!("fmi3GetUInt16", u16),
                Fmi3Type::Int32 => get!("fmi3GetInt32", i32),
                Fmi3Type::UInt32 => get!("fmi3GetUInt32", u32),
                Fmi3Type::Int64 | Fmi3Type::Enumeration => get!("fmi3GetInt64", i64),
                Fmi3Type::UInt64 => get!("fmi3GetUInt64", u64),
                Fmi3Type::Boolean => get!("fmi3GetBoolean", bool),
                _ => continue,
            };
            t.check(status == OK, || {
                format!("{state}: get {name}: {status}, \"{}\"", self.log.last)
            });
            // The getter of another type refuses the value reference.
            let (other, function) = if ty == Fmi3Type::Float64 {
                (get!("fmi3GetInt32", i32), "fmi3GetInt32")
            } else {
                (get!("fmi3GetFloat64", f64), "fmi3GetFloat64")
            };
            t.check(other == ERROR && self.log.last.contains(function), || {
                format!(
                    "{state}: {function} of {name} ({ty:?}) gave {other}, \"{}\"",
                    self.log.last
                )
            });
        }
    }
}

fn load3(fmu: &Path) -> (tempfile::TempDir, Fmu3) {
    let dir = extract(fmu).expect("unpacks");
    let xml = std::fs::read_to_string(dir.path().join("modelDescription.xml")).unwrap();
    let description = Fmi3Description::parse(&xml).expect("FMI 3.0 description");
    let sizes = description.default_sizes().expect("sizes");
    let lengths = description
        .variables
        .iter()
        .map(|v| (v.value_reference, description.length(v, &sizes).unwrap()))
        .collect();
    let view = description.view(&sizes).expect("scalar view");
    let so = dir.path().join(format!(
        "binaries/x86_64-linux/{}.so",
        description.model_identifier
    ));
    // SAFETY: the FMU's own library.
    let lib = unsafe { libloading::Library::new(&so) }.expect("loads");
    let fmu = Fmu3 {
        lib,
        token: CString::new(description.instantiation_token.clone()).unwrap(),
        resources: CString::new(format!("{}/", dir.path().join("resources").display())).unwrap(),
        nx: view.model.derivatives.len(),
        nz: view.model.number_of_event_indicators,
        description,
        lengths,
        log: Box::default(),
    };
    (dir, fmu)
}

fn walk3(path: &Path, stop: f64, t: &mut Tally) {
    let (_dir, mut fmu) = load3(path);
    walk3_me(&mut fmu, stop, t);
    walk3_cs(&mut fmu, stop, t);
    let named = std::mem::take(&mut fmu.log.fmi2_named);
    t.check(named.is_empty(), || {
        format!("messages name FMI 2 functions: {named:?}")
    });
}

fn walk3_me(fmu: &mut Fmu3, stop: f64, t: &mut Tally) {
    let name = CString::new("walk").unwrap();
    let instantiate: InstantiateMe = fmu.sym("fmi3InstantiateModelExchange");
    let env: *mut Log3 = &mut *fmu.log;
    // SAFETY: valid strings and a Log3 that outlives the instance.
    let inst = unsafe {
        instantiate(
            name.as_ptr(),
            fmu.token.as_ptr(),
            fmu.resources.as_ptr(),
            false,
            false,
            env.cast(),
            log3,
        )
    };
    assert!(
        !inst.is_null(),
        "fmi3InstantiateModelExchange: {}",
        fmu.log.last
    );
    let plain = |fmu: &Fmu3, f: &str| -> Plain { fmu.sym(f) };
    let (nx, nz) = (fmu.nx, fmu.nz);
    let mut x = vec![0.0; nx.max(1)];
    let mut z = vec![0.0; nz.max(1)];
    let (mut b, mut b2, mut b3, mut b4, mut b5, mut next) =
        (false, false, false, false, false, 0.0);
    let update: Update = fmu.sym("fmi3UpdateDiscreteStates");
    let completed: Completed = fmu.sym("fmi3CompletedIntegratorStep");
    let set_time: unsafe extern "C" fn(Inst, f64) -> i32 = fmu.sym("fmi3SetTime");
    let set_states: unsafe extern "C" fn(Inst, *const f64, usize) -> i32 =
        fmu.sym("fmi3SetContinuousStates");
    let derivatives: Vector = fmu.sym("fmi3GetContinuousStateDerivatives");
    let indicators: Vector = fmu.sym("fmi3GetEventIndicators");
    let states: Vector = fmu.sym("fmi3GetContinuousStates");
    let enter_init: EnterInit = fmu.sym("fmi3EnterInitializationMode");
    let do_step: DoStep = fmu.sym("fmi3DoStep");
    let structural = fmu.description.variables.iter().any(|v| v.structural);
    // SAFETY (each unsafe block below): a live instance and buffers of the
    // sizes passed.
    unsafe {
        let s = "Instantiated";
        fmu.read_all(inst, s, t);
        let exit_init = plain(fmu, "fmi3ExitInitializationMode");
        fmu.refused(inst, s, "fmi3ExitInitializationMode", || exit_init(inst), t);
        let enter_event = plain(fmu, "fmi3EnterEventMode");
        fmu.refused(inst, s, "fmi3EnterEventMode", || enter_event(inst), t);
        let enter_cont = plain(fmu, "fmi3EnterContinuousTimeMode");
        fmu.refused(
            inst,
            s,
            "fmi3EnterContinuousTimeMode",
            || enter_cont(inst),
            t,
        );
        fmu.refused(
            inst,
            s,
            "fmi3UpdateDiscreteStates",
            || update(inst, &mut b, &mut b2, &mut b3, &mut b4, &mut b5, &mut next),
            t,
        );
        fmu.refused(
            inst,
            s,
            "fmi3CompletedIntegratorStep",
            || completed(inst, true, &mut b, &mut b2),
            t,
        );
        fmu.refused(inst, s, "fmi3SetTime", || set_time(inst, 0.0), t);
        fmu.refused(
            inst,
            s,
            "fmi3DoStep",
            || do_step(inst, 0.0, 0.1, true, &mut b, &mut b2, &mut b3, &mut next),
            t,
        );
        if nx > 0 {
            fmu.refused(
                inst,
                s,
                "fmi3GetContinuousStateDerivatives",
                || derivatives(inst, x.as_mut_ptr(), nx),
                t,
            );
            fmu.refused(
                inst,
                s,
                "fmi3SetContinuousStates",
                || set_states(inst, x.as_ptr(), nx),
                t,
            );
        }
        let terminate = plain(fmu, "fmi3Terminate");
        fmu.refused(inst, s, "fmi3Terminate", || terminate(inst), t);
        if !structural {
            let config = plain(fmu, "fmi3EnterConfigurationMode");
            fmu.refused(inst, s, "fmi3EnterConfigurationMode", || config(inst), t);
        }

        let s = "InitializationMode";
        t.check(enter_init(inst, false, 0.0, 0.0, true, stop) == OK, || {
            format!("enter {s}: {}", fmu.log.last)
        });
        fmu.read_all(inst, s, t);
        fmu.refused(
            inst,
            s,
            "fmi3EnterInitializationMode",
            || enter_init(inst, false, 0.0, 0.0, true, stop),
            t,
        );
        fmu.refused(
            inst,
            s,
            "fmi3EnterContinuousTimeMode",
            || enter_cont(inst),
            t,
        );
        fmu.refused(
            inst,
            s,
            "fmi3UpdateDiscreteStates",
            || update(inst, &mut b, &mut b2, &mut b3, &mut b4, &mut b5, &mut next),
            t,
        );
        fmu.refused(
            inst,
            s,
            "fmi3CompletedIntegratorStep",
            || completed(inst, true, &mut b, &mut b2),
            t,
        );
        fmu.refused(inst, s, "fmi3EnterEventMode", || enter_event(inst), t);

        let s = "EventMode";
        t.check(exit_init(inst) == OK, || {
            format!("enter {s}: {}", fmu.log.last)
        });
        fmu.read_all(inst, s, t);
        fmu.refused(inst, s, "fmi3ExitInitializationMode", || exit_init(inst), t);
        fmu.refused(
            inst,
            s,
            "fmi3CompletedIntegratorStep",
            || completed(inst, true, &mut b, &mut b2),
            t,
        );
        if nx > 0 {
            fmu.refused(
                inst,
                s,
                "fmi3SetContinuousStates",
                || set_states(inst, x.as_ptr(), nx),
                t,
            );
        }
        let mut rounds = 0;
        loop {
            let status = update(inst, &mut b, &mut b2, &mut b3, &mut b4, &mut b5, &mut next);
            t.check(status == OK, || {
                format!("{s}: fmi3UpdateDiscreteStates: {}", fmu.log.last)
            });
            rounds += 1;
            if status != OK || !b || rounds > 100 {
                break;
            }
        }
        fmu.read_all(inst, "EventMode after the event iteration", t);

        let s = "ContinuousTimeMode";
        t.check(enter_cont(inst) == OK, || {
            format!("enter {s}: {}", fmu.log.last)
        });
        fmu.read_all(inst, s, t);
        if nx > 0 {
            t.check(states(inst, x.as_mut_ptr(), nx) == OK, || {
                format!("{s}: states")
            });
            let mut dx = vec![0.0; nx];
            t.check(derivatives(inst, dx.as_mut_ptr(), nx) == OK, || {
                format!("{s}: derivatives")
            });
        }
        if nz > 0 {
            t.check(indicators(inst, z.as_mut_ptr(), nz) == OK, || {
                format!("{s}: indicators")
            });
        }
        fmu.refused(
            inst,
            s,
            "fmi3UpdateDiscreteStates",
            || update(inst, &mut b, &mut b2, &mut b3, &mut b4, &mut b5, &mut next),
            t,
        );
        fmu.refused(
            inst,
            s,
            "fmi3EnterContinuousTimeMode",
            || enter_cont(inst),
            t,
        );
        fmu.refused(
            inst,
            s,
            "fmi3EnterInitializationMode",
            || enter_init(inst, false, 0.0, 0.0, true, stop),
            t,
        );
        fmu.refused(
            inst,
            s,
            "fmi3DoStep",
            || do_step(inst, 0.0, 0.1, true, &mut b, &mut b2, &mut b3, &mut next),
            t,
        );
        t.check(set_time(inst, 1e-6 * stop) == OK, || {
            format!("{s}: fmi3SetTime")
        });
        t.check(completed(inst, true, &mut b, &mut b2) == OK, || {
            format!("{s}: fmi3CompletedIntegratorStep")
        });
        fmu.read_all(inst, "ContinuousTimeMode after a step", t);
        t.check(enter_event(inst) == OK, || {
            format!("fmi3EnterEventMode: {}", fmu.log.last)
        });
        fmu.read_all(inst, "EventMode after a step", t);

        let s = "Terminated";
        t.check(terminate(inst) == OK, || {
            format!("enter {s}: {}", fmu.log.last)
        });
        fmu.read_all(inst, s, t);
        fmu.refused(inst, s, "fmi3SetTime", || set_time(inst, stop), t);
        fmu.refused(inst, s, "fmi3EnterEventMode", || enter_event(inst), t);
        fmu.refused(
            inst,
            s,
            "fmi3EnterContinuousTimeMode",
            || enter_cont(inst),
            t,
        );
        fmu.refused(inst, s, "fmi3ExitInitializationMode", || exit_init(inst), t);

        let reset = plain(fmu, "fmi3Reset");
        t.check(reset(inst) == OK, || format!("fmi3Reset: {}", fmu.log.last));
        fmu.read_all(inst, "Instantiated after fmi3Reset", t);
        let free: unsafe extern "C" fn(Inst) = fmu.sym("fmi3FreeInstance");
        free(inst);
    }
}

fn walk3_cs(fmu: &mut Fmu3, stop: f64, t: &mut Tally) {
    let name = CString::new("walk").unwrap();
    let instantiate: InstantiateCs = fmu.sym("fmi3InstantiateCoSimulation");
    let env: *mut Log3 = &mut *fmu.log;
    // SAFETY: valid strings and a Log3 that outlives the instance.
    let inst = unsafe {
        instantiate(
            name.as_ptr(),
            fmu.token.as_ptr(),
            fmu.resources.as_ptr(),
            false,
            false,
            false,
            false,
            std::ptr::null(),
            0,
            env.cast(),
            log3,
            std::ptr::null(),
        )
    };
    assert!(
        !inst.is_null(),
        "fmi3InstantiateCoSimulation: {}",
        fmu.log.last
    );
    let (nx, nz) = (fmu.nx, fmu.nz);
    let mut x = vec![0.0; nx.max(1)];
    let mut z = vec![0.0; nz.max(1)];
    let (mut b, mut b2, mut b3, mut last) = (false, false, false, 0.0);
    let enter_init: EnterInit = fmu.sym("fmi3EnterInitializationMode");
    let exit_init: Plain = fmu.sym("fmi3ExitInitializationMode");
    let do_step: DoStep = fmu.sym("fmi3DoStep");
    let set_time: unsafe extern "C" fn(Inst, f64) -> i32 = fmu.sym("fmi3SetTime");
    let states: Vector = fmu.sym("fmi3GetContinuousStates");
    let indicators: Vector = fmu.sym("fmi3GetEventIndicators");
    let enter_event: Plain = fmu.sym("fmi3EnterEventMode");
    let step_mode: Plain = fmu.sym("fmi3EnterStepMode");
    let terminate: Plain = fmu.sym("fmi3Terminate");
    // SAFETY (below): a live instance and buffers of the sizes passed.
    unsafe {
        let s = "CS Instantiated";
        fmu.read_all(inst, s, t);
        fmu.refused(
            inst,
            s,
            "fmi3DoStep",
            || do_step(inst, 0.0, 0.1, true, &mut b, &mut b2, &mut b3, &mut last),
            t,
        );
        fmu.refused(inst, s, "fmi3SetTime", || set_time(inst, 0.0), t);
        let s = "CS InitializationMode";
        t.check(enter_init(inst, false, 0.0, 0.0, true, stop) == OK, || {
            format!("enter {s}: {}", fmu.log.last)
        });
        fmu.read_all(inst, s, t);
        fmu.refused(
            inst,
            s,
            "fmi3DoStep",
            || do_step(inst, 0.0, 0.1, true, &mut b, &mut b2, &mut b3, &mut last),
            t,
        );
        let s = "CS StepMode";
        t.check(exit_init(inst) == OK, || {
            format!("enter {s}: {}", fmu.log.last)
        });
        fmu.read_all(inst, s, t);
        fmu.refused(inst, s, "fmi3SetTime", || set_time(inst, 0.0), t);
        fmu.refused(inst, s, "fmi3EnterEventMode", || enter_event(inst), t);
        fmu.refused(inst, s, "fmi3EnterStepMode", || step_mode(inst), t);
        fmu.refused(inst, s, "fmi3ExitInitializationMode", || exit_init(inst), t);
        if nx > 0 {
            fmu.refused(
                inst,
                s,
                "fmi3GetContinuousStates",
                || states(inst, x.as_mut_ptr(), nx),
                t,
            );
        }
        if nz > 0 {
            fmu.refused(
                inst,
                s,
                "fmi3GetEventIndicators",
                || indicators(inst, z.as_mut_ptr(), nz),
                t,
            );
        }
        let status = do_step(
            inst,
            0.0,
            stop / 10.0,
            true,
            &mut b,
            &mut b2,
            &mut b3,
            &mut last,
        );
        t.check(status == OK, || {
            format!("{s}: fmi3DoStep: {}", fmu.log.last)
        });
        fmu.read_all(inst, "CS StepMode after a step", t);
        let s = "CS Terminated";
        t.check(terminate(inst) == OK, || {
            format!("enter {s}: {}", fmu.log.last)
        });
        fmu.read_all(inst, s, t);
        fmu.refused(
            inst,
            s,
            "fmi3DoStep",
            || {
                do_step(
                    inst,
                    stop / 10.0,
                    stop / 10.0,
                    true,
                    &mut b,
                    &mut b2,
                    &mut b3,
                    &mut last,
                )
            },
            t,
        );
        let free: unsafe extern "C" fn(Inst) = fmu.sym("fmi3FreeInstance");
        free(inst);
    }
}
