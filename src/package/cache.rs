//! A content-addressed cache of compiled objects, shared between builds and
//! processes. An object is stored as `<key>.o`, where the key is a SHA-256
//! over everything that determines its bytes: the tool version, the
//! compiler and its flags, the unit's name and text, and the text of every
//! header of the build that the unit includes (directly or through another
//! header). Entries are written to a temporary file in the cache directory
//! and renamed into place, so a reader never sees a partial object and two
//! processes that race simply write the same bytes twice.
//!
//! The linked shared library is cached too, as `<key>.so`, under a key over
//! the keys of all its units and the link command ([`library_key`]): a
//! build whose units are all cacheable and whose library was linked before
//! neither compiles nor links, it copies.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use sha2::{Digest, Sha256};

use super::compile::{Compiler, COMPILE_FLAGS, LINK_FLAGS, LINK_LIBRARIES};
use super::error::{io_error, PackageError};
use crate::fmu::files::CSource;

/// The environment variable that chooses the cache directory.
pub const CACHE_DIR_ENV: &str = "MOFMU_CACHE_DIR";

/// A directory of compiled objects. Counts the hits and misses of all
/// builds that used it.
#[derive(Debug)]
pub struct ObjectCache {
    dir: PathBuf,
    hits: AtomicUsize,
    misses: AtomicUsize,
}

impl ObjectCache {
    /// A cache in `dir`, created when the first object is stored.
    pub fn new(dir: impl Into<PathBuf>) -> ObjectCache {
        ObjectCache {
            dir: dir.into(),
            hits: AtomicUsize::new(0),
            misses: AtomicUsize::new(0),
        }
    }

    /// The cache in the user's directory: `$MOFMU_CACHE_DIR` if set, else
    /// `$XDG_CACHE_HOME/mofmu`, else `$HOME/.cache/mofmu`.
    pub fn from_env() -> Result<ObjectCache, PackageError> {
        default_cache_dir(|name| std::env::var_os(name).map(PathBuf::from))
            .map(ObjectCache::new)
            .ok_or(PackageError::NoCacheDir)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Objects found in the cache so far.
    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::Relaxed)
    }

    /// Objects looked up and not found so far.
    pub fn misses(&self) -> usize {
        self.misses.load(Ordering::Relaxed)
    }

    /// Copies the object stored under `key` to `dest`. Returns whether it
    /// was there, and counts a hit or a miss.
    pub fn fetch(&self, key: &str, dest: &Path) -> Result<bool, PackageError> {
        let path = self.object_path(key);
        match std::fs::copy(&path, dest) {
            Ok(_) => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                Ok(true)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                self.misses.fetch_add(1, Ordering::Relaxed);
                Ok(false)
            }
            Err(e) => Err(io_error("reading cached object", &path, e)),
        }
    }

    /// Copies the shared library stored under `key` to `dest`. Returns
    /// whether it was there; libraries are not counted as hits or misses.
    pub fn fetch_library(&self, key: &str, dest: &Path) -> Result<bool, PackageError> {
        let path = self.entry_path(key, "so");
        match std::fs::copy(&path, dest) {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(io_error("reading cached library", &path, e)),
        }
    }

    /// Stores the shared library `library` under `key`, atomically.
    pub fn store_library(&self, key: &str, library: &Path) -> Result<(), PackageError> {
        self.store_entry(key, "so", library)
    }

    /// Stores the object file `object` under `key`, atomically.
    pub fn store(&self, key: &str, object: &Path) -> Result<(), PackageError> {
        self.store_entry(key, "o", object)
    }

    fn store_entry(&self, key: &str, extension: &str, file: &Path) -> Result<(), PackageError> {
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| io_error("creating cache directory", &self.dir, e))?;
        let bytes = std::fs::read(file).map_err(|e| io_error("reading", file, e))?;
        let mut temp = tempfile::Builder::new()
            .prefix(".tmp-")
            .suffix(&format!(".{extension}"))
            .tempfile_in(&self.dir)
            .map_err(|e| io_error("creating a temporary file in", &self.dir, e))?;
        temp.write_all(&bytes)
            .map_err(|e| io_error("writing", temp.path(), e))?;
        let path = self.entry_path(key, extension);
        temp.persist(&path)
            .map_err(|e| io_error("storing cached file", &path, e.error))?;
        Ok(())
    }

    fn object_path(&self, key: &str) -> PathBuf {
        self.entry_path(key, "o")
    }

    fn entry_path(&self, key: &str, extension: &str) -> PathBuf {
        self.dir.join(format!("{key}.{extension}"))
    }
}

/// The cache key of one C unit, as 64 hex digits. `headers` are all the
/// headers of the build; only those the unit includes count.
pub fn object_key(compiler: &Compiler, source: &CSource, headers: &[(String, String)]) -> String {
    let mut hasher = Sha256::new();
    let mut field = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    field(b"mofmu-object-v1");
    field(env!("CARGO_PKG_VERSION").as_bytes());
    field(compiler.identity().as_bytes());
    field(COMPILE_FLAGS.join(" ").as_bytes());
    field(source.name.as_bytes());
    field(source.text.as_bytes());
    for index in included_headers(&source.text, headers) {
        let (name, text) = &headers[index];
        field(name.as_bytes());
        field(text.as_bytes());
    }
    hex(&hasher.finalize())
}

/// The cache key of a shared library, as 64 hex digits: the keys of its
/// units in link order, the link command and the library's file name. Two
/// builds with the same key link the same objects with
/// the same command, so they give the same bytes.
pub fn library_key(compiler: &Compiler, object_keys: &[String], library: &str) -> String {
    let mut hasher = Sha256::new();
    let mut field = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    field(b"mofmu-library-v1");
    field(env!("CARGO_PKG_VERSION").as_bytes());
    field(compiler.identity().as_bytes());
    field(LINK_FLAGS.join(" ").as_bytes());
    field(LINK_LIBRARIES.join(" ").as_bytes());
    field(library.as_bytes());
    for key in object_keys {
        field(key.as_bytes());
    }
    hex(&hasher.finalize())
}

/// Indices into `headers` of the headers `text` includes with
/// `#include "name"`, followed through the headers themselves, in index
/// order. Headers not in the list (system headers) are left to the
/// compiler's identity.
fn included_headers(text: &str, headers: &[(String, String)]) -> BTreeSet<usize> {
    let mut found = BTreeSet::new();
    let mut pending: Vec<&str> = vec![text];
    while let Some(text) = pending.pop() {
        for name in quoted_includes(text) {
            if let Some(index) = headers.iter().position(|(n, _)| n == name) {
                if found.insert(index) {
                    pending.push(&headers[index].1);
                }
            }
        }
    }
    found
}

/// The names in `#include "name"` lines (spaces allowed around `#`).
fn quoted_includes(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter_map(|line| {
        let rest = line.trim_start().strip_prefix('#')?;
        let rest = rest.trim_start().strip_prefix("include")?;
        let rest = rest.trim_start().strip_prefix('"')?;
        rest.split('"').next()
    })
}

fn default_cache_dir(var: impl Fn(&str) -> Option<PathBuf>) -> Option<PathBuf> {
    let set = |name: &str| var(name).filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = set(CACHE_DIR_ENV) {
        return Some(dir);
    }
    // The XDG spec ignores a relative XDG_CACHE_HOME.
    if let Some(xdg) = set("XDG_CACHE_HOME").filter(|p| p.is_absolute()) {
        return Some(xdg.join("mofmu"));
    }
    set("HOME").map(|home| home.join(".cache").join("mofmu"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_dir_precedence() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| PathBuf::from(v))
            }
        };
        const ALL: &[(&str, &str)] = &[
            ("MOFMU_CACHE_DIR", "/c/m"),
            ("XDG_CACHE_HOME", "/x"),
            ("HOME", "/h"),
        ];
        assert_eq!(default_cache_dir(env(ALL)), Some(PathBuf::from("/c/m")));
        assert_eq!(
            default_cache_dir(env(&[
                ("MOFMU_CACHE_DIR", ""),
                ("XDG_CACHE_HOME", "/x"),
                ("HOME", "/h")
            ])),
            Some(PathBuf::from("/x/mofmu"))
        );
        assert_eq!(
            default_cache_dir(env(&[("XDG_CACHE_HOME", "rel"), ("HOME", "/h")])),
            Some(PathBuf::from("/h/.cache/mofmu"))
        );
        assert_eq!(default_cache_dir(env(&[])), None);
    }

    #[test]
    fn includes_are_followed_through_headers() {
        let headers = vec![
            ("a.h".to_string(), "#include \"b.h\"\n".to_string()),
            ("b.h".to_string(), "#include \"a.h\"\n".to_string()),
            ("c.h".to_string(), String::new()),
        ];
        let text = "  #  include \"a.h\"\n#include <math.h>\n";
        let found: Vec<usize> = included_headers(text, &headers).into_iter().collect();
        assert_eq!(found, [0, 1]);
    }
}
