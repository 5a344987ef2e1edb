//! Hand-written C twins of bundled models, compiled with mofmu's own
//! compiler and flags and loaded as shared libraries: `rod_twin.c`
//! (`Thermal.Examples.RodHeating`), `chain_twin.c` (`Acc4.Chain`, the
//! component-array chain), `cooling_twin.c`
//! (`ThermoFluidStream.Examples.CoolingLoop`), and issue 60's
//! `ladder_twin.c` (`Ladder.Ladder` and `LadderInner.Ladder`) and
//! `grid_twin.c` (`Grid.Grid`). Used by the pipeline and cooling benchmarks
//! and by the tests that the FMUs' derivatives equal them (bit for bit for
//! all but the loop, to rounding for the loop).

#![allow(dead_code)] // The benchmark and the test each use a part.

use std::path::Path;

use mofmu::package::compile::Compiler;

type Kernel = unsafe extern "C" fn(usize, *const f64, *mut f64);
type KernelAll = unsafe extern "C" fn(usize, *const f64, *mut f64, *mut f64);
type Count = unsafe extern "C" fn(usize) -> usize;

/// One twin's shared library, kept mapped while its functions are used.
struct Loaded {
    library: libloading::Library,
    _dir: tempfile::TempDir,
}

impl Loaded {
    /// Compiles `benches/twins/<name>.c` and loads it.
    fn build(name: &str) -> Result<Loaded, String> {
        let dir = tempfile::tempdir().map_err(|e| format!("temporary directory: {e}"))?;
        let file = format!("{name}.c");
        let source = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("benches/twins")
            .join(&file);
        std::fs::copy(&source, dir.path().join(&file))
            .map_err(|e| format!("copying {}: {e}", source.display()))?;
        let compiler = Compiler::detect().map_err(|e| e.to_string())?;
        let object = format!("{name}.o");
        let shared = format!("{name}.so");
        compiler
            .compile_object(dir.path(), &file, &object)
            .map_err(|e| e.to_string())?;
        compiler
            .link_shared(dir.path(), &[object], &shared)
            .map_err(|e| e.to_string())?;
        // SAFETY: the library is the twin just built; its initialisers do
        // nothing.
        let library = unsafe { libloading::Library::new(dir.path().join(&shared)) }
            .map_err(|e| format!("loading the twin {name}: {e}"))?;
        Ok(Loaded { library, _dir: dir })
    }

    /// The function `symbol`, which the caller declares with its C signature.
    ///
    /// # Safety
    /// `T` must be the function's signature in the twin's source.
    unsafe fn get<T: Copy>(&self, symbol: &str) -> Result<T, String> {
        let name = format!("{symbol}\0");
        self.library
            .get::<T>(name.as_bytes())
            .map(|f| *f)
            .map_err(|e| e.to_string())
    }
}

pub struct RodTwin {
    derivatives: Kernel,
    tangent: Kernel,
    _loaded: Loaded,
}

impl RodTwin {
    /// Compiles and loads the twin.
    pub fn build() -> Result<RodTwin, String> {
        let loaded = Loaded::build("rod_twin")?;
        // SAFETY: both functions are `void f(size_t, const double *, double *)`.
        unsafe {
            Ok(RodTwin {
                derivatives: loaded.get::<Kernel>("rod_twin_derivatives")?,
                tangent: loaded.get::<Kernel>("rod_twin_tangent")?,
                _loaded: loaded,
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

/// The variables per element that `chain_twin_all` stores.
pub const CHAIN_VARIABLES: usize = 9;

pub struct ChainTwin {
    derivatives: Kernel,
    all: KernelAll,
    _loaded: Loaded,
}

impl ChainTwin {
    /// Compiles and loads the twin.
    pub fn build() -> Result<ChainTwin, String> {
        let loaded = Loaded::build("chain_twin")?;
        // SAFETY: the signatures are those of chain_twin.c (the element
        // record is nine doubles).
        unsafe {
            Ok(ChainTwin {
                derivatives: loaded.get::<Kernel>("chain_twin_derivatives")?,
                all: loaded.get::<KernelAll>("chain_twin_all")?,
                _loaded: loaded,
            })
        }
    }

    /// `der(cap.T)` at the capacitor temperatures `t` (at least 1).
    pub fn derivatives(&self, t: &[f64], dt: &mut [f64]) {
        assert!(!t.is_empty() && dt.len() == t.len());
        // SAFETY: both slices hold n elements, as the twin reads and writes.
        unsafe { (self.derivatives)(t.len(), t.as_ptr(), dt.as_mut_ptr()) }
    }

    /// As [`ChainTwin::derivatives`], and every variable of every element
    /// into `variables` ([`CHAIN_VARIABLES`] per element).
    pub fn all(&self, t: &[f64], dt: &mut [f64], variables: &mut [f64]) {
        assert!(!t.is_empty() && dt.len() == t.len());
        assert_eq!(variables.len(), CHAIN_VARIABLES * t.len());
        // SAFETY: the slices hold n, n and 9 n doubles, as the twin reads
        // and writes.
        unsafe { (self.all)(t.len(), t.as_ptr(), dt.as_mut_ptr(), variables.as_mut_ptr()) }
    }
}

/// A twin of issue 60's benchmarks, whose size is not its number of states:
/// `ladder_twin.c` (n rungs, 2 n + 3 states) or `grid_twin.c` (n x n cells).
/// Each has a derivative-only entry and one that also stores every variable
/// the FMU exposes, in a layout of its own that the caller spells out.
pub struct SizedTwin {
    derivatives: Kernel,
    all: KernelAll,
    variables: Count,
    states: fn(usize) -> usize,
    _loaded: Loaded,
}

impl SizedTwin {
    /// The ladder's twin (at least 2 rungs).
    pub fn ladder() -> Result<SizedTwin, String> {
        SizedTwin::build("ladder", |n| 2 * n + 3)
    }

    /// The grid's twin (at least 2 x 2 cells).
    pub fn grid() -> Result<SizedTwin, String> {
        SizedTwin::build("grid", |n| n * n)
    }

    /// Compiles and loads `<name>_twin.c`.
    fn build(name: &str, states: fn(usize) -> usize) -> Result<SizedTwin, String> {
        let loaded = Loaded::build(&format!("{name}_twin"))?;
        // SAFETY: the signatures are those of ladder_twin.c and grid_twin.c.
        unsafe {
            Ok(SizedTwin {
                derivatives: loaded.get::<Kernel>(&format!("{name}_twin_derivatives"))?,
                all: loaded.get::<KernelAll>(&format!("{name}_twin_all"))?,
                variables: loaded.get::<Count>(&format!("{name}_twin_variables"))?,
                states,
                _loaded: loaded,
            })
        }
    }

    /// The number of states at size `n`.
    pub fn states(&self, n: usize) -> usize {
        (self.states)(n)
    }

    /// The number of doubles [`SizedTwin::all`] stores at size `n`.
    pub fn variables(&self, n: usize) -> usize {
        // SAFETY: the count reads nothing but n.
        unsafe { (self.variables)(n) }
    }

    /// The derivatives at the states `x` of size `n` (at least 2).
    pub fn derivatives(&self, n: usize, x: &[f64], dx: &mut [f64]) {
        assert!(n >= 2 && x.len() == self.states(n) && dx.len() == x.len());
        // SAFETY: both slices hold the twin's number of states at n.
        unsafe { (self.derivatives)(n, x.as_ptr(), dx.as_mut_ptr()) }
    }

    /// As [`SizedTwin::derivatives`], and every variable into `variables`
    /// ([`SizedTwin::variables`] of them).
    pub fn all(&self, n: usize, x: &[f64], dx: &mut [f64], variables: &mut [f64]) {
        assert!(n >= 2 && x.len() == self.states(n) && dx.len() == x.len());
        assert_eq!(variables.len(), self.variables(n));
        // SAFETY: the slices hold as many doubles as the twin reads and
        // writes at n.
        unsafe { (self.all)(n, x.as_ptr(), dx.as_mut_ptr(), variables.as_mut_ptr()) }
    }
}

pub struct CoolingTwin {
    derivatives: Kernel,
    _loaded: Loaded,
}

impl CoolingTwin {
    /// Compiles and loads the twin.
    pub fn build() -> Result<CoolingTwin, String> {
        let loaded = Loaded::build("cooling_twin")?;
        // SAFETY: `void f(size_t, const double *, double *)`, as in cooling_twin.c.
        unsafe {
            Ok(CoolingTwin {
                derivatives: loaded.get::<Kernel>("cooling_twin_derivatives")?,
                _loaded: loaded,
            })
        }
    }

    /// The derivatives at the states `x` of the loop with `x.len() - 6`
    /// radiator cells, in the FMU's state order.
    pub fn derivatives(&self, x: &[f64], dx: &mut [f64]) {
        assert!(x.len() >= 7 && dx.len() == x.len());
        // SAFETY: both slices hold 6 + n elements, as the twin reads and writes.
        unsafe { (self.derivatives)(x.len() - 6, x.as_ptr(), dx.as_mut_ptr()) }
    }

    /// The largest difference of `ours` from the twin's derivatives `theirs`,
    /// relative to each derivative's magnitude (at least 1e-12 of the
    /// largest).
    pub fn worst_relative(ours: &[f64], theirs: &[f64]) -> f64 {
        let scale = theirs.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        ours.iter()
            .zip(theirs)
            .map(|(a, b)| (a - b).abs() / b.abs().max(1e-12 * scale).max(f64::MIN_POSITIVE))
            .fold(0.0, f64::max)
    }
}
