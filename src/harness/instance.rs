//! The version-neutral FMU instance: what the Model Exchange and
//! Co-Simulation loops, the recorder, the input binding, the integrator and
//! the co-simulation master call. `fmi2::Instance` and `fmi3::Instance3`
//! implement it in their own files; nothing above them branches on the
//! version.
//!
//! Variables are named by *harness references*: the `value_reference` of a
//! [`ScalarVariable`](super::model_description::ScalarVariable) in the
//! model description the instance was made with. For FMI 2.0 that is the
//! FMI value reference; for FMI 3.0 the position of an element in the
//! description's scalar view (an array's element is a scalar there).

use super::error::HarnessError;
use super::fmi2::{EventInfo, FmuState, LogMessage};

/// One live instance of an FMU, of either FMI version and either
/// interface. Every method checks the returned status: OK and Warning are
/// success, anything else is [`HarnessError::FmiStatus`] with what the FMU
/// logged.
pub trait FmiInstance {
    /// Everything the FMU has logged since the last call (or since an error
    /// took it).
    fn take_log(&self) -> Vec<LogMessage>;

    /// Debug logging on or off for every category.
    fn set_debug_logging(&mut self, on: bool) -> Result<(), HarnessError>;

    /// Into initialization mode with the experiment's settings (FMI 2.0:
    /// `fmi2SetupExperiment`, then `fmi2EnterInitializationMode`).
    fn enter_initialization(
        &mut self,
        tolerance: Option<f64>,
        start_time: f64,
        stop_time: Option<f64>,
    ) -> Result<(), HarnessError>;
    fn exit_initialization_mode(&mut self) -> Result<(), HarnessError>;
    fn terminate(&mut self) -> Result<(), HarnessError>;
    fn reset(&mut self) -> Result<(), HarnessError>;

    fn get_real(&mut self, references: &[u32]) -> Result<Vec<f64>, HarnessError>;
    fn get_integer(&mut self, references: &[u32]) -> Result<Vec<i32>, HarnessError>;
    fn get_boolean(&mut self, references: &[u32]) -> Result<Vec<bool>, HarnessError>;
    fn set_real(&mut self, references: &[u32], values: &[f64]) -> Result<(), HarnessError>;
    fn set_integer(&mut self, references: &[u32], values: &[i32]) -> Result<(), HarnessError>;
    fn set_boolean(&mut self, references: &[u32], values: &[bool]) -> Result<(), HarnessError>;

    /// Model Exchange: from continuous-time into event mode.
    fn enter_event_mode(&mut self) -> Result<(), HarnessError>;
    /// One step of the event iteration (`fmi2NewDiscreteStates`,
    /// `fmi3UpdateDiscreteStates`), with the whole event information.
    fn update_discrete_states(&mut self) -> Result<EventInfo, HarnessError>;
    fn enter_continuous_time_mode(&mut self) -> Result<(), HarnessError>;
    /// Returns `(enterEventMode, terminateSimulation)`.
    fn completed_integrator_step(&mut self) -> Result<(bool, bool), HarnessError>;
    fn set_time(&mut self, time: f64) -> Result<(), HarnessError>;
    fn set_continuous_states(&mut self, states: &[f64]) -> Result<(), HarnessError>;
    fn get_derivatives(&mut self, out: &mut [f64]) -> Result<(), HarnessError>;
    fn get_event_indicators(&mut self, out: &mut [f64]) -> Result<(), HarnessError>;
    fn get_continuous_states(&mut self, out: &mut [f64]) -> Result<(), HarnessError>;
    fn get_nominals_of_continuous_states(&mut self, out: &mut [f64]) -> Result<(), HarnessError>;
    /// The change of `unknowns` for a change `seed` of `knowns`, into `out`
    /// (one value per unknown).
    fn get_directional_derivative_into(
        &mut self,
        unknowns: &[u32],
        knowns: &[u32],
        seed: &[f64],
        out: &mut [f64],
    ) -> Result<(), HarnessError>;

    /// The instance's state, saved.
    fn get_fmu_state(&mut self) -> Result<FmuState, HarnessError>;
    fn set_fmu_state(&mut self, state: &FmuState) -> Result<(), HarnessError>;
    fn free_fmu_state(&mut self, state: FmuState) -> Result<(), HarnessError>;

    /// Co-Simulation: one step. `Ok(false)` when the FMU stopped early
    /// (Discard; see [`FmiInstance::last_successful_time`]).
    fn do_step(&mut self, current: f64, step: f64) -> Result<bool, HarnessError>;
    /// Where the last step ended.
    fn last_successful_time(&mut self) -> Result<f64, HarnessError>;
    /// Whether the FMU asked, in its last step, to end the simulation (a
    /// model's `terminate`; FMI 2.0 `fmi2Terminated` after a discarded
    /// step, FMI 3.0 `terminateSimulation`).
    fn terminated(&mut self) -> Result<bool, HarnessError>;
    /// First derivatives of Real inputs, for an FMU that interpolates them.
    fn set_real_input_derivatives(
        &mut self,
        references: &[u32],
        derivatives: &[f64],
    ) -> Result<(), HarnessError>;
    /// First derivatives of Real outputs into `out` (one per reference).
    fn get_real_output_derivatives(
        &mut self,
        references: &[u32],
        out: &mut [f64],
    ) -> Result<(), HarnessError>;
}

/// An instance of either version, as the loops hold it.
pub type DynInstance<'lib> = Box<dyn FmiInstance + 'lib>;

impl FmiInstance for super::fmi2::Instance<'_> {
    fn take_log(&self) -> Vec<LogMessage> {
        super::fmi2::Instance::take_log(self)
    }
    fn set_debug_logging(&mut self, on: bool) -> Result<(), HarnessError> {
        super::fmi2::Instance::set_debug_logging(self, on)
    }
    fn enter_initialization(
        &mut self,
        tolerance: Option<f64>,
        start_time: f64,
        stop_time: Option<f64>,
    ) -> Result<(), HarnessError> {
        self.setup_experiment(tolerance, start_time, stop_time)?;
        super::fmi2::Instance::enter_initialization_mode(self)
    }
    fn exit_initialization_mode(&mut self) -> Result<(), HarnessError> {
        super::fmi2::Instance::exit_initialization_mode(self)
    }
    fn terminate(&mut self) -> Result<(), HarnessError> {
        super::fmi2::Instance::terminate(self)
    }
    fn reset(&mut self) -> Result<(), HarnessError> {
        super::fmi2::Instance::reset(self)
    }
    fn get_real(&mut self, references: &[u32]) -> Result<Vec<f64>, HarnessError> {
        super::fmi2::Instance::get_real(self, references)
    }
    fn get_integer(&mut self, references: &[u32]) -> Result<Vec<i32>, HarnessError> {
        super::fmi2::Instance::get_integer(self, references)
    }
    fn get_boolean(&mut self, references: &[u32]) -> Result<Vec<bool>, HarnessError> {
        super::fmi2::Instance::get_boolean(self, references)
    }
    fn set_real(&mut self, references: &[u32], values: &[f64]) -> Result<(), HarnessError> {
        super::fmi2::Instance::set_real(self, references, values)
    }
    fn set_integer(&mut self, references: &[u32], values: &[i32]) -> Result<(), HarnessError> {
        super::fmi2::Instance::set_integer(self, references, values)
    }
    fn set_boolean(&mut self, references: &[u32], values: &[bool]) -> Result<(), HarnessError> {
        super::fmi2::Instance::set_boolean(self, references, values)
    }
    fn enter_event_mode(&mut self) -> Result<(), HarnessError> {
        super::fmi2::Instance::enter_event_mode(self)
    }
    fn update_discrete_states(&mut self) -> Result<EventInfo, HarnessError> {
        self.new_discrete_states()
    }
    fn enter_continuous_time_mode(&mut self) -> Result<(), HarnessError> {
        super::fmi2::Instance::enter_continuous_time_mode(self)
    }
    fn completed_integrator_step(&mut self) -> Result<(bool, bool), HarnessError> {
        super::fmi2::Instance::completed_integrator_step(self)
    }
    fn set_time(&mut self, time: f64) -> Result<(), HarnessError> {
        super::fmi2::Instance::set_time(self, time)
    }
    fn set_continuous_states(&mut self, states: &[f64]) -> Result<(), HarnessError> {
        super::fmi2::Instance::set_continuous_states(self, states)
    }
    fn get_derivatives(&mut self, out: &mut [f64]) -> Result<(), HarnessError> {
        super::fmi2::Instance::get_derivatives(self, out)
    }
    fn get_event_indicators(&mut self, out: &mut [f64]) -> Result<(), HarnessError> {
        super::fmi2::Instance::get_event_indicators(self, out)
    }
    fn get_continuous_states(&mut self, out: &mut [f64]) -> Result<(), HarnessError> {
        super::fmi2::Instance::get_continuous_states(self, out)
    }
    fn get_nominals_of_continuous_states(&mut self, out: &mut [f64]) -> Result<(), HarnessError> {
        super::fmi2::Instance::get_nominals_of_continuous_states(self, out)
    }
    fn get_directional_derivative_into(
        &mut self,
        unknowns: &[u32],
        knowns: &[u32],
        seed: &[f64],
        out: &mut [f64],
    ) -> Result<(), HarnessError> {
        super::fmi2::Instance::get_directional_derivative_into(self, unknowns, knowns, seed, out)
    }
    fn get_fmu_state(&mut self) -> Result<FmuState, HarnessError> {
        super::fmi2::Instance::get_fmu_state(self)
    }
    fn set_fmu_state(&mut self, state: &FmuState) -> Result<(), HarnessError> {
        super::fmi2::Instance::set_fmu_state(self, state)
    }
    fn free_fmu_state(&mut self, state: FmuState) -> Result<(), HarnessError> {
        super::fmi2::Instance::free_fmu_state(self, state)
    }
    fn do_step(&mut self, current: f64, step: f64) -> Result<bool, HarnessError> {
        super::fmi2::Instance::do_step(self, current, step)
    }
    fn last_successful_time(&mut self) -> Result<f64, HarnessError> {
        super::fmi2::Instance::last_successful_time(self)
    }
    fn terminated(&mut self) -> Result<bool, HarnessError> {
        super::fmi2::Instance::terminated(self)
    }
    fn set_real_input_derivatives(
        &mut self,
        references: &[u32],
        derivatives: &[f64],
    ) -> Result<(), HarnessError> {
        super::fmi2::Instance::set_real_input_derivatives(self, references, derivatives)
    }
    fn get_real_output_derivatives(
        &mut self,
        references: &[u32],
        out: &mut [f64],
    ) -> Result<(), HarnessError> {
        super::fmi2::Instance::get_real_output_derivatives(self, references, out)
    }
}
