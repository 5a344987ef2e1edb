//! The FMI 3.0 side: the same runs through the `fmi` crate's FMI 3 import
//! (its own schema with `<Dimension>` arrays, its own fmi3 bindings). A
//! column `a[k]` of an array `a` is the k-th element of the Float64 array
//! read whole through its value reference.

use fmi::fmi3::import::Fmi3Import;
use fmi::fmi3::schema::{
    AbstractVariableTrait, ArrayableVariableTrait, Causality, Dimension, Fmi3ModelDescription,
    InitializableVariableTrait,
};
use fmi::fmi3::{CoSimulation, Common, Fmi3Model, GetSet, ModelExchange};
use fmi::traits::{FmiImport, FmiInstance};

use crate::{fmi, simulate, write_csv, Options, Request, Simulation};

/// A value given with `--set`, of the variable's own type.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Value {
    Float64(f64),
    Int32(i32),
    Int64(i64),
    UInt64(u64),
    Boolean(bool),
}

/// A `--set NAME=VALUE` resolved against the description.
#[derive(Debug)]
struct Setting {
    name: String,
    vr: u32,
    value: Value,
    /// A `structuralParameter`: set in configuration mode.
    structural: bool,
}

/// The `--set` options as settings of the description's parameters: a
/// Float64, Int32, Int64 (an enumeration is read as one), UInt64 or Boolean whose
/// causality is `parameter` or `structuralParameter`.
fn resolve_settings(
    description: &Fmi3ModelDescription,
    sets: &[(String, String)],
) -> Result<Vec<Setting>, String> {
    let variables = &description.model_variables;
    let mut settings = Vec::with_capacity(sets.len());
    for (name, text) in sets {
        let bad = |what: &str| format!("--set {name}={text}: `{text}` is not {what}");
        let found: Option<(u32, Causality, Value)> =
            if let Some(v) = variables.float64().into_iter().find(|v| v.name() == name) {
                let x: f64 = text.parse().map_err(|_| bad("a number"))?;
                Some((v.value_reference(), v.causality(), Value::Float64(x)))
            } else if let Some(v) = variables.int32().into_iter().find(|v| v.name() == name) {
                let x: i32 = text.parse().map_err(|_| bad("an Int32"))?;
                Some((v.value_reference(), v.causality(), Value::Int32(x)))
            } else if let Some(v) = variables.int64().into_iter().find(|v| v.name() == name) {
                let x: i64 = text.parse().map_err(|_| bad("an Int64"))?;
                Some((v.value_reference(), v.causality(), Value::Int64(x)))
            } else if let Some(v) = variables.uint64().into_iter().find(|v| v.name() == name) {
                // A structural parameter that sizes arrays is a UInt64.
                let x: u64 = text.parse().map_err(|_| bad("a UInt64"))?;
                Some((v.value_reference(), v.causality(), Value::UInt64(x)))
            } else if let Some(v) = variables.boolean().into_iter().find(|v| v.name() == name) {
                let x = match text.as_str() {
                    "true" | "1" => true,
                    "false" | "0" => false,
                    _ => return Err(bad("true or false")),
                };
                Some((v.value_reference(), v.causality(), Value::Boolean(x)))
            } else {
                None
            };
        let (vr, causality, value) = found.ok_or_else(|| {
            format!("--set: no Float64, Int32, Int64, UInt64 or Boolean variable `{name}`")
        })?;
        let structural = match causality {
            Causality::StructuralParameter => true,
            Causality::Parameter => false,
            other => {
                return Err(format!(
                    "--set: `{name}` has causality {other}, not a parameter"
                ))
            }
        };
        settings.push(Setting {
            name: name.clone(),
            vr,
            value,
            structural,
        });
    }
    Ok(settings)
}

/// Sets `settings` on an instance just instantiated: the structural
/// parameters in configuration mode (entered only when there is one), then
/// the other parameters in the instantiated state.
fn configure<I: Common>(instance: &mut I, settings: &[Setting]) -> Result<(), String> {
    let set = |instance: &mut I, s: &Setting| -> Result<(), String> {
        let what = format!("setting `{}`", s.name);
        let vrs = [s.vr];
        match s.value {
            Value::Float64(x) => fmi(&what, GetSet::set_float64(instance, &vrs, &[x])),
            Value::Int32(x) => fmi(&what, GetSet::set_int32(instance, &vrs, &[x])),
            Value::Int64(x) => fmi(&what, GetSet::set_int64(instance, &vrs, &[x])),
            Value::UInt64(x) => fmi(&what, GetSet::set_uint64(instance, &vrs, &[x])),
            Value::Boolean(x) => fmi(&what, GetSet::set_boolean(instance, &vrs, &[x])),
        }
        .map(|_| ())
    };
    if settings.iter().any(|s| s.structural) {
        fmi(
            "fmi3EnterConfigurationMode",
            Common::enter_configuration_mode(instance),
        )?;
        for s in settings.iter().filter(|s| s.structural) {
            set(instance, s)?;
        }
        fmi(
            "fmi3ExitConfigurationMode",
            Common::exit_configuration_mode(instance),
        )?;
    }
    for s in settings.iter().filter(|s| !s.structural) {
        set(instance, s)?;
    }
    Ok(())
}

/// The length of one dimension of `base`: its `start`, or the value of the
/// structural parameter it names: the one set with `--set`, else its start
/// value (the size the FMU was exported with).
fn dimension_length(
    description: &Fmi3ModelDescription,
    settings: &[Setting],
    base: &str,
    dimension: &Dimension,
) -> Result<usize, String> {
    if let Some(n) = dimension.as_fixed() {
        return Ok(n as usize);
    }
    let vr = dimension.as_variable().ok_or_else(|| {
        format!("`{base}`: a dimension with neither a start nor a value reference")
    })?;
    let set = settings
        .iter()
        .find(|s| s.vr == vr)
        .and_then(|s| match s.value {
            Value::Int32(x) => Some(i64::from(x)),
            Value::Int64(x) => Some(x),
            Value::UInt64(x) => i64::try_from(x).ok(),
            _ => None,
        });
    let variables = &description.model_variables;
    let start: Option<i64> = set.or_else(|| {
        variables
            .int32()
            .iter()
            .find(|v| v.value_reference() == vr)
            .and_then(|v| v.start().and_then(|s| s.first().map(|&x| i64::from(x))))
            .or_else(|| {
                variables
                    .int64()
                    .iter()
                    .find(|v| v.value_reference() == vr)
                    .and_then(|v| v.start().and_then(|s| s.first().copied()))
            })
            .or_else(|| {
                variables
                    .uint64()
                    .iter()
                    .find(|v| v.value_reference() == vr)
                    .and_then(|v| v.start().and_then(|s| s.first().copied()))
                    .and_then(|x| i64::try_from(x).ok())
            })
    });
    match start {
        Some(n) if n >= 0 => Ok(n as usize),
        _ => Err(format!(
            "`{base}`: its dimension names value reference {vr}, which is no Integer with a start value"
        )),
    }
}

/// The columns' value references, each array once, and where each column's
/// value lies among the values they stand for.
fn select_variables(
    description: &Fmi3ModelDescription,
    settings: &[Setting],
    requested: Option<&[String]>,
) -> Result<(Vec<String>, Request), String> {
    let floats = description.model_variables.float64();
    let names: Vec<String> = match requested {
        Some(names) => names.to_vec(),
        None => floats
            .iter()
            .filter(|v| v.causality() == Causality::Output)
            .map(|v| v.name().to_owned())
            .collect(),
    };
    let mut request = Request {
        references: Vec::new(),
        values: 0,
        picks: Vec::new(),
    };
    // The offset of each requested variable's first value.
    let mut offsets: Vec<(u32, usize)> = Vec::new();
    for name in &names {
        // `a[k]` is element k of the array `a`, when `a` is one.
        let (base, element) = match name.strip_suffix(']').and_then(|n| n.rsplit_once('[')) {
            Some((base, index))
                if floats
                    .iter()
                    .any(|v| v.name() == base && !v.dimensions().is_empty()) =>
            {
                let k: usize = index
                    .parse()
                    .map_err(|_| format!("`{name}`: `{index}` is not an index"))?;
                (base, Some(k))
            }
            _ => (name.as_str(), None),
        };
        let variable = floats
            .iter()
            .find(|v| v.name() == base)
            .ok_or_else(|| format!("no Float64 variable `{base}`"))?;
        let length: usize = variable
            .dimensions()
            .iter()
            .map(|d| dimension_length(description, settings, base, d))
            .product::<Result<usize, String>>()?;
        let vr = variable.value_reference();
        let offset = match offsets.iter().find(|(r, _)| *r == vr) {
            Some(&(_, at)) => at,
            None => {
                let at = request.values;
                request.references.push(vr);
                request.values += length;
                offsets.push((vr, at));
                at
            }
        };
        let pick = match element {
            Some(k) if (1..=length).contains(&k) => offset + k - 1,
            Some(k) => return Err(format!("`{name}`: index {k} outside 1..{length}")),
            None if length == 1 => offset,
            None => return Err(format!("`{name}` is an array of {length}; name an element")),
        };
        request.picks.push(pick);
    }
    Ok((names, request))
}

fn times(description: &Fmi3ModelDescription, options: &Options) -> Result<(f64, f64, f64), String> {
    let experiment = description.default_experiment.as_ref();
    let start = experiment.and_then(|e| e.start_time).unwrap_or(0.0);
    let stop = options
        .stop_time
        .or_else(|| experiment.and_then(|e| e.stop_time))
        .unwrap_or(1.0);
    if stop <= start {
        return Err(format!("stop time {stop} is not after start time {start}"));
    }
    let interval = options.output_interval.unwrap_or((stop - start) / 500.0);
    Ok((start, stop, interval))
}

/// The attributes fmi-schema 0.8.0 reads on a variable of `tag` (it refuses
/// any other), and the tag it reads the variable as.
fn crate_attributes(tag: &str) -> Option<(&'static str, &'static [&'static str])> {
    const COMMON: [&str; 10] = [
        "name",
        "valueReference",
        "description",
        "causality",
        "variability",
        "canHandleMultipleSetPerTimeInstant",
        "clocks",
        "intermediateUpdate",
        "previous",
        "initial",
    ];
    const FLOAT: [&str; 15] = [
        COMMON[0],
        COMMON[1],
        COMMON[2],
        COMMON[3],
        COMMON[4],
        COMMON[5],
        COMMON[6],
        COMMON[7],
        COMMON[8],
        COMMON[9],
        "start",
        "min",
        "max",
        "derivative",
        "reinit",
    ];
    const INTEGER: [&str; 14] = [
        COMMON[0], COMMON[1], COMMON[2], COMMON[3], COMMON[4], COMMON[5], COMMON[6], COMMON[7],
        COMMON[8], COMMON[9], "start", "min", "max", "quantity",
    ];
    const BOOLEAN: [&str; 11] = [
        COMMON[0], COMMON[1], COMMON[2], COMMON[3], COMMON[4], COMMON[5], COMMON[6], COMMON[7],
        COMMON[8], COMMON[9], "start",
    ];
    match tag {
        "Float64" | "Float32" => Some((
            if tag == "Float64" {
                "Float64"
            } else {
                "Float32"
            },
            &FLOAT,
        )),
        "Int32" => Some(("Int32", &INTEGER)),
        "Int64" => Some(("Int64", &INTEGER)),
        // An enumeration is read as the Int64 it is set and got as (the
        // crate has no Enumeration variables); the run reads Float64 only.
        "Enumeration" => Some(("Int64", &INTEGER)),
        "Boolean" => Some(("Boolean", &BOOLEAN)),
        _ => None,
    }
}

/// `xml` with every variable of `<ModelVariables>` written as fmi-schema
/// 0.8.0 reads it, and `<BaseUnit>`'s `A` and `K` as its `a` and `k`.
fn adapt_description(xml: &str) -> String {
    let mut out = String::with_capacity(xml.len());
    let mut rest = xml;
    let variables = |at: usize, rest: &str| {
        let before = &xml[..xml.len() - rest.len() + at];
        before.rfind("<ModelVariables") > before.rfind("</ModelVariables")
    };
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let end = at + rest[at..].find('>').map_or(rest.len() - at, |e| e + 1);
        let element = &rest[at..end];
        let tag_end = element[1..]
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .map_or(element.len(), |e| e + 1);
        let tag = &element[1..tag_end];
        if tag == "BaseUnit" {
            out.push_str(&element.replace(" A=", " a=").replace(" K=", " k="));
        } else if tag == "/Enumeration" && variables(at, rest) {
            out.push_str("</Int64>");
        } else if let Some((as_tag, allowed)) =
            crate_attributes(tag).filter(|_| variables(at, rest))
        {
            out.push('<');
            out.push_str(as_tag);
            // Attributes are name="value" pairs (values hold no quote).
            let mut attributes = &element[tag_end..];
            while let Some(eq) = attributes.find("=\"") {
                let name = attributes[..eq].trim();
                let close = eq + 2 + attributes[eq + 2..].find('"').unwrap_or(0);
                if allowed.contains(&name) {
                    out.push(' ');
                    out.push_str(name);
                    out.push_str(&attributes[eq..=close]);
                }
                attributes = &attributes[close + 1..];
            }
            out.push_str(attributes.trim_start());
        } else {
            out.push_str(element);
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The crate's `fmi::import::from_path`, but for the defects of its schema
/// (fmi-schema 0.8.0, the newest on crates.io when written): it reads
/// `<BaseUnit>`'s ampere and kelvin exponents as attributes `a` and `k`
/// (fmi3Unit.xsd names them `A` and `K`), has no `unit`, `displayUnit`,
/// `nominal`, `unbounded`, `quantity` (on floats) nor `declaredType`-less
/// enumerations, and refuses what it does not know, so no FMU with a
/// temperature or a unit loads. The FMU is unpacked as the crate unpacks
/// it, and the crate parses the description adapted by `adapt_description`:
/// the same variables, value references, dimensions, causalities, starts,
/// derivatives and model structure, without what the run does not use.
fn import(path: &std::path::Path) -> Result<Fmi3Import, String> {
    let failed = |e: &dyn std::fmt::Display| format!("cannot import {}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| failed(&e))?;
    let mut archive = zip::ZipArchive::new(file).map_err(|e| failed(&e))?;
    let dir = tempfile::Builder::new()
        .prefix("fmi-rs")
        .tempdir()
        .map_err(|e| failed(&e))?;
    archive.extract(dir.path()).map_err(|e| failed(&e))?;
    let xml =
        std::fs::read_to_string(dir.path().join("modelDescription.xml")).map_err(|e| failed(&e))?;
    <Fmi3Import as FmiImport>::new(dir, &adapt_description(&xml)).map_err(|e| failed(&e))
}

pub(crate) fn run(options: &Options) -> Result<(), String> {
    let import = import(&options.fmu)?;
    let description = import.model_description();
    let (start, stop, interval) = times(description, options)?;
    let settings = resolve_settings(description, &options.sets)?;
    let (names, request) = select_variables(description, &settings, options.variables.as_deref())?;
    if options.co_simulation {
        return run_co_simulation(
            options, &import, &settings, &names, request, start, stop, interval,
        );
    }
    if description.model_exchange.is_none() {
        return Err(format!(
            "{} does not provide Model Exchange",
            options.fmu.display()
        ));
    }
    let h_max = options.step.unwrap_or(interval).min(interval);
    let mut instance = import
        .instantiate_me("fmi-importer", false, false)
        .map_err(|e| format!("fmi3InstantiateModelExchange failed: {e}"))?;
    configure(&mut instance, &settings)?;
    // Asked after configuration: a structural parameter sizes the states.
    let n_states = fmi(
        "fmi3GetNumberOfContinuousStates",
        ModelExchange::get_number_of_continuous_states(&mut instance),
    )?;
    let n_indicators = fmi(
        "fmi3GetNumberOfEventIndicators",
        ModelExchange::get_number_of_event_indicators(&mut instance),
    )?;
    let sim = Simulation::new(instance, start, n_states, n_indicators, request);
    simulate(options, sim, &names, start, stop, interval, h_max)
}

/// The Co-Simulation run: one fmi3DoStep per output interval.
#[allow(clippy::too_many_arguments)]
fn run_co_simulation(
    options: &Options,
    import: &Fmi3Import,
    settings: &[Setting],
    names: &[String],
    request: Request,
    start: f64,
    stop: f64,
    interval: f64,
) -> Result<(), String> {
    if import.model_description().co_simulation.is_none() {
        return Err(format!(
            "{} does not provide Co-Simulation",
            options.fmu.display()
        ));
    }
    let mut instance = import
        .instantiate_cs("fmi-importer", false, false, false, false, &[])
        .map_err(|e| format!("fmi3InstantiateCoSimulation failed: {e}"))?;
    configure(&mut instance, settings)?;
    fmi(
        "fmi3EnterInitializationMode",
        FmiInstance::enter_initialization_mode(&mut instance, options.tolerance, start, Some(stop)),
    )?;
    fmi(
        "fmi3ExitInitializationMode",
        FmiInstance::exit_initialization_mode(&mut instance),
    )?;
    let mut rows = Vec::new();
    let mut time = start;
    let mut steps = 0u64;
    loop {
        let mut values = vec![0.0; request.values];
        if !values.is_empty() {
            fmi(
                "fmi3GetFloat64",
                GetSet::get_float64(&mut instance, &request.references, &mut values),
            )?;
        }
        let mut row = vec![time];
        row.extend(request.picks.iter().map(|&at| values[at]));
        rows.push(row);
        if time >= stop - 1e-9 * interval {
            break;
        }
        let next = (start + (steps + 1) as f64 * interval).min(stop);
        let (mut event, mut terminate, mut early) = (false, false, false);
        let mut reached = time;
        fmi(
            "fmi3DoStep",
            CoSimulation::do_step(
                &mut instance,
                time,
                next - time,
                true,
                &mut event,
                &mut terminate,
                &mut early,
                &mut reached,
            ),
        )?;
        if terminate || early || reached != next {
            return Err(format!(
                "fmi3DoStep from {time} to {next} stopped at {reached} \
                 (terminate {terminate}, early return {early})"
            ));
        }
        steps += 1;
        time = next;
    }
    fmi("fmi3Terminate", FmiInstance::terminate(&mut instance))?;
    write_csv(options.output.as_ref(), names, &rows)?;
    eprintln!(
        "fmi-importer: {} to t = {time}: {steps} communication steps (FMI 3 Co-Simulation)",
        options.fmu.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::adapt_description;

    #[test]
    fn the_description_is_adapted_to_the_crate_schema_and_nothing_else() {
        let xml = r#"<fmiModelDescription fmiVersion="3.0">
  <UnitDefinitions><Unit name="W/K"><BaseUnit kg="1" m="2" s="-3" K="-1" A="0"/></Unit></UnitDefinitions>
  <ModelVariables>
    <Float64 name="rod.T" valueReference="5" causality="local" variability="continuous" unit="K" nominal="300" start="300 300"><Dimension start="2"/></Float64>
    <Enumeration name="mode" valueReference="1073741824" declaredType="Modes" causality="parameter" variability="fixed" start="1"/>
    <Boolean name="on" valueReference="1610612736" causality="local" variability="discrete"/>
  </ModelVariables>
  <ModelStructure><ContinuousStateDerivative valueReference="7" dependencies="5"/></ModelStructure>
</fmiModelDescription>"#;
        let adapted = adapt_description(xml);
        assert!(adapted.contains(r#"<BaseUnit kg="1" m="2" s="-3" k="-1" a="0"/>"#));
        assert!(adapted.contains(
            r#"<Float64 name="rod.T" valueReference="5" causality="local" variability="continuous" start="300 300"><Dimension start="2"/></Float64>"#
        ), "{adapted}");
        assert!(adapted.contains(
            r#"<Int64 name="mode" valueReference="1073741824" causality="parameter" variability="fixed" start="1"/>"#
        ), "{adapted}");
        assert!(adapted.contains(
            r#"<Boolean name="on" valueReference="1610612736" causality="local" variability="discrete"/>"#
        ));
        assert!(adapted.contains(
            r#"<ModelStructure><ContinuousStateDerivative valueReference="7" dependencies="5"/></ModelStructure>"#
        ));
    }
}
