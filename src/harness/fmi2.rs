//! The FMI 2.0 Model Exchange C interface: types, the loaded library with typed function
//! pointers, the callbacks, and a safe wrapper around one instance.
//!
//! Every wrapper method checks the returned status: `fmi2OK` and `fmi2Warning` are
//! success, anything else becomes [`HarnessError::FmiStatus`] carrying what the FMU logged.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::Path;
use std::sync::Mutex;

use libloading::Library;

use super::error::HarnessError;

pub type Fmi2Component = *mut c_void;
pub type Fmi2Boolean = c_int;
pub type Fmi2Status = c_int;
pub type Fmi2ValueReference = u32;

pub const FMI2_OK: Fmi2Status = 0;
pub const FMI2_WARNING: Fmi2Status = 1;
pub const FMI2_DISCARD: Fmi2Status = 2;
pub const FMI2_ERROR: Fmi2Status = 3;
pub const FMI2_FATAL: Fmi2Status = 4;
pub const FMI2_PENDING: Fmi2Status = 5;

const FMI2_TRUE: Fmi2Boolean = 1;
const FMI2_FALSE: Fmi2Boolean = 0;
const FMI2_MODEL_EXCHANGE: c_int = 0;
const FMI2_CO_SIMULATION: c_int = 1;
/// `fmi2LastSuccessfulTime` of `fmi2StatusKind`.
const FMI2_LAST_SUCCESSFUL_TIME: c_int = 2;
const FMI2_TERMINATED: c_int = 3;

/// The printf-style logger every FMU calls.
pub type LoggerFn =
    unsafe extern "C" fn(*mut c_void, *const c_char, Fmi2Status, *const c_char, *const c_char, ...);

/// `fmi2CallbackFunctions`.
#[repr(C)]
pub struct CallbackFunctions {
    pub logger: LoggerFn,
    pub allocate_memory: unsafe extern "C" fn(usize, usize) -> *mut c_void,
    pub free_memory: unsafe extern "C" fn(*mut c_void),
    pub step_finished: Option<unsafe extern "C" fn(*mut c_void, Fmi2Status)>,
    pub component_environment: *mut c_void,
}

/// `fmi2EventInfo`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct EventInfo {
    pub new_discrete_states_needed: Fmi2Boolean,
    pub terminate_simulation: Fmi2Boolean,
    pub nominals_of_continuous_states_changed: Fmi2Boolean,
    pub values_of_continuous_states_changed: Fmi2Boolean,
    pub next_event_time_defined: Fmi2Boolean,
    pub next_event_time: f64,
}

extern "C" {
    /// Defined in `logger_shim.c`.
    fn mofmu_harness_logger(
        environment: *mut c_void,
        instance_name: *const c_char,
        status: Fmi2Status,
        category: *const c_char,
        message: *const c_char,
        ...
    );
    fn calloc(count: usize, size: usize) -> *mut c_void;
    fn free(pointer: *mut c_void);
}

type VoidFn = unsafe extern "C" fn(Fmi2Component) -> Fmi2Status;
type ArrayFn = unsafe extern "C" fn(Fmi2Component, *mut f64, usize) -> Fmi2Status;
type SetArrayFn = unsafe extern "C" fn(Fmi2Component, *const f64, usize) -> Fmi2Status;
type GetFn<T> =
    unsafe extern "C" fn(Fmi2Component, *const Fmi2ValueReference, usize, *mut T) -> Fmi2Status;
type SetFn<T> =
    unsafe extern "C" fn(Fmi2Component, *const Fmi2ValueReference, usize, *const T) -> Fmi2Status;

/// The Model Exchange functions of one loaded shared library.
///
/// The function pointers stay valid because the `Library` is owned alongside them and
/// is closed only when this struct drops.
pub struct Fmi2Library {
    get_version: unsafe extern "C" fn() -> *const c_char,
    set_debug_logging:
        unsafe extern "C" fn(Fmi2Component, Fmi2Boolean, usize, *const *const c_char) -> Fmi2Status,
    instantiate: unsafe extern "C" fn(
        *const c_char,
        c_int,
        *const c_char,
        *const c_char,
        *const CallbackFunctions,
        Fmi2Boolean,
        Fmi2Boolean,
    ) -> Fmi2Component,
    free_instance: unsafe extern "C" fn(Fmi2Component),
    setup_experiment:
        unsafe extern "C" fn(Fmi2Component, Fmi2Boolean, f64, f64, Fmi2Boolean, f64) -> Fmi2Status,
    enter_initialization_mode: VoidFn,
    exit_initialization_mode: VoidFn,
    terminate: VoidFn,
    reset: VoidFn,
    get_real: GetFn<f64>,
    get_integer: GetFn<c_int>,
    get_boolean: GetFn<Fmi2Boolean>,
    set_real: SetFn<f64>,
    set_integer: SetFn<c_int>,
    set_boolean: SetFn<Fmi2Boolean>,
    enter_event_mode: VoidFn,
    new_discrete_states: unsafe extern "C" fn(Fmi2Component, *mut EventInfo) -> Fmi2Status,
    enter_continuous_time_mode: VoidFn,
    completed_integrator_step: unsafe extern "C" fn(
        Fmi2Component,
        Fmi2Boolean,
        *mut Fmi2Boolean,
        *mut Fmi2Boolean,
    ) -> Fmi2Status,
    set_time: unsafe extern "C" fn(Fmi2Component, f64) -> Fmi2Status,
    set_continuous_states: SetArrayFn,
    get_derivatives: ArrayFn,
    get_event_indicators: ArrayFn,
    get_continuous_states: ArrayFn,
    get_nominals_of_continuous_states: ArrayFn,
    /// Optional in practice: some importers' FMUs leave it out.
    get_directional_derivative: Option<
        unsafe extern "C" fn(
            Fmi2Component,
            *const Fmi2ValueReference,
            usize,
            *const Fmi2ValueReference,
            usize,
            *const f64,
            *mut f64,
        ) -> Fmi2Status,
    >,
    /// The Co-Simulation functions, present when the library exports them.
    co_simulation: Option<CoSimulationFunctions>,
    /// `fmi2GetFMUstate`, `fmi2SetFMUstate` and `fmi2FreeFMUstate`, when
    /// the library exports them.
    fmu_state: Option<StateFunctions>,
    /// Declared last so it is closed after nothing else can use the pointers above.
    _library: Library,
}

/// The functions that save and restore an instance's state.
#[derive(Clone, Copy)]
struct StateFunctions {
    get: unsafe extern "C" fn(Fmi2Component, *mut *mut c_void) -> Fmi2Status,
    set: unsafe extern "C" fn(Fmi2Component, *mut c_void) -> Fmi2Status,
    free: unsafe extern "C" fn(Fmi2Component, *mut *mut c_void) -> Fmi2Status,
}

/// An instance's state saved by `fmi2GetFMUstate`; give it back to
/// [`Instance::free_fmu_state`] of the same instance.
pub struct FmuState(pub(crate) *mut c_void);

/// The Co-Simulation functions the harness calls.
#[derive(Clone, Copy)]
struct CoSimulationFunctions {
    do_step: unsafe extern "C" fn(Fmi2Component, f64, f64, Fmi2Boolean) -> Fmi2Status,
    set_real_input_derivatives: unsafe extern "C" fn(
        Fmi2Component,
        *const Fmi2ValueReference,
        usize,
        *const c_int,
        *const f64,
    ) -> Fmi2Status,
    get_real_status: unsafe extern "C" fn(Fmi2Component, c_int, *mut f64) -> Fmi2Status,
    /// `fmi2GetBooleanStatus`, for `fmi2Terminated` after a discarded step.
    get_boolean_status:
        Option<unsafe extern "C" fn(Fmi2Component, c_int, *mut Fmi2Boolean) -> Fmi2Status>,
    /// Mandatory in FMI 2.0 Co-Simulation, but some exporters leave it out.
    get_real_output_derivatives: Option<
        unsafe extern "C" fn(
            Fmi2Component,
            *const Fmi2ValueReference,
            usize,
            *const c_int,
            *mut f64,
        ) -> Fmi2Status,
    >,
}

impl Fmi2Library {
    /// Loads the shared library and resolves every function the harness calls.
    pub fn load(path: &Path) -> Result<Fmi2Library, HarnessError> {
        // SAFETY: loading a library runs its initialisers; an FMU binary is trusted code
        // by the nature of FMI, exactly as in any other importing tool.
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
                // SAFETY: the symbol is given the type that the FMI 2.0 standard declares
                // for this function name.
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
        Ok(Fmi2Library {
            get_version: symbol!("fmi2GetVersion"),
            set_debug_logging: symbol!("fmi2SetDebugLogging"),
            instantiate: symbol!("fmi2Instantiate"),
            free_instance: symbol!("fmi2FreeInstance"),
            setup_experiment: symbol!("fmi2SetupExperiment"),
            enter_initialization_mode: symbol!("fmi2EnterInitializationMode"),
            exit_initialization_mode: symbol!("fmi2ExitInitializationMode"),
            terminate: symbol!("fmi2Terminate"),
            reset: symbol!("fmi2Reset"),
            get_real: symbol!("fmi2GetReal"),
            get_integer: symbol!("fmi2GetInteger"),
            get_boolean: symbol!("fmi2GetBoolean"),
            set_real: symbol!("fmi2SetReal"),
            set_integer: symbol!("fmi2SetInteger"),
            set_boolean: symbol!("fmi2SetBoolean"),
            enter_event_mode: symbol!("fmi2EnterEventMode"),
            new_discrete_states: symbol!("fmi2NewDiscreteStates"),
            enter_continuous_time_mode: symbol!("fmi2EnterContinuousTimeMode"),
            completed_integrator_step: symbol!("fmi2CompletedIntegratorStep"),
            set_time: symbol!("fmi2SetTime"),
            set_continuous_states: symbol!("fmi2SetContinuousStates"),
            get_derivatives: symbol!("fmi2GetDerivatives"),
            get_event_indicators: symbol!("fmi2GetEventIndicators"),
            get_continuous_states: symbol!("fmi2GetContinuousStates"),
            get_nominals_of_continuous_states: symbol!("fmi2GetNominalsOfContinuousStates"),
            // SAFETY: the type is the one FMI 2.0 declares for this name.
            get_directional_derivative: unsafe { library.get(b"fmi2GetDirectionalDerivative\0") }
                .ok()
                .map(|s| *s),
            // SAFETY: the types are the ones FMI 2.0 declares for these names.
            co_simulation: unsafe {
                match (
                    library.get(b"fmi2DoStep\0"),
                    library.get(b"fmi2SetRealInputDerivatives\0"),
                    library.get(b"fmi2GetRealStatus\0"),
                ) {
                    (Ok(do_step), Ok(set_real_input_derivatives), Ok(get_real_status)) => {
                        Some(CoSimulationFunctions {
                            do_step: *do_step,
                            set_real_input_derivatives: *set_real_input_derivatives,
                            get_real_status: *get_real_status,
                            get_boolean_status: library
                                .get(b"fmi2GetBooleanStatus\0")
                                .ok()
                                .map(|s| *s),
                            get_real_output_derivatives: library
                                .get(b"fmi2GetRealOutputDerivatives\0")
                                .ok()
                                .map(|s| *s),
                        })
                    }
                    _ => None,
                }
            },
            // SAFETY: the types are the ones FMI 2.0 declares for these names.
            fmu_state: unsafe {
                match (
                    library.get(b"fmi2GetFMUstate\0"),
                    library.get(b"fmi2SetFMUstate\0"),
                    library.get(b"fmi2FreeFMUstate\0"),
                ) {
                    (Ok(get), Ok(set), Ok(free)) => Some(StateFunctions {
                        get: *get,
                        set: *set,
                        free: *free,
                    }),
                    _ => None,
                }
            },
            _library: library,
        })
    }

    /// `fmi2GetVersion`, e.g. "2.0".
    pub fn version(&self) -> String {
        // SAFETY: the function takes no arguments and returns a static string or NULL.
        let text = unsafe { (self.get_version)() };
        if text.is_null() {
            return String::new();
        }
        // SAFETY: non-null, NUL-terminated by the FMI contract.
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    }

    /// `fmi2Instantiate` for Model Exchange, invisible.
    pub fn instantiate<'lib>(
        &'lib self,
        instance_name: &str,
        guid: &str,
        resource_location: &str,
        logging_on: bool,
    ) -> Result<Instance<'lib>, HarnessError> {
        self.instantiate_as(instance_name, guid, resource_location, logging_on, false)
    }

    /// `fmi2Instantiate` for Model Exchange or (`co_simulation`) Co-Simulation.
    pub fn instantiate_as<'lib>(
        &'lib self,
        instance_name: &str,
        guid: &str,
        resource_location: &str,
        logging_on: bool,
        co_simulation: bool,
    ) -> Result<Instance<'lib>, HarnessError> {
        if co_simulation && self.co_simulation.is_none() {
            return Err(HarnessError::MissingSymbol {
                library: String::new(),
                symbol: "fmi2DoStep".into(),
            });
        }
        let to_c = |text: &str, what: &str| {
            CString::new(text).map_err(|_| {
                HarnessError::BadOptions(format!("{what} contains a NUL byte: {text:?}"))
            })
        };
        let instance_name = to_c(instance_name, "instance name")?;
        let guid = to_c(guid, "guid")?;
        let resource_location = to_c(resource_location, "resource location")?;
        // The FMU may keep both pointers for the instance's whole life, so they are
        // handed over as raw pointers and only ever used through them afterwards.
        let environment = Box::into_raw(Box::new(LogEnvironment {
            forward: forward_log_message,
            messages: Mutex::new(Vec::new()),
            echo: logging_on,
        }));
        let callbacks = Box::into_raw(Box::new(CallbackFunctions {
            logger: mofmu_harness_logger,
            allocate_memory: calloc,
            free_memory: free,
            step_finished: None,
            component_environment: environment.cast(),
        }));
        // SAFETY: all strings are NUL-terminated and outlive the call; the callbacks and
        // the environment stay alive until the returned Instance drops.
        let component = unsafe {
            (self.instantiate)(
                instance_name.as_ptr(),
                if co_simulation {
                    FMI2_CO_SIMULATION
                } else {
                    FMI2_MODEL_EXCHANGE
                },
                guid.as_ptr(),
                resource_location.as_ptr(),
                callbacks,
                FMI2_FALSE,
                if logging_on { FMI2_TRUE } else { FMI2_FALSE },
            )
        };
        if component.is_null() {
            // SAFETY: there is no instance, so nothing refers to the two allocations.
            let (environment, _) =
                unsafe { (Box::from_raw(environment), Box::from_raw(callbacks)) };
            return Err(HarnessError::InstantiateFailed {
                log: environment.take_lines(),
            });
        }
        Ok(Instance {
            library: self,
            component,
            fatal: false,
            environment,
            callbacks,
        })
    }
}

/// One message the FMU passed to the logger callback.
#[derive(Debug, Clone, PartialEq)]
pub struct LogMessage {
    pub instance_name: String,
    pub status: Fmi2Status,
    pub category: String,
    pub message: String,
}

impl std::fmt::Display for LogMessage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "[{}] {}: {}",
            status_name(self.status),
            self.category,
            self.message
        )
    }
}

/// What `componentEnvironment` points to. The C shim reads only `forward`, the first
/// field, which is why the layout is `repr(C)`.
#[repr(C)]
struct LogEnvironment {
    forward:
        unsafe extern "C" fn(*mut c_void, *const c_char, Fmi2Status, *const c_char, *const c_char),
    messages: Mutex<Vec<LogMessage>>,
    /// Also print each message to standard error as it arrives.
    echo: bool,
}

impl LogEnvironment {
    fn take(&self) -> Vec<LogMessage> {
        let mut messages = self.messages.lock().unwrap_or_else(|e| e.into_inner());
        std::mem::take(&mut *messages)
    }

    /// The most recent messages, rendered, for an error report.
    fn take_lines(&self) -> Vec<String> {
        const KEEP: usize = 20;
        let messages = self.take();
        let skip = messages.len().saturating_sub(KEEP);
        messages[skip..].iter().map(|m| m.to_string()).collect()
    }
}

/// Receives each formatted message from the C shim. Never unwinds: all work here is
/// infallible apart from lock poisoning, which is recovered from.
unsafe extern "C" fn forward_log_message(
    environment: *mut c_void,
    instance_name: *const c_char,
    status: Fmi2Status,
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
            // SAFETY: the shim passes NUL-terminated strings (or the FMU's own, which
            // FMI requires to be NUL-terminated).
            unsafe { CStr::from_ptr(pointer) }
                .to_string_lossy()
                .into_owned()
        }
    };
    // SAFETY: the harness set componentEnvironment to a live, boxed LogEnvironment.
    let environment = unsafe { &*(environment as *const LogEnvironment) };
    let entry = LogMessage {
        instance_name: text(instance_name),
        status,
        category: text(category),
        message: text(message),
    };
    if environment.echo {
        eprintln!("{}: {entry}", entry.instance_name);
    }
    environment
        .messages
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(entry);
}

/// The human name of an `fmi2Status`.
pub fn status_name(status: Fmi2Status) -> &'static str {
    match status {
        FMI2_OK => "OK",
        FMI2_WARNING => "Warning",
        FMI2_DISCARD => "Discard",
        FMI2_ERROR => "Error",
        FMI2_FATAL => "Fatal",
        FMI2_PENDING => "Pending",
        _ => "an invalid status",
    }
}

/// A live FMU instance. Dropping it calls `fmi2FreeInstance` (unless the FMU reported
/// `fmi2Fatal`, after which FMI forbids any further call).
pub struct Instance<'lib> {
    library: &'lib Fmi2Library,
    component: Fmi2Component,
    fatal: bool,
    /// Owned (from `Box::into_raw`); the FMU holds it as `componentEnvironment`.
    environment: *mut LogEnvironment,
    /// Owned (from `Box::into_raw`); the FMU may hold it until it is freed.
    callbacks: *mut CallbackFunctions,
}

impl Drop for Instance<'_> {
    fn drop(&mut self) {
        if self.fatal {
            // FMI forbids further calls, fmi2FreeInstance included, so the FMU may still
            // hold the callbacks: leak them rather than free memory it could touch.
            return;
        }
        // SAFETY: the component came from this library's fmi2Instantiate and is freed
        // exactly once, here; afterwards the FMU no longer uses the callbacks, so the
        // two allocations made for it can be released.
        unsafe {
            (self.library.free_instance)(self.component);
            drop(Box::from_raw(self.callbacks));
            drop(Box::from_raw(self.environment));
        }
    }
}

impl Instance<'_> {
    fn log(&self) -> &LogEnvironment {
        // SAFETY: owned by this instance and alive until it drops; the FMU only reads
        // it through shared access (the messages are behind a mutex).
        unsafe { &*self.environment }
    }

    /// Everything the FMU has logged since the last call (or since an error took it).
    pub fn take_log(&self) -> Vec<LogMessage> {
        self.log().take()
    }

    fn check(&mut self, function: &'static str, status: Fmi2Status) -> Result<(), HarnessError> {
        match status {
            FMI2_OK | FMI2_WARNING => Ok(()),
            _ => {
                if status == FMI2_FATAL {
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

    fn ensure_alive(&self, function: &'static str) -> Result<(), HarnessError> {
        if self.fatal {
            return Err(HarnessError::FmiStatus {
                function,
                status: "not called: the FMU reported fmi2Fatal earlier",
                log: Vec::new(),
            });
        }
        Ok(())
    }

    fn call(&mut self, function: &'static str, f: VoidFn) -> Result<(), HarnessError> {
        self.ensure_alive(function)?;
        // SAFETY: a valid component and a function of the matching signature.
        let status = unsafe { f(self.component) };
        self.check(function, status)
    }

    /// `fmi2SetDebugLogging` with no category list (all categories).
    pub fn set_debug_logging(&mut self, on: bool) -> Result<(), HarnessError> {
        self.ensure_alive("fmi2SetDebugLogging")?;
        let flag = if on { FMI2_TRUE } else { FMI2_FALSE };
        // SAFETY: zero categories with a null array is allowed by FMI 2.0.
        let status =
            unsafe { (self.library.set_debug_logging)(self.component, flag, 0, std::ptr::null()) };
        self.check("fmi2SetDebugLogging", status)
    }

    /// `fmi2SetupExperiment`.
    pub fn setup_experiment(
        &mut self,
        tolerance: Option<f64>,
        start_time: f64,
        stop_time: Option<f64>,
    ) -> Result<(), HarnessError> {
        self.ensure_alive("fmi2SetupExperiment")?;
        let defined = |o: Option<f64>| if o.is_some() { FMI2_TRUE } else { FMI2_FALSE };
        // SAFETY: plain values.
        let status = unsafe {
            (self.library.setup_experiment)(
                self.component,
                defined(tolerance),
                tolerance.unwrap_or(0.0),
                start_time,
                defined(stop_time),
                stop_time.unwrap_or(0.0),
            )
        };
        self.check("fmi2SetupExperiment", status)
    }

    pub fn enter_initialization_mode(&mut self) -> Result<(), HarnessError> {
        self.call(
            "fmi2EnterInitializationMode",
            self.library.enter_initialization_mode,
        )
    }

    pub fn exit_initialization_mode(&mut self) -> Result<(), HarnessError> {
        self.call(
            "fmi2ExitInitializationMode",
            self.library.exit_initialization_mode,
        )
    }

    pub fn terminate(&mut self) -> Result<(), HarnessError> {
        self.call("fmi2Terminate", self.library.terminate)
    }

    pub fn reset(&mut self) -> Result<(), HarnessError> {
        self.call("fmi2Reset", self.library.reset)
    }

    pub fn enter_event_mode(&mut self) -> Result<(), HarnessError> {
        self.call("fmi2EnterEventMode", self.library.enter_event_mode)
    }

    pub fn enter_continuous_time_mode(&mut self) -> Result<(), HarnessError> {
        self.call(
            "fmi2EnterContinuousTimeMode",
            self.library.enter_continuous_time_mode,
        )
    }

    /// `fmi2NewDiscreteStates`: one step of the event iteration.
    pub fn new_discrete_states(&mut self) -> Result<EventInfo, HarnessError> {
        self.ensure_alive("fmi2NewDiscreteStates")?;
        let mut info = EventInfo::default();
        // SAFETY: `info` is a valid, writable fmi2EventInfo.
        let status = unsafe { (self.library.new_discrete_states)(self.component, &mut info) };
        self.check("fmi2NewDiscreteStates", status)?;
        Ok(info)
    }

    /// `fmi2CompletedIntegratorStep`; returns `(enterEventMode, terminateSimulation)`.
    pub fn completed_integrator_step(&mut self) -> Result<(bool, bool), HarnessError> {
        self.ensure_alive("fmi2CompletedIntegratorStep")?;
        let mut enter_event_mode = FMI2_FALSE;
        let mut terminate = FMI2_FALSE;
        // SAFETY: both out-pointers are valid.
        let status = unsafe {
            (self.library.completed_integrator_step)(
                self.component,
                FMI2_TRUE,
                &mut enter_event_mode,
                &mut terminate,
            )
        };
        self.check("fmi2CompletedIntegratorStep", status)?;
        Ok((enter_event_mode != FMI2_FALSE, terminate != FMI2_FALSE))
    }

    fn state_functions(&self, function: &'static str) -> Result<StateFunctions, HarnessError> {
        self.library
            .fmu_state
            .ok_or_else(|| HarnessError::MissingSymbol {
                library: String::new(),
                symbol: function.to_string(),
            })
    }

    /// `fmi2GetFMUstate`: the instance's state, saved.
    pub fn get_fmu_state(&mut self) -> Result<FmuState, HarnessError> {
        let functions = self.state_functions("fmi2GetFMUstate")?;
        self.ensure_alive("fmi2GetFMUstate")?;
        let mut state: *mut c_void = std::ptr::null_mut();
        // SAFETY: `state` is a valid out-pointer, initially NULL (a new state).
        let status = unsafe { (functions.get)(self.component, &mut state) };
        self.check("fmi2GetFMUstate", status)?;
        Ok(FmuState(state))
    }

    /// `fmi2SetFMUstate`: the instance back to a state it saved.
    pub fn set_fmu_state(&mut self, state: &FmuState) -> Result<(), HarnessError> {
        let functions = self.state_functions("fmi2SetFMUstate")?;
        self.ensure_alive("fmi2SetFMUstate")?;
        // SAFETY: the state came from this instance's fmi2GetFMUstate.
        let status = unsafe { (functions.set)(self.component, state.0) };
        self.check("fmi2SetFMUstate", status)
    }

    /// `fmi2FreeFMUstate`.
    pub fn free_fmu_state(&mut self, state: FmuState) -> Result<(), HarnessError> {
        let functions = self.state_functions("fmi2FreeFMUstate")?;
        self.ensure_alive("fmi2FreeFMUstate")?;
        let mut pointer = state.0;
        // SAFETY: the state came from this instance's fmi2GetFMUstate and is
        // freed once (the handle is consumed).
        let status = unsafe { (functions.free)(self.component, &mut pointer) };
        self.check("fmi2FreeFMUstate", status)
    }

    pub fn set_time(&mut self, time: f64) -> Result<(), HarnessError> {
        self.ensure_alive("fmi2SetTime")?;
        // SAFETY: plain value.
        let status = unsafe { (self.library.set_time)(self.component, time) };
        self.check("fmi2SetTime", status)
    }

    pub fn set_continuous_states(&mut self, states: &[f64]) -> Result<(), HarnessError> {
        self.ensure_alive("fmi2SetContinuousStates")?;
        // SAFETY: the slice is valid for `len` reads.
        let status = unsafe {
            (self.library.set_continuous_states)(self.component, states.as_ptr(), states.len())
        };
        self.check("fmi2SetContinuousStates", status)
    }

    fn get_array(
        &mut self,
        function: &'static str,
        f: ArrayFn,
        out: &mut [f64],
    ) -> Result<(), HarnessError> {
        self.ensure_alive(function)?;
        // SAFETY: the slice is valid for `len` writes.
        let status = unsafe { f(self.component, out.as_mut_ptr(), out.len()) };
        self.check(function, status)
    }

    pub fn get_derivatives(&mut self, out: &mut [f64]) -> Result<(), HarnessError> {
        self.get_array("fmi2GetDerivatives", self.library.get_derivatives, out)
    }

    pub fn get_event_indicators(&mut self, out: &mut [f64]) -> Result<(), HarnessError> {
        self.get_array(
            "fmi2GetEventIndicators",
            self.library.get_event_indicators,
            out,
        )
    }

    pub fn get_continuous_states(&mut self, out: &mut [f64]) -> Result<(), HarnessError> {
        self.get_array(
            "fmi2GetContinuousStates",
            self.library.get_continuous_states,
            out,
        )
    }

    pub fn get_nominals_of_continuous_states(
        &mut self,
        out: &mut [f64],
    ) -> Result<(), HarnessError> {
        self.get_array(
            "fmi2GetNominalsOfContinuousStates",
            self.library.get_nominals_of_continuous_states,
            out,
        )
    }

    fn get_values<T: Copy + Default>(
        &mut self,
        function: &'static str,
        f: GetFn<T>,
        references: &[Fmi2ValueReference],
    ) -> Result<Vec<T>, HarnessError> {
        self.ensure_alive(function)?;
        let mut values = vec![T::default(); references.len()];
        // SAFETY: both arrays hold `len` elements.
        let status = unsafe {
            f(
                self.component,
                references.as_ptr(),
                references.len(),
                values.as_mut_ptr(),
            )
        };
        self.check(function, status)?;
        Ok(values)
    }

    fn set_values<T>(
        &mut self,
        function: &'static str,
        f: SetFn<T>,
        references: &[Fmi2ValueReference],
        values: &[T],
    ) -> Result<(), HarnessError> {
        self.ensure_alive(function)?;
        if references.len() != values.len() {
            return Err(HarnessError::BadOptions(format!(
                "{function}: {} value references but {} values",
                references.len(),
                values.len()
            )));
        }
        // SAFETY: both arrays hold `len` elements.
        let status = unsafe {
            f(
                self.component,
                references.as_ptr(),
                references.len(),
                values.as_ptr(),
            )
        };
        self.check(function, status)
    }

    /// `fmi2GetDirectionalDerivative`: the change of `unknowns` for a change
    /// `seed` of `knowns`.
    pub fn get_directional_derivative(
        &mut self,
        unknowns: &[Fmi2ValueReference],
        knowns: &[Fmi2ValueReference],
        seed: &[f64],
    ) -> Result<Vec<f64>, HarnessError> {
        let mut out = vec![0.0; unknowns.len()];
        self.get_directional_derivative_into(unknowns, knowns, seed, &mut out)?;
        Ok(out)
    }

    /// [`Instance::get_directional_derivative`] into the caller's `out` (one value
    /// per unknown), as an integrator calls it once per Jacobian colour: no
    /// allocation per call.
    pub fn get_directional_derivative_into(
        &mut self,
        unknowns: &[Fmi2ValueReference],
        knowns: &[Fmi2ValueReference],
        seed: &[f64],
        out: &mut [f64],
    ) -> Result<(), HarnessError> {
        let Some(f) = self.library.get_directional_derivative else {
            return Err(HarnessError::MissingSymbol {
                library: String::new(),
                symbol: "fmi2GetDirectionalDerivative".into(),
            });
        };
        if knowns.len() != seed.len() || unknowns.len() != out.len() {
            return Err(HarnessError::BadOptions(
                "directional derivative: one seed per known and one result per unknown are needed"
                    .into(),
            ));
        }
        // SAFETY: every pointer is valid for the length passed with it.
        let status = unsafe {
            f(
                self.component,
                unknowns.as_ptr(),
                unknowns.len(),
                knowns.as_ptr(),
                knowns.len(),
                seed.as_ptr(),
                out.as_mut_ptr(),
            )
        };
        self.check("fmi2GetDirectionalDerivative", status)
    }

    pub fn get_real(
        &mut self,
        references: &[Fmi2ValueReference],
    ) -> Result<Vec<f64>, HarnessError> {
        self.get_values("fmi2GetReal", self.library.get_real, references)
    }

    pub fn get_integer(
        &mut self,
        references: &[Fmi2ValueReference],
    ) -> Result<Vec<i32>, HarnessError> {
        self.get_values("fmi2GetInteger", self.library.get_integer, references)
    }

    pub fn get_boolean(
        &mut self,
        references: &[Fmi2ValueReference],
    ) -> Result<Vec<bool>, HarnessError> {
        let raw = self.get_values("fmi2GetBoolean", self.library.get_boolean, references)?;
        Ok(raw.into_iter().map(|b| b != FMI2_FALSE).collect())
    }

    pub fn set_real(
        &mut self,
        references: &[Fmi2ValueReference],
        values: &[f64],
    ) -> Result<(), HarnessError> {
        self.set_values("fmi2SetReal", self.library.set_real, references, values)
    }

    pub fn set_integer(
        &mut self,
        references: &[Fmi2ValueReference],
        values: &[i32],
    ) -> Result<(), HarnessError> {
        self.set_values(
            "fmi2SetInteger",
            self.library.set_integer,
            references,
            values,
        )
    }

    pub fn set_boolean(
        &mut self,
        references: &[Fmi2ValueReference],
        values: &[bool],
    ) -> Result<(), HarnessError> {
        let raw: Vec<Fmi2Boolean> = values
            .iter()
            .map(|&b| if b { FMI2_TRUE } else { FMI2_FALSE })
            .collect();
        self.set_values("fmi2SetBoolean", self.library.set_boolean, references, &raw)
    }

    fn co_simulation(&self, function: &'static str) -> Result<CoSimulationFunctions, HarnessError> {
        self.library
            .co_simulation
            .ok_or_else(|| HarnessError::MissingSymbol {
                library: String::new(),
                symbol: function.into(),
            })
    }

    /// `fmi2DoStep`. `Ok(false)` when the FMU answered fmi2Discard (it stopped early;
    /// see [`Instance::last_successful_time`]).
    pub fn do_step(
        &mut self,
        current_communication_point: f64,
        communication_step_size: f64,
    ) -> Result<bool, HarnessError> {
        let functions = self.co_simulation("fmi2DoStep")?;
        self.ensure_alive("fmi2DoStep")?;
        // SAFETY: a valid Co-Simulation component and plain numbers.
        let status = unsafe {
            (functions.do_step)(
                self.component,
                current_communication_point,
                communication_step_size,
                FMI2_TRUE,
            )
        };
        if status == FMI2_DISCARD {
            return Ok(false);
        }
        self.check("fmi2DoStep", status)?;
        Ok(true)
    }

    /// `fmi2SetRealInputDerivatives` of order 1.
    pub fn set_real_input_derivatives(
        &mut self,
        references: &[Fmi2ValueReference],
        derivatives: &[f64],
    ) -> Result<(), HarnessError> {
        let functions = self.co_simulation("fmi2SetRealInputDerivatives")?;
        self.ensure_alive("fmi2SetRealInputDerivatives")?;
        if references.len() != derivatives.len() {
            return Err(HarnessError::BadOptions(
                "input derivatives: one value per reference is needed".into(),
            ));
        }
        let orders = vec![1 as c_int; references.len()];
        // SAFETY: all three arrays hold `len` elements.
        let status = unsafe {
            (functions.set_real_input_derivatives)(
                self.component,
                references.as_ptr(),
                references.len(),
                orders.as_ptr(),
                derivatives.as_ptr(),
            )
        };
        self.check("fmi2SetRealInputDerivatives", status)
    }

    /// `fmi2GetRealOutputDerivatives` of order 1 into `out` (one per reference).
    pub fn get_real_output_derivatives(
        &mut self,
        references: &[Fmi2ValueReference],
        out: &mut [f64],
    ) -> Result<(), HarnessError> {
        const FUNCTION: &str = "fmi2GetRealOutputDerivatives";
        let get = self
            .co_simulation(FUNCTION)?
            .get_real_output_derivatives
            .ok_or_else(|| HarnessError::MissingSymbol {
                library: String::new(),
                symbol: FUNCTION.into(),
            })?;
        self.ensure_alive(FUNCTION)?;
        if references.len() != out.len() {
            return Err(HarnessError::BadOptions(
                "output derivatives: one value per reference is needed".into(),
            ));
        }
        let orders = vec![1 as c_int; references.len()];
        // SAFETY: all three arrays hold `len` elements.
        let status = unsafe {
            get(
                self.component,
                references.as_ptr(),
                references.len(),
                orders.as_ptr(),
                out.as_mut_ptr(),
            )
        };
        self.check(FUNCTION, status)
    }

    /// `fmi2GetBooleanStatus(fmi2Terminated)`: whether the slave asked to end
    /// the simulation (after a discarded step); false when it cannot say.
    pub fn terminated(&mut self) -> Result<bool, HarnessError> {
        let functions = self.co_simulation("fmi2GetBooleanStatus")?;
        let Some(get) = functions.get_boolean_status else {
            return Ok(false);
        };
        self.ensure_alive("fmi2GetBooleanStatus")?;
        let mut value = FMI2_FALSE;
        // SAFETY: a valid component and a pointer to one fmi2Boolean.
        let status = unsafe { get(self.component, FMI2_TERMINATED, &mut value) };
        self.check("fmi2GetBooleanStatus", status)?;
        Ok(value != FMI2_FALSE)
    }

    /// `fmi2GetRealStatus(fmi2LastSuccessfulTime)`.
    pub fn last_successful_time(&mut self) -> Result<f64, HarnessError> {
        let functions = self.co_simulation("fmi2GetRealStatus")?;
        self.ensure_alive("fmi2GetRealStatus")?;
        let mut value = f64::NAN;
        // SAFETY: a valid component and a pointer to one double.
        let status = unsafe {
            (functions.get_real_status)(self.component, FMI2_LAST_SUCCESSFUL_TIME, &mut value)
        };
        self.check("fmi2GetRealStatus", status)?;
        Ok(value)
    }
}
