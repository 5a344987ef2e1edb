//! An FMU's calls must not leave the upper halves of the AVX registers
//! dirty. The kernels, the schedule and the runtime are SSE2 code; the
//! runtime's AVX2 loops (the states' copy in `fmi2SetContinuousStates`, the
//! finiteness scans) had left them dirty, GCC having put no `vzeroupper` on
//! their way out, and every SSE instruction then waited on the one before it:
//! the model ran 1.3 to 5 times slower, and so did the importer's own SSE
//! code after the call (docs/benchmarks.md). The processor says whether the
//! upper halves are in use: `xgetbv` with ECX = 1 reads XINUSE, whose bit 2 is
//! the AVX state. Skipped (with a note) where the processor has no AVX or no
//! such `xgetbv`.

use mofmu::harness::Fmu;

use super::export::{continuous_time, export, library, package, set, shared_cache};

/// Bit 2 of XINUSE (the AVX upper halves are in use), or `None` where the
/// processor cannot say.
#[cfg(target_arch = "x86_64")]
fn avx_in_use() -> Option<bool> {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    let leaf1 = __cpuid(1);
    let (xsave, osxsave, avx) = (
        leaf1.ecx & (1 << 26) != 0,
        leaf1.ecx & (1 << 27) != 0,
        leaf1.ecx & (1 << 28) != 0,
    );
    if !(xsave && osxsave && avx) || __cpuid(0).eax < 0xd {
        return None;
    }
    let xgetbv1 = __cpuid_count(0xd, 1).eax & (1 << 2) != 0;
    if !xgetbv1 {
        return None;
    }
    let (lo, _hi): (u32, u32);
    // SAFETY: xgetbv with ECX = 1 is supported (CPUID.(0xD,1):EAX[2]) and
    // the OS enabled XSAVE (OSXSAVE); it only reads a register.
    unsafe {
        std::arch::asm!("xgetbv", in("ecx") 1u32, out("eax") lo, out("edx") _hi,
                        options(nomem, nostack, preserves_flags));
    }
    Some(lo & (1 << 2) != 0)
}

#[cfg(not(target_arch = "x86_64"))]
fn avx_in_use() -> Option<bool> {
    None
}

#[test]
fn fmi_calls_leave_the_avx_upper_halves_clean() {
    if avx_in_use().is_none() {
        eprintln!("note: the processor cannot report its AVX state; nothing to check");
        return;
    }
    // Enough states for the runtime's AVX2 paths (64 and more).
    let lib = library(&["examples/Base.mo", "examples/Thermal"]);
    let exported = export(&lib, "Thermal.Examples.RodHeating", &[set("rod.n", 200.0)]);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("rod.fmu");
    package(&exported, &path, &shared_cache());
    let fmu = Fmu::load(&path).expect("the FMU loads");
    let mut inst = fmu.instantiate("upper", false).expect("instantiate");
    continuous_time(&mut inst);
    let mut x = vec![0.0; 200];
    inst.get_continuous_states(&mut x).expect("states");
    for (k, shift) in [1e-3, 2e-3, 3e-3].into_iter().enumerate() {
        let moved: Vec<f64> = x.iter().map(|v| v + shift).collect();
        inst.set_continuous_states(&moved).expect("states");
        assert_eq!(
            avx_in_use(),
            Some(false),
            "call {k}: fmi2SetContinuousStates left the AVX upper halves in use"
        );
        let mut dx = vec![0.0; 200];
        inst.get_derivatives(&mut dx).expect("derivatives");
        assert_eq!(
            avx_in_use(),
            Some(false),
            "call {k}: fmi2GetDerivatives left the AVX upper halves in use"
        );
    }
}
