//! The hand-written C twin of `Thermal.Examples.RodHeating`
//! (`rod_twin.c`), compiled with mofmu's own compiler and flags and loaded
//! as a shared library. Used by the pipeline benchmark and by the test that
//! the FMU's derivatives are bit-identical to it.

use std::path::Path;

use mofmu::package::compile::Compiler;

type Kernel = unsafe extern "C" fn(usize, *const f64, *mut f64);

pub struct RodTwin {
    derivatives: Kernel,
    tangent: Kernel,
    // Keeps the library mapped while the function pointers are used.
    _library: libloading::Library,
    _dir: tempfile::TempDir,
}

impl RodTwin {
    /// Compiles and loads the twin.
    pub fn build() -> Result<RodTwin, String> {
        let dir = tempfile::tempdir().map_err(|e| format!("temporary directory: {e}"))?;
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/rod_twin/rod_twin.c");
        std::fs::copy(&source, dir.path().join("rod_twin.c"))
            .map_err(|e| format!("copying {}: {e}", source.display()))?;
        let compiler = Compiler::detect().map_err(|e| e.to_string())?;
        compiler
            .compile_object(dir.path(), "rod_twin.c", "rod_twin.o")
            .map_err(|e| e.to_string())?;
        compiler
            .link_shared(dir.path(), &["rod_twin.o".to_string()], "rod_twin.so")
            .map_err(|e| e.to_string())?;
        // SAFETY: the library is the twin just built; its initialisers do
        // nothing, and the two symbols have the declared C signatures.
        unsafe {
            let library = libloading::Library::new(dir.path().join("rod_twin.so"))
                .map_err(|e| format!("loading the twin: {e}"))?;
            let derivatives = *library
                .get::<Kernel>(b"rod_twin_derivatives\0")
                .map_err(|e| e.to_string())?;
            let tangent = *library
                .get::<Kernel>(b"rod_twin_tangent\0")
                .map_err(|e| e.to_string())?;
            Ok(RodTwin {
                derivatives,
                tangent,
                _library: library,
                _dir: dir,
            })
        }
    }

    /// `der(T)` at the temperatures `t` (at least 2 volumes).
    pub fn derivatives(&self, t: &[f64], dt: &mut [f64]) {
        assert!(t.len() >= 2 && dt.len() == t.len());
        // SAFETY: both slices hold n elements, as the twin reads and writes.
        unsafe { (self.derivatives)(t.len(), t.as_ptr(), dt.as_mut_ptr()) }
    }

    /// The Jacobian of `der(T)` times `v`.
    pub fn tangent(&self, v: &[f64], dv: &mut [f64]) {
        assert!(v.len() >= 2 && dv.len() == v.len());
        // SAFETY: both slices hold n elements, as the twin reads and writes.
        unsafe { (self.tangent)(v.len(), v.as_ptr(), dv.as_mut_ptr()) }
    }
}
