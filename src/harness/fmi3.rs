//! The FMI 3.0 C interface: the loaded library with typed function pointers, the
//! logger callback, and [`Instance3`], one instance behind the version-neutral
//! [`FmiInstance`]: harness references (elements of the scalar view) become
//! FMI 3 value references and element positions, an array read or written whole.

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::Path;
use std::sync::Mutex;

use libloading::Library;

use super::error::HarnessError;
use super::fmi2::{status_name, EventInfo, FmuState, LogMessage};
use super::instance::FmiInstance;
use super::model_description3::{Element, Fmi3Description, Fmi3Type};

type Fmi3Instance = *mut c_void;
type Fmi3Status = c_int;
const OK: Fmi3Status = 0;
const WARNING: Fmi3Status = 1;
const DISCARD: Fmi3Status = 2;
const FATAL: Fmi3Status = 4;

type LogFn = unsafe extern "C" fn(*mut c_void, Fmi3Status, *const c_char, *const c_char);
type VoidFn = unsafe extern "C" fn(Fmi3Instance) -> Fmi3Status;
type ArrayFn = unsafe extern "C" fn(Fmi3Instance, *mut f64, usize) -> Fmi3Status;
type GetFn<T> = unsafe extern "C" fn(Fmi3Instance, *const u32, usize, *mut T, usize) -> Fmi3Status;
type SetFn<T> =
    unsafe extern "C" fn(Fmi3Instance, *const u32, usize, *const T, usize) -> Fmi3Status;

/// The getter and setter of one FMI 3 type.
struct Access<T> {
    get: GetFn<T>,
    set: SetFn<T>,
}

/// The Model Exchange functions.
struct ModelExchange {
    instantiate: unsafe extern "C" fn(
        *const c_char,
        *const c_char,
        *const c_char,
        bool,
        bool,
        *mut c_void,
        LogFn,
    ) -> Fmi3Instance,
    enter_event_mode: VoidFn,
    update_discrete_states: unsafe extern "C" fn(
        Fmi3Instance,
        *mut bool,
        *mut bool,
        *mut bool,
        *mut bool,
        *mut bool,
        *mut f64,
    ) -> Fmi3Status,
    enter_continuous_time_mode: VoidFn,
    completed_integrator_step:
        unsafe extern "C" fn(Fmi3Instance, bool, *mut bool, *mut bool) -> Fmi3Status,
    set_time: unsafe extern "C" fn(Fmi3Instance, f64) -> Fmi3Status,
    set_continuous_states: unsafe extern "C" fn(Fmi3Instance, *const f64, usize) -> Fmi3Status,
    get_derivatives: ArrayFn,
    get_event_indicators: ArrayFn,
    get_continuous_states: ArrayFn,
    get_nominals: ArrayFn,
}

/// The Co-Simulation functions.
struct CoSimulation {
    #[allow(clippy::type_complexity)]
    instantiate: unsafe extern "C" fn(
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
        LogFn,
        *const c_void,
    ) -> Fmi3Instance,
    do_step: unsafe extern "C" fn(
        Fmi3Instance,
        f64,
        f64,
        bool,
        *mut bool,
        *mut bool,
        *mut bool,
        *mut f64,
    ) -> Fmi3Status,
    get_output_derivatives: Option<
        unsafe extern "C" fn(
            Fmi3Instance,
            *const u32,
            usize,
            *const i32,
            *mut f64,
            usize,
        ) -> Fmi3Status,
    >,
}

/// The functions of one loaded FMI 3.0 library.
pub struct Fmi3Library {
    get_version: unsafe extern "C" fn() -> *const c_char,
    set_debug_logging:
        unsafe extern "C" fn(Fmi3Instance, bool, usize, *const *const c_char) -> Fmi3Status,
    free_instance: unsafe extern "C" fn(Fmi3Instance),
    enter_initialization_mode:
        unsafe extern "C" fn(Fmi3Instance, bool, f64, f64, bool, f64) -> Fmi3Status,
    exit_initialization_mode: VoidFn,
    terminate: VoidFn,
    reset: VoidFn,
    enter_configuration_mode: VoidFn,
    exit_configuration_mode: VoidFn,
    float64: Access<f64>,
    float32: Access<f32>,
    int8: Access<i8>,
    uint8: Access<u8>,
    int16: Access<i16>,
    uint16: Access<u16>,
    int32: Access<i32>,
    uint32: Access<u32>,
    int64: Access<i64>,
    uint64: Access<u64>,
    boolean: Access<bool>,
    get_fmu_state: unsafe extern "C" fn(Fmi3Instance, *mut *mut c_void) -> Fmi3Status,
    set_fmu_state: unsafe extern "C" fn(Fmi3Instance, *mut c_void) -> Fmi3Status,
    free_fmu_state: unsafe extern "C" fn(Fmi3Instance, *mut *mut c_void) -> Fmi3Status,
    #[allow(clippy::type_complexity)]
    get_directional_derivative: Option<
        unsafe extern "C" fn(
            Fmi3Instance,
            *const u32,
            usize,
            *const u32,
            usize,
            *const f64,
            usize,
            *mut f64,
            usize,
        ) -> Fmi3Status,
    >,
    model_exchange: Option<ModelExchange>,
    co_simulation: Option<CoSimulation>,
    /// Declared last: closed after nothing else can use the pointers above.
    _library: Library,
}

impl Fmi3Library {
    /// Loads the shared library and resolves the FMI 3.0 functions.
    pub fn load(path: &Path) -> Result<Fmi3Library, HarnessError> {
        // SAFETY: loading a library runs its initialisers; an FMU binary is
        // trusted code by the nature of FMI.
        let library = unsafe { Library::new(path) }.map_err(|e| HarnessError::LoadLibrary {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let library_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        macro_rules! symbol {
            ($name:literal) => {{
                // SAFETY: the symbol is given the type FMI 3.0 declares for it.
                let symbol =
                    unsafe { library.get(concat!($name, "\0").as_bytes()) }.map_err(|_| {
                        HarnessError::MissingSymbol {
                            library: library_name.clone(),
                            symbol: $name.to_string(),
                        }
                    })?;
                *symbol
            }};
        }
        macro_rules! optional {
            ($name:literal) => {
                // SAFETY: the symbol is given the type FMI 3.0 declares for it.
                unsafe { library.get(concat!($name, "\0").as_bytes()) }
                    .ok()
                    .map(|s| *s)
            };
        }
        macro_rules! access {
            ($get:literal, $set:literal) => {
                Access {
                    get: symbol!($get),
                    set: symbol!($set),
                }
            };
        }
        let model_exchange = match optional!("fmi3InstantiateModelExchange") {
            Some(instantiate) => Some(ModelExchange {
                instantiate,
                enter_event_mode: symbol!("fmi3EnterEventMode"),
                update_discrete_states: symbol!("fmi3UpdateDiscreteStates"),
                enter_continuous_time_mode: symbol!("fmi3EnterContinuousTimeMode"),
                completed_integrator_step: symbol!("fmi3CompletedIntegratorStep"),
                set_time: symbol!("fmi3SetTime"),
                set_continuous_states: symbol!("fmi3SetContinuousStates"),
                get_derivatives: symbol!("fmi3GetContinuousStateDerivatives"),
                get_event_indicators: symbol!("fmi3GetEventIndicators"),
                get_continuous_states: symbol!("fmi3GetContinuousStates"),
                get_nominals: symbol!("fmi3GetNominalsOfContinuousStates"),
            }),
            None => None,
        };
        let co_simulation = match optional!("fmi3InstantiateCoSimulation") {
            Some(instantiate) => Some(CoSimulation {
                instantiate,
                do_step: symbol!("fmi3DoStep"),
                get_output_derivatives: optional!("fmi3GetOutputDerivatives"),
            }),
            None => None,
        };
        Ok(Fmi3Library {
            get_version: symbol!("fmi3GetVersion"),
            set_debug_logging: symbol!("fmi3SetDebugLogging"),
            free_instance: symbol!("fmi3FreeInstance"),
            enter_initialization_mode: symbol!("fmi3EnterInitializationMode"),
            exit_initialization_mode: symbol!("fmi3ExitInitializationMode"),
            terminate: symbol!("fmi3Terminate"),
            reset: symbol!("fmi3Reset"),
            enter_configuration_mode: symbol!("fmi3EnterConfigurationMode"),
            exit_configuration_mode: symbol!("fmi3ExitConfigurationMode"),
            float64: access!("fmi3GetFloat64", "fmi3SetFloat64"),
            float32: access!("fmi3GetFloat32", "fmi3SetFloat32"),
            int8: access!("fmi3GetInt8", "fmi3SetInt8"),
            uint8: access!("fmi3GetUInt8", "fmi3SetUInt8"),
            int16: access!("fmi3GetInt16", "fmi3SetInt16"),
            uint16: access!("fmi3GetUInt16", "fmi3SetUInt16"),
            int32: access!("fmi3GetInt32", "fmi3SetInt32"),
            uint32: access!("fmi3GetUInt32", "fmi3SetUInt32"),
            int64: access!("fmi3GetInt64", "fmi3SetInt64"),
            uint64: access!("fmi3GetUInt64", "fmi3SetUInt64"),
            boolean: access!("fmi3GetBoolean", "fmi3SetBoolean"),
            get_fmu_state: symbol!("fmi3GetFMUState"),
            set_fmu_state: symbol!("fmi3SetFMUState"),
            free_fmu_state: symbol!("fmi3FreeFMUState"),
            get_directional_derivative: optional!("fmi3GetDirectionalDerivative"),
            model_exchange,
            co_simulation,
            _library: library,
        })
    }

    /// `fmi3GetVersion`, e.g. "3.0".
    pub fn version(&self) -> String {
        // SAFETY: no arguments; a static string or NULL.
        let text = unsafe { (self.get_version)() };
        if text.is_null() {
            return String::new();
        }
        // SAFETY: non-null and NUL-terminated by the FMI contract.
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    }

    /// A new instance of `description` (its scalar view at `sizes`, the
    /// structural parameters' values, set in configuration mode when they
    /// differ from the start values).
    pub fn instantiate<'lib>(
        &'lib self,
        description: &'lib Fmi3Description,
        sizes: &HashMap<u32, u64>,
        instance_name: &str,
        resource_path: &str,
        logging_on: bool,
        co_simulation: bool,
    ) -> Result<Instance3<'lib>, HarnessError> {
        let view = description.view(sizes)?;
        let to_c = |text: &str, what: &str| {
            CString::new(text).map_err(|_| {
                HarnessError::BadOptions(format!("{what} contains a NUL byte: {text:?}"))
            })
        };
        let name = to_c(instance_name, "instance name")?;
        let token = to_c(&description.instantiation_token, "instantiation token")?;
        // FMI 3.0 passes the resources folder as a path ending in a
        // separator, not as a URI.
        let resources = to_c(resource_path, "resource path")?;
        let environment = Box::into_raw(Box::new(Log3 {
            messages: Mutex::new(Vec::new()),
            echo: logging_on,
        }));
        let missing = |symbol: &str| HarnessError::MissingSymbol {
            library: String::new(),
            symbol: symbol.into(),
        };
        // SAFETY: the strings are NUL-terminated and outlive the call; the
        // environment lives until the instance drops.
        let pointer = unsafe {
            if co_simulation {
                let cs = self
                    .co_simulation
                    .as_ref()
                    .ok_or_else(|| missing("fmi3InstantiateCoSimulation"))?;
                (cs.instantiate)(
                    name.as_ptr(),
                    token.as_ptr(),
                    resources.as_ptr(),
                    false,
                    logging_on,
                    false,
                    false,
                    std::ptr::null(),
                    0,
                    environment.cast(),
                    log_message,
                    std::ptr::null(),
                )
            } else {
                let me = self
                    .model_exchange
                    .as_ref()
                    .ok_or_else(|| missing("fmi3InstantiateModelExchange"))?;
                (me.instantiate)(
                    name.as_ptr(),
                    token.as_ptr(),
                    resources.as_ptr(),
                    false,
                    logging_on,
                    environment.cast(),
                    log_message,
                )
            }
        };
        if pointer.is_null() {
            // SAFETY: no instance refers to the environment.
            let environment = unsafe { Box::from_raw(environment) };
            return Err(HarnessError::InstantiateFailed {
                log: environment.take_lines(),
            });
        }
        let mut instance = Instance3 {
            library: self,
            description,
            elements: view.elements,
            lengths: view.lengths,
            pointer,
            fatal: false,
            environment,
            last_successful_time: f64::NAN,
            terminate_simulation: false,
        };
        instance.configure(sizes)?;
        Ok(instance)
    }
}

/// What the logger's environment points to.
struct Log3 {
    messages: Mutex<Vec<LogMessage>>,
    echo: bool,
}

impl Log3 {
    fn take(&self) -> Vec<LogMessage> {
        std::mem::take(&mut *self.messages.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn take_lines(&self) -> Vec<String> {
        const KEEP: usize = 20;
        let messages = self.take();
        let skip = messages.len().saturating_sub(KEEP);
        messages[skip..].iter().map(|m| m.to_string()).collect()
    }
}

/// `fmi3LogMessageCallback`. Never unwinds.
unsafe extern "C" fn log_message(
    environment: *mut c_void,
    status: Fmi3Status,
    category: *const c_char,
    message: *const c_char,
) {
    if environment.is_null() {
        return;
    }
    let text = |pointer: *const c_char| {
        if pointer.is_null() {
            String::new()
        } else {
            // SAFETY: FMI requires NUL-terminated strings.
            unsafe { CStr::from_ptr(pointer) }
                .to_string_lossy()
                .into_owned()
        }
    };
    // SAFETY: the harness set the environment to a live, boxed Log3.
    let environment = unsafe { &*(environment as *const Log3) };
    let entry = LogMessage {
        instance_name: String::new(),
        status,
        category: text(category),
        message: text(message),
    };
    if environment.echo {
        eprintln!("{entry}");
    }
    environment
        .messages
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(entry);
}

/// A live FMI 3.0 instance; dropping it calls `fmi3FreeInstance` (unless
/// the FMU reported fmi3Fatal).
pub struct Instance3<'lib> {
    library: &'lib Fmi3Library,
    description: &'lib Fmi3Description,
    /// Harness reference `r` is element `elements[r]` of the scalar view.
    elements: Vec<Element>,
    /// Per FMI 3 variable, its elements at the instance's sizes.
    lengths: Vec<usize>,
    pointer: Fmi3Instance,
    fatal: bool,
    environment: *mut Log3,
    /// What the last `fmi3DoStep` reported.
    last_successful_time: f64,
    terminate_simulation: bool,
}

impl Drop for Instance3<'_> {
    fn drop(&mut self) {
        if self.fatal {
            return;
        }
        // SAFETY: the instance came from this library and is freed once;
        // afterwards the FMU no longer uses the environment.
        unsafe {
            (self.library.free_instance)(self.pointer);
            drop(Box::from_raw(self.environment));
        }
    }
}

/// The FMI 3 variables a list of harness references reads or writes: each
/// variable once (all its elements), in the order first named, and where
/// each reference's value lies among their concatenated elements.
struct Gather {
    variables: Vec<usize>,
    /// Where each variable's elements begin in the concatenation.
    base: Vec<usize>,
    total: usize,
    /// Per reference, its position in the concatenation.
    at: Vec<usize>,
}

impl<'lib> Instance3<'lib> {
    fn log(&self) -> &Log3 {
        // SAFETY: owned by this instance and alive until it drops.
        unsafe { &*self.environment }
    }

    fn check(&mut self, function: &'static str, status: Fmi3Status) -> Result<(), HarnessError> {
        match status {
            OK | WARNING => Ok(()),
            _ => {
                if status == FATAL {
                    self.fatal = true;
                }
                Err(HarnessError::FmiStatus {
                    function,
                    status: status_name(status),
                    log: self.log().take_lines(),
                })
            }
        }
    }

    fn alive(&self, function: &'static str) -> Result<(), HarnessError> {
        if self.fatal {
            return Err(HarnessError::FmiStatus {
                function,
                status: "not called: the FMU reported fmi3Fatal earlier",
                log: Vec::new(),
            });
        }
        Ok(())
    }

    fn call(&mut self, function: &'static str, f: VoidFn) -> Result<(), HarnessError> {
        self.alive(function)?;
        // SAFETY: a live instance and a function of the matching type.
        let status = unsafe { f(self.pointer) };
        self.check(function, status)
    }

    /// Sets the structural parameters that differ from their start values
    /// in configuration mode.
    fn configure(&mut self, sizes: &HashMap<u32, u64>) -> Result<(), HarnessError> {
        let defaults = self.description.default_sizes()?;
        let mut changed: Vec<(u32, u64)> = sizes
            .iter()
            .filter(|(vr, n)| defaults.get(vr) != Some(n))
            .map(|(&vr, &n)| (vr, n))
            .collect();
        if changed.is_empty() {
            return Ok(());
        }
        changed.sort_unstable();
        self.call(
            "fmi3EnterConfigurationMode",
            self.library.enter_configuration_mode,
        )?;
        let (vrs, values): (Vec<u32>, Vec<u64>) = changed.into_iter().unzip();
        // SAFETY: both arrays hold `len` elements.
        let status = unsafe {
            (self.library.uint64.set)(
                self.pointer,
                vrs.as_ptr(),
                vrs.len(),
                values.as_ptr(),
                values.len(),
            )
        };
        self.check("fmi3SetUInt64", status)?;
        self.call(
            "fmi3ExitConfigurationMode",
            self.library.exit_configuration_mode,
        )
    }

    fn gather(&self, references: &[u32]) -> Result<Gather, HarnessError> {
        let mut variables = Vec::new();
        let mut base = Vec::new();
        let mut slot: HashMap<usize, usize> = HashMap::new();
        let mut total = 0;
        let mut at = Vec::with_capacity(references.len());
        for &r in references {
            let element = *self.elements.get(r as usize).ok_or_else(|| {
                HarnessError::BadOptions(format!("harness reference {r} names no variable"))
            })?;
            let position = *slot.entry(element.variable).or_insert_with(|| {
                variables.push(element.variable);
                base.push(total);
                total += self.lengths[element.variable];
                variables.len() - 1
            });
            at.push(base[position] + element.index);
        }
        Ok(Gather {
            variables,
            base,
            total,
            at,
        })
    }

    fn vrs(&self, variables: &[usize]) -> Vec<u32> {
        variables
            .iter()
            .map(|&v| self.description.variables[v].value_reference)
            .collect()
    }

    /// The elements of `variables` (all of one type, read as `T`).
    fn get_raw<T: Copy + Default>(
        &mut self,
        function: &'static str,
        get: GetFn<T>,
        variables: &[usize],
    ) -> Result<Vec<T>, HarnessError> {
        self.alive(function)?;
        let vrs = self.vrs(variables);
        let n: usize = variables.iter().map(|&v| self.lengths[v]).sum();
        let mut values = vec![T::default(); n];
        // SAFETY: `vrs` holds `len` references, `values` room for `n`.
        let status = unsafe {
            get(
                self.pointer,
                vrs.as_ptr(),
                vrs.len(),
                values.as_mut_ptr(),
                n,
            )
        };
        self.check(function, status)?;
        Ok(values)
    }

    fn set_raw<T>(
        &mut self,
        function: &'static str,
        set: SetFn<T>,
        variables: &[usize],
        values: &[T],
    ) -> Result<(), HarnessError> {
        self.alive(function)?;
        let vrs = self.vrs(variables);
        // SAFETY: `vrs` holds `len` references, `values` their elements.
        let status = unsafe {
            set(
                self.pointer,
                vrs.as_ptr(),
                vrs.len(),
                values.as_ptr(),
                values.len(),
            )
        };
        self.check(function, status)
    }

    /// The elements of `variables` (one type) as f64.
    fn read_as_f64(&mut self, ty: Fmi3Type, variables: &[usize]) -> Result<Vec<f64>, HarnessError> {
        let l = self.library;
        macro_rules! read {
            ($name:literal, $access:ident) => {
                self.get_raw($name, l.$access.get, variables)?
                    .into_iter()
                    .map(|x| x as f64)
                    .collect()
            };
        }
        Ok(match ty {
            Fmi3Type::Float64 => self.get_raw("fmi3GetFloat64", l.float64.get, variables)?,
            Fmi3Type::Float32 => read!("fmi3GetFloat32", float32),
            Fmi3Type::Int8 => read!("fmi3GetInt8", int8),
            Fmi3Type::UInt8 => read!("fmi3GetUInt8", uint8),
            Fmi3Type::Int16 => read!("fmi3GetInt16", int16),
            Fmi3Type::UInt16 => read!("fmi3GetUInt16", uint16),
            Fmi3Type::Int32 => read!("fmi3GetInt32", int32),
            Fmi3Type::UInt32 => read!("fmi3GetUInt32", uint32),
            Fmi3Type::Int64 | Fmi3Type::Enumeration => read!("fmi3GetInt64", int64),
            Fmi3Type::UInt64 => read!("fmi3GetUInt64", uint64),
            Fmi3Type::Boolean => self
                .get_raw("fmi3GetBoolean", l.boolean.get, variables)?
                .into_iter()
                .map(|b| if b { 1.0 } else { 0.0 })
                .collect(),
            Fmi3Type::String | Fmi3Type::Binary | Fmi3Type::Clock => {
                return Err(HarnessError::BadOptions(format!(
                    "the harness does not read {ty:?} variables"
                )))
            }
        })
    }

    fn write_from_f64(
        &mut self,
        ty: Fmi3Type,
        variables: &[usize],
        values: &[f64],
    ) -> Result<(), HarnessError> {
        let l = self.library;
        macro_rules! write {
            ($name:literal, $access:ident, $t:ty) => {{
                let v: Vec<$t> = values.iter().map(|&x| x as $t).collect();
                self.set_raw($name, l.$access.set, variables, &v)
            }};
        }
        match ty {
            Fmi3Type::Float64 => self.set_raw("fmi3SetFloat64", l.float64.set, variables, values),
            Fmi3Type::Float32 => write!("fmi3SetFloat32", float32, f32),
            Fmi3Type::Int8 => write!("fmi3SetInt8", int8, i8),
            Fmi3Type::UInt8 => write!("fmi3SetUInt8", uint8, u8),
            Fmi3Type::Int16 => write!("fmi3SetInt16", int16, i16),
            Fmi3Type::UInt16 => write!("fmi3SetUInt16", uint16, u16),
            Fmi3Type::Int32 => write!("fmi3SetInt32", int32, i32),
            Fmi3Type::UInt32 => write!("fmi3SetUInt32", uint32, u32),
            Fmi3Type::Int64 | Fmi3Type::Enumeration => write!("fmi3SetInt64", int64, i64),
            Fmi3Type::UInt64 => write!("fmi3SetUInt64", uint64, u64),
            Fmi3Type::Boolean => {
                let v: Vec<bool> = values.iter().map(|&x| x != 0.0).collect();
                self.set_raw("fmi3SetBoolean", l.boolean.set, variables, &v)
            }
            Fmi3Type::String | Fmi3Type::Binary | Fmi3Type::Clock => Err(HarnessError::BadOptions(
                format!("the harness does not set {ty:?} variables"),
            )),
        }
    }

    /// The values of `references`, of any numeric type, as f64: each
    /// variable read whole, one call per type.
    fn get_values(&mut self, references: &[u32]) -> Result<Vec<f64>, HarnessError> {
        let g = self.gather(references)?;
        let mut all = vec![0.0; g.total];
        for ty in self.types(&g.variables) {
            let (vars, bases) = self.of_type(&g, ty);
            let values = self.read_as_f64(ty, &vars)?;
            let mut from = 0;
            for (&v, &b) in vars.iter().zip(&bases) {
                let len = self.lengths[v];
                all[b..b + len].copy_from_slice(&values[from..from + len]);
                from += len;
            }
        }
        Ok(g.at.iter().map(|&i| all[i]).collect())
    }

    /// Sets `references` to `values`: a variable whose elements are not all
    /// named is read first, so that its other elements keep their values.
    fn set_values(&mut self, references: &[u32], values: &[f64]) -> Result<(), HarnessError> {
        if references.len() != values.len() {
            return Err(HarnessError::BadOptions(format!(
                "{} value references but {} values",
                references.len(),
                values.len()
            )));
        }
        let g = self.gather(references)?;
        let mut covered = vec![false; g.total];
        for &i in &g.at {
            covered[i] = true;
        }
        let mut all = vec![0.0; g.total];
        for ty in self.types(&g.variables) {
            let (vars, bases) = self.of_type(&g, ty);
            let partial: Vec<usize> = vars
                .iter()
                .zip(&bases)
                .filter(|(&v, &b)| !covered[b..b + self.lengths[v]].iter().all(|&c| c))
                .map(|(&v, _)| v)
                .collect();
            if !partial.is_empty() {
                let read = self.read_as_f64(ty, &partial)?;
                let mut from = 0;
                for v in partial {
                    let b = bases[vars.iter().position(|&x| x == v).unwrap_or(0)];
                    let len = self.lengths[v];
                    all[b..b + len].copy_from_slice(&read[from..from + len]);
                    from += len;
                }
            }
            for (&i, &x) in g.at.iter().zip(values) {
                all[i] = x;
            }
            let mut out = Vec::new();
            for (&v, &b) in vars.iter().zip(&bases) {
                out.extend_from_slice(&all[b..b + self.lengths[v]]);
            }
            self.write_from_f64(ty, &vars, &out)?;
        }
        Ok(())
    }

    /// The distinct types of `variables`, in order.
    fn types(&self, variables: &[usize]) -> Vec<Fmi3Type> {
        let mut types = Vec::new();
        for &v in variables {
            let ty = self.description.variables[v].ty;
            if !types.contains(&ty) {
                types.push(ty);
            }
        }
        types
    }

    /// The variables of `g` of type `ty` and their bases.
    fn of_type(&self, g: &Gather, ty: Fmi3Type) -> (Vec<usize>, Vec<usize>) {
        g.variables
            .iter()
            .zip(&g.base)
            .filter(|(&v, _)| self.description.variables[v].ty == ty)
            .map(|(&v, &b)| (v, b))
            .unzip()
    }

    fn model_exchange(&self, function: &str) -> Result<&'lib ModelExchange, HarnessError> {
        self.library
            .model_exchange
            .as_ref()
            .ok_or_else(|| HarnessError::MissingSymbol {
                library: String::new(),
                symbol: function.into(),
            })
    }

    fn array(
        &mut self,
        function: &'static str,
        f: ArrayFn,
        out: &mut [f64],
    ) -> Result<(), HarnessError> {
        self.alive(function)?;
        // SAFETY: `out` has room for `len` values.
        let status = unsafe { f(self.pointer, out.as_mut_ptr(), out.len()) };
        self.check(function, status)
    }
}

impl FmiInstance for Instance3<'_> {
    fn take_log(&self) -> Vec<LogMessage> {
        self.log().take()
    }

    fn set_debug_logging(&mut self, on: bool) -> Result<(), HarnessError> {
        self.alive("fmi3SetDebugLogging")?;
        // SAFETY: no categories: all of them.
        let status =
            unsafe { (self.library.set_debug_logging)(self.pointer, on, 0, std::ptr::null()) };
        self.check("fmi3SetDebugLogging", status)
    }

    fn enter_initialization(
        &mut self,
        tolerance: Option<f64>,
        start_time: f64,
        stop_time: Option<f64>,
    ) -> Result<(), HarnessError> {
        self.alive("fmi3EnterInitializationMode")?;
        // SAFETY: plain values.
        let status = unsafe {
            (self.library.enter_initialization_mode)(
                self.pointer,
                tolerance.is_some(),
                tolerance.unwrap_or(0.0),
                start_time,
                stop_time.is_some(),
                stop_time.unwrap_or(0.0),
            )
        };
        self.check("fmi3EnterInitializationMode", status)
    }

    fn exit_initialization_mode(&mut self) -> Result<(), HarnessError> {
        self.call(
            "fmi3ExitInitializationMode",
            self.library.exit_initialization_mode,
        )
    }

    fn terminate(&mut self) -> Result<(), HarnessError> {
        self.call("fmi3Terminate", self.library.terminate)
    }

    fn reset(&mut self) -> Result<(), HarnessError> {
        self.call("fmi3Reset", self.library.reset)
    }

    fn get_real(&mut self, references: &[u32]) -> Result<Vec<f64>, HarnessError> {
        self.get_values(references)
    }

    fn get_integer(&mut self, references: &[u32]) -> Result<Vec<i32>, HarnessError> {
        Ok(self
            .get_values(references)?
            .into_iter()
            .map(|x| x as i32)
            .collect())
    }

    fn get_boolean(&mut self, references: &[u32]) -> Result<Vec<bool>, HarnessError> {
        Ok(self
            .get_values(references)?
            .into_iter()
            .map(|x| x != 0.0)
            .collect())
    }

    fn set_real(&mut self, references: &[u32], values: &[f64]) -> Result<(), HarnessError> {
        self.set_values(references, values)
    }

    fn set_integer(&mut self, references: &[u32], values: &[i32]) -> Result<(), HarnessError> {
        let values: Vec<f64> = values.iter().map(|&x| f64::from(x)).collect();
        self.set_values(references, &values)
    }

    fn set_boolean(&mut self, references: &[u32], values: &[bool]) -> Result<(), HarnessError> {
        let values: Vec<f64> = values.iter().map(|&b| if b { 1.0 } else { 0.0 }).collect();
        self.set_values(references, &values)
    }

    fn enter_event_mode(&mut self) -> Result<(), HarnessError> {
        let f = self.model_exchange("fmi3EnterEventMode")?.enter_event_mode;
        self.call("fmi3EnterEventMode", f)
    }

    fn update_discrete_states(&mut self) -> Result<EventInfo, HarnessError> {
        let f = self
            .model_exchange("fmi3UpdateDiscreteStates")?
            .update_discrete_states;
        self.alive("fmi3UpdateDiscreteStates")?;
        let mut flags = [false; 5];
        let mut next = 0.0;
        let [a, b, c, d, e] = &mut flags;
        // SAFETY: six valid out-pointers.
        let status = unsafe { f(self.pointer, a, b, c, d, e, &mut next) };
        self.check("fmi3UpdateDiscreteStates", status)?;
        let int = |b: bool| c_int::from(b);
        Ok(EventInfo {
            new_discrete_states_needed: int(flags[0]),
            terminate_simulation: int(flags[1]),
            nominals_of_continuous_states_changed: int(flags[2]),
            values_of_continuous_states_changed: int(flags[3]),
            next_event_time_defined: int(flags[4]),
            next_event_time: next,
        })
    }

    fn enter_continuous_time_mode(&mut self) -> Result<(), HarnessError> {
        let f = self
            .model_exchange("fmi3EnterContinuousTimeMode")?
            .enter_continuous_time_mode;
        self.call("fmi3EnterContinuousTimeMode", f)
    }

    fn completed_integrator_step(&mut self) -> Result<(bool, bool), HarnessError> {
        let f = self
            .model_exchange("fmi3CompletedIntegratorStep")?
            .completed_integrator_step;
        self.alive("fmi3CompletedIntegratorStep")?;
        let (mut event, mut terminate) = (false, false);
        // SAFETY: two valid out-pointers.
        let status = unsafe { f(self.pointer, true, &mut event, &mut terminate) };
        self.check("fmi3CompletedIntegratorStep", status)?;
        Ok((event, terminate))
    }

    fn set_time(&mut self, time: f64) -> Result<(), HarnessError> {
        let f = self.model_exchange("fmi3SetTime")?.set_time;
        self.alive("fmi3SetTime")?;
        // SAFETY: a plain value.
        let status = unsafe { f(self.pointer, time) };
        self.check("fmi3SetTime", status)
    }

    fn set_continuous_states(&mut self, states: &[f64]) -> Result<(), HarnessError> {
        let f = self
            .model_exchange("fmi3SetContinuousStates")?
            .set_continuous_states;
        self.alive("fmi3SetContinuousStates")?;
        // SAFETY: `len` values.
        let status = unsafe { f(self.pointer, states.as_ptr(), states.len()) };
        self.check("fmi3SetContinuousStates", status)
    }

    fn get_derivatives(&mut self, out: &mut [f64]) -> Result<(), HarnessError> {
        let f = self
            .model_exchange("fmi3GetContinuousStateDerivatives")?
            .get_derivatives;
        self.array("fmi3GetContinuousStateDerivatives", f, out)
    }

    fn get_event_indicators(&mut self, out: &mut [f64]) -> Result<(), HarnessError> {
        let f = self
            .model_exchange("fmi3GetEventIndicators")?
            .get_event_indicators;
        self.array("fmi3GetEventIndicators", f, out)
    }

    fn get_continuous_states(&mut self, out: &mut [f64]) -> Result<(), HarnessError> {
        let f = self
            .model_exchange("fmi3GetContinuousStates")?
            .get_continuous_states;
        self.array("fmi3GetContinuousStates", f, out)
    }

    fn get_nominals_of_continuous_states(&mut self, out: &mut [f64]) -> Result<(), HarnessError> {
        let f = self
            .model_exchange("fmi3GetNominalsOfContinuousStates")?
            .get_nominals;
        self.array("fmi3GetNominalsOfContinuousStates", f, out)
    }

    fn get_directional_derivative_into(
        &mut self,
        unknowns: &[u32],
        knowns: &[u32],
        seed: &[f64],
        out: &mut [f64],
    ) -> Result<(), HarnessError> {
        const FUNCTION: &str = "fmi3GetDirectionalDerivative";
        let f =
            self.library
                .get_directional_derivative
                .ok_or_else(|| HarnessError::MissingSymbol {
                    library: String::new(),
                    symbol: FUNCTION.into(),
                })?;
        if knowns.len() != seed.len() || unknowns.len() != out.len() {
            return Err(HarnessError::BadOptions(
                "directional derivative: one seed per known and one result per unknown are needed"
                    .into(),
            ));
        }
        self.alive(FUNCTION)?;
        // Arrays are known and unknown as a whole: the seed of an element
        // not named is zero, the sensitivity of one not asked for dropped.
        let k = self.gather(knowns)?;
        let u = self.gather(unknowns)?;
        let mut full_seed = vec![0.0; k.total];
        for (&i, &s) in k.at.iter().zip(seed) {
            full_seed[i] += s;
        }
        let mut sensitivity = vec![0.0; u.total];
        let (kv, uv) = (self.vrs(&k.variables), self.vrs(&u.variables));
        // SAFETY: every pointer is valid for the length passed with it.
        let status = unsafe {
            f(
                self.pointer,
                uv.as_ptr(),
                uv.len(),
                kv.as_ptr(),
                kv.len(),
                full_seed.as_ptr(),
                full_seed.len(),
                sensitivity.as_mut_ptr(),
                sensitivity.len(),
            )
        };
        self.check(FUNCTION, status)?;
        for (o, &i) in out.iter_mut().zip(&u.at) {
            *o = sensitivity[i];
        }
        Ok(())
    }

    fn get_fmu_state(&mut self) -> Result<FmuState, HarnessError> {
        self.alive("fmi3GetFMUState")?;
        let mut state: *mut c_void = std::ptr::null_mut();
        // SAFETY: a valid out-pointer, NULL for a new state.
        let status = unsafe { (self.library.get_fmu_state)(self.pointer, &mut state) };
        self.check("fmi3GetFMUState", status)?;
        Ok(FmuState(state))
    }

    fn set_fmu_state(&mut self, state: &FmuState) -> Result<(), HarnessError> {
        self.alive("fmi3SetFMUState")?;
        // SAFETY: the state came from this instance.
        let status = unsafe { (self.library.set_fmu_state)(self.pointer, state.0) };
        self.check("fmi3SetFMUState", status)
    }

    fn free_fmu_state(&mut self, state: FmuState) -> Result<(), HarnessError> {
        self.alive("fmi3FreeFMUState")?;
        let mut pointer = state.0;
        // SAFETY: the state came from this instance and is freed once.
        let status = unsafe { (self.library.free_fmu_state)(self.pointer, &mut pointer) };
        self.check("fmi3FreeFMUState", status)
    }

    fn do_step(&mut self, current: f64, step: f64) -> Result<bool, HarnessError> {
        let cs =
            self.library
                .co_simulation
                .as_ref()
                .ok_or_else(|| HarnessError::MissingSymbol {
                    library: String::new(),
                    symbol: "fmi3DoStep".into(),
                })?;
        self.alive("fmi3DoStep")?;
        let (mut event, mut terminate, mut early) = (false, false, false);
        let mut reached = f64::NAN;
        // SAFETY: valid out-pointers and plain values.
        let status = unsafe {
            (cs.do_step)(
                self.pointer,
                current,
                step,
                true,
                &mut event,
                &mut terminate,
                &mut early,
                &mut reached,
            )
        };
        self.last_successful_time = reached;
        self.terminate_simulation = terminate;
        if status == DISCARD {
            return Ok(false);
        }
        self.check("fmi3DoStep", status)?;
        // An FMU that ends the simulation may stop short of the step's end (an early
        // return is reported only to importers that allow one).
        Ok(!terminate)
    }

    fn terminated(&mut self) -> Result<bool, HarnessError> {
        Ok(self.terminate_simulation)
    }

    fn last_successful_time(&mut self) -> Result<f64, HarnessError> {
        Ok(self.last_successful_time)
    }

    fn set_real_input_derivatives(
        &mut self,
        _references: &[u32],
        _derivatives: &[f64],
    ) -> Result<(), HarnessError> {
        Err(HarnessError::BadOptions(
            "FMI 3.0 Co-Simulation takes no input derivatives".into(),
        ))
    }

    fn get_real_output_derivatives(
        &mut self,
        references: &[u32],
        out: &mut [f64],
    ) -> Result<(), HarnessError> {
        const FUNCTION: &str = "fmi3GetOutputDerivatives";
        let f = self
            .library
            .co_simulation
            .as_ref()
            .and_then(|cs| cs.get_output_derivatives)
            .ok_or_else(|| HarnessError::MissingSymbol {
                library: String::new(),
                symbol: FUNCTION.into(),
            })?;
        self.alive(FUNCTION)?;
        let g = self.gather(references)?;
        let vrs = self.vrs(&g.variables);
        let orders = vec![1i32; vrs.len()];
        let mut values = vec![0.0; g.total];
        // SAFETY: every pointer is valid for the length passed with it.
        let status = unsafe {
            f(
                self.pointer,
                vrs.as_ptr(),
                vrs.len(),
                orders.as_ptr(),
                values.as_mut_ptr(),
                values.len(),
            )
        };
        self.check(FUNCTION, status)?;
        for (o, &i) in out.iter_mut().zip(&g.at) {
            *o = values[i];
        }
        Ok(())
    }
}
