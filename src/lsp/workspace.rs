//! The workspace: which files make the library, in which order, and the
//! texts the editor holds open in place of what is on disk.
//!
//! The library is found the way `mofmu check` reads its arguments: each
//! entry is a `.mo` file or a library directory (`package.mo` +
//! `package.order`, through [`crate::loader`]). The order comes from the
//! settings file `mofmu-lsp.toml` at the workspace root (docs/editor.md):
//!
//! ```toml
//! load = ["../examples/Base.mo", "Thermal", "Plant.mo"]  # in load order
//! models = ["Plant"]   # models whose export diagnostics (MX…) are shown
//! docs = "https://example.org/mofmu/docs"  # where the codes' pages are
//! ```
//!
//! Without it (or for what it does not name), the root's library
//! directories come first, then its loose `.mo` files, each by name. A
//! file open in the editor that is in none of them is loaded last.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The settings file's name, at the workspace root.
pub const SETTINGS_FILE: &str = "mofmu-lsp.toml";

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Settings {
    /// Files and library directories in load order, relative to the root.
    pub load: Vec<String>,
    /// Models whose export diagnostics are shown.
    pub models: Vec<String>,
    /// Base address of the diagnostic codes' documentation.
    pub docs: Option<String>,
}

/// The keys of the settings file.
const KEYS: [&str; 3] = ["load", "models", "docs"];

/// Reads the settings of `root` (the defaults when there is no file) and
/// the problems of the file, each a message for the editor. A key that is
/// not one of the settings, or a value of the wrong kind, is a problem of
/// its own: the other keys still apply, so a typo in one line does not
/// silently drop the load order.
pub fn read_settings(root: &Path) -> (Settings, Vec<String>) {
    let path = root.join(SETTINGS_FILE);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return (Settings::default(), Vec::new());
    };
    let at = path.display();
    let table: toml::Table = match toml::from_str(&text) {
        Ok(t) => t,
        Err(e) => {
            let why = e.message().to_string();
            let line = e
                .span()
                .map(|s| format!(" (line {})", text[..s.start].matches('\n').count() + 1))
                .unwrap_or_default();
            return (
                Settings::default(),
                vec![format!(
                    "{at}{line}: {why}; the file is ignored until it parses"
                )],
            );
        }
    };
    let mut settings = Settings::default();
    let mut problems = Vec::new();
    let strings = |key: &str, value: &toml::Value, problems: &mut Vec<String>| match value {
        toml::Value::Array(items) if items.iter().all(toml::Value::is_str) => items
            .iter()
            .filter_map(|i| i.as_str().map(str::to_string))
            .collect(),
        _ => {
            problems.push(format!(
                "{at}: `{key}` must be a list of strings, such as {key} = [\"A.mo\"]; it is ignored"
            ));
            Vec::new()
        }
    };
    for (key, value) in &table {
        match key.as_str() {
            "load" => settings.load = strings(key, value, &mut problems),
            "models" => settings.models = strings(key, value, &mut problems),
            "docs" => match value.as_str() {
                Some(d) => settings.docs = Some(d.to_string()),
                None => problems.push(format!(
                    "{at}: `docs` must be a string (a URL or file: URI); it is ignored"
                )),
            },
            other => {
                let close = crate::names::close_names(other, KEYS);
                let hint = match close.first() {
                    Some(c) => format!("did you mean `{c}`? "),
                    None => String::new(),
                };
                problems.push(format!(
                    "{at}: unknown key `{other}`: {hint}the keys are {}; it is ignored",
                    KEYS.map(|k| format!("`{k}`")).join(", ")
                ));
            }
        }
    }
    (settings, problems)
}

/// The entries of the library under `root`, in load order: those the
/// settings name, then the root's other library directories and `.mo`
/// files by name.
pub fn entries(root: &Path, settings: &Settings) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = settings
        .load
        .iter()
        .map(|l| normal(&root.join(l)))
        .collect();
    let mut dirs = Vec::new();
    let mut files = Vec::new();
    if let Ok(read) = std::fs::read_dir(root) {
        for entry in read.filter_map(|e| e.ok()) {
            let path = normal(&entry.path());
            if path.join("package.mo").is_file() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "mo") && path.is_file() {
                files.push(path);
            }
        }
    }
    dirs.sort();
    files.sort();
    for path in dirs.into_iter().chain(files) {
        // A directory or file already loaded through a named entry (a
        // library directory holds its own files) is not loaded again.
        if !out.iter().any(|o| path.starts_with(o)) {
            out.push(path);
        }
    }
    out
}

/// `path` absolute and without `.` or `..` parts (not resolving links, so
/// the names match the editor's).
pub fn normal(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut out = PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The files of the library as (name, text) in load order, as on disk;
/// entries that cannot be read are reported as messages.
pub fn disk_files(entries: &[PathBuf]) -> (Vec<(String, String)>, Vec<String>) {
    let mut files: Vec<(String, String)> = Vec::new();
    let mut problems = Vec::new();
    for entry in entries {
        match crate::loader::read_paths(std::slice::from_ref(entry)) {
            Ok(loaded) => files.extend(loaded),
            Err(e) => problems.push(e.to_string()),
        }
    }
    for (name, _) in &mut files {
        *name = normal(Path::new(name.as_str())).display().to_string();
    }
    (files, problems)
}

/// The files with each open document's text in place of the file's; open
/// documents outside the library last.
pub fn with_open(
    disk: &[(String, String)],
    open: &HashMap<PathBuf, String>,
) -> Vec<(String, String)> {
    let mut files = disk.to_vec();
    for (name, text) in &mut files {
        if let Some(open_text) = open.get(Path::new(name.as_str())) {
            text.clone_from(open_text);
        }
    }
    let mut rest: Vec<(&PathBuf, &String)> = open
        .iter()
        .filter(|(p, _)| !disk.iter().any(|(n, _)| Path::new(n) == p.as_path()))
        .collect();
    rest.sort();
    files.extend(
        rest.into_iter()
            .map(|(p, t)| (p.display().to_string(), t.clone())),
    );
    files
}

/// The path of a `file:` URI (percent escapes decoded).
pub fn uri_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path` is not a local file; `file:///path` is.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(normal(Path::new(
        &String::from_utf8_lossy(&out).into_owned(),
    )))
}

/// The `file:` URI of an absolute path (every byte that is not unreserved
/// or `/` percent-escaped).
pub fn path_uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for &b in path.display().to_string().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_and_paths_round_trip() {
        let path = Path::new("/tmp/a b/Ünits.mo");
        let uri = path_uri(path);
        assert_eq!(uri, "file:///tmp/a%20b/%C3%9Cnits.mo");
        assert_eq!(uri_path(&uri).as_deref(), Some(path));
        assert_eq!(uri_path("untitled:1"), None);
        assert_eq!(normal(Path::new("/a/./b/../c")), Path::new("/a/c"));
    }

    #[test]
    fn settings_name_the_order_and_the_rest_follows() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("B.mo"), "model B end B;").unwrap();
        std::fs::write(root.join("A.mo"), "model A end A;").unwrap();
        std::fs::create_dir(root.join("Lib")).unwrap();
        std::fs::write(root.join("Lib/package.mo"), "package Lib end Lib;").unwrap();
        std::fs::write(root.join(SETTINGS_FILE), "load = [\"B.mo\"]").unwrap();
        let (settings, problems) = read_settings(root);
        assert!(problems.is_empty(), "{problems:?}");
        let names: Vec<PathBuf> = entries(root, &settings)
            .iter()
            .map(|p| p.strip_prefix(normal(root)).unwrap().to_path_buf())
            .collect();
        assert_eq!(
            names,
            [Path::new("B.mo"), Path::new("Lib"), Path::new("A.mo")]
        );
        // A typo is told, with the key meant, and the other keys apply.
        std::fs::write(
            root.join(SETTINGS_FILE),
            "load = [\"B.mo\"]\nmodel = [\"A\"]\n",
        )
        .unwrap();
        let (settings, problems) = read_settings(root);
        assert_eq!(settings.load, ["B.mo"]);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].contains("unknown key `model`: did you mean `models`?"),
            "{problems:?}"
        );
        std::fs::write(root.join(SETTINGS_FILE), "load = \"B.mo\"\n").unwrap();
        let (settings, problems) = read_settings(root);
        assert!(
            settings.load.is_empty() && problems[0].contains("must be a list"),
            "{problems:?}"
        );
    }
}
