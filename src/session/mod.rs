//! Incremental checking: a [`CheckSession`] checks a library again after an
//! edit, and re-checks only the classes whose fingerprint changed, and so
//! those that depend on them (a class's fingerprint covers the
//! fingerprints of what it refers to; see `resolve::fingerprint`). What it
//! returns is what `check_library_with` gives for the same texts: the same
//! diagnostics in the same order at the same places.
//!
//! A check of a library is the pass of `library::check_class` over every
//! class in load order, followed by the unit diagnostics of the classes in
//! the order their units were checked, then put in final form
//! (`library::finish_check`). The session keeps, per class fingerprint,
//! what that pass found at the class (its diagnostics, and whether the
//! class was compiled) and what the unit check found in it (whether it
//! elaborates, its components' classes, its unit diagnostics). A class
//! whose fingerprint is unchanged gets its results back, their places
//! moved to where the class is now; the others are checked again, in a
//! fresh class database that compiles only what those classes need. The
//! order in which a full check unit-checks the classes is replayed from the
//! kept facts, so unit diagnostics come in the order a full check finds
//! them.
//!
//! Compiled artifacts (`ClassModel`, the causalised class, unit
//! signatures) are not kept between checks: they hold places and class
//! ids of the check that made them, which an edit above them changes, and
//! the few classes a re-check needs are compiled again.
//!
//! Nothing here reads files or clocks: the caller passes the texts in.

mod relocate;

use std::collections::HashMap;

use foldhash::fast::FixedState;

use crate::classdb::ClassDb;
use crate::diagnostic::Diagnostic;
use crate::library::{check_class, finish_check, has_load_diagnostic, library_of, parse_file};
use crate::library::{check_library_with, Library};
use crate::resolve::fingerprint::{Fingerprint, Fingerprints};
use crate::resolve::ClassId;
use crate::source::{FileId, SourceMap};
use crate::syntax::ast::StoredDefinition;
use relocate::{Layout, Relocation};

/// Checks one library again and again as its files change, re-checking
/// only what an edit can have changed.
#[derive(Default)]
pub struct CheckSession {
    last: Option<LastCheck>,
    /// The check before the last, kept until [`CheckSession::release_previous`]
    /// or the next check, so that freeing its syntax trees (milliseconds
    /// for a large file) need not delay the result.
    previous: Option<LastCheck>,
    stats: CheckStats,
}

/// What the last [`CheckSession::check`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckStats {
    /// Files parsed; the others had the same name, text and place in the
    /// load order as before and kept their syntax trees.
    pub parsed_files: usize,
    /// Classes checked again, by qualified name in load order; every
    /// other class's results were reused.
    pub rechecked: Vec<String>,
    /// Classes whose units were checked again.
    pub units_rechecked: Vec<String>,
    /// The library was checked whole, because it has no fingerprints (a
    /// class refers to itself, or two classes share a name).
    pub whole: bool,
}

/// The previous check: its library and what it found per class.
struct LastCheck {
    library: Library,
    /// Syntax trees and load diagnostics per file, in load order.
    files: Vec<StoredDefinition>,
    file_diagnostics: Vec<Vec<Diagnostic>>,
    /// `None` after a whole check: nothing is kept then.
    fingerprints: Option<Fingerprints>,
    records: Records,
}

/// What checking each class found, by fingerprint.
type Records = HashMap<Fingerprint, ClassRecord, FixedState>;

/// What checking one class found, valid for any class of its fingerprint.
#[derive(Clone)]
struct ClassRecord {
    step: StepRecord,
    /// Present when the unit check has met the class.
    units: Option<UnitRecord>,
}

#[derive(Clone)]
struct StepRecord {
    /// Whether a load diagnostic lay inside the class (such a class is not
    /// compiled). Load diagnostics are not part of the fingerprint: they
    /// depend on the enclosing class and the siblings too.
    load_diagnostic: bool,
    diagnostics: Vec<Diagnostic>,
    compiled: bool,
}

#[derive(Clone)]
struct UnitRecord {
    elaborated: bool,
    /// The classes of the components, by fingerprint: the class's own
    /// fingerprint covers theirs, so they are classes of this check too.
    subs: Vec<Fingerprint>,
    diagnostics: Vec<Diagnostic>,
}

impl CheckSession {
    pub fn new() -> CheckSession {
        CheckSession::default()
    }

    /// Checks the library of `files` (name, text; in load order), with or
    /// without units, reusing what the previous check found for every
    /// class whose fingerprint is unchanged. Returns what
    /// `check_library_with` returns for the same files.
    pub fn check(&mut self, files: Vec<(String, String)>, check_units: bool) -> Vec<Diagnostic> {
        self.release_previous();
        let mut stats = CheckStats::default();
        let mut last = self.last.take();
        let (library, parsed, file_diagnostics) = load(files, last.as_mut(), &mut stats);
        let (diags, fingerprints, records) = match Fingerprints::of(&library.tree, &library.sources)
        {
            Ok(fingerprints) => {
                let previous = last.as_ref().and_then(|l| {
                    let old = Layout {
                        tree: &l.library.tree,
                        fingerprints: l.fingerprints.as_ref()?,
                    };
                    let new = Layout {
                        tree: &library.tree,
                        fingerprints: &fingerprints,
                    };
                    Some((Relocation::new(old, new), &l.records))
                });
                let mut run = Run {
                    library: &library,
                    fingerprints: &fingerprints,
                    db: ClassDb::new(&library.tree, &library.sources),
                    records: Records::default(),
                    by_fingerprint: HashMap::default(),
                    stats: &mut stats,
                };
                let diags = run.check(previous.as_ref(), check_units);
                let records = run.records;
                (diags, Some(fingerprints), records)
            }
            // Without fingerprints nothing can be reused or kept.
            Err(_) => {
                stats.whole = true;
                stats.rechecked = library
                    .tree
                    .classes
                    .iter()
                    .map(|c| c.qualified.clone())
                    .collect();
                let diags = check_library_with(&library, check_units);
                (diags, None, Records::default())
            }
        };
        self.stats = stats;
        self.previous = last;
        self.last = Some(LastCheck {
            library,
            files: parsed,
            file_diagnostics,
            fingerprints,
            records,
        });
        diags
    }

    /// Frees what only the check before the last needed (its syntax trees
    /// and results). The next check does it first otherwise; a caller
    /// that shows the result first can call this after, when nobody waits.
    pub fn release_previous(&mut self) {
        self.previous = None;
    }

    /// The library of the last check (to render its diagnostics).
    pub fn library(&self) -> Option<&Library> {
        self.last.as_ref().map(|l| &l.library)
    }

    /// The fingerprint of class `id` of the last check's library: what the
    /// class's check (and an export of it) depends on. `None` when the
    /// library has no fingerprints.
    pub fn fingerprint(&self, id: ClassId) -> Option<Fingerprint> {
        let last = self.last.as_ref()?;
        Some(last.fingerprints.as_ref()?.class(id))
    }

    /// What the last check did.
    pub fn stats(&self) -> &CheckStats {
        &self.stats
    }
}

/// Parses the files whose name, text or place changed since `last`.
fn load(
    files: Vec<(String, String)>,
    last: Option<&mut LastCheck>,
    stats: &mut CheckStats,
) -> (Library, Vec<StoredDefinition>, Vec<Vec<Diagnostic>>) {
    let (old_sources, mut old_files, mut old_diagnostics) = match last {
        Some(l) => (
            Some(&l.library.sources),
            std::mem::take(&mut l.files),
            std::mem::take(&mut l.file_diagnostics),
        ),
        None => (None, Vec::new(), Vec::new()),
    };
    let mut sources = SourceMap::new();
    let mut parsed = Vec::with_capacity(files.len());
    let mut file_diagnostics = Vec::with_capacity(files.len());
    for (i, (name, text)) in files.into_iter().enumerate() {
        let unchanged = i < old_files.len()
            && old_sources.is_some_and(|s| {
                let old = s.get(FileId(i as u32));
                old.name == name && old.text == text
            });
        let id = sources.add(name, text);
        if unchanged {
            parsed.push(std::mem::take(&mut old_files[i]));
            file_diagnostics.push(std::mem::take(&mut old_diagnostics[i]));
        } else {
            stats.parsed_files += 1;
            let (def, diags) = parse_file(id, &sources.get(id).text);
            parsed.push(def);
            file_diagnostics.push(diags);
        }
    }
    let diagnostics = file_diagnostics.iter().flatten().cloned().collect();
    let library = library_of(sources, &parsed, diagnostics);
    (library, parsed, file_diagnostics)
}

/// One re-check.
struct Run<'a, 's> {
    library: &'a Library,
    fingerprints: &'a Fingerprints,
    db: ClassDb<'a>,
    /// What this check found, for the next.
    records: Records,
    by_fingerprint: HashMap<Fingerprint, ClassId, FixedState>,
    stats: &'s mut CheckStats,
}

type Previous<'p> = (Relocation<'p>, &'p Records);

impl Run<'_, '_> {
    fn check(&mut self, previous: Option<&Previous>, check_units: bool) -> Vec<Diagnostic> {
        let n = self.library.tree.classes.len();
        let mut diags = self.library.diagnostics.clone();
        let mut compiled = Vec::with_capacity(n);
        for i in 0..n {
            let id = ClassId(i as u32);
            let record = self.step(id, previous);
            diags.extend(record.step.diagnostics.iter().cloned());
            compiled.push(record.step.compiled);
            let fingerprint = self.fingerprints.class(id);
            self.records.insert(fingerprint, record);
            self.by_fingerprint.insert(fingerprint, id);
        }
        if check_units {
            for id in self.unit_order(&compiled) {
                diags.extend(self.unit_diagnostics(id));
            }
        }
        finish_check(self.library, diags)
    }

    /// The class's step of the pass: reused when the previous check had
    /// its fingerprint (and its places can be moved), else checked again.
    /// What the unit check found in it is carried over too.
    fn step(&mut self, id: ClassId, previous: Option<&Previous>) -> ClassRecord {
        let fingerprint = self.fingerprints.class(id);
        let load_diagnostic = has_load_diagnostic(self.library, id);
        let old = previous.and_then(|(relocation, records)| {
            let old = records.get(&fingerprint)?;
            let units = old.units.as_ref().and_then(|u| {
                Some(UnitRecord {
                    diagnostics: relocation.diagnostics(&u.diagnostics)?,
                    ..u.clone()
                })
            });
            let step = (old.step.load_diagnostic == load_diagnostic)
                .then(|| relocation.diagnostics(&old.step.diagnostics))
                .flatten()
                .map(|diagnostics| StepRecord {
                    diagnostics,
                    ..old.step.clone()
                });
            Some((step, units))
        });
        let (step, units) = old.unwrap_or((None, None));
        let step = step.unwrap_or_else(|| {
            self.stats
                .rechecked
                .push(self.library.tree.get(id).qualified.clone());
            let found = check_class(self.library, &mut self.db, id, false);
            StepRecord {
                load_diagnostic,
                diagnostics: found.diagnostics,
                compiled: found.compiled,
            }
        });
        ClassRecord { step, units }
    }

    /// The classes in the order a full check unit-checks them: each
    /// compiled class in load order, after the classes of its components
    /// (depth first), each once; a class that does not elaborate is passed
    /// over.
    fn unit_order(&mut self, compiled: &[bool]) -> Vec<ClassId> {
        let n = compiled.len();
        let mut state = vec![Visit::New; n];
        let mut order = Vec::new();
        for (i, &c) in compiled.iter().enumerate() {
            if c {
                self.visit(ClassId(i as u32), &mut state, &mut order);
            }
        }
        order
    }

    fn visit(&mut self, id: ClassId, state: &mut [Visit], order: &mut Vec<ClassId>) {
        if state[id.0 as usize] != Visit::New {
            return;
        }
        let (elaborated, subs) = self.unit_facts(id);
        if !elaborated {
            return;
        }
        state[id.0 as usize] = Visit::Open;
        for sub in subs {
            self.visit(sub, state, order);
        }
        state[id.0 as usize] = Visit::Done;
        order.push(id);
    }

    /// Whether the class elaborates, and its components' classes: kept, or
    /// found now.
    fn unit_facts(&mut self, id: ClassId) -> (bool, Vec<ClassId>) {
        let record = self
            .records
            .get(&self.fingerprints.class(id))
            .and_then(|r| r.units.as_ref());
        if let Some(u) = record {
            let subs = u
                .subs
                .iter()
                .map(|s| {
                    *self
                        .by_fingerprint
                        .get(s)
                        .expect("the class's fingerprint covers its components' classes")
                })
                .collect();
            return (u.elaborated, subs);
        }
        match self.db.model(id) {
            Ok(model) => (true, model.subs.iter().map(|s| s.class).collect()),
            Err(_) => {
                let record = self.records.get_mut(&self.fingerprints.class(id));
                if let Some(r) = record {
                    r.units = Some(UnitRecord {
                        elaborated: false,
                        subs: Vec::new(),
                        diagnostics: Vec::new(),
                    });
                }
                (false, Vec::new())
            }
        }
    }

    /// The unit diagnostics of one class alone: kept, or found now.
    fn unit_diagnostics(&mut self, id: ClassId) -> Vec<Diagnostic> {
        let fingerprint = self.fingerprints.class(id);
        if let Some(u) = self
            .records
            .get(&fingerprint)
            .and_then(|r| r.units.as_ref())
        {
            return u.diagnostics.clone();
        }
        self.stats
            .units_rechecked
            .push(self.library.tree.get(id).qualified.clone());
        let model = self
            .db
            .model(id)
            .expect("the unit order holds only classes that elaborate");
        // The database checks the components' classes first (those not
        // checked yet) and keeps the diagnostics found at each class apart.
        self.db.units(id);
        let diagnostics = self.db.unit_signatures().diagnostics(id).to_vec();
        let record = self
            .records
            .get_mut(&fingerprint)
            .expect("every class has a record");
        record.units = Some(UnitRecord {
            elaborated: true,
            subs: model
                .subs
                .iter()
                .map(|s| self.fingerprints.class(s.class))
                .collect(),
            diagnostics: diagnostics.clone(),
        });
        diagnostics
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    New,
    Open,
    Done,
}
