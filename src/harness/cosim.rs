//! The Co-Simulation loop of `mofmu simulate --interface cs` (FMI 2.0 and 3.0): one `fmi2DoStep`
//! per output interval (and extra communication points where the input signals bend and
//! where a Boolean or Integer input changes), with the inputs set at each communication
//! point and, when the FMU can interpolate inputs, their slopes through
//! `fmi2SetRealInputDerivatives`. A step that the FMU ends early because the model
//! terminates (`fmi2Terminated`, FMI 3.0 `terminateSimulation`) ends the simulation there.

use super::binding::InputBinding;
use super::error::HarnessError;
use super::fmu::Fmu;
use super::options::{Interface, SimOptions};
use super::progress::Progress;
use super::recorder::Recorder;
use super::result::{SimResult, SimStats};
use super::setup::{initialize, Settings};

/// Simulates the FMU through its Co-Simulation interface, drawing the same progress bar
/// as the Model Exchange loop when `show_progress` is set.
pub fn simulate_co_simulation(
    fmu: &Fmu,
    opts: &SimOptions,
    show_progress: bool,
) -> Result<SimResult, HarnessError> {
    let (mut instance, model) = fmu.instance(
        Interface::CoSimulation,
        "mofmu_harness",
        false,
        &opts.start_values,
    )?;
    let model = model.as_ref();
    let Some(capabilities) = &model.co_simulation else {
        return Err(HarnessError::BadOptions(
            "the FMU does not declare <CoSimulation>".into(),
        ));
    };
    let settings = Settings::resolve(model, opts)?;
    let states = model.states()?;
    let inputs = InputBinding::new(model, opts.input.as_ref())?;
    let interpolate = capabilities.can_interpolate_inputs;
    let variable_steps = capabilities.can_handle_variable_communication_step_size;
    let mut recorder = Recorder::new(model, &states, &opts.output, settings.output_count)?;

    initialize(instance.as_mut(), model, opts, &settings, &inputs)?;
    recorder.record(instance.as_mut(), settings.start)?;

    let progress = Progress::new(show_progress, settings.start, settings.stop);
    let mut t = settings.start;
    let mut k = 1usize;
    while k <= settings.output_count {
        let t_out = settings.output_time(k);
        // Communicate where the inputs bend or change too, when the FMU allows
        // varying steps.
        let t_next = match inputs.next_breakpoint(t) {
            Some(b) if variable_steps && b < t_out && !near(b, t_out, settings.interval) => b,
            _ => t_out,
        };
        inputs.apply(instance.as_mut(), t)?;
        inputs.apply_discrete(instance.as_mut(), t)?;
        if interpolate {
            inputs.apply_slopes(instance.as_mut(), t)?;
        }
        if !instance.do_step(t, t_next - t)? {
            if instance.terminated()? {
                let reached = instance.last_successful_time()?;
                recorder.record(instance.as_mut(), reached)?;
                break;
            }
            let reached = instance.last_successful_time().unwrap_or(f64::NAN);
            let log: Vec<String> = instance.take_log().iter().map(|m| m.to_string()).collect();
            return Err(HarnessError::Integrator {
                time: reached,
                reason: format!(
                    "the FMU discarded the step to {t_next} (DoStep returned Discard): {}",
                    log.join("; ")
                ),
            });
        }
        t = t_next;
        progress.advance(t);
        if t_next == t_out {
            recorder.record(instance.as_mut(), t)?;
            k += 1;
        }
    }
    progress.finish();
    instance.terminate()?;
    Ok(recorder.finish(SimStats::default()))
}

/// Whether two communication points are so close that a step between them is noise.
fn near(a: f64, b: f64, interval: f64) -> bool {
    (a - b).abs() <= 1e-9 * interval
}
