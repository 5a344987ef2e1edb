//! The server's state between messages: the workspace, the open texts, the
//! incremental check and what was last published per file.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use lsp_types::{PublishDiagnosticsParams, Uri};

use super::diagnostics::{default_docs, to_lsp};
use super::workspace::{self, path_uri, Settings};
use crate::diagnostic::Diagnostic;
use crate::library::Library;
use crate::session::CheckSession;

pub struct State {
    pub root: Option<PathBuf>,
    pub settings: Settings,
    /// The texts the editor holds open, by path.
    pub open: HashMap<PathBuf, String>,
    /// The library's files as last read from disk; `None` after a save or
    /// a change on disk, so the next check reads them again.
    pub disk: Option<Vec<(String, String)>>,
    /// The version of each open text, sent back with its diagnostics.
    pub versions: HashMap<PathBuf, i32>,
    session: CheckSession,
    /// The diagnostics of the last check (spans into the session's library).
    pub diagnostics: Vec<Diagnostic>,
    /// Files whose last published list was not empty, by URI.
    published: BTreeMap<String, usize>,
    /// Problems of the workspace itself (settings, unreadable entries),
    /// sent to the editor as messages once each.
    pub problems: Vec<String>,
    told: Vec<String>,
    docs: Option<String>,
}

impl State {
    pub fn new(root: Option<PathBuf>) -> State {
        let mut problems = Vec::new();
        let settings = match root.as_deref().map(workspace::read_settings) {
            Some(Ok(s)) => s,
            Some(Err(e)) => {
                problems.push(e);
                Settings::default()
            }
            None => Settings::default(),
        };
        let docs = settings.docs.clone().or_else(default_docs);
        State {
            root,
            settings,
            open: HashMap::new(),
            versions: HashMap::new(),
            disk: None,
            session: CheckSession::new(),
            diagnostics: Vec::new(),
            published: BTreeMap::new(),
            problems,
            told: Vec::new(),
            docs,
        }
    }

    /// The library of the last check.
    pub fn library(&self) -> Option<&Library> {
        self.session.library()
    }

    /// Checks the workspace with the open texts and returns the lists to
    /// publish: every file with diagnostics, and every file that had some
    /// and has none now (an empty list clears the editor's).
    pub fn recheck(&mut self) -> Vec<PublishDiagnosticsParams> {
        if self.disk.is_none() {
            let entries = match &self.root {
                Some(root) => workspace::entries(root, &self.settings),
                None => Vec::new(),
            };
            let (files, problems) = workspace::disk_files(&entries);
            self.problems.extend(problems);
            self.disk = Some(files);
        }
        let files = workspace::with_open(self.disk.as_deref().unwrap_or_default(), &self.open);
        self.diagnostics = self.session.check(files, true);
        self.export_diagnostics();
        let Some(lib) = self.session.library() else {
            return Vec::new();
        };
        let mut by_file: BTreeMap<String, Vec<lsp_types::Diagnostic>> = BTreeMap::new();
        for d in &self.diagnostics {
            let name = &lib.sources.get(d.span.file).name;
            by_file
                .entry(path_uri(Path::new(name)))
                .or_default()
                .push(to_lsp(&lib.sources, d, self.docs.as_deref()));
        }
        let mut out = Vec::new();
        // Cleared lists, and an open text's list on every check (empty
        // too), so the editor knows which version was checked.
        let open = self.open.keys().map(|p| path_uri(p));
        let cleared = self.published.keys().cloned().chain(open);
        for uri in cleared.collect::<std::collections::BTreeSet<_>>() {
            if !by_file.contains_key(&uri) {
                out.push((uri, Vec::new()));
            }
        }
        self.published = by_file.iter().map(|(u, l)| (u.clone(), l.len())).collect();
        out.extend(by_file);
        out.into_iter()
            .filter_map(|(uri, diagnostics)| {
                let version =
                    workspace::uri_path(&uri).and_then(|p| self.versions.get(&p).copied());
                Some(PublishDiagnosticsParams::new(
                    uri.parse::<Uri>().ok()?,
                    diagnostics,
                    version,
                ))
            })
            .collect()
    }

    /// The export diagnostics (`MX…`) of the models the settings name,
    /// added to the check's (a model's other faults are the check's own).
    fn export_diagnostics(&mut self) {
        if self.settings.models.is_empty() {
            return;
        }
        let Some(lib) = self.session.library() else {
            return;
        };
        for model in &self.settings.models {
            if lib.tree.find_qualified(model).is_none() {
                let e = crate::export::ExportError::UnknownModel(model.clone());
                self.problems
                    .push(format!("mofmu-lsp.toml: model `{model}`: {e}"));
                continue;
            }
            match crate::export::export_model(lib, model, &[], None) {
                Ok(_) => {}
                Err(crate::export::ExportError::Diagnostics(ds)) => {
                    for d in ds {
                        if d.code.starts_with("MX") && !self.diagnostics.contains(&d) {
                            self.diagnostics.push(d);
                        }
                    }
                }
                Err(e) => self
                    .problems
                    .push(format!("mofmu-lsp.toml: model `{model}`: {e}")),
            }
        }
    }

    /// Frees what only the check before the last needed: called after
    /// the diagnostics are out, so that the next change need not wait.
    pub fn release_previous(&mut self) {
        self.session.release_previous();
    }

    /// Problems not yet told to the editor.
    pub fn untold_problems(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        for p in self.problems.drain(..) {
            if !self.told.contains(&p) {
                self.told.push(p.clone());
                out.push(p);
            }
        }
        out
    }

    /// The file of the last check's library that `uri` names, with its
    /// text.
    pub fn file_of(&self, uri: &Uri) -> Option<(crate::source::FileId, &str)> {
        let path = workspace::uri_path(uri.as_str())?;
        let lib = self.session.library()?;
        lib.sources
            .files()
            .find(|(_, f)| Path::new(&f.name) == path)
            .map(|(id, f)| (id, f.text.as_str()))
    }
}
