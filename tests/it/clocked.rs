//! Clocked partitions (DESIGN §2.2b) through the harness: an FMU's state
//! saved before a tick and restored gives the same trajectory through the
//! tick to the bit, in Model Exchange and in Co-Simulation; a declared
//! clock is the clock it names; units are checked through the clocked
//! built-ins. The snippets' values against the exact table are
//! `clocked_library.rs`.

use mofmu::harness::fmi2::Instance;
use mofmu::harness::Fmu;

use crate::export::{export, library, package, shared_cache};

const CLK1: &[&str] = &["examples/Base.mo", "test_data/clocked/Clk1.mo"];

/// Explicit Euler steps of `h` from `t` to `t_end`, stopping at the FMU's
/// time events and running their event iteration; every row is the time
/// and the reals `refs`, as bits.
fn run_me(
    inst: &mut Instance,
    mut t: f64,
    t_end: f64,
    next_event: &mut Option<f64>,
    refs: &[u32],
) -> Vec<u64> {
    let h = 0.002;
    let mut x = [0.0; 2];
    let mut dx = [0.0; 2];
    inst.get_continuous_states(&mut x).expect("states");
    let mut rows = Vec::new();
    while t < t_end - 1e-12 {
        let mut t1 = (t + h).min(t_end);
        let event = next_event.is_some_and(|te| te <= t1);
        if event {
            t1 = next_event.expect("an event time");
        }
        inst.get_derivatives(&mut dx).expect("derivatives");
        for k in 0..2 {
            x[k] += (t1 - t) * dx[k];
        }
        inst.set_time(t1).expect("time");
        inst.set_continuous_states(&x).expect("states");
        inst.completed_integrator_step().expect("step");
        if event {
            inst.enter_event_mode().expect("event mode");
            let mut info = inst.new_discrete_states().expect("event iteration");
            while info.new_discrete_states_needed != 0 {
                info = inst.new_discrete_states().expect("event iteration");
            }
            *next_event = (info.next_event_time_defined != 0).then_some(info.next_event_time);
            inst.enter_continuous_time_mode().expect("continuous time");
            inst.get_continuous_states(&mut x).expect("states");
        }
        t = t1;
        rows.push(t.to_bits());
        rows.extend(
            inst.get_real(refs)
                .expect("values")
                .iter()
                .map(|v| v.to_bits()),
        );
    }
    rows
}

#[test]
fn fmu_state_restored_before_a_tick_repeats_the_tick_to_the_bit() {
    let lib = library(CLK1);
    let out = export(&lib, "Clk1.MotorPI", &[]);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("MotorPI.fmu");
    package(&out, &path, &shared_cache());
    let fmu = Fmu::load(&path).expect("the FMU loads");
    let model = fmu.model_description();
    let refs: Vec<u32> = ["i", "w", "e", "I", "vk", "v", "'previous(I)'"]
        .iter()
        .map(|n| {
            model
                .variable(n)
                .unwrap_or_else(|| panic!("`{n}` is listed"))
                .value_reference
        })
        .collect();

    // Model Exchange: the state saved at t = 0.0953, between the ticks at
    // 0.09 and 0.1, then the run to 0.125 twice.
    let mut inst = fmu.instantiate("me", false).expect("instantiate");
    inst.setup_experiment(None, 0.0, Some(1.0)).expect("setup");
    inst.enter_initialization_mode().expect("init");
    inst.exit_initialization_mode().expect("init");
    let info = inst.new_discrete_states().expect("event iteration");
    let mut next_event = (info.next_event_time_defined != 0).then_some(info.next_event_time);
    assert_eq!(
        next_event,
        Some(0.01),
        "the second tick is the first time event"
    );
    inst.enter_continuous_time_mode().expect("continuous time");
    run_me(&mut inst, 0.0, 0.0953, &mut next_event, &refs);
    let saved = inst.get_fmu_state().expect("get state");
    let event_at_save = next_event;
    let first = run_me(&mut inst, 0.0953, 0.125, &mut next_event, &refs);
    inst.set_fmu_state(&saved).expect("set state");
    let mut next_event = event_at_save;
    let again = run_me(&mut inst, 0.0953, 0.125, &mut next_event, &refs);
    assert!(first.len() > 10 * (refs.len() + 1));
    assert_eq!(first, again, "the run after fmi2SetFMUstate differs");
    // The runs went through ticks: the held voltage changed.
    let v = |rows: &[u64], k: usize| f64::from_bits(rows[k * (refs.len() + 1) + 6]);
    assert_ne!(v(&first, 0), v(&first, first.len() / (refs.len() + 1) - 1));
    inst.free_fmu_state(saved).expect("free state");

    // Co-Simulation: the same, with steps of 2.5 ms through the tick at 0.1.
    let mut cs = fmu
        .instantiate_co_simulation("cs", false)
        .expect("instantiate");
    cs.setup_experiment(None, 0.0, Some(1.0)).expect("setup");
    cs.enter_initialization_mode().expect("init");
    cs.exit_initialization_mode().expect("init");
    let step = |cs: &mut Instance, from: f64, n: usize| -> Vec<u64> {
        let mut rows = Vec::new();
        for k in 0..n {
            let t = from + k as f64 * 0.0025;
            assert!(cs.do_step(t, 0.0025).expect("step"));
            rows.extend(
                cs.get_real(&refs)
                    .expect("values")
                    .iter()
                    .map(|v| v.to_bits()),
            );
        }
        rows
    };
    step(&mut cs, 0.0, 38);
    let saved = cs.get_fmu_state().expect("get state");
    let first = step(&mut cs, 0.095, 12);
    cs.set_fmu_state(&saved).expect("set state");
    let again = step(&mut cs, 0.095, 12);
    assert_eq!(first, again, "the steps after fmi2SetFMUstate differ");
    cs.free_fmu_state(saved).expect("free state");
}

/// `Clock c = Clock(Ts);` names the clock it declares: the model with a
/// declared clock gives the snippet's trajectory to the bit.
#[test]
fn a_declared_clock_is_the_clock_it_names() {
    let text = std::fs::read_to_string(crate::export::repo().join("test_data/clocked/Clk1.mo"))
        .expect("the snippet");
    let declared = text
        .replace("encapsulated package Clk1", "encapsulated package Clk2")
        .replace("end Clk1;", "end Clk2;")
        .replace(
            "    Real uk \"Control, at the ticks\";",
            "    Real uk \"Control, at the ticks\";\n    Clock c = Clock(Ts);",
        )
        .replace("sample(x, Clock(Ts))", "sample(x, c)");
    assert!(declared.contains("sample(x, c)"));
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("Clk2.mo");
    std::fs::write(&file, declared).expect("write");
    let base = crate::export::repo().join("examples/Base.mo");
    let lib = mofmu::library::load_library(
        mofmu::loader::load_paths(&[base, file]).expect("the files load"),
    );
    let diagnostics = mofmu::library::check_library(&lib);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let options = mofmu::harness::SimOptions {
        stop_time: Some(1.05),
        output_interval: Some(0.05),
        relative_tolerance: Some(1e-10),
        output: vec!["x".into(), "u".into()],
        ..mofmu::harness::SimOptions::default()
    };
    let mut results = Vec::new();
    for (lib, model) in [(library(CLK1), "Clk1.SampledP"), (lib, "Clk2.SampledP")] {
        let out = export(&lib, model, &[]);
        let path = dir.path().join(format!("{model}.fmu"));
        package(&out, &path, &shared_cache());
        let r = mofmu::harness::simulate(&path, &options).expect("it simulates");
        results.push(format!("{:?}", r.rows));
    }
    assert_eq!(results[0], results[1]);
}

/// The units of clocked equations are checked: `sample`, `hold` and
/// `previous` keep their value's unit, `interval()` is in seconds.
#[test]
fn units_are_checked_through_the_clocked_built_ins() {
    let text = "package U\n  type ContinuousState = Real;\n  model M\n    parameter Real Ts(unit = \"s\") = 0.1;\n    parameter Real K(unit = \"V/m\") = 2;\n    parameter Real T(unit = \"s\") = 1;\n    ContinuousState x(unit = \"m\", start = 1);\n    Real uk(unit = \"V\");\n    Real wrong(unit = \"V\");\n  equation\n    uk = K*sample(x, Clock(Ts));\n    wrong = uk + interval();\n    der(x) = (hold(uk)/K - x)/T;\n  end M;\nend U;\n";
    let lib = mofmu::library::load_library(vec![("U.mo".to_string(), text.to_string())]);
    let diagnostics = mofmu::library::check_library(&lib);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert_eq!(d.code, "UC002");
    assert!(d.message.contains("V and s"), "{}", d.message);
    let line = text[..d.span.start as usize].matches('\n').count() + 1;
    assert_eq!(line, 12, "the diagnostic names the line of `wrong`");
}

const CLK2: &[&str] = &["examples/Base.mo", "test_data/clocked/Clk2.mo"];

/// The diagnostics of a one-file library `text` (with examples/Base.mo
/// loaded first), each as (code, line, help).
fn check_text(text: &str) -> Vec<(String, usize, String)> {
    let base = std::fs::read_to_string(crate::export::repo().join("examples/Base.mo"))
        .expect("examples/Base.mo");
    let lib = mofmu::library::load_library(vec![
        ("Base.mo".to_string(), base),
        ("M.mo".to_string(), text.to_string()),
    ]);
    mofmu::library::check_library(&lib)
        .into_iter()
        .map(|d| {
            let line = text[..d.span.start as usize].matches('\n').count() + 1;
            (d.code.to_string(), line, d.help.clone())
        })
        .collect()
}

/// An equation that reads two partitions ran at the rate of whichever it
/// named first (`c1 = b - a` at the slow ticks, `c2 = a - b` at the fast
/// ones): it is refused, each at its line, with the conversion that says
/// which rate is meant.
#[test]
fn an_equation_that_reads_two_partitions_is_refused_with_the_conversion() {
    let repro = "package R\n  model PartitionByOperandOrder\n    parameter Real Ts = 0.1;\n    parameter Integer f = 3;\n    Real a, b, c1, c2, c1H, c2H;\n  equation\n    a = sample(time, Clock(Ts));\n    b = sample(time, subSample(Clock(Ts), f));\n    c1 = b - a;\n    c2 = a - b;\n    c1H = hold(c1);\n    c2H = hold(c2);\n  end PartitionByOperandOrder;\nend R;\n";
    let diags = check_text(repro);
    assert_eq!(diags.len(), 2, "{diags:?}");
    assert_eq!((diags[0].0.as_str(), diags[0].1), ("MC180", 9));
    assert!(diags[0].2.contains("`subSample(a, f)`"), "{}", diags[0].2);
    assert_eq!((diags[1].0.as_str(), diags[1].1), ("MC180", 10));
    assert!(diags[1].2.contains("`superSample(b, f)`"), "{}", diags[1].2);

    // The two-rate cascade as a new user first wrote it: its speed loop
    // would have run at the position loop's rate.
    let cascade = std::fs::read_to_string(crate::export::repo().join("test_data/clocked/Clk2.mo"))
        .expect("Clk2.mo")
        .replace("ev = superSample(vsp, f) - vk;", "ev = vsp - vk;");
    let diags = check_text(&cascade);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let line = cascade
        .lines()
        .position(|l| l.contains("ev = vsp - vk;"))
        .expect("the line")
        + 1;
    assert_eq!((diags[0].0.as_str(), diags[0].1), ("MC180", line));
    assert!(
        diags[0].2.contains("`superSample(vsp, f)`"),
        "{}",
        diags[0].2
    );
}

/// The tick counter docs/from-modelica.md documents, `interval()` and
/// `firstTick()` name no clock: in a class of one partition they are on it
/// (Clk2.DelayedLag runs them against its reference); in a class of two
/// they are refused once, with how to name the clock; in a class that
/// samples nothing, once.
#[test]
fn equations_that_name_no_clock_take_the_class_partition() {
    let model = |clocks: &str| {
        format!("package R\n  model Counter\n    parameter Real Ts = 0.1;\n    parameter Integer f = 2;\n    Real u, dt, uH, nH, dtH, mH;\n    Integer n(start = -1), m(start = 0);\n  equation\n{clocks}    n = previous(n) + 1;\n    dt = interval();\n    m = if firstTick() then 0 else previous(m) + 1;\n    nH = hold(n);\n    dtH = hold(dt);\n    mH = hold(m);\n  end Counter;\nend R;\n")
    };
    let one = model("    u = sample(time, Clock(Ts));\n    uH = hold(u);\n");
    assert_eq!(check_text(&one), Vec::new());
    let two = model("    u = sample(time, Clock(Ts));\n    uH = hold(u) + hold(sample(time, subSample(Clock(Ts), f)));\n");
    let diags = check_text(&two);
    let codes: Vec<(&str, usize)> = diags.iter().map(|d| (d.0.as_str(), d.1)).collect();
    assert_eq!(codes, [("MC182", 10), ("MC182", 11), ("MC182", 12)]);
    assert!(diags[0].2.contains("firstTick(uk)"), "{}", diags[0].2);
    let none = model("    uH = time;\n    u = 0;\n");
    let diags = check_text(&none);
    let codes: Vec<(&str, usize)> = diags.iter().map(|d| (d.0.as_str(), d.1)).collect();
    assert_eq!(
        codes,
        [("MC158", 10)],
        "one fault, at the first clocked built-in"
    );
}

/// A clock's interval or factor that is not positive is refused at export,
/// naming the parameter and the clock, and by the FMU at initialisation
/// (Model Exchange and Co-Simulation) in the same words.
#[test]
fn a_clock_that_is_not_positive_is_refused_at_export_and_by_the_fmu() {
    let lib = library(CLK2);
    for (path, value, message) in [
        ("Ts", 0.0, "`Ts` = 0 is the interval of the clock `subSample(Clock(Ts), f)` of `Clk2.Cascade`; it must be positive"),
        ("Ts", -30.0, "`Ts` = -30 is the interval of the clock `subSample(Clock(Ts), f)` of `Clk2.Cascade`; it must be positive"),
        ("f", 0.0, "`f` = 0 is the factor of the clock `subSample(Clock(Ts), f)` of `Clk2.Cascade`; it must be positive"),
    ] {
        let sets = [crate::export::set(path, value)];
        let Err(mofmu::export::ExportError::Diagnostics(diags)) =
            mofmu::export::export_model(&lib, "Clk2.Cascade", &sets, 1.0)
        else {
            panic!("--set {path}={value} exported");
        };
        let codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["MX047"], "{diags:?}");
        assert_eq!(diags[0].message, message);
    }
    let out = export(&lib, "Clk2.Cascade", &[]);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("Cascade.fmu");
    package(&out, &path, &shared_cache());
    for interface in [
        mofmu::harness::Interface::ModelExchange,
        mofmu::harness::Interface::CoSimulation,
    ] {
        let options = mofmu::harness::SimOptions {
            stop_time: Some(0.1),
            start_values: vec![("Ts".into(), 0.0)],
            interface: Some(interface),
            ..mofmu::harness::SimOptions::default()
        };
        let err = mofmu::harness::simulate(&path, &options).expect_err("Ts = 0 runs");
        let text = err.to_string();
        assert!(
            text.contains("`Ts` = 0 is the interval of the clock `subSample(Clock(Ts), f)` of `Clk2.Cascade`; it must be positive"),
            "{interface:?}: {text}"
        );
    }
}
