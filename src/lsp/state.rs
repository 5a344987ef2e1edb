//! The server's state between messages: the workspace, the open texts, the
//! incremental check and what was last published per file.

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use lsp_types::{PublishDiagnosticsParams, Uri};

use super::diagnostics::{default_docs, to_lsp};
use super::workspace::{self, path_uri, Settings};
use crate::diagnostic::Diagnostic;
use crate::library::Library;
use crate::resolve::index::Index;
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
    /// The index of the last check's library, made on the first request
    /// that needs it (after the diagnostics are out).
    index: OnceCell<Index>,
    /// The problems of the settings file as last read.
    settings_problems: Vec<String>,
    /// The library's files as last told to the editor.
    files_told: Vec<String>,
    /// The export faults of each model the settings name, as last found.
    export_faults: HashMap<String, ExportFaults>,
}

/// The export faults of one model, and what they were found from: the
/// model's fingerprint (its text and, recursively, every class it uses)
/// and the files their places are in. While both are unchanged, so are
/// the faults: an edit elsewhere does not export the model again.
struct ExportFaults {
    fingerprint: crate::resolve::fingerprint::Fingerprint,
    /// Each file a fault lies in: its place in the load order, its name
    /// and a hash of its text.
    files: Vec<(crate::source::FileId, String, u64)>,
    diagnostics: Vec<Diagnostic>,
}

/// A file of the library as the export faults' cache compares it.
fn file_key(lib: &Library, file: crate::source::FileId) -> (crate::source::FileId, String, u64) {
    use std::hash::{Hash, Hasher};
    let f = lib.sources.get(file);
    let mut h = std::collections::hash_map::DefaultHasher::new();
    f.text.hash(&mut h);
    (file, f.name.clone(), h.finish())
}

impl State {
    pub fn new(root: Option<PathBuf>) -> State {
        let mut state = State {
            root,
            settings: Settings::default(),
            open: HashMap::new(),
            versions: HashMap::new(),
            disk: None,
            session: CheckSession::new(),
            diagnostics: Vec::new(),
            published: BTreeMap::new(),
            problems: Vec::new(),
            told: Vec::new(),
            docs: None,
            index: OnceCell::new(),
            settings_problems: Vec::new(),
            files_told: Vec::new(),
            export_faults: HashMap::new(),
        };
        state.read_settings();
        state
    }

    /// Reads the settings file again (at the start, and when it is saved
    /// or changes on disk); its problems are told again.
    pub fn read_settings(&mut self) {
        let (settings, problems) = match self.root.as_deref() {
            Some(root) => workspace::read_settings(root),
            None => (Settings::default(), Vec::new()),
        };
        self.docs = settings.docs.clone().or_else(default_docs);
        if settings != self.settings {
            self.disk = None;
            // Another model list: its problems are new ones.
            self.told.clear();
        }
        self.settings = settings;
        if problems != self.settings_problems {
            // A problem fixed and made again is told again.
            let old = std::mem::replace(&mut self.settings_problems, problems.clone());
            self.told
                .retain(|t| !old.contains(t) || problems.contains(t));
        }
        self.problems.extend(problems);
    }

    /// The files of the last check's library (absolute paths, in load
    /// order) when they are not what the editor was last told.
    pub fn new_library_files(&mut self) -> Option<Vec<String>> {
        let lib = self.session.library()?;
        let files: Vec<String> = lib.sources.files().map(|(_, f)| f.name.clone()).collect();
        if files == self.files_told {
            return None;
        }
        self.files_told = files.clone();
        Some(files)
    }

    /// Whether `path` is the workspace's settings file.
    pub fn is_settings(&self, path: &Path) -> bool {
        self.root
            .as_deref()
            .is_some_and(|r| workspace::normal(&r.join(workspace::SETTINGS_FILE)) == path)
    }

    /// The library of the last check.
    pub fn library(&self) -> Option<&Library> {
        self.session.library()
    }

    /// The index of the last check's library.
    pub fn index(&self) -> Option<&Index> {
        let lib = self.session.library()?;
        Some(self.index.get_or_init(|| Index::of(&lib.tree)))
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
        let files = crate::library::with_base(workspace::with_open(
            self.disk.as_deref().unwrap_or_default(),
            &self.open,
        ));
        self.index = OnceCell::new();
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
    /// Each comes from the model's own classes (`export::export_faults`),
    /// so a fault in an unrelated file does not hide them, and is found
    /// again only when the model's fingerprint or the files it lies in
    /// changed.
    fn export_diagnostics(&mut self) {
        if self.settings.models.is_empty() {
            return;
        }
        let Some(lib) = self.session.library() else {
            return;
        };
        for model in &self.settings.models {
            let id = lib.tree.find_qualified(model);
            let fingerprint = id.and_then(|id| self.session.fingerprint(id));
            let kept = self.export_faults.get(model).filter(|kept| {
                Some(kept.fingerprint) == fingerprint
                    && kept.files.iter().all(|f| *f == file_key(lib, f.0))
            });
            let faults = match kept {
                Some(kept) => kept.diagnostics.clone(),
                None => match crate::export::export_faults(lib, model) {
                    Ok(ds) => {
                        let ds: Vec<Diagnostic> = ds
                            .into_iter()
                            .filter(|d| d.code.starts_with("MX"))
                            .collect();
                        if let Some(fingerprint) = fingerprint {
                            let mut files: Vec<_> = ds
                                .iter()
                                .flat_map(|d| {
                                    let notes = d.notes.iter().map(|(s, _)| s.file);
                                    let edits = d.suggestions.iter().map(|s| s.span.file);
                                    std::iter::once(d.span.file).chain(notes).chain(edits)
                                })
                                .map(|f| file_key(lib, f))
                                .collect();
                            files.sort();
                            files.dedup();
                            self.export_faults.insert(
                                model.clone(),
                                ExportFaults {
                                    fingerprint,
                                    files,
                                    diagnostics: ds.clone(),
                                },
                            );
                        }
                        ds
                    }
                    Err(e) => {
                        self.problems.push(format!(
                            "{}: model `{model}`: {e}",
                            workspace::SETTINGS_FILE
                        ));
                        continue;
                    }
                },
            };
            for d in faults {
                if !self.diagnostics.contains(&d) {
                    self.diagnostics.push(d);
                }
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
