//! Hybrid events through mofmu's own harness, FMI 2.0 and 3.0, Model Exchange
//! and Co-Simulation: a model's `terminate` ends the run where it fires, an
//! event iteration that cannot settle fails at its instant with what keeps
//! changing, a Zeno ball ends in bounded time, and an FMU state saved before
//! an impact replays the impact to the bit. The examples' values against
//! their closed forms are the round trip's (`fmu-tests/cases.toml`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mofmu::export::{export_model_options, ExportOptions, FmiVersion};
use mofmu::harness::{simulate, Fmu, Interface, SimOptions};

use crate::export::{library, package, shared_cache};

const EVENTS: &[&str] = &[
    "examples/Base.mo",
    "examples/Signals.mo",
    "examples/Events.mo",
];
const CHATTER: &[&str] = &["examples/Base.mo", "test_data/events/Chatter.mo"];
const VERSIONS: [FmiVersion; 2] = [FmiVersion::Fmi2, FmiVersion::Fmi3];
const INTERFACES: [Interface; 2] = [Interface::ModelExchange, Interface::CoSimulation];

/// Exports `model` (at its experiment's stop time) as an FMU of `version` in `dir`.
fn fmu(libraries: &[&str], model: &str, version: FmiVersion, dir: &Path) -> PathBuf {
    let lib = library(libraries);
    let options = ExportOptions {
        fmi_version: version,
        ..ExportOptions::default()
    };
    let out = export_model_options(&lib, model, &[], None, options)
        .unwrap_or_else(|e| panic!("export {model}: {e:?}"));
    let path = dir.join(format!("{}-{version:?}.fmu", model.replace('.', "_")));
    package(&out, &path, &shared_cache());
    path
}

#[test]
fn a_terminate_ends_the_run_where_it_fires() {
    // Events.Stair's experiment runs to 10 s; its counter reaches 10 at 9 s,
    // where the model terminates.
    let dir = tempfile::tempdir().expect("temp dir");
    for version in VERSIONS {
        let path = fmu(EVENTS, "Events.Stair", version, dir.path());
        for interface in INTERFACES {
            let options = SimOptions {
                output: vec!["counter".into()],
                interface: Some(interface),
                ..SimOptions::default()
            };
            let result = simulate(&path, &options)
                .unwrap_or_else(|e| panic!("{version:?} {interface:?}: {e}"));
            let time = result.column("time").expect("time");
            let counter = result.column("counter").expect("counter");
            let last = *time.last().expect("rows");
            assert!(
                (last - 9.0).abs() <= 1e-9,
                "{version:?} {interface:?}: the run ends at {last}, not at the terminate (9 s)"
            );
            assert_eq!(*counter.last().unwrap(), 10.0, "{version:?} {interface:?}");
            // Before the end every value is the whole seconds passed, plus one.
            for (t, c) in time.iter().zip(&counter) {
                if (t - t.round()).abs() > 1e-9 {
                    assert_eq!(*c, t.floor() + 1.0, "{version:?} {interface:?} at t = {t}");
                }
            }
        }
    }
}

#[test]
fn an_event_iteration_that_never_settles_fails_at_its_instant_naming_the_variable() {
    let dir = tempfile::tempdir().expect("temp dir");
    for version in VERSIONS {
        // The edge that settles at once runs to the end.
        let flip = fmu(CHATTER, "Chatter.Flip", version, dir.path());
        let runaway = fmu(CHATTER, "Chatter.Runaway", version, dir.path());
        for interface in INTERFACES {
            let options = SimOptions {
                interface: Some(interface),
                output: vec!["b".into()],
                ..SimOptions::default()
            };
            let result = simulate(&flip, &options)
                .unwrap_or_else(|e| panic!("Flip {version:?} {interface:?}: {e}"));
            let b = result.column("b").expect("b");
            let time = result.column("time").expect("time");
            assert!(time
                .iter()
                .zip(&b)
                .all(|(t, b)| (*b == 1.0) == (*t >= 0.5) || (*t - 0.5).abs() < 1e-12));
            let options = SimOptions {
                interface: Some(interface),
                ..SimOptions::default()
            };
            let started = Instant::now();
            let error = simulate(&runaway, &options)
                .expect_err("the runaway event iteration must fail")
                .to_string();
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{version:?} {interface:?}: {:?}",
                started.elapsed()
            );
            assert!(
                error.contains("the events at time 0.5 do not settle")
                    && error.contains("still change (n)"),
                "{version:?} {interface:?}: {error}"
            );
        }
    }
}

#[test]
fn a_zeno_ball_without_a_resting_speed_ends_in_bounded_time() {
    // With v_min = 0 the ball never rests: its impacts pile up towards the
    // Zeno time (about 2.5 s). Whatever the integrator makes of that, the run
    // must end, with a result or an error, not hang.
    let dir = tempfile::tempdir().expect("temp dir");
    for version in VERSIONS {
        let path = fmu(EVENTS, "Events.BouncingBall", version, dir.path());
        for interface in INTERFACES {
            let options = SimOptions {
                interface: Some(interface),
                start_values: vec![("v_min".into(), 0.0)],
                output: vec!["h".into(), "impacts".into()],
                ..SimOptions::default()
            };
            let started = Instant::now();
            let outcome = simulate(&path, &options);
            let elapsed = started.elapsed();
            println!(
                "Zeno ball {version:?} {interface:?}: {elapsed:?}, {}",
                match &outcome {
                    Ok(r) => format!(
                        "ran to {} with {} impacts",
                        r.column("time").unwrap().last().unwrap(),
                        r.column("impacts").unwrap().last().unwrap()
                    ),
                    Err(e) => format!("stopped: {e}"),
                }
            );
            assert!(
                elapsed < Duration::from_secs(60),
                "{version:?} {interface:?}: {elapsed:?}"
            );
            if let Ok(result) = outcome {
                // What it reports is the ball's: eleven impacts at least (the
                // count with v_min = 0.1) and no value that is not a number.
                let impacts = result.column("impacts").unwrap();
                assert!(
                    *impacts.last().unwrap() >= 11.0,
                    "{version:?} {interface:?}"
                );
                assert!(result.column("h").unwrap().iter().all(|h| h.is_finite()));
            }
        }
    }
}

/// The Real, Integer and Boolean values of the ball, bit for bit.
fn ball_values(instance: &mut dyn mofmu::harness::FmiInstance, fmu: &Fmu) -> Vec<u64> {
    let model = fmu.model_description();
    let reference = |name: &str| model.variable(name).expect(name).value_reference;
    let reals = instance
        .get_real(&[reference("h"), reference("v")])
        .expect("reals");
    let impacts = instance
        .get_integer(&[reference("impacts")])
        .expect("impacts");
    let flying = instance
        .get_boolean(&[reference("flying")])
        .expect("flying");
    let mut bits: Vec<u64> = reals.iter().map(|x| x.to_bits()).collect();
    bits.push(impacts[0] as u64);
    bits.push(flying[0] as u64);
    bits
}

#[test]
fn a_state_saved_before_an_impact_replays_it_to_the_bit() {
    // The first impact is at 0.4515 s. Co-Simulation: steps of 0.01 s from
    // a state saved at 0.4 s to 0.6 s, twice. Model Exchange: the crossing
    // handed over by hand (states past the ground, the event, its
    // iteration), twice from the same saved state.
    let dir = tempfile::tempdir().expect("temp dir");
    for version in VERSIONS {
        let path = fmu(EVENTS, "Events.BouncingBall", version, dir.path());
        let fmu = Fmu::load(&path).expect("opens");

        let (mut cs, _) = fmu
            .instance(Interface::CoSimulation, "cs", false, &[])
            .expect("CS instance");
        cs.enter_initialization(Some(1e-10), 0.0, Some(3.0))
            .expect("init");
        cs.exit_initialization_mode().expect("exit init");
        let mut t = 0.0;
        for _ in 0..40 {
            assert!(cs.do_step(t, 0.01).expect("step"));
            t += 0.01;
        }
        let saved_time = t;
        let saved = cs.get_fmu_state().expect("state saved");
        let mut runs = Vec::new();
        for _ in 0..2 {
            cs.set_fmu_state(&saved).expect("state restored");
            let mut t = saved_time;
            let mut trace = Vec::new();
            for _ in 0..20 {
                assert!(cs.do_step(t, 0.01).expect("step"));
                t += 0.01;
                trace.push(ball_values(cs.as_mut(), &fmu));
            }
            runs.push(trace);
        }
        assert_eq!(
            runs[0], runs[1],
            "{version:?}: Co-Simulation replay differs"
        );
        let impacts_index = 2;
        assert_eq!(
            runs[0].last().unwrap()[impacts_index],
            1,
            "{version:?}: one impact"
        );
        cs.free_fmu_state(saved).expect("freed");
        cs.terminate().expect("terminate");

        let (mut me, _) = fmu
            .instance(Interface::ModelExchange, "me", false, &[])
            .expect("ME instance");
        me.enter_initialization(Some(1e-10), 0.0, Some(3.0))
            .expect("init");
        me.exit_initialization_mode().expect("exit init");
        while me
            .update_discrete_states()
            .expect("iteration")
            .new_discrete_states_needed
            != 0
        {}
        me.enter_continuous_time_mode().expect("continuous time");
        let before = me.get_fmu_state().expect("state saved");
        let at_rest = ball_values(me.as_mut(), &fmu);
        let mut runs = Vec::new();
        for _ in 0..2 {
            me.set_fmu_state(&before).expect("state restored");
            assert_eq!(
                ball_values(me.as_mut(), &fmu),
                at_rest,
                "{version:?}: restore"
            );
            // Just past the closed-form impact, falling at sqrt(2 g h0).
            me.set_time(0.4516).expect("time");
            me.set_continuous_states(&[-1e-4, -4.4300]).expect("states");
            let mut z = vec![0.0; fmu.model_description().number_of_event_indicators];
            me.get_event_indicators(&mut z).expect("indicators");
            assert!(z.iter().any(|z| *z <= 0.0), "{version:?}: {z:?}");
            me.enter_event_mode().expect("event mode");
            let mut rounds = 0;
            while me
                .update_discrete_states()
                .expect("iteration")
                .new_discrete_states_needed
                != 0
            {
                rounds += 1;
                assert!(rounds < 10, "{version:?}: the impact does not settle");
            }
            me.enter_continuous_time_mode().expect("continuous time");
            let after = ball_values(me.as_mut(), &fmu);
            // The impact rebounds at e times the speed and counts once.
            assert_eq!(f64::from_bits(after[1]), 0.7 * 4.4300, "{version:?}");
            assert_eq!(after[impacts_index], 1, "{version:?}");
            runs.push((z.iter().map(|z| z.to_bits()).collect::<Vec<_>>(), after));
        }
        assert_eq!(
            runs[0], runs[1],
            "{version:?}: Model Exchange replay differs"
        );
        me.free_fmu_state(before).expect("freed");
        me.terminate().expect("terminate");
    }
}

#[test]
fn feedthrough_follows_an_input_table_of_real_integer_and_boolean_columns() {
    // The Reference-FMUs' Feedthrough pattern: the Real column is
    // interpolated, the Integer and Boolean columns hold their row's value
    // and change at the next row (events), and `rises` counts the Boolean's
    // rising edges (at 0.5 and 1.5 s).
    let dir = tempfile::tempdir().expect("temp dir");
    let table = dir.path().join("inputs.csv");
    std::fs::write(
        &table,
        "time,real_in,int_in,bool_in\n0,0,1,false\n0.5,1,2,true\n1,0,3,false\n1.5,2,-4,true\n2,2,-4,true\n",
    )
    .unwrap();
    let signals = mofmu::harness::InputSignals::read(&table).expect("the table reads");
    let held = |t: f64| -> (f64, f64) {
        match t {
            t if t < 0.5 => (1.0, 0.0),
            t if t < 1.0 => (2.0, 1.0),
            t if t < 1.5 => (3.0, 0.0),
            _ => (-4.0, 1.0),
        }
    };
    let real = |t: f64| -> f64 {
        match t {
            t if t < 0.5 => 2.0 * t,
            t if t < 1.0 => 1.0 - 2.0 * (t - 0.5),
            t if t < 1.5 => 4.0 * (t - 1.0),
            _ => 2.0,
        }
    };
    for version in VERSIONS {
        let path = fmu(EVENTS, "Events.Feedthrough", version, dir.path());
        for interface in INTERFACES {
            let options = SimOptions {
                interface: Some(interface),
                input: Some(signals.clone()),
                output: ["real_out", "int_out", "bool_out", "rises"]
                    .map(String::from)
                    .to_vec(),
                ..SimOptions::default()
            };
            let result = simulate(&path, &options)
                .unwrap_or_else(|e| panic!("{version:?} {interface:?}: {e}"));
            let column = |name: &str| result.column(name).expect(name);
            let (time, real_out, int_out, bool_out, rises) = (
                column("time"),
                column("real_out"),
                column("int_out"),
                column("bool_out"),
                column("rises"),
            );
            let mut judged = 0;
            for i in 0..time.len() {
                let t = time[i];
                // The rows at a change show it before or after: not judged.
                if [0.5, 1.0, 1.5].iter().any(|c| (t - c).abs() < 1e-9) {
                    continue;
                }
                judged += 1;
                let (int, boolean) = held(t);
                let what = format!("{version:?} {interface:?} at t = {t}");
                // FMI 3.0 Co-Simulation takes no input derivatives: the Real
                // input is held over a step, so a row shows the input at the
                // communication point before it.
                let real_at = if version == FmiVersion::Fmi3 && interface == Interface::CoSimulation
                {
                    real(time[i.saturating_sub(1)])
                } else {
                    real(t)
                };
                assert!(
                    (real_out[i] - real_at).abs() <= 1e-12,
                    "{what}: {}",
                    real_out[i]
                );
                assert_eq!((int_out[i], bool_out[i]), (int, boolean), "{what}");
                let expected_rises = f64::from(u8::from(t > 0.5)) + f64::from(u8::from(t > 1.5));
                assert_eq!(rises[i], expected_rises, "{what}");
            }
            assert!(judged > 190, "{version:?} {interface:?}: {judged} rows");
        }
    }
}
