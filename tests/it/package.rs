//! Packaging: compiling with the object cache, the deterministic archive,
//! and atomic replacement of the output. The FMU built here is complete
//! (a hand-written FMI 2.0 Model Exchange layer for dx/dt = -k*x in
//! `test_data/package/decay/`, with a model description rendered from a
//! table), so it is also loaded back to see that the library works.

use std::io::Read;
use std::path::{Path, PathBuf};

use mofmu::fmu::description::model_description::render_model_description;
use mofmu::fmu::files::{model_spec, model_spec_fmi3, FMI3_PARTS, RUNTIME_PARTS};
use mofmu::package::{
    build_fmu, object_key, write_archive_atomically, ArchiveEntry, CSource, Compiler, Contents,
    FmuBuildSpec, ModelDescriptionSource, ObjectCache, PackageError,
};

use crate::model_description::decay_table;

fn decay_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test_data/package/decay")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(decay_dir().join(name)).unwrap()
}

/// The decay FMU: two cacheable units (the FMI layer and the model, both
/// including `decay.h`) and an uncached system file holding the GUID taken
/// from the rendered table, as mofmu's generated system file does.
fn decay_spec() -> FmuBuildSpec {
    let table = decay_table();
    let system = format!(
        "/* Per-model data. */\n#include \"decay.h\"\n\nconst char decay_guid[] = \"{}\";\n",
        table.guid
    );
    FmuBuildSpec {
        model_identifier: table.model_identifier.clone(),
        model_description: ModelDescriptionSource::Text(render_model_description(&table).unwrap()),
        sources: vec![
            CSource {
                name: "decay_system.c".to_string(),
                text: system,
                cache: false,
            },
            CSource {
                name: "decay_fmi.c".to_string(),
                text: read("decay_fmi.c"),
                cache: true,
            },
            CSource {
                name: "decay_model.c".to_string(),
                text: read("decay_model.c"),
                cache: true,
            },
        ],
        headers: vec![("decay.h".to_string(), read("decay.h"))],
        resources: Vec::new(),
        build_description: None,
    }
}

fn zip_entries(fmu: &Path) -> Vec<(String, Vec<u8>, Option<u32>, String)> {
    let file = std::fs::File::open(fmu).unwrap();
    let mut archive = zip::ZipArchive::new(file).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut entry = archive.by_index(i).unwrap();
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).unwrap();
            let time = entry
                .last_modified()
                .map(|t| t.to_string())
                .unwrap_or_default();
            (entry.name().to_string(), bytes, entry.unix_mode(), time)
        })
        .collect()
}

#[test]
fn the_fmu_has_the_fmi_layout_and_its_library_works() {
    let temp = tempfile::tempdir().unwrap();
    let cache = ObjectCache::new(temp.path().join("cache"));
    // The output directory does not exist yet: build_fmu creates it.
    let out = temp.path().join("out/nested/Decay.fmu");
    let spec = decay_spec();
    let report = build_fmu(&spec, &out, Some(&cache)).unwrap();
    assert_eq!(report.fmu_bytes, std::fs::metadata(&out).unwrap().len());

    let entries = zip_entries(&out);
    let names: Vec<&str> = entries.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "binaries/linux64/Decay.so",
            "modelDescription.xml",
            "sources/decay.h",
            "sources/decay_fmi.c",
            "sources/decay_model.c",
            "sources/decay_system.c",
        ]
    );
    for (name, _, mode, time) in &entries {
        let expected_mode = if name.ends_with(".so") { 0o755 } else { 0o644 };
        assert_eq!(mode.map(|m| m & 0o777), Some(expected_mode), "{name}");
        assert_eq!(time, "1980-01-01 00:00:00", "{name}");
    }
    let ModelDescriptionSource::Text(description) = &spec.model_description else {
        panic!("the decay FMU's description is a text");
    };
    assert_eq!(entries[1].1, description.as_bytes());

    // No path of the temporary build directory ends up in the library.
    let library = &entries[0].1;
    let temp_dir = std::env::temp_dir();
    for needle in ["mofmu-build-", temp_dir.to_str().unwrap()] {
        let found = library
            .windows(needle.len())
            .any(|w| w == needle.as_bytes());
        assert!(!found, "the library contains `{needle}`");
    }

    // Load the library: FMI functions are exported, kernel functions are
    // hidden, and dx/dt = -k*x at the start values.
    let so_path = temp.path().join("Decay.so");
    std::fs::write(&so_path, library).unwrap();
    check_decay_library(&so_path, &decay_table().guid);
}

fn check_decay_library(path: &Path, guid: &str) {
    use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
    type GetVersion = unsafe extern "C" fn() -> *const c_char;
    type Instantiate = unsafe extern "C" fn(
        *const c_char,
        c_int,
        *const c_char,
        *const c_char,
        *const c_void,
        c_int,
        c_int,
    ) -> *mut c_void;
    type GetReal = unsafe extern "C" fn(*mut c_void, *const c_uint, usize, *mut f64) -> c_int;
    type GetDerivatives = unsafe extern "C" fn(*mut c_void, *mut f64, usize) -> c_int;
    type FreeInstance = unsafe extern "C" fn(*mut c_void);

    // SAFETY: the library is the one just built from the test's own C
    // sources, and each symbol is called with the signature it defines.
    unsafe {
        let lib = libloading::Library::new(path).unwrap();
        let version: libloading::Symbol<GetVersion> = lib.get(b"fmi2GetVersion").unwrap();
        assert_eq!(CStr::from_ptr(version()).to_str().unwrap(), "2.0");
        assert!(lib.get::<GetVersion>(b"decay_evaluate").is_err());

        let instantiate: libloading::Symbol<Instantiate> = lib.get(b"fmi2Instantiate").unwrap();
        let get_real: libloading::Symbol<GetReal> = lib.get(b"fmi2GetReal").unwrap();
        let get_der: libloading::Symbol<GetDerivatives> = lib.get(b"fmi2GetDerivatives").unwrap();
        let free: libloading::Symbol<FreeInstance> = lib.get(b"fmi2FreeInstance").unwrap();
        let name = CString::new("decay").unwrap();
        let wrong = CString::new("{not-the-guid}").unwrap();
        let guid = CString::new(guid).unwrap();
        let null: *const c_void = std::ptr::null();
        assert!(instantiate(name.as_ptr(), 0, wrong.as_ptr(), null.cast(), null, 0, 0).is_null());
        let c = instantiate(name.as_ptr(), 0, guid.as_ptr(), null.cast(), null, 0, 0);
        assert!(!c.is_null());
        let mut values = [0.0; 3];
        assert_eq!(get_real(c, [0, 1, 2].as_ptr(), 3, values.as_mut_ptr()), 0);
        assert_eq!(values, [1.0, -1.0, 1.0]);
        let mut dx = [0.0];
        assert_eq!(get_der(c, dx.as_mut_ptr(), 1), 0);
        assert_eq!(dx, [-1.0]);
        free(c);
    }
}

#[test]
fn the_cache_is_used_and_does_not_change_the_result() {
    let temp = tempfile::tempdir().unwrap();
    let cache = ObjectCache::new(temp.path().join("cache"));
    let spec = decay_spec();
    let fmu = |name: &str| temp.path().join(name);

    let cold = build_fmu(&spec, &fmu("cold.fmu"), Some(&cache)).unwrap();
    assert_eq!((cold.objects_compiled, cold.objects_from_cache), (3, 0));
    assert_eq!((cache.hits(), cache.misses()), (0, 2));

    let warm = build_fmu(&spec, &fmu("warm.fmu"), Some(&cache)).unwrap();
    assert_eq!((warm.objects_compiled, warm.objects_from_cache), (1, 2));
    assert_eq!((cache.hits(), cache.misses()), (2, 2));

    let uncached = build_fmu(&spec, &fmu("uncached.fmu"), None).unwrap();
    assert_eq!(
        (uncached.objects_compiled, uncached.objects_from_cache),
        (3, 0)
    );

    let bytes = |name: &str| std::fs::read(fmu(name)).unwrap();
    assert!(
        bytes("cold.fmu") == bytes("warm.fmu"),
        "cold and warm builds differ"
    );
    assert!(
        bytes("cold.fmu") == bytes("uncached.fmu"),
        "cached and uncached builds differ"
    );

    // Only `<key>.o` files remain in the cache: no temporary files.
    let mut stored: Vec<String> = std::fs::read_dir(cache.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    stored.sort();
    assert_eq!(stored.len(), 2);
    assert!(
        stored.iter().all(|n| n.len() == 66 && n.ends_with(".o")),
        "{stored:?}"
    );

    // Changing a header both units include misses for both; changing one
    // unit misses for that unit only.
    let mut edited = spec.clone();
    edited.headers[0].1.push_str("/* edited */\n");
    let report = build_fmu(&edited, &fmu("header.fmu"), Some(&cache)).unwrap();
    assert_eq!((report.objects_compiled, report.objects_from_cache), (3, 0));
    let mut edited = spec.clone();
    edited.sources[2].text.push_str("/* edited */\n");
    let report = build_fmu(&edited, &fmu("unit.fmu"), Some(&cache)).unwrap();
    assert_eq!((report.objects_compiled, report.objects_from_cache), (2, 1));
    assert_eq!((cache.hits(), cache.misses()), (3, 5));
}

#[test]
fn a_library_of_cacheable_units_is_copied_from_the_cache() {
    let temp = tempfile::tempdir().unwrap();
    let cache = ObjectCache::new(temp.path().join("cache"));
    let mut spec = decay_spec();
    for source in &mut spec.sources {
        source.cache = true;
    }
    let fmu = |name: &str| temp.path().join(name);

    let cold = build_fmu(&spec, &fmu("cold.fmu"), Some(&cache)).unwrap();
    assert_eq!((cold.objects_compiled, cold.library_from_cache), (3, false));
    let warm = build_fmu(&spec, &fmu("warm.fmu"), Some(&cache)).unwrap();
    assert_eq!(
        (warm.objects_compiled, warm.objects_from_cache),
        (0, 3),
        "nothing is compiled when the library is cached"
    );
    assert!(warm.library_from_cache);
    // Only the library was looked up: no object was fetched.
    assert_eq!((cache.hits(), cache.misses()), (0, 3));
    let bytes = |name: &str| std::fs::read(fmu(name)).unwrap();
    assert!(bytes("cold.fmu") == bytes("warm.fmu"));

    // Another unit text misses the library and that unit's object only.
    spec.sources[0].text.push_str("/* edited */\n");
    let edited = build_fmu(&spec, &fmu("edited.fmu"), Some(&cache)).unwrap();
    assert_eq!((edited.objects_compiled, edited.objects_from_cache), (1, 2));
    assert!(!edited.library_from_cache);
    let stored = std::fs::read_dir(cache.dir())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".so")
        })
        .count();
    assert_eq!(stored, 2, "one library per distinct set of units");
}

#[test]
fn the_same_spec_gives_the_same_bytes() {
    let temp = tempfile::tempdir().unwrap();
    let spec = decay_spec();
    let a = temp.path().join("a.fmu");
    let b = temp.path().join("b.fmu");
    build_fmu(&spec, &a, None).unwrap();
    // Listing the sources in another order changes nothing either.
    let mut reordered = spec.clone();
    reordered.sources.reverse();
    build_fmu(&reordered, &b, None).unwrap();
    assert!(std::fs::read(a).unwrap() == std::fs::read(b).unwrap());
}

#[test]
fn a_failed_build_leaves_the_output_untouched() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("Decay.fmu");
    let mut broken = decay_spec();
    broken.sources[1]
        .text
        .push_str("\nint broken(void) { return missing_name; }\n");

    // No file appears where there was none.
    let error = build_fmu(&broken, &out, None).unwrap_err();
    match &error {
        PackageError::Compile {
            source_name,
            stderr,
        } => {
            assert_eq!(source_name, "decay_fmi.c");
            assert!(stderr.contains("missing_name"), "{stderr}");
        }
        other => panic!("expected a compile error, got {other}"),
    }
    assert!(error
        .to_string()
        .starts_with("the C compiler rejected decay_fmi.c:\n"));
    assert!(!out.exists());

    // An existing file is kept as it was.
    std::fs::write(&out, b"previous FMU").unwrap();
    build_fmu(&broken, &out, None).unwrap_err();
    assert_eq!(std::fs::read(&out).unwrap(), b"previous FMU");

    // An undefined symbol is a link error, not a library that fails to load.
    let mut unlinkable = decay_spec();
    unlinkable.sources[2]
        .text
        .push_str("\nvoid nowhere(void);\nvoid calls(void) { nowhere(); }\n");
    let error = build_fmu(&unlinkable, &out, None).unwrap_err();
    match &error {
        PackageError::Link { library, stderr } => {
            assert_eq!(library, "Decay.so");
            assert!(stderr.contains("nowhere"), "{stderr}");
        }
        other => panic!("expected a link error, got {other}"),
    }
    assert_eq!(std::fs::read(&out).unwrap(), b"previous FMU");

    // Nothing but the old file is left in the directory.
    let names: Vec<_> = std::fs::read_dir(temp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["Decay.fmu"]);
}

#[test]
fn malformed_specs_are_rejected_before_compiling() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("x.fmu");
    type Edit = fn(&mut FmuBuildSpec);
    let cases: Vec<(Edit, &str)> = vec![
        (
            |s| s.model_identifier = "1bad".to_string(),
            "invalid FMU build: model identifier `1bad` is not a C identifier",
        ),
        (
            |s| s.sources[0].name = "../escape.c".to_string(),
            "invalid FMU build: `../escape.c` is not a plain file name (letters, digits, `_`, `-`, `.`)",
        ),
        (
            |s| s.sources[0].name = "decay_fmi.c".to_string(),
            "invalid FMU build: the file name `decay_fmi.c` is used twice",
        ),
        (
            |s| s.sources[0].name = "decay_system.cpp".to_string(),
            "invalid FMU build: C source `decay_system.cpp` must be named `<name>.c`",
        ),
        (
            |s| s.headers[0].0 = "decay.txt".to_string(),
            "invalid FMU build: header `decay.txt` must be named `<name>.h`",
        ),
        (|s| s.sources.clear(), "invalid FMU build: there are no C sources"),
    ];
    for (edit, message) in cases {
        let mut spec = decay_spec();
        edit(&mut spec);
        let error = build_fmu(&spec, &out, None).unwrap_err();
        assert_eq!(error.to_string(), message);
        assert!(!out.exists());
    }
}

#[test]
fn concurrent_builds_share_one_cache_safely() {
    let temp = tempfile::tempdir().unwrap();
    let cache = ObjectCache::new(temp.path().join("cache"));
    let spec = decay_spec();
    let outputs: Vec<PathBuf> = (0..3)
        .map(|i| temp.path().join(format!("{i}.fmu")))
        .collect();
    std::thread::scope(|scope| {
        for out in &outputs {
            let (spec, cache) = (&spec, &cache);
            scope.spawn(move || build_fmu(spec, out, Some(cache)).unwrap());
        }
    });
    // Whatever the interleaving, every lookup was a hit or a miss, and all
    // archives are the same.
    assert_eq!(cache.hits() + cache.misses(), 6);
    let first = std::fs::read(&outputs[0]).unwrap();
    for out in &outputs[1..] {
        assert!(std::fs::read(out).unwrap() == first);
    }
    let stored = std::fs::read_dir(cache.dir()).unwrap().count();
    assert_eq!(stored, 2);
}

/// An entry written by a function is rendered on a thread of its own and
/// deflated as it comes: what the function writes, in writes of any size,
/// is what the archive holds; a render that fails half-way returns its
/// error and leaves the destination as it was.
#[test]
fn an_entry_rendered_beside_the_compressor_is_written_whole_or_not_at_all() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("Rendered.fmu");
    // 3 MB in writes of 1 to 70,000 bytes, so pieces are cut everywhere.
    let expected: Vec<u8> = (0..3_000_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let render = |w: &mut dyn std::io::Write| {
        let mut at = 0;
        let mut size = 1;
        while at < expected.len() {
            let end = (at + size).min(expected.len());
            w.write_all(&expected[at..end])?;
            at = end;
            size = size * 7 % 70_001 + 1;
        }
        Ok(())
    };
    let entries = || {
        vec![
            ArchiveEntry {
                path: "rendered.bin".to_string(),
                bytes: Contents::Written(&render),
                executable: false,
            },
            ArchiveEntry {
                path: "small.txt".to_string(),
                bytes: b"after".as_slice().into(),
                executable: false,
            },
        ]
    };
    write_archive_atomically(&out, entries()).unwrap();
    let read = zip_entries(&out);
    assert_eq!(read.len(), 2);
    assert_eq!(read[0].0, "rendered.bin");
    assert!(
        read[0].1 == expected,
        "the rendered entry reads back as written"
    );
    assert_eq!(read[1].1, b"after");
    let first = std::fs::read(&out).unwrap();
    write_archive_atomically(&out, entries()).unwrap();
    assert_eq!(
        std::fs::read(&out).unwrap(),
        first,
        "same entries, same bytes"
    );

    // A render that fails after 1 MB: its error, and the old archive kept.
    let failing = |w: &mut dyn std::io::Write| {
        w.write_all(&expected[..1_000_000])?;
        Err(std::io::Error::other("the table ran out"))
    };
    let error = write_archive_atomically(
        &out,
        vec![ArchiveEntry {
            path: "rendered.bin".to_string(),
            bytes: Contents::Written(&failing),
            executable: false,
        }],
    )
    .unwrap_err();
    assert!(error.to_string().contains("the table ran out"), "{error}");
    assert_eq!(std::fs::read(&out).unwrap(), first);
    let names: Vec<_> = std::fs::read_dir(temp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["Rendered.fmu"], "no temporary file is left behind");
}

/// The runtime is one translation unit over parts (its internal header and
/// the `.inc` files `mofmu_runtime.c` includes; `mofmu_fmi3.c` includes the
/// runtime and parts of its own). Every part travels beside the headers,
/// and every header of the build feeds the cache key of the unit that
/// includes it: a changed part compiles the runtime again.
#[test]
fn every_runtime_part_travels_and_feeds_the_runtime_key() {
    let compiler = Compiler::detect().expect("a C compiler");
    let table = std::sync::Arc::new(decay_table());
    let fmi2 = model_spec("Decay", table.clone(), [], String::new(), Vec::new());
    let fmi3 = model_spec_fmi3("Decay", table, [], String::new(), Vec::new());
    for (spec, parts) in [
        (fmi2, RUNTIME_PARTS.to_vec()),
        (fmi3, [&RUNTIME_PARTS[..], &FMI3_PARTS[..]].concat()),
    ] {
        for (name, text) in &parts {
            assert!(
                spec.headers.iter().any(|(n, t)| n == name && t == text),
                "{name} travels beside the headers"
            );
        }
        let runtime = &spec.sources[0];
        let key = object_key(&compiler, runtime, &spec.headers);
        for changed in 0..spec.headers.len() {
            let mut headers = spec.headers.clone();
            headers[changed].1.push_str("\n/* changed */\n");
            assert_ne!(
                object_key(&compiler, runtime, &headers),
                key,
                "{} of {} feeds its key",
                headers[changed].0,
                runtime.name
            );
        }
    }
}
