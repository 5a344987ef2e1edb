//! FMI 3.0 arrays (`export --fmi-version 3`): the rod's temperatures and
//! their derivatives are each one `<Float64>` with a `<Dimension>`, and the
//! runtime reads and writes all elements through the array's value
//! reference. Loaded through libloading, as an importer would.

use std::ffi::{c_char, c_void, CString};
use std::io::Read;

use mofmu::export::{export_model_options, ExportOptions, FmiVersion};
use mofmu::instantiate::{SetLiteral, SetValue};

use crate::export::{library, package, shared_cache};

type Instantiate = unsafe extern "C" fn(
    *const c_char,
    *const c_char,
    *const c_char,
    bool,
    bool,
    *mut c_void,
    *const c_void,
) -> *mut c_void;
type EnterInit = unsafe extern "C" fn(*mut c_void, bool, f64, f64, bool, f64) -> i32;
type Plain = unsafe extern "C" fn(*mut c_void) -> i32;
type GetFloat64 = unsafe extern "C" fn(*mut c_void, *const u32, usize, *mut f64, usize) -> i32;
type SetFloat64 = unsafe extern "C" fn(*mut c_void, *const u32, usize, *const f64, usize) -> i32;
type SetStates = unsafe extern "C" fn(*mut c_void, *const f64, usize) -> i32;
type GetDerivatives = unsafe extern "C" fn(*mut c_void, *mut f64, usize) -> i32;
type Directional = unsafe extern "C" fn(
    *mut c_void,
    *const u32,
    usize,
    *const u32,
    usize,
    *const f64,
    usize,
    *mut f64,
    usize,
) -> i32;
type Free = unsafe extern "C" fn(*mut c_void);

const OK: i32 = 0;
const ERROR: i32 = 3;

/// The value reference of the variable `name` in an FMI 3 description.
fn vr_of(description: &str, name: &str) -> u32 {
    let line = description
        .lines()
        .find(|l| l.contains(&format!(r#"name="{name}""#)))
        .unwrap_or_else(|| panic!("no variable {name} in\n{description}"));
    let at = line.find(r#"valueReference=""#).expect("a value reference") + 16;
    line[at..at + line[at..].find('"').unwrap()]
        .parse()
        .unwrap()
}

#[test]
fn fmi3_rod_arrays_are_one_variable_each_and_the_runtime_serves_them_whole() {
    let lib = library(&["examples/Base.mo", "examples/Thermal"]);
    let options = ExportOptions {
        fmi_version: FmiVersion::Fmi3,
        ..ExportOptions::default()
    };
    let n = 5usize;
    let sets = [SetValue {
        path: "rod.n".into(),
        value: SetLiteral::Number(n as f64),
    }];
    let out = export_model_options(&lib, "Thermal.Examples.RodHeating", &sets, 100.0, options)
        .unwrap_or_else(|e| panic!("FMI 3 export: {e:?}"));
    let description = out.model_description();
    assert!(
        !description.contains("rod.T[1]"),
        "elements are not listed:\n{description}"
    );
    let t = vr_of(&description, "rod.T");
    let der = vr_of(&description, "der(rod.T)");
    assert_eq!(der, t + n as u32, "derivatives follow the states in R");
    assert!(description.contains(&format!(
        "<ContinuousStateDerivative valueReference=\"{der}\" dependencies=\"{t}\" \
         dependenciesKind=\"dependent\"/>"
    )));
    assert_eq!(
        description.matches("<ContinuousStateDerivative ").count(),
        1
    );
    // rod.n sizes both arrays: a structural parameter (the test below).
    let n_vr = vr_of(&description, "rod.n");
    assert_eq!(
        description
            .matches(&format!("<Dimension valueReference=\"{n_vr}\"/>"))
            .count(),
        2
    );
    assert!(description.contains(&format!("derivative=\"{t}\"")));

    let temp = tempfile::tempdir().expect("temporary directory");
    let fmu = temp.path().join("Rod.fmu");
    package(&out, &fmu, &shared_cache());
    let mut archive =
        zip::ZipArchive::new(std::fs::File::open(&fmu).expect("the FMU")).expect("a zip");
    let unpacked = temp.path().join("unpacked");
    archive.extract(&unpacked).expect("unzip");
    let mut resource = Vec::new();
    std::fs::File::open(unpacked.join("resources/mofmu_fmi3.bin"))
        .expect("the FMI 3 resource")
        .read_to_end(&mut resource)
        .expect("read");
    assert_eq!(&resource[..8], b"MOFMUFM3");
    assert_eq!(u32::from_le_bytes(resource[12..16].try_into().unwrap()), 2);

    let so = unpacked.join("binaries/x86_64-linux/Thermal_Examples_RodHeating.so");
    // SAFETY: the library is the FMU's own, built from the runtime's C with
    // the FMI 3 signatures declared above.
    unsafe {
        let lib = libloading::Library::new(&so).expect("load the library");
        let get: libloading::Symbol<GetFloat64> = lib.get(b"fmi3GetFloat64").unwrap();
        let set: libloading::Symbol<SetFloat64> = lib.get(b"fmi3SetFloat64").unwrap();
        let set_states: libloading::Symbol<SetStates> =
            lib.get(b"fmi3SetContinuousStates").unwrap();
        let derivatives: libloading::Symbol<GetDerivatives> =
            lib.get(b"fmi3GetContinuousStateDerivatives").unwrap();
        let directional: libloading::Symbol<Directional> =
            lib.get(b"fmi3GetDirectionalDerivative").unwrap();
        let free: libloading::Symbol<Free> = lib.get(b"fmi3FreeInstance").unwrap();

        let inst = instantiate_quietly(&lib, &out.table.guid, &unpacked.join("resources"));
        to_continuous_time(&lib, inst);

        // The array's value reference stands for its n elements.
        let mut temps = vec![0.0; n];
        assert_eq!(get(inst, &t, 1, temps.as_mut_ptr(), n), OK);
        assert_eq!(temps, vec![300.0; n], "every volume starts at T0");
        // nValues counts elements; an inner element is not a variable.
        assert_eq!(get(inst, &t, 1, temps.as_mut_ptr(), 1), ERROR);
        let inner = t + 1;
        assert_eq!(get(inst, &inner, 1, temps.as_mut_ptr(), 1), ERROR);
        // Scalars and arrays mixed, in the order asked.
        let source_t = vr_of(&description, "source.T");
        let mixed = [source_t, t, 0];
        let mut values = vec![0.0; n + 2];
        assert_eq!(get(inst, mixed.as_ptr(), 3, values.as_mut_ptr(), n + 2), OK);
        assert_eq!(values[0], 400.0);
        assert_eq!(&values[1..=n], &[300.0; 5]);
        assert_eq!(values[n + 1], 0.0, "time");

        // The derivative array equals fmi3GetContinuousStateDerivatives.
        let states = [350.0, 340.0, 330.0, 320.0, 310.0];
        // A calculated state is set through fmi3SetContinuousStates; the
        // array setter counts elements before any rule of the variable.
        assert_eq!(set(inst, &t, 1, states.as_ptr(), 1), ERROR);
        assert_eq!(set_states(inst, states.as_ptr(), n), OK);
        let mut by_array = vec![0.0; n];
        let mut by_call = vec![0.0; n];
        assert_eq!(get(inst, &der, 1, by_array.as_mut_ptr(), n), OK);
        assert_eq!(derivatives(inst, by_call.as_mut_ptr(), n), OK);
        assert_eq!(by_array, by_call);
        // Closed form: C = rho c A L / n = 4.86 J/K, G = lambda A n / L = 1
        // W/K between volumes, conductor 1 W/K from 400 K.
        let (c, g) = (2700.0 * 900.0 * 1e-4 * 0.1 / 5.0, 1.0);
        let expected = [
            (1.0 * (400.0 - 350.0) + g * (340.0 - 350.0)) / c,
            g * (350.0 - 2.0 * 340.0 + 330.0) / c,
            g * (340.0 - 2.0 * 330.0 + 320.0) / c,
            g * (330.0 - 2.0 * 320.0 + 310.0) / c,
            g * (320.0 - 310.0) / c,
        ];
        for (got, want) in by_array.iter().zip(expected) {
            assert!(
                (got - want).abs() <= 1e-12 * want.abs().max(1.0),
                "{got} vs {want}"
            );
        }

        // Directional derivative by arrays: the first column of the Jacobian.
        let seed = [1.0, 0.0, 0.0, 0.0, 0.0];
        let mut column = vec![0.0; n];
        assert_eq!(
            directional(
                inst,
                &der,
                1,
                &t,
                1,
                seed.as_ptr(),
                n,
                column.as_mut_ptr(),
                n
            ),
            OK
        );
        let want = [-(1.0 + g) / c, g / c, 0.0, 0.0, 0.0];
        for (got, want) in column.iter().zip(want) {
            assert!((got - want).abs() <= 1e-12, "{column:?} vs {want}");
        }
        assert_eq!(
            directional(
                inst,
                &der,
                1,
                &t,
                1,
                seed.as_ptr(),
                1,
                column.as_mut_ptr(),
                n
            ),
            ERROR,
            "nSeed counts the known array's elements"
        );
        free(inst);
    }
}

// ---------------------------------------------------------------------------
// fmi3GetAdjointDerivative against fmi3GetDirectionalDerivative and central
// differences of fmi3GetContinuousStateDerivatives.
// ---------------------------------------------------------------------------

type Logger = unsafe extern "C" fn(*mut c_void, i32, *const c_char, *const c_char);
type InstantiateLogged = unsafe extern "C" fn(
    *const c_char,
    *const c_char,
    *const c_char,
    bool,
    bool,
    *mut c_void,
    Logger,
) -> *mut c_void;
type GetStates = unsafe extern "C" fn(*mut c_void, *mut f64, usize) -> i32;

/// Collects what the FMU logs into the `Vec<String>` its environment points to.
unsafe extern "C" fn collect(
    environment: *mut c_void,
    _status: i32,
    _category: *const c_char,
    message: *const c_char,
) {
    let messages = &mut *(environment as *mut Vec<String>);
    messages.push(
        std::ffi::CStr::from_ptr(message)
            .to_string_lossy()
            .into_owned(),
    );
}

/// The value of attribute `name` on the description's line that declares
/// the variable with value reference `vr`.
fn attribute_of_vr(description: &str, vr: u32, name: &str) -> Option<u32> {
    let line = description.lines().find(|l| {
        l.trim_start().starts_with("<Float64") && l.contains(&format!(r#"valueReference="{vr}""#))
    })?;
    let key = format!(r#" {name}=""#);
    let at = line.find(&key)? + key.len();
    line[at..at + line[at..].find('"')?].parse().ok()
}

/// The state derivatives' value references in ModelStructure order (the
/// order of the state vector) and the states' (their `derivative`).
fn state_references(description: &str) -> (Vec<u32>, Vec<u32>) {
    let key = r#"<ContinuousStateDerivative valueReference=""#;
    let derivatives: Vec<u32> = description
        .match_indices(key)
        .map(|(at, _)| {
            let rest = &description[at + key.len()..];
            rest[..rest.find('"').unwrap()].parse().unwrap()
        })
        .collect();
    let states = derivatives
        .iter()
        .map(|&d| attribute_of_vr(description, d, "derivative").expect("a derivative attribute"))
        .collect();
    (derivatives, states)
}

/// A small deterministic generator of test vectors in [-1, 1].
fn vector(n: usize, seed: u64) -> Vec<f64> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        })
        .collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Exports `model` in FMI 3.0 and unpacks it into `dir/unpacked`: the
/// export and its library's path.
fn unpacked_fmi3(
    paths: &[&str],
    model: &str,
    sets: &[SetValue],
    dir: &std::path::Path,
) -> (mofmu::export::ExportOutput, std::path::PathBuf) {
    let lib = library(paths);
    let options = ExportOptions {
        fmi_version: FmiVersion::Fmi3,
        ..ExportOptions::default()
    };
    let out = export_model_options(&lib, model, sets, 1.0, options)
        .unwrap_or_else(|e| panic!("FMI 3 export of {model}: {e:?}"));
    let fmu = dir.join("Model.fmu");
    package(&out, &fmu, &shared_cache());
    let mut archive =
        zip::ZipArchive::new(std::fs::File::open(&fmu).expect("the FMU")).expect("a zip");
    let unpacked = dir.join("unpacked");
    archive.extract(&unpacked).expect("unzip");
    let so = unpacked.join(format!("binaries/x86_64-linux/{}.so", out.model_identifier));
    (out, so)
}

/// A Model Exchange instance, without a logger, of the FMU whose library
/// `lib` is and whose resources are in `resources`.
///
/// # Safety
/// `lib` is that FMU's library, with the FMI 3 signatures declared above.
unsafe fn instantiate_quietly(
    lib: &libloading::Library,
    token: &str,
    resources: &std::path::Path,
) -> *mut c_void {
    let instantiate: libloading::Symbol<Instantiate> =
        lib.get(b"fmi3InstantiateModelExchange").unwrap();
    let name = CString::new("model").unwrap();
    let token = CString::new(token).unwrap();
    let resources = CString::new(format!("{}/", resources.display())).unwrap();
    let inst = instantiate(
        name.as_ptr(),
        token.as_ptr(),
        resources.as_ptr(),
        false,
        false,
        std::ptr::null_mut(),
        std::ptr::null(),
    );
    assert!(!inst.is_null(), "instantiation");
    inst
}

/// Initialises `inst` at t = 0 and enters continuous-time mode.
///
/// # Safety
/// As [`instantiate_quietly`], `inst` an instance of `lib`.
unsafe fn to_continuous_time(lib: &libloading::Library, inst: *mut c_void) {
    let enter: libloading::Symbol<EnterInit> = lib.get(b"fmi3EnterInitializationMode").unwrap();
    let exit: libloading::Symbol<Plain> = lib.get(b"fmi3ExitInitializationMode").unwrap();
    let continuous: libloading::Symbol<Plain> = lib.get(b"fmi3EnterContinuousTimeMode").unwrap();
    assert_eq!(enter(inst, false, 0.0, 0.0, false, 0.0), OK);
    assert_eq!(exit(inst), OK);
    assert_eq!(continuous(inst), OK);
}

/// Exports `model` in FMI 3, brings it to continuous-time mode and checks
/// fmi3GetAdjointDerivative (seed^T J over all states and derivatives, the
/// state and derivative arrays by their value references) against central
/// differences, fmi3GetDirectionalDerivative likewise, the identity
/// v^T (J w) == (v^T J) w to rounding, and the refusals of bad arguments.
/// Returns the worst deviations from the central differences.
fn check_adjoint(paths: &[&str], model: &str, sets: &[SetValue]) -> (f64, f64) {
    check_adjoint_strided(paths, model, sets, 1)
}

/// [`check_adjoint`] for a model whose state array's elements are `stride`
/// Reals apart (a member array: `cap.T`).
fn check_adjoint_strided(
    paths: &[&str],
    model: &str,
    sets: &[SetValue],
    stride: u32,
) -> (f64, f64) {
    let temp = tempfile::tempdir().expect("temporary directory");
    let (out, so) = unpacked_fmi3(paths, model, sets, temp.path());
    let unpacked = temp.path().join("unpacked");
    let description = out.model_description();
    assert!(
        description.contains(r#"providesAdjointDerivatives="true""#),
        "the description offers adjoint derivatives"
    );
    let (der_vrs, state_vrs) = state_references(&description);
    // Written by the FMU's logger through the instance environment, read
    // here only between calls; freed after the instance.
    let log: *mut Vec<String> = Box::into_raw(Box::new(Vec::new()));
    // SAFETY: the library is the FMU's own, with the FMI 3 signatures
    // declared above; `log` outlives the instance.
    let worst = unsafe {
        let messages = || &*log;
        let lib = libloading::Library::new(&so).expect("load the library");
        let instantiate: libloading::Symbol<InstantiateLogged> =
            lib.get(b"fmi3InstantiateModelExchange").unwrap();
        let enter: libloading::Symbol<EnterInit> = lib.get(b"fmi3EnterInitializationMode").unwrap();
        let exit: libloading::Symbol<Plain> = lib.get(b"fmi3ExitInitializationMode").unwrap();
        let continuous: libloading::Symbol<Plain> =
            lib.get(b"fmi3EnterContinuousTimeMode").unwrap();
        let get_states: libloading::Symbol<GetStates> =
            lib.get(b"fmi3GetContinuousStates").unwrap();
        let set_states: libloading::Symbol<SetStates> =
            lib.get(b"fmi3SetContinuousStates").unwrap();
        let derivatives: libloading::Symbol<GetDerivatives> =
            lib.get(b"fmi3GetContinuousStateDerivatives").unwrap();
        let directional: libloading::Symbol<Directional> =
            lib.get(b"fmi3GetDirectionalDerivative").unwrap();
        let adjoint: libloading::Symbol<Directional> =
            lib.get(b"fmi3GetAdjointDerivative").unwrap();
        let free: libloading::Symbol<Free> = lib.get(b"fmi3FreeInstance").unwrap();

        let name = CString::new("adjoint").unwrap();
        let token = CString::new(out.table.guid.clone()).unwrap();
        let resources = CString::new(format!("{}/", unpacked.join("resources").display())).unwrap();
        let inst = instantiate(
            name.as_ptr(),
            token.as_ptr(),
            resources.as_ptr(),
            false,
            false,
            log as *mut c_void,
            collect,
        );
        assert!(!inst.is_null(), "instantiation");
        let (du, dk) = (der_vrs.as_ptr(), state_vrs.as_ptr());
        let (nu, nk) = (der_vrs.len(), state_vrs.len());
        let mut n = 0usize;
        // Each value reference stands for an array's elements or one scalar:
        // the state vector's length is their total.
        let number: libloading::Symbol<unsafe extern "C" fn(*mut c_void, *mut usize) -> i32> =
            lib.get(b"fmi3GetNumberOfContinuousStates").unwrap();
        assert_eq!(number(inst, &mut n), OK);
        assert!(n > 0, "{model} has states");
        let v = vector(n, 1);
        let w = vector(n, 2);
        let mut vt_j = vec![0.0; n];

        // Not yet initialised: the adjoint is refused with a message.
        assert_eq!(
            adjoint(inst, du, nu, dk, nk, v.as_ptr(), n, vt_j.as_mut_ptr(), n),
            ERROR
        );
        assert!(
            messages()
                .last()
                .is_some_and(|m| m.contains("fmi3GetAdjointDerivative: not allowed in state")),
            "{:?}",
            messages()
        );
        assert_eq!(enter(inst, false, 0.0, 0.0, false, 0.0), OK);
        assert_eq!(exit(inst), OK);
        assert_eq!(continuous(inst), OK);

        // A state away from the start, so that nonlinear terms matter.
        let mut x0 = vec![0.0; n];
        assert_eq!(get_states(inst, x0.as_mut_ptr(), n), OK);
        let shift = vector(n, 3);
        for (x, s) in x0.iter_mut().zip(&shift) {
            *x += 0.1 * s * x.abs().max(1.0);
        }
        let f = |x: &[f64]| -> Vec<f64> {
            let mut dx = vec![0.0; n];
            assert_eq!(set_states(inst, x.as_ptr(), n), OK);
            assert_eq!(derivatives(inst, dx.as_mut_ptr(), n), OK);
            dx
        };
        let f0 = f(&x0);
        let scale = f0.iter().fold(1.0f64, |m, x| m.max(x.abs()));

        // J w by a tangent pass, and by central differences along w.
        let mut jw = vec![0.0; n];
        assert_eq!(
            directional(inst, du, nu, dk, nk, w.as_ptr(), n, jw.as_mut_ptr(), n),
            OK
        );
        let mut worst_directional = 0.0f64;
        {
            let h = 1e-6;
            let plus: Vec<f64> = x0.iter().zip(&w).map(|(x, w)| x + h * w).collect();
            let minus: Vec<f64> = x0.iter().zip(&w).map(|(x, w)| x - h * w).collect();
            let (fp, fm) = (f(&plus), f(&minus));
            for i in 0..n {
                let cd = (fp[i] - fm[i]) / (2.0 * h);
                worst_directional = worst_directional.max((jw[i] - cd).abs());
            }
        }
        // v^T J by the adjoint, and by central differences of v^T f along
        // each state.
        assert_eq!(set_states(inst, x0.as_ptr(), n), OK);
        assert_eq!(
            adjoint(inst, du, nu, dk, nk, v.as_ptr(), n, vt_j.as_mut_ptr(), n),
            OK,
            "{:?}",
            messages()
        );
        let mut worst_adjoint = 0.0f64;
        let mut column_abs = vec![0.0; n];
        let mut worst_by_column = 0.0f64;
        for j in 0..n {
            let h = 1e-6 * x0[j].abs().max(1.0);
            let mut plus = x0.clone();
            let mut minus = x0.clone();
            plus[j] += h;
            minus[j] -= h;
            let cd = (dot(&v, &f(&plus)) - dot(&v, &f(&minus))) / (2.0 * h);
            worst_adjoint = worst_adjoint.max((vt_j[j] - cd).abs());
            // |v|^T |J| e_j for the rounding bound below.
            assert_eq!(set_states(inst, x0.as_ptr(), n), OK);
            let mut e = vec![0.0; n];
            e[j] = 1.0;
            let mut col = vec![0.0; n];
            assert_eq!(
                directional(inst, du, nu, dk, nk, e.as_ptr(), n, col.as_mut_ptr(), n),
                OK
            );
            column_abs[j] = v.iter().zip(&col).map(|(v, c)| (v * c).abs()).sum();
            // The adjoint takes J's columns compressed (one tangent pass per
            // colour of the state Jacobian's pattern) where the per-column
            // way takes this one alone: the same entries summed in the same
            // order, so equal to rounding of the terms' sum.
            let by_column = dot(&v, &col);
            worst_by_column =
                worst_by_column.max((vt_j[j] - by_column).abs() / column_abs[j].max(1e-300));
        }
        eprintln!("{model}: adjoint vs transposed columns, worst relative {worst_by_column:.1e}");
        assert!(
            worst_by_column <= 1e-14,
            "{model}: the adjoint differs from the transposed columns by {worst_by_column:e} (relative)"
        );
        assert!(
            worst_directional <= 1e-6 && worst_adjoint <= 1e-6,
            "{model}: directional {worst_directional:e}, adjoint {worst_adjoint:e} \
             (max |f| = {scale:e})"
        );
        // A Jacobian that is not zero along v and w, so the checks compare something.
        let norm = |x: &[f64]| x.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        assert!(
            norm(&vt_j) > 1e-3 && norm(&jw) > 1e-3,
            "{model}: {vt_j:?} {jw:?}"
        );
        // v^T (J w) == (v^T J) w to rounding: both sum the products
        // v_i J_ij w_j, in different orders.
        assert_eq!(set_states(inst, x0.as_ptr(), n), OK);
        assert_eq!(
            directional(inst, du, nu, dk, nk, w.as_ptr(), n, jw.as_mut_ptr(), n),
            OK
        );
        let (left, right) = (dot(&v, &jw), dot(&vt_j, &w));
        let bound = 4.0
            * n as f64
            * f64::EPSILON
            * dot(&column_abs, &w.iter().map(|w| w.abs()).collect::<Vec<_>>());
        assert!(
            (left - right).abs() <= bound,
            "{model}: v^T(Jw) = {left:e}, (v^T J)w = {right:e}, bound {bound:e}"
        );

        // Bad arguments: each refused with fmi3Error and a message that
        // names the function, and the instance stays usable.
        let refused = |what: &str| {
            assert!(
                messages()
                    .last()
                    .is_some_and(|m| m.starts_with("fmi3GetAdjointDerivative") && m.contains(what)),
                "want a message about {what}: {:?}",
                messages()
            );
        };
        let unknown = [0x3fff_fff0u32];
        assert_eq!(
            adjoint(
                inst,
                unknown.as_ptr(),
                1,
                dk,
                nk,
                v.as_ptr(),
                1,
                vt_j.as_mut_ptr(),
                n
            ),
            ERROR
        );
        refused("is not a Float64 variable");
        assert_eq!(
            adjoint(
                inst,
                du,
                nu,
                dk,
                nk,
                v.as_ptr(),
                n - 1,
                vt_j.as_mut_ptr(),
                n
            ),
            ERROR
        );
        refused("nSeed is");
        assert_eq!(
            adjoint(
                inst,
                du,
                nu,
                dk,
                nk,
                v.as_ptr(),
                n,
                vt_j.as_mut_ptr(),
                n + 1
            ),
            ERROR
        );
        refused("nSensitivity");
        let time = [0u32];
        assert_eq!(
            adjoint(
                inst,
                du,
                nu,
                time.as_ptr(),
                1,
                v.as_ptr(),
                n,
                vt_j.as_mut_ptr(),
                1
            ),
            ERROR
        );
        refused("is not a state or an input");
        assert_eq!(
            adjoint(
                inst,
                du,
                nu,
                dk,
                nk,
                std::ptr::null(),
                n,
                vt_j.as_mut_ptr(),
                n
            ),
            ERROR
        );
        refused("argument seed is NULL");
        let mut bad_seed = v.clone();
        bad_seed[0] = f64::NAN;
        assert_eq!(
            adjoint(
                inst,
                du,
                nu,
                dk,
                nk,
                bad_seed.as_ptr(),
                n,
                vt_j.as_mut_ptr(),
                n
            ),
            ERROR
        );
        refused("is not finite");
        if n > 1 && nk == 1 {
            // An inner element of the state array names no variable.
            let inner = [state_vrs[0] + stride];
            assert_eq!(
                adjoint(
                    inst,
                    du,
                    nu,
                    inner.as_ptr(),
                    1,
                    v.as_ptr(),
                    n,
                    vt_j.as_mut_ptr(),
                    1
                ),
                ERROR
            );
            refused("is an element of an array");
        }
        let mut again = vec![0.0; n];
        assert_eq!(
            adjoint(inst, du, nu, dk, nk, v.as_ptr(), n, again.as_mut_ptr(), n),
            OK
        );
        assert_eq!(again, vt_j, "the refusals left nothing behind");
        free(inst);
        (worst_directional, worst_adjoint)
    };
    // SAFETY: the instance that wrote to it is freed.
    drop(unsafe { Box::from_raw(log) });
    worst
}

const PLANAR: &[&str] = &["examples/Base.mo", "examples/Signals.mo", "examples/Planar"];

#[test]
fn fmi3_adjoint_of_planar_examples_matches_central_differences() {
    for model in [
        "Planar.Examples.Pendulum",
        "Planar.Examples.DoublePendulum",
        "Planar.Examples.CraneCrab",
        "Planar.Examples.TestSlipBasedWheel",
    ] {
        let (directional, adjoint) = check_adjoint(PLANAR, model, &[]);
        eprintln!(
            "{model}: worst |difference| directional {directional:.2e}, adjoint {adjoint:.2e}"
        );
    }
}

#[test]
fn fmi3_adjoint_of_the_rod_takes_the_arrays_whole() {
    let sets = [SetValue {
        path: "rod.n".into(),
        value: SetLiteral::Number(7.0),
    }];
    let (directional, adjoint) = check_adjoint(
        &["examples/Base.mo", "examples/Thermal"],
        "Thermal.Examples.RodHeating",
        &sets,
    );
    eprintln!("rod n=7: directional {directional:.2e}, adjoint {adjoint:.2e}");
}

/// The chain's member arrays (`cap.T`, `der(cap.T)`: the component arrays
/// laid out by column, so their elements side by side) taken whole by the
/// directional and adjoint derivatives.
#[test]
fn fmi3_adjoint_of_the_chain_takes_the_member_arrays_whole() {
    let sets = [SetValue {
        path: "n".into(),
        value: SetLiteral::Number(6.0),
    }];
    let (directional, adjoint) = check_adjoint_strided(CHAIN.paths, CHAIN.model, &sets, 1);
    eprintln!("chain n=6: directional {directional:.2e}, adjoint {adjoint:.2e}");
}

/// Inputs as knowns: InOut.Plant's y = 2 first.x + u, z = (2 second.x +
/// sin(3 t)) w and der(first.x) = (u - first.x)/0.25, so at t = 0 with
/// second.x = -1 the adjoint over the inputs (u, w) is, in closed form,
/// (v_y + 4 v_der1, -2 v_z).
#[test]
fn fmi3_adjoint_with_respect_to_inputs_matches_the_closed_form() {
    let temp = tempfile::tempdir().expect("temporary directory");
    let (out, so) = unpacked_fmi3(
        &["examples/Base.mo", "test_data/dependencies/InOut.mo"],
        "InOut.Plant",
        &[],
        temp.path(),
    );
    let description = out.model_description();
    let unknowns = [
        vr_of(&description, "y"),
        vr_of(&description, "z"),
        vr_of(&description, "der(first.x)"),
        vr_of(&description, "der(second.x)"),
    ];
    let knowns = [vr_of(&description, "u"), vr_of(&description, "w")];
    // SAFETY: the FMU's own library with the FMI 3 signatures declared above.
    unsafe {
        let lib = libloading::Library::new(&so).expect("load the library");
        let enter: libloading::Symbol<EnterInit> = lib.get(b"fmi3EnterInitializationMode").unwrap();
        let exit: libloading::Symbol<Plain> = lib.get(b"fmi3ExitInitializationMode").unwrap();
        let adjoint: libloading::Symbol<Directional> =
            lib.get(b"fmi3GetAdjointDerivative").unwrap();
        let directional: libloading::Symbol<Directional> =
            lib.get(b"fmi3GetDirectionalDerivative").unwrap();
        let free: libloading::Symbol<Free> = lib.get(b"fmi3FreeInstance").unwrap();
        let inst = instantiate_quietly(
            &lib,
            &out.table.guid,
            &temp.path().join("unpacked/resources"),
        );
        assert_eq!(enter(inst, false, 0.0, 0.0, false, 0.0), OK);
        assert_eq!(exit(inst), OK);
        let v = [0.7, -1.3, 0.25, 2.0];
        let mut sensitivity = [0.0; 2];
        assert_eq!(
            adjoint(
                inst,
                unknowns.as_ptr(),
                4,
                knowns.as_ptr(),
                2,
                v.as_ptr(),
                4,
                sensitivity.as_mut_ptr(),
                2
            ),
            OK
        );
        let want = [v[0] + 4.0 * v[2], -2.0 * v[1]];
        for (got, want) in sensitivity.iter().zip(want) {
            assert!((got - want).abs() <= 1e-14, "{sensitivity:?} vs {want}");
        }
        // And the transpose of the directional derivative along w = (1, 0), (0, 1).
        for (j, e) in [[1.0, 0.0], [0.0, 1.0]].iter().enumerate() {
            let mut column = [0.0; 4];
            assert_eq!(
                directional(
                    inst,
                    unknowns.as_ptr(),
                    4,
                    knowns.as_ptr(),
                    2,
                    e.as_ptr(),
                    2,
                    column.as_mut_ptr(),
                    4
                ),
                OK
            );
            assert_eq!(dot(&v, &column), sensitivity[j]);
        }
        free(inst);
    }
}

type SetInt64 = unsafe extern "C" fn(*mut c_void, *const u32, usize, *const i64, usize) -> i32;
type SetUInt64 = unsafe extern "C" fn(*mut c_void, *const u32, usize, *const u64, usize) -> i32;
type GetUInt64 = unsafe extern "C" fn(*mut c_void, *const u32, usize, *mut u64, usize) -> i32;
type Fmi2Instantiate = unsafe extern "C" fn(
    *const c_char,
    i32,
    *const c_char,
    *const c_char,
    *const [*const c_void; 5],
    i32,
    i32,
) -> *mut c_void;
type Fmi2SetupExperiment = unsafe extern "C" fn(*mut c_void, i32, f64, f64, i32, f64) -> i32;
type Fmi2GetReal = unsafe extern "C" fn(*mut c_void, *const u32, usize, *mut f64) -> i32;
type Fmi2Vector = unsafe extern "C" fn(*mut c_void, *mut f64, usize) -> i32;
type Fmi2SetVector = unsafe extern "C" fn(*mut c_void, *const f64, usize) -> i32;

/// A model whose size is one Integer parameter: its library, its name,
/// the parameter and the library file name of its binary.
struct Sized {
    paths: &'static [&'static str],
    model: &'static str,
    size: &'static str,
    identifier: &'static str,
}

const ROD: Sized = Sized {
    paths: &["examples/Base.mo", "examples/Thermal"],
    model: "Thermal.Examples.RodHeating",
    size: "rod.n",
    identifier: "Thermal_Examples_RodHeating",
};

/// Issue 21's chain: `n` conductors and capacitors, component arrays.
const CHAIN: Sized = Sized {
    paths: &[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/Acc4.mo",
    ],
    model: "Acc4.Chain",
    size: "n",
    identifier: "Acc4_Chain",
};

/// Exports the rod at `n` (FMI 2.0 or 3.0) into `dir` and unpacks it.
fn rod_fmu(n: usize, fmi_version: FmiVersion, dir: &std::path::Path) -> (String, String) {
    sized_fmu(&ROD, n, fmi_version, dir)
}

/// Exports `m` at size `n` (FMI 2.0 or 3.0) into `dir` and unpacks it:
/// the GUID and the description.
fn sized_fmu(
    m: &Sized,
    n: usize,
    fmi_version: FmiVersion,
    dir: &std::path::Path,
) -> (String, String) {
    let lib = library(m.paths);
    let options = ExportOptions {
        fmi_version,
        ..ExportOptions::default()
    };
    let sets = [SetValue {
        path: m.size.into(),
        value: SetLiteral::Number(n as f64),
    }];
    let out = export_model_options(&lib, m.model, &sets, 100.0, options)
        .unwrap_or_else(|e| panic!("export: {e:?}"));
    let fmu = dir.join("Model.fmu");
    package(&out, &fmu, &shared_cache());
    let mut archive =
        zip::ZipArchive::new(std::fs::File::open(&fmu).expect("the FMU")).expect("a zip");
    archive.extract(dir.join("unpacked")).expect("unzip");
    (out.table.guid.clone(), out.model_description())
}

/// `steps` explicit Euler steps of `h` from the states `x` whose
/// derivatives are `dx`: after each, `call(t, x, dx)` hands the FMU the time
/// and the states and reads the new derivatives into `dx`. FMI 2.0 and
/// 3.0 runs take the same arithmetic through it, so they must agree to the
/// bit where the FMUs do.
fn euler(
    x: &mut [f64],
    dx: &mut [f64],
    steps: usize,
    h: f64,
    mut call: impl FnMut(f64, &[f64], &mut [f64]),
) {
    for s in 0..steps {
        for (xi, di) in x.iter_mut().zip(dx.iter()) {
            *xi += h * di;
        }
        call((s + 1) as f64 * h, x, dx);
    }
}

/// The FMI 2.0 rod at `n`: the derivatives at the start, then the states
/// after `steps` explicit Euler steps of `h` (the same arithmetic as the
/// FMI 3 run below, so the two must agree to rounding).
fn fmi2_rod_run(n: usize, steps: usize, h: f64) -> (Vec<f64>, Vec<f64>) {
    fmi2_run(&ROD, n, n, steps, h)
}

/// [`fmi2_rod_run`] for any sized model with `nx` states.
fn fmi2_run(m: &Sized, n: usize, nx: usize, steps: usize, h: f64) -> (Vec<f64>, Vec<f64>) {
    let temp = tempfile::tempdir().expect("temporary directory");
    let (guid, _) = sized_fmu(m, n, FmiVersion::Fmi2, temp.path());
    let unpacked = temp.path().join("unpacked");
    let so = unpacked.join(format!("binaries/linux64/{}.so", m.identifier));
    // SAFETY: the FMU's own library, with the FMI 2.0 signatures above.
    unsafe {
        let lib = libloading::Library::new(&so).expect("load the FMI 2 library");
        let instantiate: libloading::Symbol<Fmi2Instantiate> = lib.get(b"fmi2Instantiate").unwrap();
        let setup: libloading::Symbol<Fmi2SetupExperiment> =
            lib.get(b"fmi2SetupExperiment").unwrap();
        let enter: libloading::Symbol<Plain> = lib.get(b"fmi2EnterInitializationMode").unwrap();
        let exit: libloading::Symbol<Plain> = lib.get(b"fmi2ExitInitializationMode").unwrap();
        let continuous: libloading::Symbol<Plain> =
            lib.get(b"fmi2EnterContinuousTimeMode").unwrap();
        let states: libloading::Symbol<Fmi2Vector> = lib.get(b"fmi2GetContinuousStates").unwrap();
        let set_states: libloading::Symbol<Fmi2SetVector> =
            lib.get(b"fmi2SetContinuousStates").unwrap();
        let derivatives: libloading::Symbol<Fmi2Vector> = lib.get(b"fmi2GetDerivatives").unwrap();
        let set_time: libloading::Symbol<unsafe extern "C" fn(*mut c_void, f64) -> i32> =
            lib.get(b"fmi2SetTime").unwrap();
        let _get: libloading::Symbol<Fmi2GetReal> = lib.get(b"fmi2GetReal").unwrap();
        let free: libloading::Symbol<Free> = lib.get(b"fmi2FreeInstance").unwrap();
        let callbacks: [*const c_void; 5] = [std::ptr::null(); 5];
        let name = CString::new("rod2").unwrap();
        let guid = CString::new(guid).unwrap();
        let resources = CString::new(format!("{}/", unpacked.join("resources").display())).unwrap();
        let inst = instantiate(
            name.as_ptr(),
            0,
            guid.as_ptr(),
            resources.as_ptr(),
            &callbacks,
            0,
            0,
        );
        assert!(!inst.is_null(), "FMI 2 instantiation at n = {n}");
        assert_eq!(setup(inst, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(enter(inst), OK);
        assert_eq!(exit(inst), OK);
        assert_eq!(continuous(inst), OK);
        let mut x = vec![0.0; nx];
        let mut dx = vec![0.0; nx];
        assert_eq!(states(inst, x.as_mut_ptr(), nx), OK);
        assert_eq!(derivatives(inst, dx.as_mut_ptr(), nx), OK);
        let first = dx.clone();
        euler(&mut x, &mut dx, steps, h, |t, x, dx| {
            assert_eq!(set_time(inst, t), OK);
            assert_eq!(set_states(inst, x.as_ptr(), nx), OK);
            assert_eq!(derivatives(inst, dx.as_mut_ptr(), nx), OK);
        });
        free(inst);
        (first, x)
    }
}

/// Issue 24's headline: the rod exported ONCE in FMI 3.0 at n = 5 serves
/// n = 5, 1,000 and 10⁵, set in configuration mode, and matches the FMI 2.0
/// exports of those sizes (the derivatives at the start and 20 explicit
/// Euler steps through the FMI calls, the same arithmetic on both sides).
#[test]
fn fmi3_structural_rod_exported_once_serves_any_size() {
    structural_rod_serves(5, &[5, 1000, 100_000]);
}

/// Exported at a size above the one the template is derived at (the
/// exporter derives it from the images at 16 to 19 volumes and checks it
/// against the exported image), the rod still serves smaller and larger
/// sizes, the exported one included.
#[test]
fn fmi3_structural_rod_exported_large_serves_smaller_and_larger_sizes() {
    structural_rod_serves(40, &[5, 40, 1000]);
}

/// The rod exported in FMI 3.0 at `n0`, set to each of `sizes` in
/// configuration mode, against the FMI 2.0 exports of those sizes; and the
/// configuration-mode misuse.
fn structural_rod_serves(n0: usize, sizes: &[usize]) {
    let temp = tempfile::tempdir().expect("temporary directory");
    let (guid, description) = rod_fmu(n0, FmiVersion::Fmi3, temp.path());
    let n_vr = vr_of(&description, "rod.n");
    let t_vr = vr_of(&description, "rod.T");
    let der_vr = vr_of(&description, "der(rod.T)");
    assert!(description.contains("causality=\"structuralParameter\" variability=\"fixed\""));
    // FMI 3.0: a structural parameter a <Dimension> names is a UInt64, and
    // it is declared before the arrays it sizes (importers read in order).
    let declared = description
        .find("<UInt64 name=\"rod.n\"")
        .expect("rod.n is a UInt64");
    assert!(declared < description.find("name=\"rod.T\"").unwrap());
    assert_eq!(
        description
            .matches(&format!("<Dimension valueReference=\"{n_vr}\"/>"))
            .count(),
        2,
        "rod.T and der(rod.T) are sized by rod.n:\n{description}"
    );
    let unpacked = temp.path().join("unpacked");
    assert!(unpacked.join("resources/mofmu_struct.bin").exists());
    let so = unpacked.join("binaries/x86_64-linux/Thermal_Examples_RodHeating.so");
    let (steps, h) = (20, 1e-3);
    // SAFETY: the FMU's own library, with the FMI 3 signatures above.
    unsafe {
        let lib = libloading::Library::new(&so).expect("load the library");
        let enter_config: libloading::Symbol<Plain> =
            lib.get(b"fmi3EnterConfigurationMode").unwrap();
        let exit_config: libloading::Symbol<Plain> = lib.get(b"fmi3ExitConfigurationMode").unwrap();
        let set_int: libloading::Symbol<SetUInt64> = lib.get(b"fmi3SetUInt64").unwrap();
        let enter: libloading::Symbol<EnterInit> = lib.get(b"fmi3EnterInitializationMode").unwrap();
        let exit: libloading::Symbol<Plain> = lib.get(b"fmi3ExitInitializationMode").unwrap();
        let continuous: libloading::Symbol<Plain> =
            lib.get(b"fmi3EnterContinuousTimeMode").unwrap();
        let get: libloading::Symbol<GetFloat64> = lib.get(b"fmi3GetFloat64").unwrap();
        let set_states: libloading::Symbol<SetStates> =
            lib.get(b"fmi3SetContinuousStates").unwrap();
        let derivatives: libloading::Symbol<GetDerivatives> =
            lib.get(b"fmi3GetContinuousStateDerivatives").unwrap();
        let set_time: libloading::Symbol<unsafe extern "C" fn(*mut c_void, f64) -> i32> =
            lib.get(b"fmi3SetTime").unwrap();
        let free: libloading::Symbol<Free> = lib.get(b"fmi3FreeInstance").unwrap();
        let new = || instantiate_quietly(&lib, &guid, &unpacked.join("resources"));

        // Misuse: a structural parameter outside configuration mode, a
        // size out of range, configuration mode after initialization, the
        // UInt64 through the Int64 functions.
        let inst = new();
        assert_eq!(
            set_int(inst, &n_vr, 1, &7, 1),
            ERROR,
            "outside configuration mode"
        );
        let set_int64: libloading::Symbol<SetInt64> = lib.get(b"fmi3SetInt64").unwrap();
        let get_uint64: libloading::Symbol<GetUInt64> = lib.get(b"fmi3GetUInt64").unwrap();
        let mut read = 0u64;
        assert_eq!(get_uint64(inst, &n_vr, 1, &mut read, 1), OK);
        assert_eq!(read, n0 as u64, "fmi3GetUInt64 of the structural parameter");
        assert_eq!(enter_config(inst), OK);
        assert_eq!(
            set_int64(inst, &n_vr, 1, &7, 1),
            ERROR,
            "a UInt64 through fmi3SetInt64"
        );
        assert_eq!(set_int(inst, &n_vr, 1, &7, 1), OK);
        assert_eq!(get_uint64(inst, &n_vr, 1, &mut read, 1), OK);
        assert_eq!(read, 7, "the size set in configuration mode");
        assert_eq!(set_int(inst, &n_vr, 1, &0, 1), ERROR, "n < 1");
        assert_eq!(
            set_int(inst, &n_vr, 1, &u64::MAX, 1),
            ERROR,
            "beyond the tables"
        );
        assert_eq!(
            enter(inst, false, 0.0, 0.0, false, 0.0),
            ERROR,
            "initialization inside configuration mode"
        );
        assert_eq!(exit_config(inst), OK);
        assert_eq!(enter(inst, false, 0.0, 0.0, false, 0.0), OK);
        assert_eq!(enter_config(inst), ERROR, "only from Instantiated");
        free(inst);

        for &n in sizes {
            let inst = new();
            assert_eq!(enter_config(inst), OK);
            assert_eq!(set_int(inst, &n_vr, 1, &(n as u64), 1), OK);
            let started = std::time::Instant::now();
            assert_eq!(exit_config(inst), OK, "ExitConfigurationMode at n = {n}");
            eprintln!(
                "fmi3ExitConfigurationMode at n = {n}: {:.1} ms",
                started.elapsed().as_secs_f64() * 1e3
            );
            assert_eq!(enter(inst, false, 0.0, 0.0, false, 0.0), OK);
            assert_eq!(exit(inst), OK);
            assert_eq!(continuous(inst), OK);
            // The arrays' value references stand for n elements now.
            let mut x = vec![0.0; n + 1];
            assert_eq!(
                get(inst, &t_vr, 1, x.as_mut_ptr(), n + 1),
                ERROR,
                "n values"
            );
            x.truncate(n);
            assert_eq!(get(inst, &t_vr, 1, x.as_mut_ptr(), n), OK);
            let mut dx = vec![0.0; n];
            assert_eq!(derivatives(inst, dx.as_mut_ptr(), n), OK);
            let mut by_vr = vec![0.0; n];
            assert_eq!(get(inst, &der_vr, 1, by_vr.as_mut_ptr(), n), OK);
            assert_eq!(by_vr, dx, "der(rod.T) by its value reference at n = {n}");
            let first = dx.clone();
            euler(&mut x, &mut dx, steps, h, |t, x, dx| {
                assert_eq!(set_time(inst, t), OK);
                assert_eq!(set_states(inst, x.as_ptr(), n), OK);
                assert_eq!(derivatives(inst, dx.as_mut_ptr(), n), OK);
            });
            free(inst);
            let (first2, x2) = fmi2_rod_run(n, steps, h);
            let close = |a: &[f64], b: &[f64], what: &str| {
                let scale = b.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1.0);
                for (i, (p, q)) in a.iter().zip(b).enumerate() {
                    assert!(
                        (p - q).abs() <= 1e-9 * scale,
                        "{what} {i} at n = {n}: FMI 3 {p}, FMI 2 {q}"
                    );
                }
            };
            close(&first, &first2, "derivative");
            close(&x, &x2, "state after 20 steps");
            // The heated end moves, so the comparison is not of constants.
            assert!(first2[0] != 0.0);
        }
    }
}

/// The size of a component array (`link[n]`, `cap[n]`) is a structural
/// parameter: the template reproduces the exported images byte for byte
/// (instance records, Reals by column), derived at
/// n0 and n0 + 1 (or at 16 and 17 for n0 = 40 and 1,000) and verified at
/// two sizes more and at the exported one; the description declares each
/// member of the instances as one member array (`cap.T` for `cap[1].T`,
/// `cap[2].T`, …) sized by n. At n = 3 the schedule rolls up differently
/// than at 4 (a repeat of n − 1 = 2 is not rolled), so the tables are not
/// affine from 3: a note says so, and the members stay scalars.
#[test]
fn fmi3_component_array_size_is_a_structural_parameter() {
    let lib = library(CHAIN.paths);
    let members = [
        "link.G",
        "link.port_a.T",
        "link.port_a.Q_flow",
        "link.port_b.T",
        "link.port_b.Q_flow",
        "link.Q_flow",
        "cap.C",
        "cap.T0",
        "cap.port.T",
        "cap.port.Q_flow",
        "cap.T",
        "der(cap.T)",
    ];
    for n in [1, 2, 3, 5, 40, 1000] {
        let options = ExportOptions {
            fmi_version: FmiVersion::Fmi3,
            ..ExportOptions::default()
        };
        let sets = [SetValue {
            path: "n".into(),
            value: SetLiteral::Number(n as f64),
        }];
        let out = export_model_options(&lib, "Acc4.Chain", &sets, None, options)
            .unwrap_or_else(|e| panic!("FMI 3 export: {e:?}"));
        let description = out.model_description();
        if n == 1 {
            // One capacitor and no conductor between capacitors: the links'
            // repeat would have no rounds, which the runtime refuses.
            assert!(out.table.structural.is_none());
            assert_eq!(out.notes.len(), 1, "{:?}", out.notes);
            assert!(
                out.notes[0].contains("n sizes arrays but is not offered")
                    && out.notes[0].contains("the number of schedule steps changes with the size")
                    && out.notes[0].contains("the FMU is for n = 1 only"),
                "{}",
                out.notes[0]
            );
            assert!(!description.contains("structuralParameter"));
            assert!(!description.contains("<Dimension valueReference"));
            assert!(description.contains(r#"name="cap[1].T""#));
            continue;
        }
        assert!(out.notes.is_empty(), "n = {n}: {:?}", out.notes);
        assert!(out.table.structural.is_some());
        let n_vr = vr_of(&description, "n");
        assert_eq!(
            description
                .matches(&format!("<Dimension valueReference=\"{n_vr}\"/>"))
                .count(),
            members.len(),
            "n = {n}:\n{description}"
        );
        // Each member array is named by its first instance's Real; the
        // component arrays lie by column, so a member array is a column of
        // the image's size m (the size asked for, or the small size a
        // large one is served from).
        let m = if n > 19 { 16 } else { n as u32 };
        let t = vr_of(&description, "cap.T");
        assert_eq!(vr_of(&description, "der(cap.T)"), t + m);
        assert_eq!(vr_of(&description, "cap.C") + 4 * m, t);
        for m in members {
            vr_of(&description, m);
        }
        assert!(!description.contains("cap[1].T"), "{description}");
        assert!(description.contains(&format!(
            r#"<ContinuousStateDerivative valueReference="{}" dependencies="{t}""#,
            t + m
        )));
    }
}

/// The chain's Jacobian in closed form: der(cap[i].T) =
/// G/C (T[i-1] - 2 T[i] + T[i+1]) with the source's fixed temperature
/// before T[1] and nothing after T[n] (-G/C on the far end's diagonal),
/// G = 2, C = 50. Exported once at n = 5 and resized to n = 2,000 in
/// configuration mode, the adjoint over the whole member arrays (three
/// colours: three tangent passes) is seed^T J to rounding.
#[test]
fn fmi3_adjoint_of_the_resized_chain_matches_the_tridiagonal_closed_form() {
    let temp = tempfile::tempdir().expect("temporary directory");
    let (guid, description) = sized_fmu(&CHAIN, 5, FmiVersion::Fmi3, temp.path());
    let n_vr = vr_of(&description, "n");
    let t_vr = vr_of(&description, "cap.T");
    let der_vr = vr_of(&description, "der(cap.T)");
    let so = temp
        .path()
        .join("unpacked/binaries/x86_64-linux/Acc4_Chain.so");
    let n = 2000usize;
    let g_c = 2.0 / 50.0;
    // SAFETY: the FMU's own library, with the FMI 3 signatures above.
    unsafe {
        let lib = libloading::Library::new(&so).expect("load the library");
        let enter_config: libloading::Symbol<Plain> =
            lib.get(b"fmi3EnterConfigurationMode").unwrap();
        let exit_config: libloading::Symbol<Plain> = lib.get(b"fmi3ExitConfigurationMode").unwrap();
        let set_int: libloading::Symbol<SetUInt64> = lib.get(b"fmi3SetUInt64").unwrap();
        let adjoint: libloading::Symbol<Directional> =
            lib.get(b"fmi3GetAdjointDerivative").unwrap();
        let free: libloading::Symbol<Free> = lib.get(b"fmi3FreeInstance").unwrap();
        let inst = instantiate_quietly(&lib, &guid, &temp.path().join("unpacked/resources"));
        assert_eq!(enter_config(inst), OK);
        assert_eq!(set_int(inst, &n_vr, 1, &(n as u64), 1), OK);
        assert_eq!(exit_config(inst), OK);
        to_continuous_time(&lib, inst);
        let v = vector(n, 7);
        let mut sensitivity = vec![0.0; n];
        assert_eq!(
            adjoint(
                inst,
                &der_vr,
                1,
                &t_vr,
                1,
                v.as_ptr(),
                n,
                sensitivity.as_mut_ptr(),
                n
            ),
            OK
        );
        let mut worst = 0.0f64;
        for j in 0..n {
            // Column j: rows j - 1, j, j + 1.
            let diagonal = if j + 1 == n { -g_c } else { -2.0 * g_c };
            let mut want = v[j] * diagonal;
            let mut magnitude = (v[j] * diagonal).abs();
            for i in [j.wrapping_sub(1), j + 1] {
                if i < n {
                    want += v[i] * g_c;
                    magnitude += (v[i] * g_c).abs();
                }
            }
            worst = worst.max((sensitivity[j] - want).abs() / magnitude);
        }
        eprintln!("chain n = {n}: adjoint vs closed form, worst relative {worst:.1e}");
        assert!(worst <= 1e-14, "worst relative difference {worst:e}");
        free(inst);
    }
}

/// Requests the coloured adjoint does not take whole: states as knowns
/// named out of order and twice, derivatives likewise (still coloured), and
/// a local (a joint's force, two values) among the unknowns (taken by
/// columns). On the double pendulum (declared tearing, linear responses)
/// both match central differences of what fmi3GetFloat64 reads after
/// fmi3SetContinuousStates.
#[test]
fn fmi3_adjoint_of_parts_and_mixed_requests_matches_central_differences() {
    let temp = tempfile::tempdir().expect("temporary directory");
    let (out, so) = unpacked_fmi3(PLANAR, "Planar.Examples.DoublePendulum", &[], temp.path());
    let description = out.model_description();
    let (der, x) = state_references(&description);
    assert_eq!(der.len(), 4);
    let force = vr_of(&description, "revolute.flange_b.f0");
    // SAFETY: the FMU's own library with the FMI 3 signatures declared above.
    unsafe {
        let lib = libloading::Library::new(&so).expect("load the library");
        let get_states: libloading::Symbol<GetStates> =
            lib.get(b"fmi3GetContinuousStates").unwrap();
        let set_states: libloading::Symbol<SetStates> =
            lib.get(b"fmi3SetContinuousStates").unwrap();
        let get: libloading::Symbol<GetFloat64> = lib.get(b"fmi3GetFloat64").unwrap();
        let adjoint: libloading::Symbol<Directional> =
            lib.get(b"fmi3GetAdjointDerivative").unwrap();
        let free: libloading::Symbol<Free> = lib.get(b"fmi3FreeInstance").unwrap();
        let inst = instantiate_quietly(
            &lib,
            &out.table.guid,
            &temp.path().join("unpacked/resources"),
        );
        to_continuous_time(&lib, inst);
        let mut x0 = vec![0.0; 4];
        assert_eq!(get_states(inst, x0.as_mut_ptr(), 4), OK);
        for (x, s) in x0.iter_mut().zip(vector(4, 5)) {
            *x += 0.3 * s;
        }
        // (unknowns, their number of values, knowns as positions in x)
        let requests: [(Vec<u32>, usize, Vec<usize>); 3] = [
            (vec![der[2], der[0], der[2]], 3, vec![3, 1, 3]),
            (vec![der[1], der[3]], 2, vec![0, 2, 1, 3]),
            (vec![der[1], force, der[3], der[1]], 5, vec![2, 0, 2]),
        ];
        for (unknowns, nv, columns) in &requests {
            let knowns: Vec<u32> = columns.iter().map(|&c| x[c]).collect();
            let values = |at: &[f64]| -> Vec<f64> {
                let mut got = vec![0.0; *nv];
                assert_eq!(set_states(inst, at.as_ptr(), 4), OK);
                assert_eq!(
                    get(
                        inst,
                        unknowns.as_ptr(),
                        unknowns.len(),
                        got.as_mut_ptr(),
                        *nv
                    ),
                    OK
                );
                got
            };
            let v = vector(*nv, 9);
            assert_eq!(set_states(inst, x0.as_ptr(), 4), OK);
            let mut sensitivity = vec![0.0; knowns.len()];
            assert_eq!(
                adjoint(
                    inst,
                    unknowns.as_ptr(),
                    unknowns.len(),
                    knowns.as_ptr(),
                    knowns.len(),
                    v.as_ptr(),
                    *nv,
                    sensitivity.as_mut_ptr(),
                    knowns.len()
                ),
                OK
            );
            let mut worst = 0.0f64;
            for (j, &c) in columns.iter().enumerate() {
                let h = 1e-6 * x0[c].abs().max(1.0);
                let mut plus = x0.clone();
                let mut minus = x0.clone();
                plus[c] += h;
                minus[c] -= h;
                let cd = (dot(&v, &values(&plus)) - dot(&v, &values(&minus))) / (2.0 * h);
                worst = worst.max((sensitivity[j] - cd).abs());
            }
            eprintln!("{unknowns:?} by {columns:?}: worst |adjoint - central| {worst:.1e}");
            assert!(worst <= 1e-6, "{sensitivity:?}: worst {worst:e}");
            assert!(
                sensitivity.iter().any(|s| s.abs() > 1e-3),
                "a sensitivity that is not zero: {sensitivity:?}"
            );
        }
        free(inst);
    }
}

/// Issue 24 for a component array: Acc4.Chain exported ONCE in FMI 3.0 at
/// its default n = 3 serves n = 2, 3, 5, 1,000 and 10⁵ set in configuration
/// mode, and equals the FMI 2.0 exports of those sizes to the last bit
/// (derivatives at the start and 20 explicit Euler steps through the FMI
/// calls). Below 4 the exported image keeps the links' two rounds plain
/// where the template rolls them: the same operations in the same order.
/// n = 1 (a repeat of no rounds) is refused in configuration mode. The member arrays are read
/// whole at each size (`cap.T`: n values six Reals apart in R), an inner
/// element's value reference is refused, and `link.G` reads back its start.
#[test]
fn fmi3_structural_chain_exported_once_serves_any_size() {
    let temp = tempfile::tempdir().expect("temporary directory");
    let (guid, description) = sized_fmu(&CHAIN, 3, FmiVersion::Fmi3, temp.path());
    let n_vr = vr_of(&description, "n");
    let t_vr = vr_of(&description, "cap.T");
    let der_vr = vr_of(&description, "der(cap.T)");
    let g_vr = vr_of(&description, "link.G");
    assert!(description.contains("causality=\"structuralParameter\" variability=\"fixed\""));
    let unpacked = temp.path().join("unpacked");
    // The component arrays lie by column: the member arrays are runs of
    // stride 1, so both resources are of version 1 (no strides).
    for (file, magic) in [
        ("mofmu_struct.bin", "MOFMUSTR"),
        ("mofmu_fmi3.bin", "MOFMUFM3"),
    ] {
        let bytes = std::fs::read(unpacked.join("resources").join(file)).expect(file);
        assert_eq!(&bytes[..8], magic.as_bytes());
        assert_eq!(bytes[8..12], 1u32.to_le_bytes(), "{file} version");
    }
    let so = unpacked.join("binaries/x86_64-linux/Acc4_Chain.so");
    let (steps, h) = (20, 0.5);
    // SAFETY: the FMU's own library, with the FMI 3 signatures above.
    unsafe {
        let lib = libloading::Library::new(&so).expect("load the library");
        let enter_config: libloading::Symbol<Plain> =
            lib.get(b"fmi3EnterConfigurationMode").unwrap();
        let exit_config: libloading::Symbol<Plain> = lib.get(b"fmi3ExitConfigurationMode").unwrap();
        let set_int: libloading::Symbol<SetUInt64> = lib.get(b"fmi3SetUInt64").unwrap();
        let enter: libloading::Symbol<EnterInit> = lib.get(b"fmi3EnterInitializationMode").unwrap();
        let exit: libloading::Symbol<Plain> = lib.get(b"fmi3ExitInitializationMode").unwrap();
        let continuous: libloading::Symbol<Plain> =
            lib.get(b"fmi3EnterContinuousTimeMode").unwrap();
        let get: libloading::Symbol<GetFloat64> = lib.get(b"fmi3GetFloat64").unwrap();
        let set_states: libloading::Symbol<SetStates> =
            lib.get(b"fmi3SetContinuousStates").unwrap();
        let derivatives: libloading::Symbol<GetDerivatives> =
            lib.get(b"fmi3GetContinuousStateDerivatives").unwrap();
        let set_time: libloading::Symbol<unsafe extern "C" fn(*mut c_void, f64) -> i32> =
            lib.get(b"fmi3SetTime").unwrap();
        let directional: libloading::Symbol<Directional> =
            lib.get(b"fmi3GetDirectionalDerivative").unwrap();
        let free: libloading::Symbol<Free> = lib.get(b"fmi3FreeInstance").unwrap();
        // n = 1 is below the smallest size the FMU serves.
        let inst = instantiate_quietly(&lib, &guid, &unpacked.join("resources"));
        assert_eq!(enter_config(inst), OK);
        assert_eq!(set_int(inst, &n_vr, 1, &1, 1), ERROR, "n = 1");
        free(inst);
        for n in [2usize, 3, 5, 1000, 100_000] {
            let inst = instantiate_quietly(&lib, &guid, &unpacked.join("resources"));
            assert_eq!(enter_config(inst), OK);
            assert_eq!(set_int(inst, &n_vr, 1, &(n as u64), 1), OK);
            let started = std::time::Instant::now();
            assert_eq!(exit_config(inst), OK, "ExitConfigurationMode at n = {n}");
            eprintln!(
                "fmi3ExitConfigurationMode at n = {n}: {:.1} ms",
                started.elapsed().as_secs_f64() * 1e3
            );
            assert_eq!(enter(inst, false, 0.0, 0.0, false, 0.0), OK);
            assert_eq!(exit(inst), OK);
            assert_eq!(continuous(inst), OK);
            let mut x = vec![0.0; n + 1];
            assert_eq!(
                get(inst, &t_vr, 1, x.as_mut_ptr(), n + 1),
                ERROR,
                "n values"
            );
            x.truncate(n);
            assert_eq!(get(inst, &t_vr, 1, x.as_mut_ptr(), n), OK);
            // cap[2].T is an element of cap.T, not a variable.
            let mut one = [0.0];
            assert_eq!(get(inst, &(t_vr + 6), 1, one.as_mut_ptr(), 1), ERROR);
            let mut g = vec![0.0; n];
            assert_eq!(get(inst, &g_vr, 1, g.as_mut_ptr(), n), OK);
            assert!(g.iter().all(|&v| v == 2.0), "link.G at n = {n}");
            assert!(x.iter().all(|&v| v == 300.0), "cap.T starts at T0");
            let mut dx = vec![0.0; n];
            assert_eq!(derivatives(inst, dx.as_mut_ptr(), n), OK);
            let mut by_vr = vec![0.0; n];
            assert_eq!(get(inst, &der_vr, 1, by_vr.as_mut_ptr(), n), OK);
            assert_eq!(by_vr, dx, "der(cap.T) by its value reference at n = {n}");
            // The heated end: G (400 − 300) / C = 4 K/s.
            assert_eq!(dx[0], 4.0);
            let first = dx.clone();
            euler(&mut x, &mut dx, steps, h, |t, x, dx| {
                assert_eq!(set_time(inst, t), OK);
                assert_eq!(set_states(inst, x.as_ptr(), n), OK);
                assert_eq!(derivatives(inst, dx.as_mut_ptr(), n), OK);
            });
            // The states read by the array's value reference are the
            // state vector.
            let mut again = vec![0.0; n];
            assert_eq!(get(inst, &t_vr, 1, again.as_mut_ptr(), n), OK);
            assert_eq!(again, x);
            // The Jacobian's columns through the member arrays, against the
            // closed form: d der(cap[i].T) / d cap[j].T is −2G/C on the
            // diagonal (−G/C at the far end), G/C beside it.
            let (gc, last) = (2.0 / 50.0, n - 1);
            for j in [0, n / 2, last] {
                let mut seed = vec![0.0; n];
                seed[j] = 1.0;
                let mut column = vec![f64::NAN; n];
                let (a, b) = (&der_vr, &t_vr);
                assert_eq!(
                    directional(inst, a, 1, b, 1, seed.as_ptr(), n, column.as_mut_ptr(), n),
                    OK
                );
                for (i, c) in column.iter().enumerate() {
                    let want = if i == j {
                        if j == last {
                            -gc
                        } else {
                            -2.0 * gc
                        }
                    } else if i.abs_diff(j) == 1 {
                        gc
                    } else {
                        0.0
                    };
                    assert!(
                        (c - want).abs() <= 1e-15,
                        "J[{i}][{j}] at n = {n}: {c} vs {want}"
                    );
                }
            }
            free(inst);
            let (first2, x2) = fmi2_run(&CHAIN, n, n, steps, h);
            for (i, (p, q)) in first.iter().zip(&first2).enumerate() {
                assert_eq!(
                    p.to_bits(),
                    q.to_bits(),
                    "derivative {i} at n = {n}: {p} vs {q}"
                );
            }
            for (i, (p, q)) in x.iter().zip(&x2).enumerate() {
                assert_eq!(p.to_bits(), q.to_bits(), "state {i} at n = {n}: {p} vs {q}");
            }
            // Heat has reached past the first capacitors after 20 steps
            // (each step carries it one capacitor further), not the far end.
            assert!(x2[0] > 300.0 && x2[n.min(3) - 1] > 300.0);
            if n > steps + 1 {
                assert_eq!(x2[n - 1], 300.0);
            }
        }
    }
}

/// ThermoFluid Stream's CoolingLoopChannel: `pipe[n](each V = 2e-3/n, each
/// k = 500/n, …)`, a size that also sets values.
const COOLING_CHANNEL: Sized = Sized {
    paths: &[
        "examples/Base.mo",
        "examples/Signals.mo",
        "examples/Thermal",
        "examples/ThermoFluidStream",
    ],
    model: "ThermoFluidStream.Examples.CoolingLoopChannel",
    size: "n",
    identifier: "ThermoFluidStream_Examples_CoolingLoopChannel",
};

/// An FMI 3.0 export of `m` unpacked in `dir` ([`sized_fmu`]), its size
/// (value reference `n_vr`) set to `n` in configuration mode: the
/// derivatives at the start and the states after `steps` explicit Euler
/// steps of `h` (as [`fmi2_run`] takes them), and the `n` values of each
/// array of `arrays` after initialization.
#[allow(clippy::too_many_arguments)]
fn fmi3_configured_run(
    m: &Sized,
    dir: &std::path::Path,
    guid: &str,
    n_vr: u32,
    n: usize,
    nx: usize,
    (steps, h): (usize, f64),
    arrays: &[u32],
) -> (Vec<f64>, Vec<f64>, Vec<Vec<f64>>) {
    let unpacked = dir.join("unpacked");
    let so = unpacked.join(format!("binaries/x86_64-linux/{}.so", m.identifier));
    // SAFETY: the FMU's own library, with the FMI 3 signatures above.
    unsafe {
        let lib = libloading::Library::new(&so).expect("load the library");
        let instantiate: libloading::Symbol<Instantiate> =
            lib.get(b"fmi3InstantiateModelExchange").unwrap();
        let enter_config: libloading::Symbol<Plain> =
            lib.get(b"fmi3EnterConfigurationMode").unwrap();
        let exit_config: libloading::Symbol<Plain> = lib.get(b"fmi3ExitConfigurationMode").unwrap();
        let set_int: libloading::Symbol<SetUInt64> = lib.get(b"fmi3SetUInt64").unwrap();
        let enter: libloading::Symbol<EnterInit> = lib.get(b"fmi3EnterInitializationMode").unwrap();
        let exit: libloading::Symbol<Plain> = lib.get(b"fmi3ExitInitializationMode").unwrap();
        let continuous: libloading::Symbol<Plain> =
            lib.get(b"fmi3EnterContinuousTimeMode").unwrap();
        let get: libloading::Symbol<GetFloat64> = lib.get(b"fmi3GetFloat64").unwrap();
        let states: libloading::Symbol<GetDerivatives> =
            lib.get(b"fmi3GetContinuousStates").unwrap();
        let set_states: libloading::Symbol<SetStates> =
            lib.get(b"fmi3SetContinuousStates").unwrap();
        let derivatives: libloading::Symbol<GetDerivatives> =
            lib.get(b"fmi3GetContinuousStateDerivatives").unwrap();
        let set_time: libloading::Symbol<unsafe extern "C" fn(*mut c_void, f64) -> i32> =
            lib.get(b"fmi3SetTime").unwrap();
        let free: libloading::Symbol<Free> = lib.get(b"fmi3FreeInstance").unwrap();
        let name = CString::new("configured").unwrap();
        let token = CString::new(guid).unwrap();
        let resources = CString::new(format!("{}/", unpacked.join("resources").display())).unwrap();
        let inst = instantiate(
            name.as_ptr(),
            token.as_ptr(),
            resources.as_ptr(),
            false,
            false,
            std::ptr::null_mut(),
            std::ptr::null(),
        );
        assert!(!inst.is_null(), "instantiation");
        assert_eq!(enter_config(inst), OK);
        assert_eq!(set_int(inst, &n_vr, 1, &(n as u64), 1), OK);
        assert_eq!(exit_config(inst), OK, "ExitConfigurationMode at n = {n}");
        assert_eq!(enter(inst, false, 0.0, 0.0, false, 0.0), OK);
        assert_eq!(exit(inst), OK);
        assert_eq!(continuous(inst), OK);
        let read: Vec<Vec<f64>> = arrays
            .iter()
            .map(|vr| {
                let mut v = vec![f64::NAN; n];
                assert_eq!(get(inst, vr, 1, v.as_mut_ptr(), n), OK, "{vr} at n = {n}");
                v
            })
            .collect();
        let mut x = vec![0.0; nx];
        let mut dx = vec![0.0; nx];
        assert_eq!(states(inst, x.as_mut_ptr(), nx), OK);
        assert_eq!(derivatives(inst, dx.as_mut_ptr(), nx), OK);
        let first = dx.clone();
        euler(&mut x, &mut dx, steps, h, |t, x, dx| {
            assert_eq!(set_time(inst, t), OK);
            assert_eq!(set_states(inst, x.as_ptr(), nx), OK);
            assert_eq!(derivatives(inst, dx.as_mut_ptr(), nx), OK);
        });
        free(inst);
        (first, x, read)
    }
}

/// A size that also sets values (`each V = 2e-3/n`) is a structural
/// parameter: the template computes each cell's V and k from n by the
/// exporter's own operations (op 4, resource version 3). CoolingLoopChannel
/// exported ONCE at n = 10, set to other sizes in configuration mode, reads
/// back V = 2e-3/n and k = 500/n in every cell, and its derivatives at the
/// start and after 20 explicit Euler steps are bit for bit those of the
/// FMI 2.0 export at that n.
#[test]
fn fmi3_structural_size_that_sets_values_serves_any_size() {
    let temp = tempfile::tempdir().expect("temporary directory");
    let (guid, description) = sized_fmu(&COOLING_CHANNEL, 10, FmiVersion::Fmi3, temp.path());
    assert!(description.contains("causality=\"structuralParameter\""));
    let n_vr = vr_of(&description, "n");
    let v_vr = vr_of(&description, "pipe.V");
    let k_vr = vr_of(&description, "pipe.k");
    let bytes = std::fs::read(temp.path().join("unpacked/resources/mofmu_struct.bin")).unwrap();
    assert_eq!(
        bytes[8..12],
        3u32.to_le_bytes(),
        "a computed Real: version 3"
    );
    // Six states outside the radiator (volume, wall, heater, flows) and
    // one per cell.
    let (steps, h) = (20, 1e-4);
    for n in [4usize, 7, 10, 100, 1000] {
        let (first, x, read) = fmi3_configured_run(
            &COOLING_CHANNEL,
            temp.path(),
            &guid,
            n_vr,
            n,
            n + 6,
            (steps, h),
            &[v_vr, k_vr],
        );
        let (v, k) = (2e-3 / n as f64, 500.0 / n as f64);
        assert!(
            read[0].iter().all(|x| x.to_bits() == v.to_bits()),
            "pipe.V at n = {n}: {:?}",
            &read[0][..2]
        );
        assert!(
            read[1].iter().all(|x| x.to_bits() == k.to_bits()),
            "pipe.k at n = {n}: {:?}",
            &read[1][..2]
        );
        assert!(x.iter().all(|v| v.is_finite()), "finite states at n = {n}");
        let (first2, x2) = fmi2_run(&COOLING_CHANNEL, n, n + 6, steps, h);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            bits(&first),
            bits(&first2),
            "derivatives at the start, n = {n}"
        );
        assert_eq!(bits(&x), bits(&x2), "states after {steps} steps, n = {n}");
        // Not a trivially equal pair: the heater warms the loop at once.
        assert!(first.iter().any(|d| *d != 0.0), "the loop moves at n = {n}");
    }
}

/// Which start values a size may set. Acc4's chain with `each C = 50/n`
/// (constants, n, + - * /) offers n, its template computing C at run time
/// (op 4, version 3); with `each C = 50/n^2` (a power, which the runtime's
/// `pow` need not round as the exporter's does) n stays a parameter of the
/// exported value, with a note naming the variable.
#[test]
fn fmi3_size_that_sets_values_is_structural_by_plus_minus_times_divide_only() {
    let model = |c: &str| {
        format!(
            "encapsulated package SizeSets\n  import Thermal.Components;\n  model Chain\n    \
             parameter Integer n = 5;\n    Components.FixedTemperature source(T = 400);\n    \
             Components.ThermalConductor link[n](each G = 2);\n    \
             Components.HeatCapacitor cap[n](each C = {c}, each T0 = 300);\n  equation\n    \
             connect(source.port, link[1].port_a);\n    for i in 1:n loop\n      \
             connect(link[i].port_b, cap[i].port);\n    end for;\n    for i in 1:n - 1 loop\n      \
             connect(cap[i].port, link[i + 1].port_a);\n    end for;\n  end Chain;\nend SizeSets;\n"
        )
    };
    let export = |c: &str| {
        let temp = tempfile::tempdir().expect("temporary directory");
        let file = temp.path().join("SizeSets.mo");
        std::fs::write(&file, model(c)).unwrap();
        let lib = library(&[
            "examples/Base.mo",
            "examples/Thermal",
            file.to_str().unwrap(),
        ]);
        let options = ExportOptions {
            fmi_version: FmiVersion::Fmi3,
            ..ExportOptions::default()
        };
        export_model_options(&lib, "SizeSets.Chain", &[], None, options)
            .unwrap_or_else(|e| panic!("FMI 3 export: {e:?}"))
    };
    let out = export("50/n");
    assert!(out.notes.is_empty(), "{:?}", out.notes);
    let resource = &out
        .table
        .structural
        .as_ref()
        .expect("n is structural")
        .resource;
    assert_eq!(resource[8..12], 3u32.to_le_bytes());
    let out = export("50/n^2");
    assert!(out.table.structural.is_none());
    assert!(
        out.notes
            .iter()
            .any(|n| n.contains("n sizes arrays but is not offered")
                && n.contains("the start value of cap[1].C changes with the size")),
        "{:?}",
        out.notes
    );
}

/// An array whose size follows a parameter but is not the parameter itself
/// (`AccEnd.Cascade`'s `Real gap[n - 1]`) cannot be declared with a
/// `<Dimension valueReference>` of it: FMI 3.0 has no size expressions. The
/// description used to declare `gap` with n's value reference, so an
/// importer asked for n values where the FMU has n - 1 (FMPy's
/// `fmi3GetFloat64` failed). Now n is not offered, with a note naming `gap`,
/// and the arrays keep literal dimensions.
#[test]
fn fmi3_array_of_another_size_than_the_parameter_is_a_note() {
    let lib = library(&[
        "examples/Base.mo",
        "examples/Thermal",
        "test_data/language/AccEnd.mo",
    ]);
    let options = ExportOptions {
        fmi_version: FmiVersion::Fmi3,
        ..ExportOptions::default()
    };
    let out = export_model_options(&lib, "AccEnd.Cascade", &[], None, options)
        .unwrap_or_else(|e| panic!("FMI 3 export: {e:?}"));
    assert!(out.table.structural.is_none());
    assert_eq!(out.notes.len(), 1, "{:?}", out.notes);
    assert!(
        out.notes[0].contains("n sizes arrays but is not offered")
            && out.notes[0].contains("gap has n - 1 elements"),
        "{}",
        out.notes[0]
    );
    let description = out.model_description();
    assert!(!description.contains("structuralParameter"));
    assert!(!description.contains("<Dimension valueReference"));
    assert!(
        description.contains("<Dimension start=\"3\"/>"),
        "gap keeps its 3 elements"
    );
}

/// An n × n array (`AccFill.Decay`'s `M[n, n]`) makes the number of Reals
/// grow as n²: no `<Dimension>` of one structural parameter declares it and
/// no affine template lays it out, and the note says so with the counts
/// (the model's other arrays have n elements: 9, 16 and 25 elements of M
/// at n = 3, 4 and 5 leave a second difference of 2).
#[test]
fn fmi3_an_n_by_n_array_is_a_note_naming_the_growth() {
    let lib = library(&["examples/Base.mo", "test_data/language/AccFill.mo"]);
    let options = ExportOptions {
        fmi_version: FmiVersion::Fmi3,
        ..ExportOptions::default()
    };
    let out = export_model_options(&lib, "AccFill.Decay", &[], None, options)
        .unwrap_or_else(|e| panic!("FMI 3 export: {e:?}"));
    assert!(out.table.structural.is_none());
    assert_eq!(out.notes.len(), 1, "{:?}", out.notes);
    let note = &out.notes[0];
    let counts: Vec<i64> = note
        .split_once("it (")
        .and_then(|(_, rest)| rest.split_once(" at n"))
        .map(|(counts, _)| {
            counts
                .split([',', ' '])
                .filter_map(|w| w.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(counts.len(), 3, "{note}");
    assert_eq!(counts[2] - 2 * counts[1] + counts[0], 2, "{note}");
    assert!(
        note.contains("the number of Reals is not affine in it")
            && note.contains("at n = 3, 4 and 5")
            && note.contains("as with an array of n × n elements")
            && note.contains("the FMU is for n = 3 only"),
        "{note}"
    );
}

/// `sources/buildDescription.xml` names exactly the C units that build the
/// binary: every `.c` file in `sources/` but the runtime, which
/// `mofmu_fmi3.c` includes. Compiled as it says (C99, linked with libm),
/// into a library of the model identifier's name, they give an FMI 3.0
/// library whose derivatives equal the shipped binary's.
#[test]
fn fmi3_build_description_lists_the_units_that_rebuild_the_binary() {
    let temp = tempfile::tempdir().expect("temporary directory");
    let (guid, description) = rod_fmu(5, FmiVersion::Fmi3, temp.path());
    let sources = temp.path().join("unpacked/sources");
    let build = std::fs::read_to_string(sources.join("buildDescription.xml"))
        .expect("sources/buildDescription.xml");
    let listed: Vec<&str> = build
        .split("<SourceFile name=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').expect("closing quote")])
        .collect();
    let mut units: Vec<String> = std::fs::read_dir(&sources)
        .expect("sources/")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".c") && name != "mofmu_runtime.c")
        .collect();
    units.sort();
    let mut sorted: Vec<String> = listed.iter().map(|s| s.to_string()).collect();
    sorted.sort();
    assert_eq!(sorted, units, "listed units:\n{build}");
    assert_eq!(listed[0], "mofmu_fmi3.c", "the entry points come first");
    assert!(build.contains("<fmiBuildDescription fmiVersion=\"3.0\">"));
    assert!(build.contains("<SourceFileSet language=\"C99\">"));
    assert!(build.contains("<Library name=\"m\" external=\"true\""));
    let identifier = "Thermal_Examples_RodHeating";
    assert!(build.contains(&format!("modelIdentifier=\"{identifier}\"")));
    assert!(description.contains(&format!("modelIdentifier=\"{identifier}\"")));

    // Rebuild from the listed units alone, as an importer would.
    let rebuilt = temp.path().join(format!("{identifier}.so"));
    let mut cc = std::process::Command::new("cc");
    cc.current_dir(&sources)
        .args([
            "-std=c99",
            "-O2",
            "-fPIC",
            "-shared",
            "-ffp-contract=off",
            "-o",
        ])
        .arg(&rebuilt)
        .args(&listed)
        .arg("-lm");
    let output = cc.output().expect("cc runs");
    assert!(
        output.status.success(),
        "rebuild failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let shipped = temp
        .path()
        .join(format!("unpacked/binaries/x86_64-linux/{identifier}.so"));
    let resources = temp.path().join("unpacked/resources");
    let derivatives = |library: &std::path::Path| -> Vec<f64> {
        // SAFETY: both libraries are built from the FMU's sources, with the
        // FMI 3 signatures declared above.
        let lib = unsafe { libloading::Library::new(library) }.expect("load");
        unsafe {
            let get_derivatives: libloading::Symbol<GetDerivatives> =
                lib.get(b"fmi3GetContinuousStateDerivatives").unwrap();
            let free: libloading::Symbol<Free> = lib.get(b"fmi3FreeInstance").unwrap();
            let instance = instantiate_quietly(&lib, &guid, &resources);
            to_continuous_time(&lib, instance);
            let mut d = vec![0.0; 5];
            assert_eq!(get_derivatives(instance, d.as_mut_ptr(), d.len()), OK);
            free(instance);
            d
        }
    };
    let from_shipped = derivatives(&shipped);
    let from_rebuilt = derivatives(&rebuilt);
    assert!(from_shipped.iter().any(|&d| d != 0.0), "{from_shipped:?}");
    assert_eq!(from_shipped, from_rebuilt);
}

/// Every malformed stride resource is refused at instantiation with a
/// message, never a crash: the chain's version-2 `mofmu_fmi3.bin` and
/// `mofmu_struct.bin` with a bad version, a stride of 0 or beyond R, arrays
/// or segments that share an element or leave R, and the two files
/// disagreeing on an array (each re-signed, so the checks past the checksum
/// are reached).
#[test]
fn fmi3_malformed_stride_resources_are_refused() {
    let temp = tempfile::tempdir().expect("temporary directory");
    let (guid, _) = sized_fmu(&CHAIN, 5, FmiVersion::Fmi3, temp.path());
    let unpacked = temp.path().join("unpacked");
    let shipped_arrays = std::fs::read(unpacked.join("resources/mofmu_fmi3.bin")).unwrap();
    let shipped_struct = std::fs::read(unpacked.join("resources/mofmu_struct.bin")).unwrap();
    let system = std::fs::read(unpacked.join("resources/mofmu_system.bin")).unwrap();
    let sign = |mut b: Vec<u8>| {
        let end = b.len() - 8;
        let sum = mofmu::fmu::image::system_image::fnv1a(&b[..end]);
        b[end..].copy_from_slice(&sum.to_le_bytes());
        b
    };
    fn put32(b: &mut [u8], at: usize, v: u32) {
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    fn put64(b: &mut [u8], at: usize, v: i64) {
        b[at..at + 8].copy_from_slice(&v.to_le_bytes());
    }
    fn get32(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }
    // The chain's component arrays lie by column, so its member arrays are
    // runs of stride 1 and both files are version 1; the strided versions
    // (2) are made from them here, each stride written as 1, so that the
    // checks of a stride are reached.
    let arrays_v1 = (get32(&shipped_arrays, 8) == 1).then_some(&shipped_arrays);
    let good_arrays = match arrays_v1 {
        Some(v1) => {
            let count = get32(v1, 12) as usize;
            let mut b = v1[..16].to_vec();
            put32(&mut b, 8, 2);
            for k in 0..count {
                b.extend_from_slice(&v1[16 + 8 * k..24 + 8 * k]);
                b.extend_from_slice(&1u32.to_le_bytes());
            }
            b.extend_from_slice(&[0; 8]);
            sign(b)
        }
        None => shipped_arrays.clone(),
    };
    let seg0 = 16 + 4 + get32(&shipped_struct, 16) as usize + 24 + 4;
    let good_struct = if get32(&shipped_struct, 8) == 1 {
        let count = get32(&shipped_struct, seg0 - 4) as usize;
        let mut b = shipped_struct[..seg0].to_vec();
        put32(&mut b, 8, 2);
        for k in 0..count {
            b.extend_from_slice(&shipped_struct[seg0 + 40 * k..seg0 + 40 * (k + 1)]);
            b.extend_from_slice(&1i64.to_le_bytes());
        }
        b.extend_from_slice(&shipped_struct[seg0 + 40 * count..]);
        sign(b)
    } else {
        shipped_struct.clone()
    };
    // mofmu_fmi3.bin: 16 header bytes, then { vr len stride } per array.
    let entry = |k: usize| 16 + 12 * k;
    // mofmu_struct.bin: the segments after the name and three sizes.
    let seg = move |k: usize| seg0 + 48 * k;
    // The first segment and array that follow the size (two of each at
    // least, so that a second one can be made to overlap the first).
    let strided_seg = (0..get32(&good_struct, seg0 - 4) as usize)
        .find(|&k| {
            i64::from_le_bytes(good_struct[seg(k) + 32..seg(k) + 40].try_into().unwrap()) != 0
        })
        .expect("a segment that follows the size");
    let strided_array = (0..get32(&good_arrays, 12) as usize)
        .find(|&k| get32(&good_arrays, entry(k) + 4) == 5)
        .expect("an array of the size");
    type Edit = Box<dyn Fn(&mut [u8])>;
    let cases: Vec<(&str, bool, Edit, &str)> = vec![
        (
            "fmi3 version",
            true,
            Box::new(|b| put32(b, 8, 3)),
            "unknown version",
        ),
        (
            "fmi3 stride 0",
            true,
            Box::new(move |b| put32(b, entry(strided_array) + 8, 0)),
            "outside the model",
        ),
        (
            "fmi3 stride beyond R",
            true,
            Box::new(move |b| put32(b, entry(strided_array) + 8, u32::MAX)),
            "outside the model",
        ),
        (
            "fmi3 length beyond R",
            true,
            Box::new(move |b| put32(b, entry(strided_array) + 4, 1000)),
            "outside the model",
        ),
        (
            "fmi3 arrays share an element",
            true,
            Box::new(move |b| {
                // The next array is this one's second element alone.
                let first = get32(b, entry(strided_array));
                let stride = get32(b, entry(strided_array) + 8);
                put32(b, entry(strided_array + 1), first + stride);
                put32(b, entry(strided_array + 1) + 4, 1);
            }),
            // With every stride 1 the loader meets the one-element array
            // inside its neighbour as a disagreement with the segments
            // before it checks the overlap: refused either way.
            "overlap or are out of order|disagree on an array",
        ),
        (
            "fmi3 and struct disagree",
            true,
            Box::new(move |b| {
                let len = get32(b, entry(strided_array) + 4);
                put32(b, entry(strided_array) + 4, len - 1);
            }),
            "disagree on an array",
        ),
        (
            "struct version",
            false,
            Box::new(|b| put32(b, 8, 5)),
            "another version",
        ),
        (
            "struct stride 0",
            false,
            Box::new(move |b| put64(b, seg(strided_seg) + 40, 0)),
            "a segment outside the model",
        ),
        (
            "struct stride beyond R",
            false,
            Box::new(move |b| put64(b, seg(strided_seg) + 40, i64::MAX)),
            "a segment outside the model",
        ),
        (
            "struct length beyond R",
            false,
            Box::new(move |b| put32(b, seg(strided_seg) + 4, 1_000_000)),
            "a segment outside the model",
        ),
        (
            "struct segments overlap",
            false,
            Box::new(move |b| {
                let vr0 = get32(b, seg(strided_seg));
                put32(b, seg(strided_seg + 1), vr0);
            }),
            "two segments overlap",
        ),
    ];
    let so = unpacked.join("binaries/x86_64-linux/Acc4_Chain.so");
    // SAFETY: the FMU's own library, with the FMI 3 signatures above; the
    // environment outlives each instantiation.
    unsafe {
        let lib = libloading::Library::new(&so).expect("load the library");
        let instantiate: libloading::Symbol<InstantiateLogged> =
            lib.get(b"fmi3InstantiateModelExchange").unwrap();
        let free: libloading::Symbol<Free> = lib.get(b"fmi3FreeInstance").unwrap();
        let instantiate_with = |label: &str, arrays: &[u8], structural: &[u8]| {
            let dir = temp.path().join(label.replace(' ', "_"));
            let files = [
                ("mofmu_fmi3.bin", arrays),
                ("mofmu_struct.bin", structural),
                ("mofmu_system.bin", &system[..]),
            ];
            instantiate_from(&instantiate, &guid, &dir, &files)
        };
        for (what, arrays_file, edit, message) in &cases {
            let (mut a, mut st) = (good_arrays.clone(), good_struct.clone());
            if *arrays_file {
                edit(&mut a);
                a = sign(a);
            } else {
                edit(&mut st);
                st = sign(st);
            }
            let (inst, messages) = instantiate_with(what, &a, &st);
            assert!(inst.is_null(), "{what}: instantiated");
            assert!(
                messages
                    .iter()
                    .any(|m| message.split('|').any(|one| m.contains(one))),
                "{what}: {messages:?}"
            );
        }
        // The unedited files instantiate (the harness itself is sound).
        let (inst, messages) = instantiate_with("good", &good_arrays, &good_struct);
        assert!(!inst.is_null(), "{messages:?}");
        free(inst);
    }
}

/// Instantiates (Model Exchange, token `guid`) from the resources
/// directory `dir` after writing `files` into it: the instance (null when
/// refused) and what the FMU logged (the log outlives the instance).
///
/// # Safety
/// `instantiate` is an FMU's `fmi3InstantiateModelExchange`.
unsafe fn instantiate_from(
    instantiate: &InstantiateLogged,
    guid: &str,
    dir: &std::path::Path,
    files: &[(&str, &[u8])],
) -> (*mut c_void, &'static mut Vec<String>) {
    std::fs::create_dir_all(dir).unwrap();
    for (file, bytes) in files {
        std::fs::write(dir.join(file), bytes).unwrap();
    }
    let name = CString::new("damaged").unwrap();
    let token = CString::new(guid).unwrap();
    let resources = CString::new(format!("{}/", dir.display())).unwrap();
    let messages: &'static mut Vec<String> = Box::leak(Box::default());
    let inst = instantiate(
        name.as_ptr(),
        token.as_ptr(),
        resources.as_ptr(),
        false,
        false,
        messages as *mut Vec<String> as *mut c_void,
        collect,
    );
    (inst, messages)
}

/// A damaged computed Real (op 4 of a version 3 `mofmu_struct.bin`,
/// re-signed so the checksum holds) is refused with a message when the FMU
/// is instantiated: too many steps, an unknown step, an operation without
/// its operands, a program that leaves two values, op 4 in a version 2 file.
#[test]
fn fmi3_malformed_computed_reals_are_refused() {
    let temp = tempfile::tempdir().expect("temporary directory");
    let (guid, _) = sized_fmu(&COOLING_CHANNEL, 10, FmiVersion::Fmi3, temp.path());
    let unpacked = temp.path().join("unpacked");
    let read = |f: &str| std::fs::read(unpacked.join("resources").join(f)).unwrap();
    let (good, system, arrays) = (
        read("mofmu_struct.bin"),
        read("mofmu_system.bin"),
        read("mofmu_fmi3.bin"),
    );
    let get32 = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    // The ops after the name, three sizes and the segments (48 bytes each).
    let seg0 = 16 + 4 + get32(&good, 16) as usize + 24 + 4;
    let ops = seg0 + 48 * get32(&good, seg0 - 4) as usize + 4;
    let mut at = ops;
    let real = loop {
        let size = match good[at] {
            0 => 5 + get32(&good, at + 1) as usize,
            1 => 26,
            2 => 21,
            3 => {
                let a = get32(&good, at + 1) as usize;
                9 + a + get32(&good, at + 5 + a) as usize + 24
            }
            4 => break at,
            op => panic!("op {op}"),
        };
        at += size;
    };
    // V = 2e-3/n: a constant, n, a division.
    let steps = get32(&good, real + 1) as usize;
    assert_eq!(steps, 3);
    let step = move |k: usize| real + 5 + 25 * k;
    assert_eq!((good[step(0)], good[step(1)], good[step(2)]), (0, 1, 6));
    type Edit = Box<dyn Fn(&mut [u8])>;
    let cases: Vec<(&str, Edit)> = vec![
        (
            "33 steps",
            Box::new(move |b| b[real + 1..real + 5].copy_from_slice(&33u32.to_le_bytes())),
        ),
        ("unknown step", Box::new(move |b| b[step(1)] = 7)),
        ("no operands", Box::new(move |b| b[step(0)] = 3)),
        ("two values left", Box::new(move |b| b[step(2)] = 0)),
        ("op 4 in version 2", Box::new(|b| b[8] = 2)),
    ];
    let so =
        unpacked.join("binaries/x86_64-linux/ThermoFluidStream_Examples_CoolingLoopChannel.so");
    // SAFETY: the FMU's own library, with the FMI 3 signatures above.
    unsafe {
        let lib = libloading::Library::new(&so).expect("load the library");
        let instantiate: libloading::Symbol<InstantiateLogged> =
            lib.get(b"fmi3InstantiateModelExchange").unwrap();
        let free: libloading::Symbol<Free> = lib.get(b"fmi3FreeInstance").unwrap();
        for (what, edit) in &cases {
            let mut st = good.clone();
            edit(&mut st);
            let end = st.len() - 8;
            let sum = mofmu::fmu::image::system_image::fnv1a(&st[..end]);
            st[end..].copy_from_slice(&sum.to_le_bytes());
            let dir = temp.path().join(what.replace(' ', "_"));
            let files = [
                ("mofmu_fmi3.bin", &arrays[..]),
                ("mofmu_struct.bin", &st[..]),
                ("mofmu_system.bin", &system[..]),
            ];
            let (inst, messages) = instantiate_from(&instantiate, &guid, &dir, &files);
            assert!(inst.is_null(), "{what}: instantiated");
            assert!(
                messages
                    .iter()
                    .any(|m| m.contains("mofmu_struct.bin is damaged")),
                "{what}: {messages:?}"
            );
        }
        let files = [
            ("mofmu_fmi3.bin", &arrays[..]),
            ("mofmu_struct.bin", &good[..]),
            ("mofmu_system.bin", &system[..]),
        ];
        let (inst, messages) =
            instantiate_from(&instantiate, &guid, &temp.path().join("good"), &files);
        assert!(!inst.is_null(), "{messages:?}");
        free(inst);
    }
}

/// FMI 3.0 at a large size of a structural parameter is exported from the
/// model at a small size (O(classes): the image shipped is the small one)
/// and starts at the size asked for: the parameter's start in the
/// description, the instance laid out for it when made. Its derivatives
/// there, read through mofmu's harness, equal an FMI 2.0 export at that
/// size bit for bit; and the FMU still resizes in configuration mode.
#[test]
fn fmi3_at_a_large_size_is_served_from_a_small_export() {
    use mofmu::harness::{Fmu, Interface};
    let temp = tempfile::tempdir().expect("temporary directory");
    for (m, n) in [(&ROD, 1000usize), (&CHAIN, 2000)] {
        let lib = library(m.paths);
        let set = [SetValue {
            path: m.size.to_string(),
            value: SetLiteral::Number(n as f64),
        }];
        let mut fmus = Vec::new();
        for version in [FmiVersion::Fmi2, FmiVersion::Fmi3] {
            let options = ExportOptions {
                fmi_version: version,
                ..ExportOptions::default()
            };
            let out = export_model_options(&lib, m.model, &set, 1.0, options)
                .unwrap_or_else(|e| panic!("{} {version:?}: {e:?}", m.model));
            if version == FmiVersion::Fmi3 {
                let s = out
                    .table
                    .structural
                    .as_ref()
                    .expect("a structural parameter");
                assert_eq!(out.table.variables[s.variable].name, m.size);
                // The image shipped is the small one, whatever n.
                assert!(
                    out.system_resource.len() < 64 * 1024,
                    "{}: the shipped image has {} bytes",
                    m.model,
                    out.system_resource.len()
                );
            }
            let path = temp
                .path()
                .join(format!("{}-{version:?}.fmu", m.identifier));
            package(&out, &path, &shared_cache());
            fmus.push(Fmu::load(&path).expect("loads"));
        }
        let description = std::fs::read_to_string(fmus[1].directory().join("modelDescription.xml"))
            .expect("description");
        assert!(
            description.contains(&format!("<UInt64 name=\"{}\" valueReference=", m.size))
                && description.contains(&format!("start=\"{n}\"/>")),
            "the size asked for is the start value"
        );
        let mut derivatives = Vec::new();
        for fmu in &fmus {
            let (mut inst, model) = fmu
                .instance(Interface::ModelExchange, "served", false, &[])
                .expect("instantiates");
            let nx = model.derivatives.len();
            assert!(nx >= n, "{}: {nx} states at n = {n}", m.model);
            inst.enter_initialization(None, 0.0, None)
                .expect("initialization");
            inst.exit_initialization_mode().expect("initialized");
            inst.update_discrete_states().expect("event update");
            inst.enter_continuous_time_mode().expect("continuous time");
            let mut dx = vec![0.0; nx];
            inst.get_derivatives(&mut dx).expect("derivatives");
            derivatives.push(dx);
        }
        assert!(
            derivatives[0]
                .iter()
                .zip(&derivatives[1])
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "{}: FMI 3 served from a small export differs from FMI 2 at n = {n}",
            m.model
        );
        // Configuration mode still resizes it, here down to 10 (the
        // template derived at 16 is checked down to 8 below it).
        let (_, model) = fmus[1]
            .instance(
                Interface::ModelExchange,
                "resized",
                false,
                &[(m.size.to_string(), 10.0)],
            )
            .expect("resized in configuration mode");
        assert!(model.derivatives.len() < n);
    }
}
