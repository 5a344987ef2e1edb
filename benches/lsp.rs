//! Latency and memory of `mofmu lsp`, run with `cargo bench --bench lsp`
//! (`-- --runs N`, default 41): the release binary driven over JSON-RPC as
//! an editor drives it.
//!
//! * A generated library of about 10,000 lines (1,000 models, each a
//!   first-order lag with units and a state) is the workspace, loaded after
//!   `examples/Base.mo`; the generated file is open. Each run changes one
//!   model's literal (alternating two texts) and times `didChange` →
//!   `publishDiagnostics` of that version (the check of the edited
//!   library); then times a hover on a state of the edited model. Medians
//!   with fastest and slowest; the bench fails above the bounds of issue 42
//!   (50 ms, 20 ms).
//! * Resident memory (VmRSS) of a server after it opened every bundled
//!   library of `examples/` (one workspace in load order; Mechanical.mo,
//!   self-contained with its own Base, in a second server).
//! * Real libraries in their workspaces (issue 59): `examples/Planar/
//!   Joints.mo` (after Base and Signals) and ThermoFluid Stream Lite's
//!   largest file, `examples/ThermoFluidStream/Examples.mo` (after Base,
//!   Signals and Thermal), each without and with models named in the
//!   settings (whose export diagnostics are found too). 20 edits make and
//!   fix an error in turn (`der(w) = z` to `zz` in the revolute joint every
//!   pendulum uses; a connect to a member the pump lacks in the cooling
//!   loop); each is timed from `didChange` to the `publishDiagnostics` of
//!   its version, which must show the error or its absence. Fastest and
//!   median; the bench fails above 50 ms.
//! * `-- --workspace DIR --open FILE --replace OLD --with NEW` times the
//!   same 20 edits in any workspace (a library of your own; the
//!   DLR's ThermofluidStream), without a bound.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const MOFMU: &str = env!("CARGO_BIN_EXE_mofmu");
const CHANGE_LIMIT: Duration = Duration::from_millis(50);
const HOVER_LIMIT: Duration = Duration::from_millis(20);

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    id: i64,
}

impl Server {
    fn start(root: &Path) -> Server {
        let mut child = Command::new(MOFMU)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("mofmu lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut server = Server {
            child,
            stdin,
            stdout,
            id: 0,
        };
        let uri = mofmu::lsp::workspace::path_uri(root);
        server.request("initialize", json!({"capabilities": {}, "rootUri": uri}));
        server.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
        server
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn receive(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "server gone");
            let line = line.trim();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.id += 1;
        let id = self.id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.receive();
            if m["id"] == json!(id) {
                return m;
            }
        }
    }

    /// Waits for the diagnostics of `version` of `uri`.
    fn published(&mut self, uri: &str, version: i64) -> Value {
        loop {
            let m = self.receive();
            if m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == json!(version)
            {
                return m;
            }
        }
    }

    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    fn stop(mut self) {
        self.request("shutdown", Value::Null);
        self.send(json!({"jsonrpc": "2.0", "method": "exit"}));
        let _ = self.child.wait();
    }
}

/// About `lines` lines: models `Lag{i}`, each a first-order lag with a
/// state, units and a parameter.
fn generate(lines: usize) -> String {
    let mut w = String::from("// Generated for the lsp benchmark.\npackage Gen\n");
    let mut i = 0;
    while w.lines().count() + 1 < lines {
        let _ = write!(
            w,
            "  model Lag{i} \"a first-order lag\"\n    parameter Real T(unit = \"s\") = {t};\n    \
             parameter Real u(unit = \"K\") = 1;\n    Base.ContinuousState x(start = 0, unit = \"K\");\n    \
             Real y(unit = \"K\");\n  equation\n    T*der(x) = u - x;\n    y = 2*x;\n  end Lag{i};\n\n",
            t = 1 + i % 7
        );
        i += 1;
    }
    w.push_str("end Gen;\n");
    w
}

fn median(samples: &mut [Duration]) -> (Duration, String) {
    samples.sort();
    let m = samples[samples.len() / 2];
    let row = format!(
        "median {:.2} ms (fastest {:.2}, slowest {:.2}, {} runs)",
        m.as_secs_f64() * 1e3,
        samples[0].as_secs_f64() * 1e3,
        samples[samples.len() - 1].as_secs_f64() * 1e3,
        samples.len()
    );
    (m, row)
}

/// A workspace of the bench: its settings, the file edited and the edit
/// that makes an error.
struct Case<'a> {
    name: &'a str,
    root: std::path::PathBuf,
    file: std::path::PathBuf,
    good: &'a str,
    bad: &'a str,
}

/// 20 edits that make and fix an error in `case.file`, each timed from
/// `didChange` to the diagnostics of its version: (fastest, median).
fn make_and_fix(case: &Case) -> (Duration, Duration) {
    let text = std::fs::read_to_string(&case.file).expect("the edited file");
    assert!(
        text.contains(case.good),
        "{}: no `{}`",
        case.name,
        case.good
    );
    let broken = text.replacen(case.good, case.bad, 1);
    let uri = mofmu::lsp::workspace::path_uri(&case.file);
    let mut server = Server::start(&case.root);
    server.send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params":
        {"textDocument": {"uri": uri, "languageId": "modelica", "version": 1, "text": text}}}),
    );
    let clean = server.published(&uri, 1)["params"]["diagnostics"]
        .as_array()
        .map_or(0, Vec::len);
    let mut times = Vec::new();
    for k in 0..20 {
        let version = k as i64 + 2;
        let new_text = if k % 2 == 0 { &broken } else { &text };
        let start = Instant::now();
        server.send(json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params":
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": new_text}]}}));
        let published = server.published(&uri, version);
        times.push(start.elapsed());
        let n = published["params"]["diagnostics"]
            .as_array()
            .map_or(0, Vec::len);
        assert_eq!(
            n > clean,
            k % 2 == 0,
            "{}: edit {k}: {published}",
            case.name
        );
    }
    server.stop();
    times.sort();
    (times[0], times[times.len() / 2])
}

/// The workspaces of issue 59's bound: Joints.mo of Planar and the
/// largest file of ThermoFluid Stream Lite, each without and with models
/// named in the settings. Returns the slowest median.
fn real_workspaces(repo: &Path) -> Duration {
    let examples = repo.join("examples");
    let load = |parts: &[&str]| -> String {
        let quoted: Vec<String> = parts
            .iter()
            .map(|p| format!("{:?}", examples.join(p).display().to_string()))
            .collect();
        format!("load = [{}]\n", quoted.join(", "))
    };
    let planar = load(&["Base.mo", "Signals.mo", "Planar"]);
    let tfs = load(&["Base.mo", "Signals.mo", "Thermal", "ThermoFluidStream"]);
    let planar_models = "models = [\"Planar.Examples.Pendulum\", \"Planar.Examples.DoublePendulum\", \"Planar.Examples.PistonEngine\"]\n";
    let tfs_models =
        "models = [\"ThermoFluidStream.Examples.CoolingLoop\", \"ThermoFluidStream.Examples.Pump\"]\n";
    let dirs: Vec<tempfile::TempDir> = (0..4).map(|_| tempfile::tempdir().unwrap()).collect();
    let settings = [
        planar.clone(),
        planar + planar_models,
        tfs.clone(),
        tfs + tfs_models,
    ];
    for (dir, text) in dirs.iter().zip(&settings) {
        std::fs::write(dir.path().join("mofmu-lsp.toml"), text).unwrap();
    }
    let joints = examples.join("Planar/Joints.mo");
    let tfs_file = examples.join("ThermoFluidStream/Examples.mo");
    let cases = [
        (
            "Planar, Joints.mo",
            0,
            &joints,
            "der(w) = z;",
            "der(w) = zz;",
        ),
        (
            "Planar + 3 models, Joints.mo",
            1,
            &joints,
            "der(w) = z;",
            "der(w) = zz;",
        ),
        (
            "TFS Lite, Examples.mo",
            2,
            &tfs_file,
            "pump.omega);",
            "pump.omegaa);",
        ),
        (
            "TFS Lite + 2 models, Examples.mo",
            3,
            &tfs_file,
            "pump.omega);",
            "pump.omegaa);",
        ),
    ];
    let mut slowest = Duration::ZERO;
    for (name, dir, file, good, bad) in cases {
        let (fastest, median) = make_and_fix(&Case {
            name,
            root: dirs[dir].path().to_path_buf(),
            file: file.clone(),
            good,
            bad,
        });
        println!(
            "{name:34} make/fix an error -> publishDiagnostics: median {:.1} ms (fastest {:.1}, 20 edits)",
            median.as_secs_f64() * 1e3,
            fastest.as_secs_f64() * 1e3
        );
        slowest = slowest.max(median);
    }
    slowest
}

/// The value after `flag` in the arguments.
fn arg<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    let i = args.iter().position(|a| a == flag)?;
    args.get(i + 1).map(String::as_str)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = arg(&args, "--runs")
        .and_then(|r| r.parse().ok())
        .unwrap_or(41usize);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(root) = arg(&args, "--workspace") {
        let (Some(file), Some(good), Some(bad)) = (
            arg(&args, "--open"),
            arg(&args, "--replace"),
            arg(&args, "--with"),
        ) else {
            eprintln!("--workspace DIR needs --open FILE --replace OLD --with NEW");
            std::process::exit(2);
        };
        let (fastest, median) = make_and_fix(&Case {
            name: file,
            root: mofmu::lsp::workspace::normal(Path::new(root)),
            file: mofmu::lsp::workspace::normal(Path::new(file)),
            good,
            bad,
        });
        println!(
            "{file}: make/fix an error -> publishDiagnostics: median {:.1} ms (fastest {:.1}, 20 edits)",
            median.as_secs_f64() * 1e3,
            fastest.as_secs_f64() * 1e3
        );
        return;
    }
    let real = real_workspaces(repo);
    let dir = tempfile::tempdir().unwrap();
    let text = generate(10_000);
    let file = dir.path().join("Gen.mo");
    std::fs::write(&file, &text).unwrap();
    std::fs::write(
        dir.path().join("mofmu-lsp.toml"),
        format!(
            "load = [{:?}, \"Gen.mo\"]\n",
            repo.join("examples/Base.mo").display().to_string()
        ),
    )
    .unwrap();
    let uri = mofmu::lsp::workspace::path_uri(&file);
    let mut server = Server::start(dir.path());
    server.send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params":
        {"textDocument": {"uri": uri, "languageId": "modelica", "version": 1, "text": text}}}),
    );
    let first = server.published(&uri, 1);
    let n = first["params"]["diagnostics"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(n, 0, "the generated library checks clean: {first}");
    let middle = text.find("model Lag500 ").unwrap();
    let edited = |k: usize| {
        let mut t = text.clone();
        let at = middle + t[middle..].find("= 1;").unwrap();
        t.replace_range(at..at + 4, if k % 2 == 0 { "= 2;" } else { "= 1;" });
        t
    };
    let state_line = text[..middle + text[middle..].find("der(x)").unwrap()]
        .matches('\n')
        .count();
    let (mut changes, mut hovers) = (Vec::new(), Vec::new());
    for k in 0..runs {
        let version = k as i64 + 2;
        let new_text = edited(k);
        let start = Instant::now();
        server.send(json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params":
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": new_text}]}}));
        let published = server.published(&uri, version);
        changes.push(start.elapsed());
        assert_eq!(published["params"]["diagnostics"], json!([]));
        let start = Instant::now();
        let hover = server.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri},
            "position": {"line": state_line, "character": 11}}),
        );
        hovers.push(start.elapsed());
        let shown = hover["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default();
        assert!(shown.contains("state: yes"), "{hover}");
    }
    let (change, change_row) = median(&mut changes);
    let (hover, hover_row) = median(&mut hovers);
    println!(
        "library: {} lines, 1,000 models, after examples/Base.mo",
        text.lines().count()
    );
    println!("didChange -> publishDiagnostics: {change_row}");
    println!("hover on a state:                {hover_row}");
    println!(
        "resident after the 10k-line library: {} MiB",
        server.rss_kib() / 1024
    );
    server.stop();

    // Every bundled library, opened.
    let all = tempfile::tempdir().unwrap();
    let order = [
        "Base.mo",
        "Signals.mo",
        "Thermal",
        "Planar",
        "EnergyFlows",
        "ThermoFluidStream",
    ];
    let load: Vec<String> = order
        .iter()
        .map(|o| format!("{:?}", repo.join("examples").join(o).display().to_string()))
        .collect();
    std::fs::write(
        all.path().join("mofmu-lsp.toml"),
        format!("load = [{}]\n", load.join(", ")),
    )
    .unwrap();
    let mut server = Server::start(all.path());
    server.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": "file:///none.mo"}}),
    );
    println!("resident after opening examples/ (Base, Signals, Thermal, Planar, EnergyFlows, ThermoFluidStream): {} MiB", server.rss_kib() / 1024);
    server.stop();
    let mech = tempfile::tempdir().unwrap();
    std::fs::write(
        mech.path().join("mofmu-lsp.toml"),
        format!(
            "load = [{:?}]\n",
            repo.join("examples/Mechanical.mo").display().to_string()
        ),
    )
    .unwrap();
    let mut server = Server::start(mech.path());
    server.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": "file:///none.mo"}}),
    );
    println!(
        "resident after opening examples/Mechanical.mo: {} MiB",
        server.rss_kib() / 1024
    );
    server.stop();
    if change > CHANGE_LIMIT || hover > HOVER_LIMIT || real > CHANGE_LIMIT {
        eprintln!(
            "over the bounds ({} ms, {} ms)",
            CHANGE_LIMIT.as_millis(),
            HOVER_LIMIT.as_millis()
        );
        std::process::exit(1);
    }
}
