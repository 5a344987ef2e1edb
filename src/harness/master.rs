//! The co-simulation master of `mofmu cosim`: couples the Co-Simulation sides of two or
//! more FMUs (a [`Coupling`] read from a connection file) with a fixed communication
//! step. At every communication point the outputs are copied into the inputs in the
//! plan's order (an input that reaches an output directly is set before that output is
//! read), the row is recorded, and with [`Extrapolation::Linear`] the outputs' first
//! derivatives (`fmi2GetRealOutputDerivatives`) become the inputs' slopes
//! (`fmi2SetRealInputDerivatives`), so each FMU sees its inputs extrapolated linearly
//! over the step; with [`Extrapolation::Hold`] the inputs are held. Then every FMU
//! steps by the communication step. When an FMU's model terminates within a step, the
//! co-simulation ends at the communication point before it.

use super::coupling::{Coupling, Extrapolation, Plan, Port, Value};
use super::error::HarnessError;
use super::instance::{DynInstance, FmiInstance};
use super::model_description::VariableKind;
use super::options::Interface;
use super::progress::Progress;
use super::result::{SimResult, SimStats};

impl Coupling {
    /// Runs the coupled simulation and returns one row per communication point
    /// (`time`, then the plan's columns).
    pub fn run(&self, show_progress: bool) -> Result<SimResult, HarnessError> {
        let plan = &self.plan;
        let settings = &plan.settings;
        let mut instances = self.instantiate()?;
        for (instance, parameters) in instances.iter_mut().zip(&plan.parameters) {
            for &(port, value) in parameters {
                set_value(instance.as_mut(), port, value)?;
            }
            instance.enter_initialization(
                settings.tolerance,
                settings.start,
                Some(settings.stop),
            )?;
        }
        exchange(&mut instances, plan)?;
        for instance in &mut instances {
            instance.exit_initialization_mode()?;
        }

        let mut names = vec!["time".to_string()];
        names.extend(plan.columns.iter().map(|(name, _)| name.clone()));
        let steps = communication_steps(settings.start, settings.stop, settings.step);
        let mut rows = Vec::with_capacity(steps + 1);
        let progress = Progress::new(show_progress, settings.start, settings.stop);
        let mut t = settings.start;
        for k in 0..=steps {
            exchange(&mut instances, plan)?;
            rows.push(record(&mut instances, plan, t)?);
            if k == steps {
                break;
            }
            if settings.extrapolation == Extrapolation::Linear {
                exchange_slopes(&mut instances, plan)?;
            }
            let t_next = if k + 1 == steps {
                settings.stop
            } else {
                settings.start + (k + 1) as f64 * settings.step
            };
            let mut terminated = false;
            for (index, instance) in instances.iter_mut().enumerate() {
                if !instance.do_step(t, t_next - t)? {
                    if instance.terminated()? {
                        // The model asked to end the simulation: the co-simulation
                        // ends at the last communication point every FMU reached.
                        terminated = true;
                        continue;
                    }
                    let log: Vec<String> =
                        instance.take_log().iter().map(|m| m.to_string()).collect();
                    return Err(HarnessError::Integrator {
                        time: instance.last_successful_time().unwrap_or(t),
                        reason: format!(
                            "`{}`: the FMU discarded the step to {t_next} (DoStep returned Discard): {}",
                            self.names[index],
                            log.join("; ")
                        ),
                    });
                }
            }
            if terminated {
                break;
            }
            t = t_next;
            progress.advance(t);
        }
        progress.finish();
        for instance in &mut instances {
            instance.terminate()?;
        }
        Ok(SimResult {
            names,
            rows,
            stats: SimStats::default(),
        })
    }

    fn instantiate(&self) -> Result<Vec<DynInstance<'_>>, HarnessError> {
        self.fmus
            .iter()
            .zip(&self.names)
            .map(|(fmu, name)| {
                fmu.instance(Interface::CoSimulation, name, false, &[])
                    .map(|(instance, _)| instance)
            })
            .collect()
    }
}

/// The number of communication steps from `start` to `stop`: the last one is shorter
/// when `step` does not divide the interval (up to rounding noise).
fn communication_steps(start: f64, stop: f64, step: f64) -> usize {
    let exact = (stop - start) / step;
    let rounded = exact.round();
    if (exact - rounded).abs() <= 1e-9 * exact.max(1.0) {
        (rounded as usize).max(1)
    } else {
        exact.ceil() as usize
    }
}

/// Copies every connected output into its input, in the plan's order.
fn exchange(instances: &mut [DynInstance<'_>], plan: &Plan) -> Result<(), HarnessError> {
    for &(from, to) in &plan.connections {
        let value = get_value(instances[from.fmu].as_mut(), from)?;
        set_value(instances[to.fmu].as_mut(), to, value)?;
    }
    Ok(())
}

/// Passes the first derivative of every connected Real output on to its input, in the
/// plan's order, so an output that depends directly on an input sees that input's slope.
fn exchange_slopes(instances: &mut [DynInstance<'_>], plan: &Plan) -> Result<(), HarnessError> {
    for &(from, to) in plan
        .connections
        .iter()
        .filter(|(from, _)| from.kind == VariableKind::Real)
    {
        let mut slope = [0.0];
        instances[from.fmu].get_real_output_derivatives(&[from.reference], &mut slope)?;
        instances[to.fmu].set_real_input_derivatives(&[to.reference], &slope)?;
    }
    Ok(())
}

fn record(
    instances: &mut [DynInstance<'_>],
    plan: &Plan,
    t: f64,
) -> Result<Vec<f64>, HarnessError> {
    let mut row = Vec::with_capacity(plan.columns.len() + 1);
    row.push(t);
    for &(_, port) in &plan.columns {
        row.push(match get_value(instances[port.fmu].as_mut(), port)? {
            Value::Real(x) => x,
            Value::Integer(x) => x as f64,
            Value::Boolean(b) => f64::from(u8::from(b)),
        });
    }
    Ok(row)
}

fn get_value(instance: &mut dyn FmiInstance, port: Port) -> Result<Value, HarnessError> {
    let reference = [port.reference];
    Ok(match port.kind {
        VariableKind::Real => Value::Real(instance.get_real(&reference)?[0]),
        VariableKind::Integer | VariableKind::Enumeration => {
            Value::Integer(instance.get_integer(&reference)?[0])
        }
        VariableKind::Boolean => Value::Boolean(instance.get_boolean(&reference)?[0]),
        // The connection file's check admits no String variable.
        VariableKind::String => Value::Real(f64::NAN),
    })
}

fn set_value(instance: &mut dyn FmiInstance, port: Port, value: Value) -> Result<(), HarnessError> {
    let reference = [port.reference];
    match value {
        Value::Real(x) => instance.set_real(&reference, &[x]),
        Value::Integer(x) => instance.set_integer(&reference, &[x]),
        Value::Boolean(b) => instance.set_boolean(&reference, &[b]),
    }
}

#[cfg(test)]
mod tests {
    use super::communication_steps;

    #[test]
    fn communication_steps_cover_the_interval() {
        assert_eq!(communication_steps(0.0, 10.0, 0.1), 100);
        assert_eq!(communication_steps(0.0, 1.0, 0.3), 4);
        assert_eq!(communication_steps(0.0, 1.0, 2.0), 1);
    }
}
