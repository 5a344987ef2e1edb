//! `mofmu lsp`: a language server over stdio (docs/editor.md).
//!
//! Built on `lsp-server` and `lsp-types`, the synchronous scaffold and the
//! protocol types rust-analyzer uses: one thread reads messages, the main
//! loop answers them in order, no async runtime. A check is milliseconds
//! (the session re-checks only the classes an edit touched), so nothing
//! needs to run concurrently, and the loop stays a plain `for`.
//!
//! Every diagnostic comes from the check (`session::CheckSession`, the
//! engine of `check --watch`), every quick fix from the suggestions
//! `check --fix` applies, and hover reads the class database: the server
//! re-implements no rule. Each request and notification runs under
//! `catch_unwind`: a panic is logged to the editor, answered with an error,
//! and the server goes on.

mod actions;
mod diagnostics;
mod hover;
mod locate;
mod navigate;
mod state;
mod text;
mod tokens;
pub mod workspace;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    CodeActionKind, CodeActionProviderCapability, CompletionOptions, HoverProviderCapability,
    InitializeParams, LogMessageParams, MessageType, OneOf, SemanticTokensFullOptions,
    SemanticTokensOptions, SemanticTokensServerCapabilities, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions,
};
use serde_json::Value;

use locate::Place;
use state::State;

/// A request that panics on purpose, so that a test (or a doubting user)
/// can see that a fault in one request does not take the server down.
pub const PANIC_REQUEST: &str = "mofmu/panic";

/// Serves the protocol on stdin and stdout until the editor says `exit`.
pub fn serve_stdio() -> anyhow::Result<()> {
    let (connection, io_threads) = Connection::stdio();
    serve(connection)?;
    io_threads.join()?;
    Ok(())
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions::default()),
        code_action_provider: Some(CodeActionProviderCapability::Options(
            lsp_types::CodeActionOptions {
                code_action_kinds: Some(vec![
                    CodeActionKind::QUICKFIX,
                    CodeActionKind::SOURCE_FIX_ALL,
                ]),
                ..lsp_types::CodeActionOptions::default()
            },
        )),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: tokens::legend(),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                ..SemanticTokensOptions::default()
            },
        )),
        ..ServerCapabilities::default()
    }
}

/// The workspace root the editor names: its first folder, else the root
/// URI.
#[allow(deprecated)] // `root_uri`: older clients send only it
fn root_of(params: &InitializeParams) -> Option<PathBuf> {
    let folder = params.workspace_folders.as_ref().and_then(|f| f.first());
    let uri = folder.map(|f| &f.uri).or(params.root_uri.as_ref())?;
    workspace::uri_path(uri.as_str())
}

/// Serves one connection: the handshake, then every message until
/// `shutdown` and `exit`.
pub fn serve(connection: Connection) -> anyhow::Result<()> {
    let caps = serde_json::to_value(capabilities())?;
    let init = connection.initialize(caps)?;
    let params: InitializeParams = serde_json::from_value(init)?;
    let mut state = State::new(root_of(&params));
    after_change(&connection, &mut state)?;
    for message in &connection.receiver {
        match message {
            Message::Request(req) => {
                if connection.handle_shutdown(&req)? {
                    return Ok(());
                }
                let response = guarded(&connection, &req.method.clone(), req.id.clone(), || {
                    request(&state, &req)
                });
                connection.sender.send(Message::Response(response))?;
            }
            Message::Notification(note) => {
                let method = note.method.clone();
                let outcome = catch_unwind(AssertUnwindSafe(|| notification(&mut state, note)));
                match outcome {
                    Ok(true) => after_change(&connection, &mut state)?,
                    Ok(false) => {}
                    Err(panic) => log(
                        &connection,
                        MessageType::ERROR,
                        panic_text(&method, &*panic),
                    )?,
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// Checks again and publishes what changed; tells the editor of workspace
/// problems once.
fn after_change(connection: &Connection, state: &mut State) -> anyhow::Result<()> {
    let published = catch_unwind(AssertUnwindSafe(|| state.recheck()));
    match published {
        Ok(lists) => {
            for params in lists {
                connection
                    .sender
                    .send(Message::Notification(Notification::new(
                        "textDocument/publishDiagnostics".to_string(),
                        params,
                    )))?;
            }
        }
        Err(panic) => log(connection, MessageType::ERROR, panic_text("check", &*panic))?,
    }
    state.release_previous();
    for problem in state.untold_problems() {
        log(connection, MessageType::WARNING, problem)?;
    }
    Ok(())
}

fn log(connection: &Connection, typ: MessageType, message: String) -> anyhow::Result<()> {
    connection
        .sender
        .send(Message::Notification(Notification::new(
            "window/logMessage".to_string(),
            LogMessageParams { typ, message },
        )))?;
    Ok(())
}

fn panic_text(method: &str, panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string());
    format!("mofmu lsp: internal error in {method}: {what} (a bug; the server goes on)")
}

/// Runs a request's handler under `catch_unwind`: its result, an error
/// response for bad parameters, or, after a panic, an error response and
/// a log message.
fn guarded(
    connection: &Connection,
    method: &str,
    id: lsp_server::RequestId,
    handler: impl FnOnce() -> Result<Value, String>,
) -> Response {
    match catch_unwind(AssertUnwindSafe(handler)) {
        Ok(Ok(value)) => Response::new_ok(id, value),
        Ok(Err(message)) => Response::new_err(id, ErrorCode::InvalidParams as i32, message),
        Err(panic) => {
            let text = panic_text(method, &*panic);
            let _ = log(connection, MessageType::ERROR, text.clone());
            Response::new_err(id, ErrorCode::InternalError as i32, text)
        }
    }
}

fn parse<P: serde::de::DeserializeOwned>(req: &Request) -> Result<P, String> {
    serde_json::from_value(req.params.clone()).map_err(|e| format!("{}: {e}", req.method))
}

/// The place a text-document position names, in the last check's library.
fn place<'s>(state: &'s State, doc: &lsp_types::TextDocumentPositionParams) -> Option<Place<'s>> {
    let (file, text) = state.file_of(&doc.text_document.uri)?;
    let offset = text::offset(text, &text::line_starts(text), doc.position);
    Some(Place::new(state.library()?, file, offset))
}

fn json<T: serde::Serialize>(value: T) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|e| e.to_string())
}

/// Answers one request.
fn request(state: &State, req: &Request) -> Result<Value, String> {
    use lsp_types::*;
    match req.method.as_str() {
        "textDocument/hover" => {
            let p: HoverParams = parse(req)?;
            let Some(place) = place(state, &p.text_document_position_params) else {
                return json(Value::Null);
            };
            let found = hover::hover(&place).map(|(text, span)| Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: text,
                }),
                range: diagnostics::location(&place.lib.sources, span).map(|l| l.range),
            });
            json(found)
        }
        "textDocument/definition" => {
            let p: GotoDefinitionParams = parse(req)?;
            let place = place(state, &p.text_document_position_params);
            let found = place.and_then(|pl| {
                let span = navigate::definition(&pl)?;
                diagnostics::location(&pl.lib.sources, span)
            });
            json(found.map(GotoDefinitionResponse::Scalar))
        }
        "textDocument/references" => {
            let p: ReferenceParams = parse(req)?;
            let place = place(state, &p.text_document_position);
            let spans = place
                .as_ref()
                .and_then(navigate::references)
                .unwrap_or_default();
            let lib = state.library();
            let locations: Vec<Location> = spans
                .iter()
                .filter_map(|s| diagnostics::location(&lib?.sources, *s))
                .collect();
            json(locations)
        }
        "textDocument/rename" => rename(state, parse(req)?),
        "textDocument/documentSymbol" => {
            let p: DocumentSymbolParams = parse(req)?;
            let found = state
                .file_of(&p.text_document.uri)
                .and_then(|(file, _)| Some(navigate::symbols(state.library()?, file)));
            json(found.map(DocumentSymbolResponse::Nested))
        }
        "textDocument/completion" => {
            let p: CompletionParams = parse(req)?;
            let items = place(state, &p.text_document_position)
                .map(|pl| navigate::completion(&pl))
                .unwrap_or_default();
            json(CompletionResponse::Array(items))
        }
        "textDocument/codeAction" => {
            let p: CodeActionParams = parse(req)?;
            json(actions::code_actions(state, &p))
        }
        "textDocument/semanticTokens/full" => {
            let p: SemanticTokensParams = parse(req)?;
            let data = state
                .file_of(&p.text_document.uri)
                .and_then(|(file, _)| Some(tokens::tokens(state.library()?, file)))
                .unwrap_or_default();
            json(SemanticTokensResult::Tokens(SemanticTokens {
                result_id: None,
                data,
            }))
        }
        PANIC_REQUEST => panic!("the panic asked for by {PANIC_REQUEST}"),
        other => Err(format!("mofmu lsp does not answer `{other}`")),
    }
}

/// A rename of a component within its class: every use the references
/// find, replaced.
// `WorkspaceEdit::changes` is keyed by `Uri`, whose cached parts clippy
// takes for mutability; nothing mutates a key here.
#[allow(clippy::mutable_key_type)]
fn rename(state: &State, p: lsp_types::RenameParams) -> Result<Value, String> {
    let new_name = p.new_name.trim();
    let valid = new_name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && new_name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(format!("`{new_name}` is not a Modelica identifier"));
    }
    let place = place(state, &p.text_document_position).ok_or("no library at this place")?;
    let spans = navigate::references(&place)
        .ok_or("only a variable or component declared in this class can be renamed here")?;
    let mut changes: std::collections::HashMap<lsp_types::Uri, Vec<lsp_types::TextEdit>> =
        std::collections::HashMap::new();
    for span in spans {
        if let Some(at) = diagnostics::location(&place.lib.sources, span) {
            changes
                .entry(at.uri)
                .or_default()
                .push(lsp_types::TextEdit::new(at.range, new_name.to_string()));
        }
    }
    json(lsp_types::WorkspaceEdit {
        changes: Some(changes),
        ..lsp_types::WorkspaceEdit::default()
    })
}

/// Applies one notification; true when the texts changed (check again).
fn notification(state: &mut State, note: Notification) -> bool {
    use lsp_types::*;
    let params = note.params;
    match note.method.as_str() {
        "textDocument/didOpen" => {
            let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(params) else {
                return false;
            };
            let Some(path) = workspace::uri_path(p.text_document.uri.as_str()) else {
                return false;
            };
            state.versions.insert(path.clone(), p.text_document.version);
            state.open.insert(path, p.text_document.text);
            true
        }
        "textDocument/didChange" => {
            let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(params) else {
                return false;
            };
            let (Some(path), Some(last)) = (
                workspace::uri_path(p.text_document.uri.as_str()),
                p.content_changes.into_iter().last(),
            ) else {
                return false;
            };
            state.versions.insert(path.clone(), p.text_document.version);
            state.open.insert(path, last.text);
            true
        }
        "textDocument/didSave" => {
            state.disk = None;
            if let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(params) {
                if let (Some(path), Some(text)) =
                    (workspace::uri_path(p.text_document.uri.as_str()), p.text)
                {
                    state.open.insert(path, text);
                }
            }
            true
        }
        "textDocument/didClose" => {
            let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(params) else {
                return false;
            };
            state.disk = None;
            if let Some(path) = workspace::uri_path(p.text_document.uri.as_str()) {
                state.open.remove(&path);
                state.versions.remove(&path);
            }
            true
        }
        "workspace/didChangeWatchedFiles" => {
            state.disk = None;
            true
        }
        _ => false,
    }
}
