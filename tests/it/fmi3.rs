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
    assert_eq!(
        description
            .matches(&format!("<Dimension start=\"{n}\"/>"))
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
        let instantiate: libloading::Symbol<Instantiate> =
            lib.get(b"fmi3InstantiateModelExchange").unwrap();
        let enter: libloading::Symbol<EnterInit> = lib.get(b"fmi3EnterInitializationMode").unwrap();
        let exit: libloading::Symbol<Plain> = lib.get(b"fmi3ExitInitializationMode").unwrap();
        let continuous: libloading::Symbol<Plain> =
            lib.get(b"fmi3EnterContinuousTimeMode").unwrap();
        let get: libloading::Symbol<GetFloat64> = lib.get(b"fmi3GetFloat64").unwrap();
        let set: libloading::Symbol<SetFloat64> = lib.get(b"fmi3SetFloat64").unwrap();
        let set_states: libloading::Symbol<SetStates> =
            lib.get(b"fmi3SetContinuousStates").unwrap();
        let derivatives: libloading::Symbol<GetDerivatives> =
            lib.get(b"fmi3GetContinuousStateDerivatives").unwrap();
        let directional: libloading::Symbol<Directional> =
            lib.get(b"fmi3GetDirectionalDerivative").unwrap();
        let free: libloading::Symbol<Free> = lib.get(b"fmi3FreeInstance").unwrap();

        let name = CString::new("rod").unwrap();
        let token = CString::new(out.table.guid.clone()).unwrap();
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
        assert_eq!(enter(inst, false, 0.0, 0.0, false, 0.0), OK);
        assert_eq!(exit(inst), OK);
        assert_eq!(continuous(inst), OK);

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
