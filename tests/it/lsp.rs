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
/// fix clears them; rename, references and completion stay in scope.
#[test]
fn an_edit_that_breaks_another_file_is_shown_there_and_rename_stays_in_the_class() {
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
    assert_eq!(
        references["result"].as_array().unwrap().len(),
        2,
        "{references}"
    );
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
