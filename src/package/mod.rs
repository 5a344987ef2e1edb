//! Compiles C sources into the FMU's shared library and writes the archive.
//!
//! [`build_fmu`] is the whole step: write the sources into a temporary
//! build directory, compile each C unit (through the [`ObjectCache`] when
//! the unit allows it), link `<modelIdentifier>.so` (or copy it from the
//! cache when every unit is cacheable and the same library was linked
//! before), and write the `.fmu` zip atomically. Same inputs and same compiler give a byte-identical FMU,
//! whether the objects came from the cache or not.

pub mod archive;
pub mod cache;
pub mod compile;
mod error;
pub mod win64;

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

pub use archive::{write_archive_atomically, ArchiveEntry, Contents};
pub use cache::{library_key, object_key, ObjectCache, CACHE_DIR_ENV};
pub use compile::Compiler;
pub(crate) use error::io_error;
pub use error::PackageError;
// What a build takes is described below, in `fmu`, so that export can
// produce it without depending on this step.
pub use crate::fmu::files::{CSource, FmuBuildSpec, ModelDescriptionSource};

/// What a build did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildReport {
    pub objects_compiled: usize,
    pub objects_from_cache: usize,
    /// The shared library was copied from the cache: nothing was compiled
    /// or linked, and `objects_from_cache` counts the units it was built
    /// from.
    pub library_from_cache: bool,
    pub fmu_bytes: u64,
    pub elapsed: Duration,
}

/// Builds the FMU described by `spec` into `out` with the system C
/// compiler. With `cache`, units marked cacheable are looked up and stored
/// there.
pub fn build_fmu(
    spec: &FmuBuildSpec,
    out: &Path,
    cache: Option<&ObjectCache>,
) -> Result<BuildReport, PackageError> {
    let compiler = Compiler::detect()?;
    build_fmu_with(&compiler, spec, out, cache)
}

/// [`build_fmu`] with a compiler detected beforehand (detection runs the
/// compiler once, which a caller building many FMUs may want to share).
pub fn build_fmu_with(
    compiler: &Compiler,
    spec: &FmuBuildSpec,
    out: &Path,
    cache: Option<&ObjectCache>,
) -> Result<BuildReport, PackageError> {
    let started = Instant::now();
    check_spec(spec)?;
    let build = tempfile::Builder::new()
        .prefix("mofmu-build-")
        .tempdir()
        .map_err(|e| io_error("creating a build directory in", &std::env::temp_dir(), e))?;
    let dir = build.path();
    for (name, text) in &spec.headers {
        write_file(&dir.join(name), text.as_bytes())?;
    }
    for source in &spec.sources {
        write_file(&dir.join(&source.name), source.text.as_bytes())?;
    }

    // Units in name order, so the link order never depends on how the
    // caller happened to list them.
    let mut units: Vec<&CSource> = spec.sources.iter().collect();
    units.sort_by(|a, b| a.name.cmp(&b.name));
    let objects: Vec<String> = units.iter().map(|u| object_name(&u.name)).collect();

    let library = format!("{}.so", spec.model_identifier);
    let library_path = dir.join(&library);
    // The key of every cacheable unit; when all units are cacheable the
    // library itself has a key, and a library found under it makes the
    // whole compile and link step a copy.
    let keys: Vec<Option<String>> = units
        .iter()
        .map(|unit| match cache {
            Some(_) if unit.cache => Some(object_key(compiler, unit, &spec.headers)),
            _ => None,
        })
        .collect();
    let library_cache_key = match cache {
        Some(_) => keys
            .iter()
            .cloned()
            .collect::<Option<Vec<String>>>()
            .map(|keys| library_key(compiler, &keys, &library)),
        None => None,
    };
    let (objects_compiled, objects_from_cache, library_from_cache) =
        match (cache, &library_cache_key) {
            (Some(cache), Some(key)) if cache.fetch_library(key, &library_path)? => {
                (0, units.len(), true)
            }
            _ => {
                let (compiled, from_cache) =
                    compile_and_link(compiler, dir, &units, &objects, &keys, &library, cache)?;
                if let (Some(cache), Some(key)) = (cache, &library_cache_key) {
                    cache.store_library(key, &library_path)?;
                }
                (compiled, from_cache, false)
            }
        };
    let library_bytes =
        std::fs::read(&library_path).map_err(|e| io_error("reading", &library_path, e))?;

    let write_description = |out: &mut dyn std::io::Write| spec.model_description.write(out);
    let mut entries = vec![
        ArchiveEntry {
            path: "modelDescription.xml".to_string(),
            bytes: if spec.model_description.is_large() {
                Contents::WrittenLarge(&write_description)
            } else {
                Contents::Written(&write_description)
            },
            executable: false,
        },
        ArchiveEntry {
            path: format!(
                "binaries/{}/{library}",
                spec.model_description.linux_binaries()
            ),
            bytes: library_bytes.into(),
            executable: true,
        },
    ];
    for (name, text) in &spec.headers {
        entries.push(source_entry(name, text));
    }
    for source in &spec.sources {
        entries.push(source_entry(&source.name, &source.text));
    }
    if let Some(text) = &spec.build_description {
        entries.push(source_entry(crate::fmu::sources::BUILD_DESCRIPTION, text));
    }
    for (name, bytes) in &spec.resources {
        entries.push(ArchiveEntry {
            path: format!("resources/{name}"),
            bytes: bytes.as_slice().into(),
            executable: false,
        });
    }
    let fmu_bytes = write_archive_atomically(out, entries)?;
    Ok(BuildReport {
        objects_compiled,
        objects_from_cache,
        library_from_cache,
        fmu_bytes,
        elapsed: started.elapsed(),
    })
}

/// Fetches or compiles every unit's object and links the library. Returns
/// how many objects were compiled and how many came from the cache.
fn compile_and_link(
    compiler: &Compiler,
    dir: &Path,
    units: &[&CSource],
    objects: &[String],
    keys: &[Option<String>],
    library: &str,
    cache: Option<&ObjectCache>,
) -> Result<(usize, usize), PackageError> {
    let mut to_compile = Vec::new();
    let mut from_cache = 0;
    for (i, unit) in units.iter().enumerate() {
        if let (Some(cache), Some(key)) = (cache, &keys[i]) {
            if cache.fetch(key, &dir.join(&objects[i]))? {
                from_cache += 1;
                continue;
            }
        }
        to_compile.push(CompileJob {
            source: &unit.name,
            object: &objects[i],
            key: keys[i].clone(),
        });
    }
    compile_all(compiler, dir, &to_compile, cache)?;
    compiler.link_shared(dir, objects, library)?;
    Ok((to_compile.len(), from_cache))
}

struct CompileJob<'a> {
    source: &'a str,
    object: &'a str,
    /// Where to store the object in the cache, for cacheable units.
    key: Option<String>,
}

/// Compiles the jobs on as many threads as the machine has cores, and
/// reports the failure of the first unit in name order, if any.
fn compile_all(
    compiler: &Compiler,
    dir: &Path,
    jobs: &[CompileJob<'_>],
    cache: Option<&ObjectCache>,
) -> Result<(), PackageError> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(jobs.len());
    let next = AtomicUsize::new(0);
    let run = |job: &CompileJob<'_>| -> Result<(), PackageError> {
        compiler.compile_object(dir, job.source, job.object)?;
        if let (Some(cache), Some(key)) = (cache, &job.key) {
            cache.store(key, &dir.join(job.object))?;
        }
        Ok(())
    };
    let mut failures: Vec<(usize, PackageError)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut failures = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { break };
                        if let Err(e) = run(job) {
                            failures.push((i, e));
                        }
                    }
                    failures
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a compile worker panicked"))
            .collect()
    });
    failures.sort_by_key(|(i, _)| *i);
    match failures.into_iter().next() {
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
}

fn check_spec(spec: &FmuBuildSpec) -> Result<(), PackageError> {
    let invalid = |m: String| Err(PackageError::InvalidSpec(m));
    let id = &spec.model_identifier;
    let mut chars = id.chars();
    let c_identifier = matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric());
    if !c_identifier {
        return invalid(format!("model identifier `{id}` is not a C identifier"));
    }
    if spec.sources.is_empty() {
        return invalid("there are no C sources".to_string());
    }
    let mut names = std::collections::HashSet::new();
    let header_names = spec.headers.iter().map(|(n, _)| n.as_str());
    for name in spec
        .sources
        .iter()
        .map(|s| s.name.as_str())
        .chain(header_names)
    {
        let plain = !name.is_empty()
            && !name.starts_with('.')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        if !plain {
            return invalid(format!(
                "`{name}` is not a plain file name (letters, digits, `_`, `-`, `.`)"
            ));
        }
        if !names.insert(name) {
            return invalid(format!("the file name `{name}` is used twice"));
        }
    }
    for source in &spec.sources {
        if !source.name.ends_with(".c") || source.name.len() < 3 {
            return invalid(format!(
                "C source `{}` must be named `<name>.c`",
                source.name
            ));
        }
    }
    // A `.c` file among the headers is a unit that another unit includes
    // (the runtime, under the FMI 3 entry points), and an `.inc` file a part
    // of one (the runtime's parts, `crate::fmu::files::RUNTIME_PARTS`).
    for (name, _) in &spec.headers {
        let stem = [".h", ".c", ".inc"]
            .iter()
            .find_map(|extension| name.strip_suffix(extension));
        if !stem.is_some_and(|stem| !stem.is_empty()) {
            return invalid(format!("header `{name}` must be named `<name>.h`"));
        }
    }
    Ok(())
}

fn object_name(source: &str) -> String {
    format!("{}.o", source.strip_suffix(".c").unwrap_or(source))
}

fn source_entry<'a>(name: &str, text: &'a str) -> ArchiveEntry<'a> {
    ArchiveEntry {
        path: format!("sources/{name}"),
        bytes: text.as_bytes().into(),
        executable: false,
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), PackageError> {
    std::fs::write(path, bytes).map_err(|e| io_error("writing", path, e))
}
