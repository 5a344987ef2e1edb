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
//! `check --fix` makes, hover reads the class database, and navigation,
//! rename, completion and semantic tokens read the library's index
//! (`resolve::index`): the server re-implements no rule. Each request and
//! notification runs under `catch_unwind`: a panic is logged to the editor,
//! answered with an error, and the server goes on.

mod actions;
mod complete;
mod diagnostics;
mod export;
mod hover;
mod kinds;
mod locate;
mod navigate;
mod rename;
mod state;
mod text;
mod tokens;
pub mod workspace;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    CodeActionKind, CodeActionProviderCapability, CodeLensOptions, CompletionOptions,
    ExecuteCommandOptions, HoverProviderCapability, InitializeParams, LogMessageParams,
    MessageType, OneOf, RenameOptions, SemanticTokensFullOptions, SemanticTokensOptions,
    SemanticTokensServerCapabilities, ServerCapabilities, ShowMessageParams, SignatureHelpOptions,
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
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".to_string(), "(".to_string()]),
            ..CompletionOptions::default()
        }),
        signature_help_provider: Some(SignatureHelpOptions {
            trigger_characters: Some(vec!["(".to_string(), ",".to_string()]),
            ..SignatureHelpOptions::default()
        }),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![export::EXPORT_COMMAND.to_string()],
            ..ExecuteCommandOptions::default()
        }),
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
                    request(&state, &req, &connection)
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

/// The notification that tells the editor which files the workspace's
/// library holds (absolute paths, in load order), sent when the list
/// changes: an editor that starts one server per workspace attaches a
/// library file it opens (by going to a definition in it) to the server
/// that loaded it, instead of starting a second one there
/// (`editors/nvim/mofmu.lua` does).
pub const FILES_NOTIFICATION: &str = "mofmu/libraryFiles";

/// Checks again and publishes what changed; tells the editor of workspace
/// problems once, and of the library's files when they changed.
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
    if let Some(files) = state.new_library_files() {
        connection
            .sender
            .send(Message::Notification(Notification::new(
                FILES_NOTIFICATION.to_string(),
                serde_json::json!({ "files": files }),
            )))?;
    }
    for problem in state.untold_problems() {
        show(connection, MessageType::WARNING, problem)?;
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

/// A message the editor shows (and the log keeps): what the modeller must
/// see, such as a settings file that is not read as written.
fn show(connection: &Connection, typ: MessageType, message: String) -> anyhow::Result<()> {
    log(connection, typ, message.clone())?;
    connection
        .sender
        .send(Message::Notification(Notification::new(
            "window/showMessage".to_string(),
            ShowMessageParams { typ, message },
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

/// Why a request is not answered with a result: the protocol's error
/// code and a message that says why.
struct Refusal {
    code: ErrorCode,
    message: String,
}

impl Refusal {
    /// Parameters the method cannot read.
    fn params(message: String) -> Refusal {
        Refusal {
            code: ErrorCode::InvalidParams,
            message,
        }
    }

    /// A well-formed request the server declines (a rename that would
    /// break the library), with the reason.
    fn failed(message: String) -> Refusal {
        Refusal {
            code: ErrorCode::RequestFailed,
            message,
        }
    }
}

/// Runs a request's handler under `catch_unwind`: its result, an error
/// response for a refusal, or, after a panic, an error response and a log
/// message.
fn guarded(
    connection: &Connection,
    method: &str,
    id: lsp_server::RequestId,
    handler: impl FnOnce() -> Result<Value, Refusal>,
) -> Response {
    match catch_unwind(AssertUnwindSafe(handler)) {
        Ok(Ok(value)) => Response::new_ok(id, value),
        Ok(Err(refusal)) => Response::new_err(id, refusal.code as i32, refusal.message),
        Err(panic) => {
            let text = panic_text(method, &*panic);
            let _ = log(connection, MessageType::ERROR, text.clone());
            Response::new_err(id, ErrorCode::InternalError as i32, text)
        }
    }
}

fn parse<P: serde::de::DeserializeOwned>(req: &Request) -> Result<P, Refusal> {
    serde_json::from_value(req.params.clone())
        .map_err(|e| Refusal::params(format!("{}: {e}", req.method)))
}

/// The place a text-document position names, in the last check's library.
fn place<'s>(state: &'s State, doc: &lsp_types::TextDocumentPositionParams) -> Option<Place<'s>> {
    let (file, text) = state.file_of(&doc.text_document.uri)?;
    let offset = text::offset(text, &text::line_starts(text), doc.position);
    Some(Place::new(state.library()?, state.index()?, file, offset))
}

fn json<T: serde::Serialize>(value: T) -> Result<Value, Refusal> {
    serde_json::to_value(value).map_err(|e| Refusal::params(e.to_string()))
}

/// The protocol locations of spans of the last check's library.
fn locations(state: &State, spans: &[crate::source::Span]) -> Vec<lsp_types::Location> {
    let Some(lib) = state.library() else {
        return Vec::new();
    };
    spans
        .iter()
        .filter_map(|s| diagnostics::location(&lib.sources, *s))
        .collect()
}

/// Answers one request.
fn request(state: &State, req: &Request, connection: &Connection) -> Result<Value, Refusal> {
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
            let include = p.context.include_declaration;
            let spans = place(state, &p.text_document_position)
                .and_then(|pl| navigate::references(&pl, include))
                .unwrap_or_default();
            json(locations(state, &spans))
        }
        "textDocument/prepareRename" => {
            let p: TextDocumentPositionParams = parse(req)?;
            let place = place(state, &p).ok_or_else(|| Refusal::failed(NO_LIBRARY.into()))?;
            let (span, name) = rename::prepare(&place).map_err(Refusal::failed)?;
            let range = diagnostics::location(&place.lib.sources, span).map(|l| l.range);
            json(
                range.map(|range| PrepareRenameResponse::RangeWithPlaceholder {
                    range,
                    placeholder: name,
                }),
            )
        }
        "textDocument/rename" => {
            let p: RenameParams = parse(req)?;
            let place = place(state, &p.text_document_position)
                .ok_or_else(|| Refusal::failed(NO_LIBRARY.into()))?;
            let spans = rename::rename(&place, p.new_name.trim()).map_err(Refusal::failed)?;
            json(workspace_edit(locations(state, &spans), p.new_name.trim()))
        }
        "textDocument/documentSymbol" => {
            let p: DocumentSymbolParams = parse(req)?;
            let found = state.file_of(&p.text_document.uri).and_then(|(file, _)| {
                Some(navigate::symbols(state.library()?, state.index()?, file))
            });
            json(found.map(DocumentSymbolResponse::Nested))
        }
        "textDocument/completion" => {
            let p: CompletionParams = parse(req)?;
            let items = place(state, &p.text_document_position)
                .map(|pl| complete::completion(&pl))
                .unwrap_or_default();
            json(CompletionResponse::Array(items))
        }
        "textDocument/signatureHelp" => {
            let p: SignatureHelpParams = parse(req)?;
            let help = place(state, &p.text_document_position_params)
                .and_then(|pl| complete::signature_help(&pl));
            json(help)
        }
        "textDocument/codeAction" => {
            let p: CodeActionParams = parse(req)?;
            json(actions::code_actions(state, &p))
        }
        "textDocument/codeLens" => {
            let p: CodeLensParams = parse(req)?;
            let lenses = state
                .file_of(&p.text_document.uri)
                .and_then(|(file, _)| Some(export::lenses(state.library()?, state.index()?, file)))
                .unwrap_or_default();
            json(lenses)
        }
        "workspace/executeCommand" => {
            let p: ExecuteCommandParams = parse(req)?;
            execute(state, p, connection)
        }
        "textDocument/semanticTokens/full" => {
            let p: SemanticTokensParams = parse(req)?;
            let data = state
                .file_of(&p.text_document.uri)
                .and_then(|(file, _)| Some(tokens::tokens(state.library()?, state.index()?, file)))
                .unwrap_or_default();
            json(SemanticTokensResult::Tokens(SemanticTokens {
                result_id: None,
                data,
            }))
        }
        PANIC_REQUEST => panic!("the panic asked for by {PANIC_REQUEST}"),
        other => Err(Refusal {
            code: ErrorCode::MethodNotFound,
            message: format!("mofmu lsp does not answer `{other}`"),
        }),
    }
}

const NO_LIBRARY: &str = "this file is not part of the checked library";

/// The edit that writes `new_text` at every location.
// `WorkspaceEdit::changes` is keyed by `Uri`, whose cached parts clippy
// takes for mutability; nothing mutates a key here.
#[allow(clippy::mutable_key_type)]
fn workspace_edit(at: Vec<lsp_types::Location>, new_text: &str) -> lsp_types::WorkspaceEdit {
    let mut changes: std::collections::HashMap<lsp_types::Uri, Vec<lsp_types::TextEdit>> =
        std::collections::HashMap::new();
    for l in at {
        changes
            .entry(l.uri)
            .or_default()
            .push(lsp_types::TextEdit::new(l.range, new_text.to_string()));
    }
    lsp_types::WorkspaceEdit {
        changes: Some(changes),
        ..lsp_types::WorkspaceEdit::default()
    }
}

/// `workspace/executeCommand`: the export of a model (the code lens's
/// command), started on a thread of its own with the texts of the last
/// check; its outcome comes as a message when it is done.
fn execute(
    state: &State,
    p: lsp_types::ExecuteCommandParams,
    connection: &Connection,
) -> Result<Value, Refusal> {
    if p.command != export::EXPORT_COMMAND {
        return Err(Refusal::params(format!(
            "unknown command `{}`; mofmu lsp runs `{}`",
            p.command,
            export::EXPORT_COMMAND
        )));
    }
    let Some(model) = p.arguments.first().and_then(Value::as_str) else {
        return Err(Refusal::params(format!(
            "`{}` takes the model's qualified name",
            export::EXPORT_COMMAND
        )));
    };
    let lib = state
        .library()
        .ok_or_else(|| Refusal::failed(NO_LIBRARY.into()))?;
    let files: Vec<(String, String)> = lib
        .sources
        .files()
        .map(|(_, f)| (f.name.clone(), f.text.clone()))
        .collect();
    let out = export::output_path(state.root.as_deref(), model);
    let model = model.to_string();
    let sender = connection.sender.clone();
    std::thread::spawn(move || {
        let outcome = catch_unwind(AssertUnwindSafe(|| export::export(files, &model, &out)));
        let (typ, message) = match outcome {
            Ok((true, m)) => (MessageType::INFO, m),
            Ok((false, m)) => (MessageType::ERROR, m),
            Err(panic) => (MessageType::ERROR, panic_text("export", &*panic)),
        };
        let _ = sender.send(Message::Notification(Notification::new(
            "window/showMessage".to_string(),
            ShowMessageParams { typ, message },
        )));
    });
    json(serde_json::json!({ "started": true }))
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
                if let Some(path) = workspace::uri_path(p.text_document.uri.as_str()) {
                    if state.is_settings(&path) {
                        state.read_settings();
                    }
                    if let Some(text) = p.text {
                        state.open.insert(path, text);
                    }
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
            state.read_settings();
            true
        }
        _ => false,
    }
}
