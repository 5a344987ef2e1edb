//! `mofmu lsp` driven as an editor drives it: the real binary, JSON-RPC
//! over its stdin and stdout (issue 42).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

use crate::export::repo;

/// A client of one server process.
struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for something else.
    notes: Vec<Value>,
}

impl Client {
    fn start(root: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mofmu"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("mofmu lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = 0usize;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse().expect("a length");
                    }
                }
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let value: Value = serde_json::from_slice(&body).expect("a JSON message");
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            incoming,
            next_id: 1,
            notes: Vec::new(),
        };
        let uri = uri(root);
        let init = client.request(
            "initialize",
            json!({"processId": null, "rootUri": uri, "capabilities": {},
                   "workspaceFolders": [{"uri": uri, "name": "ws"}]}),
        );
        assert!(
            init["result"]["capabilities"]["hoverProvider"] == json!(true),
            "{init}"
        );
        client.notify("initialized", json!({}));
        client
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn receive(&mut self) -> Value {
        self.incoming
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers within a minute")
    }

    /// Sends a request and returns its response (keeping notifications).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message["id"] == json!(id) {
                return message;
            }
            self.notes.push(message);
        }
    }

    /// The diagnostics published for version `version` of `uri`.
    fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        loop {
            let found = self.notes.iter().position(|n| {
                n["method"] == "textDocument/publishDiagnostics"
                    && n["params"]["uri"] == uri
                    && n["params"]["version"] == json!(version)
            });
            if let Some(i) = found {
                let note = self.notes.remove(i);
                return note["params"]["diagnostics"].as_array().unwrap().clone();
            }
            let message = self.receive();
            self.notes.push(message);
        }
    }

    fn finish(mut self) {
        let response = self.request("shutdown", Value::Null);
        assert!(response["error"].is_null(), "{response}");
        self.notify("exit", Value::Null);
        let status = self.child.wait().expect("the server exits");
        assert!(status.success(), "exit status {status}");
    }
}

fn uri(path: &Path) -> String {
    mofmu::lsp::workspace::path_uri(path)
}

/// Applies protocol text edits (positions in UTF-16 units) to `text`.
fn apply(text: &str, edits: &[Value]) -> String {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let character = p["character"].as_u64().unwrap() as usize;
        let start = starts.get(line).copied().unwrap_or(text.len());
        let mut units = 0;
        for (i, c) in text[start..].char_indices() {
            if units >= character || c == '\n' {
                return start + i;
            }
            units += c.len_utf16();
        }
        text.len()
    };
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (start, end, new) in spans {
        out.replace_range(start..end, &new);
    }
    out
}

/// A workspace of the newcomer's RC circuit after Base, in that order.
fn newcomer_workspace() -> (tempfile::TempDir, std::path::PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("RC.mo");
    let text = std::fs::read_to_string(repo().join("test_data/newcomer/RCCircuit.mo")).unwrap();
    std::fs::write(&model, &text).unwrap();
    let base = repo().join("examples/Base.mo");
    std::fs::write(
        dir.path().join("mofmu-lsp.toml"),
        format!("load = [{:?}, \"RC.mo\"]\n", base.display().to_string()),
    )
    .unwrap();
    (dir, model, text)
}

fn position_of(text: &str, needle: &str, nth: usize) -> Value {
    let at = text.match_indices(needle).nth(nth).expect("needle").0;
    let line = text[..at].matches('\n').count();
    let column = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": column})
}

#[test]
fn an_editor_opens_fixes_and_navigates_a_newcomer_model() {
    let (dir, model, mut text) = newcomer_workspace();
    let mut client = Client::start(dir.path());
    let doc = uri(&model);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "modelica", "version": 1, "text": text}}),
    );
    let diags = client.diagnostics(&doc, 1);
    let first = diags.first().expect("the plain model is refused");
    assert_eq!(first["code"], "MC038", "{first}");
    assert!(
        first["message"].as_str().unwrap().contains("help: "),
        "{first}"
    );
    assert!(first["codeDescription"]["href"]
        .as_str()
        .unwrap()
        .ends_with("rules.md#mc038"));
    // The quick fix at the diagnostic: declare the state by its type.
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": doc}, "range": first["range"],
               "context": {"diagnostics": [first]}}),
    );
    let actions = actions["result"].as_array().unwrap().clone();
    let quick = actions
        .iter()
        .find(|a| a["kind"] == "quickfix")
        .expect("a quick fix");
    assert!(
        quick["title"].as_str().unwrap().contains("state"),
        "{quick}"
    );
    assert!(actions.iter().any(|a| a["kind"] == "source.fixAll"));
    let mut version = 1;
    let mut fix_rounds = 0;
    let mut action = quick.clone();
    loop {
        text = apply(&text, action["edit"]["changes"][&doc].as_array().unwrap());
        version += 1;
        fix_rounds += 1;
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": doc, "version": version},
                   "contentChanges": [{"text": text}]}),
        );
        let diags = client.diagnostics(&doc, version);
        if diags.is_empty() {
            break;
        }
        assert!(
            fix_rounds < 4,
            "still refused after {fix_rounds} fixes: {diags:?}"
        );
        let whole =
            json!({"start": {"line": 0, "character": 0}, "end": {"line": 999, "character": 0}});
        let actions = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": doc}, "range": whole, "context": {"diagnostics": []}}),
        );
        action = actions["result"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["kind"] == "source.fixAll")
            .cloned()
            .unwrap_or_else(|| panic!("a fix for {diags:?} in {actions}"));
    }
    assert!(text.contains("Base.ContinuousState v"), "{text}");
    // The fixed text passes the command-line check too.
    std::fs::write(&model, &text).unwrap();
    let check = Command::new(env!("CARGO_BIN_EXE_mofmu"))
        .args([
            "check",
            repo().join("examples/Base.mo").to_str().unwrap(),
            model.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );

    // Hover on the state: its unit, that it is a state, what determines it.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": position_of(&text, "der(v)", 0)
            .as_object().map(|p| json!({"line": p["line"], "character": p["character"].as_u64().unwrap() + 4})).unwrap()}),
    );
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(shown.contains("state: yes"), "{hover}");
    assert!(shown.contains("its derivative is determined by"), "{hover}");
    assert!(
        shown.contains("this equation determines `der(v)`"),
        "{hover}"
    );
    // Hover on `i` in its declaration: unknown, determined by `i = …`.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": position_of(&text, "i \"current\"", 0)}),
    );
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(shown.contains("causality: unknown"), "{hover}");
    assert!(shown.contains("determined by: `i = (V - v)/R;`"), "{hover}");
    // On the class: it compiles, and its units.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": position_of(&text, "RCCircuit", 1)}),
    );
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        shown.contains("compiles on its own") && shown.contains("units: "),
        "{hover}"
    );
    // Go to definition: from the use of `R` to its declaration.
    let definition = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": doc}, "position": position_of(&text, "/R;", 0)
            .as_object().map(|p| json!({"line": p["line"], "character": p["character"].as_u64().unwrap() + 1})).unwrap()}),
    );
    assert_eq!(definition["result"]["uri"], doc);
    assert_eq!(
        definition["result"]["range"]["start"],
        position_of(&text, "R = 1000", 0)
    );
    // A panic inside a request is an error response; the server goes on.
    let panic = client.request(mofmu::lsp::PANIC_REQUEST, Value::Null);
    assert!(
        panic["error"]["message"]
            .as_str()
            .unwrap()
            .contains("internal error"),
        "{panic}"
    );
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": doc}}),
    );
    let names: Vec<&str> = symbols["result"][0]["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"v") && names.contains(&"i = …"),
        "{names:?}"
    );
    client.finish();
}

/// A small deterministic generator (64-bit LCG, high bits).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// Random edits of a model (deletions, insertions of Modelica fragments
/// and of characters outside the BMP, line duplication), each followed by
/// a random request at a random place: every request is answered without
/// an internal error, and the server still exits cleanly.
#[test]
fn random_edit_sequences_never_take_the_server_down() {
    const EDITS: usize = 1000;
    let (dir, model, mut text) = newcomer_workspace();
    let mut client = Client::start(dir.path());
    let doc = uri(&model);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "modelica", "version": 1, "text": text}}),
    );
    let fragments = [
        "der(",
        ")",
        ";",
        "\n",
        "Real x",
        "equation\n",
        "end RCCircuit;",
        "model M\n",
        "parameter ",
        "Base.ContinuousState ",
        "é𝄞",
        "\"",
        "/*",
        "*/",
        "//",
        ".",
        "=",
        "'q'",
        "connect(a, b);",
        "extends Base;",
        "annotation(",
        "for i in 1:3 loop",
        "end for;",
    ];
    let requests = [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/references",
        "textDocument/completion",
        "textDocument/codeAction",
        "textDocument/documentSymbol",
        "textDocument/semanticTokens/full",
        "textDocument/rename",
    ];
    let mut rng = Lcg(42);
    let mut answered = 0;
    for version in 2..(EDITS as i64 + 2) {
        let mut at = rng.below(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        match rng.below(4) {
            0 => {
                let mut end = (at + rng.below(12)).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                text.replace_range(at..end, "");
            }
            1 | 2 => text.insert_str(at, fragments[rng.below(fragments.len())]),
            _ => {
                let line = text[..at].rfind('\n').map_or(0, |i| i + 1);
                let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
                let copy = text[line..end].to_string();
                text.insert_str(line, &copy);
            }
        }
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": doc, "version": version},
                   "contentChanges": [{"text": text}]}),
        );
        let lines = text.lines().count() as u64 + 2;
        let position = json!({"line": rng.below(lines as usize), "character": rng.below(40)});
        let method = requests[rng.below(requests.len())];
        let params = json!({
            "textDocument": {"uri": doc}, "position": position,
            "range": {"start": position, "end": position}, "context": {"diagnostics": []},
            "newName": "renamed",
        });
        let response = client.request(method, params);
        let error = &response["error"];
        assert!(
            error.is_null() || error["code"] != json!(-32603),
            "{method} after edit {version}: {response}\n{text}"
        );
        answered += 1;
    }
    let _ = client.diagnostics(&doc, EDITS as i64 + 1);
    let faults: Vec<&Value> = client
        .notes
        .iter()
        .filter(|n| n["method"] == "window/logMessage" && n["params"]["type"] == json!(1))
        .collect();
    assert!(faults.is_empty(), "the server logged errors: {faults:?}");
    eprintln!("{EDITS} random edits, {answered} requests answered, no crash");
    client.finish();
}

/// An edit of one file that breaks a closed file of the workspace (a model
/// that uses the edited block) publishes that file's diagnostics, and the
/// fix clears them; rename and references find every use, completion
/// stays in scope.
#[test]
fn an_edit_that_breaks_another_file_is_shown_there_and_references_reach_it() {
    let dir = tempfile::tempdir().unwrap();
    let lib = "block Lag\n  parameter Real T = 1;\n  input Real u;\n  Base.ContinuousState x(start = 0);\n  \
               output Real y;\nequation\n  T*der(x) = u - x;\n  y = x;\nend Lag;\n";
    let user = "model Use\n  Lag lag(T = 2);\nequation\n  lag.u = 1;\nend Use;\n";
    std::fs::write(dir.path().join("Lag.mo"), lib).unwrap();
    std::fs::write(dir.path().join("Use.mo"), user).unwrap();
    let base = repo().join("examples/Base.mo");
    std::fs::write(
        dir.path().join("mofmu-lsp.toml"),
        format!(
            "load = [{:?}, \"Lag.mo\", \"Use.mo\"]\n",
            base.display().to_string()
        ),
    )
    .unwrap();
    let mut client = Client::start(dir.path());
    let doc = uri(&dir.path().join("Lag.mo"));
    let other = uri(&dir.path().join("Use.mo"));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "modelica", "version": 1, "text": lib}}),
    );
    assert!(client.diagnostics(&doc, 1).is_empty());
    // `u` renamed by hand in the block only: `lag.u` in Use.mo names nothing.
    let broken = lib
        .replace("input Real u;", "input Real w;")
        .replace("= u - x", "= w - x");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": 2}, "contentChanges": [{"text": broken}]}),
    );
    assert!(client.diagnostics(&doc, 2).is_empty());
    let elsewhere = loop {
        let message = client.receive();
        if message["method"] == "textDocument/publishDiagnostics"
            && message["params"]["uri"] == other
        {
            break message["params"]["diagnostics"].as_array().unwrap().clone();
        }
    };
    assert!(!elsewhere.is_empty(), "Use.mo is broken by the edit");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": 3}, "contentChanges": [{"text": lib}]}),
    );
    assert!(client.diagnostics(&doc, 3).is_empty());
    let cleared = loop {
        let message = client.receive();
        if message["method"] == "textDocument/publishDiagnostics"
            && message["params"]["uri"] == other
        {
            break message["params"]["diagnostics"].as_array().unwrap().clone();
        }
    };
    assert!(cleared.is_empty(), "the fix clears Use.mo: {cleared:?}");
    // Rename `x` within Lag: the declaration and its three uses.
    let rename = client.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": doc}, "position": position_of(lib, "x(start", 0), "newName": "z"}),
    );
    let edits = rename["result"]["changes"][&doc]
        .as_array()
        .expect("edits")
        .clone();
    assert_eq!(edits.len(), 4, "{rename}");
    let renamed = apply(lib, &edits);
    assert!(
        renamed.contains("z(start")
            && renamed.contains("der(z) = u - z")
            && renamed.contains("y = z;")
    );
    let references = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": doc}, "position": position_of(lib, "u - x", 0),
               "context": {"includeDeclaration": true}}),
    );
    // In the block and in the model that uses it (`lag.u` in Use.mo).
    let files: Vec<&str> = references["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["uri"].as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    assert_eq!(files, ["Lag.mo", "Lag.mo", "Use.mo"], "{references}");
    // Completion in the first equation: what is declared before it.
    let completion = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": doc}, "position": position_of(lib, "T*der", 0)}),
    );
    let labels: Vec<&str> = completion["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    for name in ["T", "u", "x", "y", "Base"] {
        assert!(labels.contains(&name), "{name} in {labels:?}");
    }
    // In the declaration of `u`, `x` and `y` are not declared yet.
    let completion = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": doc}, "position": position_of(lib, "input Real u", 0)}),
    );
    let labels: Vec<&str> = completion["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"T") && !labels.contains(&"x") && !labels.contains(&"y"),
        "{labels:?}"
    );
    let tokens = client.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": doc}}),
    );
    assert!(
        tokens["result"]["data"].as_array().unwrap().len() >= 5 * 7,
        "{tokens}"
    );
    client.finish();
}

/// The settings' problems reach the editor as messages: a model the
/// settings name that is not in the library.
#[test]
fn a_model_the_settings_name_but_the_library_lacks_is_reported() {
    let (dir, _, _) = newcomer_workspace();
    let settings = dir.path().join("mofmu-lsp.toml");
    let text = std::fs::read_to_string(&settings).unwrap() + "models = [\"Nope\"]\n";
    std::fs::write(&settings, text).unwrap();
    let mut client = Client::start(dir.path());
    let message = loop {
        let m = client.receive();
        if m["method"] == "window/logMessage" {
            break m["params"]["message"].as_str().unwrap().to_string();
        }
    };
    assert!(
        message.contains("model `Nope`") && message.contains("no class `Nope`"),
        "{message}"
    );
    client.finish();
}

/// A library the tests never saw before issue 59: tanks, pipes, two
/// connectors of assumed causality, a function, an enumeration.
const FLUID: &str = r#"package Fluid "Liquid tanks and pipes"
  type Pressure = Real(unit = "Pa");
  type MassFlowRate = Real(unit = "kg/s");
  type Mode = enumeration(Drain "let the tank drain", Hold "keep the level");
  connector PortP "Port whose owner determines the pressure"
    output Pressure p;
    flow MassFlowRate m_flow;
  end PortP;
  connector PortQ "Port whose owner determines the mass flow rate"
    input Pressure p;
    flow MassFlowRate m_flow;
  end PortQ;
  function headPressure "Pressure at the bottom of a liquid column"
    input Real h(unit = "m") "height";
    input Real rho(unit = "kg/m3") = 1000 "density";
    input Real g(unit = "m/s2") = 9.81;
    output Pressure p;
  algorithm
    p := rho*g*h;
  end headPressure;
  model Tank "An open tank"
    parameter Real A(unit = "m2") = 1 "cross-section";
    parameter Real h0(unit = "m") = 1;
    parameter Real rho(unit = "kg/m3") = 1000;
    parameter Mode mode = Mode.Hold;
    PortP port;
    Base.ContinuousState h(start = h0, unit = "m") "level";
  equation
    port.p = headPressure(h, rho);
    A*rho*der(h) = port.m_flow;
  end Tank;
  model Pipe "A pipe of n segments"
    parameter Integer n(min = 1) = 2 "segments";
    parameter Real R(unit = "Pa.s/kg") = 1e5 "resistance per segment";
    PortQ port_a;
    PortQ port_b;
  equation
    port_a.m_flow = (port_a.p - port_b.p)/(n*R);
    port_b.m_flow = -port_a.m_flow;
  end Pipe;
end Fluid;
"#;

const SYSTEM: &str = r#"model TwoTanks "Two tanks levelling through a pipe"
  Fluid.Tank t1(A = 2, h0 = 3);
  Fluid.Tank t2;
  Fluid.Pipe pipe(n = 5);
equation
  connect(t1.port, pipe.port_a);
  connect(pipe.port_b, t2.port);
end TwoTanks;
"#;

/// A workspace of the given files after Base, in that order, with more
/// settings lines.
fn workspace(files: &[(&str, &str)], more: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut load = vec![format!(
        "{:?}",
        repo().join("examples/Base.mo").display().to_string()
    )];
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
        load.push(format!("{name:?}"));
    }
    std::fs::write(
        dir.path().join("mofmu-lsp.toml"),
        format!("load = [{}]\n{more}", load.join(", ")),
    )
    .unwrap();
    dir
}

/// `mofmu check` of the workspace's files as they are on disk.
fn checks(dir: &Path, files: &[&str]) -> Result<(), String> {
    let mut args = vec![repo().join("examples/Base.mo").display().to_string()];
    args.extend(files.iter().map(|f| dir.join(f).display().to_string()));
    let out = Command::new(env!("CARGO_BIN_EXE_mofmu"))
        .arg("check")
        .args(&args)
        .output()
        .unwrap();
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// The edits of a rename's answer, by file name.
fn edits_by_file(answer: &Value) -> Vec<(String, Vec<Value>)> {
    let mut out: Vec<(String, Vec<Value>)> = answer["result"]["changes"]
        .as_object()
        .unwrap_or_else(|| panic!("a workspace edit: {answer}"))
        .iter()
        .map(|(uri, edits)| {
            let name = uri.rsplit('/').next().unwrap().to_string();
            (name, edits.as_array().unwrap().clone())
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn labels(answer: &Value) -> Vec<String> {
    let mut out: Vec<String> = answer["result"]
        .as_array()
        .unwrap_or_else(|| panic!("completions: {answer}"))
        .iter()
        .map(|c| c["label"].as_str().unwrap().to_string())
        .collect();
    out.sort();
    out
}

/// Issue 59 on a library the tests never saw: every component is in the
/// index, connectors included, across classes and files.
#[test]
fn connector_components_are_defined_referenced_and_renamed_across_classes() {
    let dir = workspace(&[("Fluid.mo", FLUID), ("System.mo", SYSTEM)], "");
    let mut client = Client::start(dir.path());
    let fluid = uri(&dir.path().join("Fluid.mo"));
    let system = uri(&dir.path().join("System.mo"));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": system, "languageId": "modelica", "version": 1, "text": SYSTEM}}),
    );
    assert!(client.diagnostics(&system, 1).is_empty());
    // Definition: from `pipe.port_a` in the system to the pipe's connector.
    let at = position_of(SYSTEM, "port_a);", 0);
    let definition = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": system}, "position": at}),
    );
    assert_eq!(definition["result"]["uri"], fluid, "{definition}");
    assert_eq!(
        definition["result"]["range"]["start"],
        position_of(FLUID, "port_a;", 0)
    );
    // References of the tank's `port`: its declaration, two uses in the
    // tank, one in each connect of the system.
    let references = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": fluid}, "position": position_of(FLUID, "port;", 0),
               "context": {"includeDeclaration": true}}),
    );
    let found: Vec<(String, Value)> = references["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let file = l["uri"].as_str().unwrap().rsplit('/').next().unwrap();
            (file.to_string(), l["range"]["start"].clone())
        })
        .collect();
    let expected = [
        ("Fluid.mo", position_of(FLUID, "port;", 0)),
        ("Fluid.mo", position_of(FLUID, "port.p", 0)),
        ("Fluid.mo", position_of(FLUID, "port.m_flow", 0)),
        ("System.mo", position_of(SYSTEM, "port, pipe", 0)),
        ("System.mo", position_of(SYSTEM, "port);", 0)),
    ];
    assert_eq!(found.len(), expected.len(), "{references}");
    for (file, at) in expected {
        assert!(
            found.contains(&(file.to_string(), at.clone())),
            "{file} {at} in {found:?}"
        );
    }
    // Symbols list the connector component, and the semantic tokens
    // colour it.
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": fluid}}),
    );
    let tank = symbols["result"][0]["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Tank")
        .cloned()
        .expect("Tank");
    let port = tank["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "port")
        .unwrap_or_else(|| panic!("`port` among {tank}"));
    assert_eq!(port["detail"], "connector PortP", "{port}");
    // Rename `port_a` of the pipe from its use in the system: both files
    // change, and the library still checks.
    let prepare = client.request(
        "textDocument/prepareRename",
        json!({"textDocument": {"uri": system}, "position": at}),
    );
    assert_eq!(prepare["result"]["placeholder"], "port_a", "{prepare}");
    let rename = client.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": system}, "position": at, "newName": "inlet"}),
    );
    let edits = edits_by_file(&rename);
    assert_eq!(edits[0].0, "Fluid.mo");
    assert_eq!(edits[0].1.len(), 4, "declaration and three uses: {rename}");
    assert_eq!(edits[1].0, "System.mo");
    assert_eq!(edits[1].1.len(), 1, "{rename}");
    let fluid_text = apply(FLUID, &edits[0].1);
    let system_text = apply(SYSTEM, &edits[1].1);
    assert!(system_text.contains("pipe.inlet)") && !fluid_text.contains("port_a"));
    std::fs::write(dir.path().join("Fluid.mo"), &fluid_text).unwrap();
    std::fs::write(dir.path().join("System.mo"), &system_text).unwrap();
    checks(dir.path(), &["Fluid.mo", "System.mo"]).expect("the renamed library checks");
    client.finish();
}

/// A rename that would break the library is refused and says why; a
/// parameter's rename reaches the modifiers of other classes; a class's
/// rename its `end` and its uses.
#[test]
fn renames_refuse_keywords_and_clashes_and_reach_modifiers_and_classes() {
    let dir = workspace(&[("Fluid.mo", FLUID), ("System.mo", SYSTEM)], "");
    let mut client = Client::start(dir.path());
    let fluid = uri(&dir.path().join("Fluid.mo"));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": fluid, "languageId": "modelica", "version": 1, "text": FLUID}}),
    );
    assert!(client.diagnostics(&fluid, 1).is_empty());
    let rename = |client: &mut Client, at: Value, name: &str| {
        client.request(
            "textDocument/rename",
            json!({"textDocument": {"uri": fluid}, "position": at, "newName": name}),
        )
    };
    let port_a = position_of(FLUID, "port_a;", 0);
    let refused = rename(&mut client, port_a.clone(), "end");
    assert_eq!(refused["error"]["code"], -32803, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`end` is a keyword"),
        "{refused}"
    );
    let refused = rename(&mut client, port_a.clone(), "port_b");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`Fluid.Pipe` already has an element `port_b` (Fluid.mo:36)"),
        "{refused}"
    );
    let refused = rename(&mut client, position_of(FLUID, "Pipe \"", 0), "Tank");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`Fluid.Tank` is already a class there"),
        "{refused}"
    );
    // `n` of the pipe: its declaration, its use, and `pipe(n = 5)` in the
    // system.
    let n = rename(&mut client, position_of(FLUID, "n(min", 0), "segments");
    let edits = edits_by_file(&n);
    assert_eq!((edits[0].1.len(), edits[1].1.len()), (2, 1), "{n}");
    let system_text = apply(SYSTEM, &edits[1].1);
    assert!(system_text.contains("pipe(segments = 5)"), "{system_text}");
    std::fs::write(dir.path().join("Fluid.mo"), apply(FLUID, &edits[0].1)).unwrap();
    std::fs::write(dir.path().join("System.mo"), &system_text).unwrap();
    checks(dir.path(), &["Fluid.mo", "System.mo"]).expect("the renamed library checks");
    // The class `Pipe`: its name, its `end`, its use in the system.
    let class = rename(&mut client, position_of(FLUID, "Pipe \"", 0), "Duct");
    let edits = edits_by_file(&class);
    assert_eq!((edits[0].1.len(), edits[1].1.len()), (2, 1), "{class}");
    let fluid_text = apply(FLUID, &edits[0].1);
    assert!(fluid_text.contains("model Duct") && fluid_text.contains("end Duct;"));
    std::fs::write(dir.path().join("Fluid.mo"), &fluid_text).unwrap();
    std::fs::write(dir.path().join("System.mo"), apply(SYSTEM, &edits[1].1)).unwrap();
    checks(dir.path(), &["Fluid.mo", "System.mo"]).expect("the renamed library checks");
    // Nothing to rename on `der`.
    let prepare = client.request(
        "textDocument/prepareRename",
        json!({"textDocument": {"uri": fluid}, "position": position_of(FLUID, "der(h)", 0)}),
    );
    assert!(
        prepare["error"]["message"]
            .as_str()
            .unwrap()
            .contains("nothing to rename here"),
        "{prepare}"
    );
    client.finish();
}

/// Completion after a dot offers the members of what the name before it
/// names, inside a modifier the elements to modify, and answers on the
/// text of the last change even when the request follows it at once;
/// signature help names a function's inputs; hover shows a declared type.
#[test]
fn completion_of_members_modifiers_and_literals_on_the_latest_text() {
    let dir = workspace(&[("Fluid.mo", FLUID), ("System.mo", SYSTEM)], "");
    let mut client = Client::start(dir.path());
    let system = uri(&dir.path().join("System.mo"));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": system, "languageId": "modelica", "version": 1, "text": SYSTEM}}),
    );
    assert!(client.diagnostics(&system, 1).is_empty());
    let mut version = 1;
    let mut complete = |client: &mut Client, text: &str, after: &str| {
        version += 1;
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": system, "version": version},
                   "contentChanges": [{"text": text}]}),
        );
        // No wait for the diagnostics: the request follows the change.
        let at = position_of(text, after, 0);
        let at = json!({"line": at["line"], "character": at["character"].as_u64().unwrap() + after.len() as u64});
        client.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": system}, "position": at}),
        )
    };
    let text = SYSTEM.replace("equation\n", "equation\n  pipe.\n");
    assert_eq!(
        labels(&complete(&mut client, &text, "  pipe.")),
        ["R", "n", "port_a", "port_b"]
    );
    let text = SYSTEM.replace("equation\n", "equation\n  t1.port.\n");
    assert_eq!(
        labels(&complete(&mut client, &text, "t1.port.")),
        ["m_flow", "p"]
    );
    let text = SYSTEM.replace(
        "equation\n",
        "  parameter Fluid.Mode m = Fluid.Mode.\nequation\n",
    );
    assert_eq!(
        labels(&complete(&mut client, &text, "= Fluid.Mode.")),
        ["Drain", "Hold"]
    );
    let text = SYSTEM.replace("equation\n", "  Fluid.\nequation\n");
    let classes = labels(&complete(&mut client, &text, "  Fluid."));
    for name in ["Mode", "Pipe", "PortP", "Tank", "headPressure"] {
        assert!(classes.contains(&name.to_string()), "{name} in {classes:?}");
    }
    let text = SYSTEM.replace("equation\n", "  Fluid.Tank t3(h\nequation\n");
    assert_eq!(
        labels(&complete(&mut client, &text, "t3(")),
        ["A", "h", "h0", "mode", "port", "rho"]
    );
    // Signature help in a call of the library's function.
    let text = SYSTEM.replace(
        "equation\n",
        "  Real q = Fluid.headPressure(2, \nequation\n",
    );
    version += 1;
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": system, "version": version},
               "contentChanges": [{"text": text}]}),
    );
    let at = position_of(&text, "(2, ", 0);
    let at = json!({"line": at["line"], "character": at["character"].as_u64().unwrap() + 4});
    let help = client.request(
        "textDocument/signatureHelp",
        json!({"textDocument": {"uri": system}, "position": at}),
    );
    let signature = &help["result"]["signatures"][0];
    assert!(
        signature["label"]
            .as_str()
            .unwrap()
            .starts_with("Fluid.headPressure(Real h, Real rho, Real g)"),
        "{help}"
    );
    assert_eq!(help["result"]["activeParameter"], 1, "{help}");
    // Hover on the tank's level shows its declared type, not `Real`.
    let fluid = uri(&dir.path().join("Fluid.mo"));
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": fluid}, "position": position_of(FLUID, "h(start", 0)}),
    );
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(
        shown.starts_with("**h**: `Base.ContinuousState` (Real)"),
        "{hover}"
    );
    client.finish();
}

/// The settings' problems are shown (`window/showMessage`) and the rest of
/// the file still applies; the export diagnostics of a model stay when an
/// unrelated file fails; an unknown method is -32601; a suggestion that
/// is not certain is a quick fix too, not a preferred one; a model has an
/// export lens.
#[test]
fn settings_export_faults_unknown_methods_and_uncertain_fixes() {
    let system = SYSTEM.replace("equation\n", "  parameter Real k;\nequation\n");
    let broken = "model Broken\n  Real x;\nequation\n  x = y;\nend Broken;\n";
    let dir = workspace(
        &[
            ("Fluid.mo", FLUID),
            ("System.mo", &system),
            ("Broken.mo", broken),
        ],
        "models = [\"TwoTanks\"]\nmodel = [\"TwoTanks\"]\n",
    );
    let mut client = Client::start(dir.path());
    let shown = loop {
        let m = client.receive();
        if m["method"] == "window/showMessage" {
            break m["params"]["message"].as_str().unwrap().to_string();
        }
        client.notes.push(m);
    };
    assert!(
        shown.contains("unknown key `model`: did you mean `models`?"),
        "{shown}"
    );
    let doc = uri(&dir.path().join("System.mo"));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "modelica", "version": 1, "text": system}}),
    );
    let diags = client.diagnostics(&doc, 1);
    let codes: Vec<&str> = diags.iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["MX008"], "{diags:?}");
    let unknown = client.request("textDocument/inlayHint", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    // A class name misspelt: "did you mean `Tank`?" is a fix to read first.
    let typo = system.replace("Fluid.Tank t2;", "Fluid.Tnk t2;");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": 2}, "contentChanges": [{"text": typo}]}),
    );
    let diags = client.diagnostics(&doc, 2);
    let first = diags.first().expect("the misspelt class");
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": doc}, "range": first["range"],
               "context": {"diagnostics": [first]}}),
    );
    let fix = actions["result"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| {
            a["title"]
                .as_str()
                .unwrap()
                .contains("did you mean `Tank`?")
        })
        .unwrap_or_else(|| panic!("a fix in {actions}"))
        .clone();
    assert_eq!(fix["isPreferred"], false, "{fix}");
    let fixed = apply(&typo, fix["edit"]["changes"][&doc].as_array().unwrap());
    assert_eq!(fixed, system);
    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": doc}}),
    );
    assert_eq!(
        lenses["result"][0]["command"]["arguments"],
        json!(["TwoTanks"]),
        "{lenses}"
    );
    client.finish();
}
