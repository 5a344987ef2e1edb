//! What the front-end targets share: how one fuzz input becomes the files
//! of a library. Included by each target with `#[path]` (a fuzz target is a
//! binary of its own, so there is no library crate to put it in).

/// The input as UTF-8 text split at the first NUL byte into (at most) two
/// files loaded in that order, so that cross-file rules (look-ahead,
/// `within`, mutual package dependency) are reached too, with the built-in
/// Base first when they name `Base` and declare none (as the commands load
/// them); `None` when the input is not UTF-8.
pub fn files_of(data: &[u8]) -> Option<Vec<(String, String)>> {
    let text = std::str::from_utf8(data).ok()?;
    Some(mofmu::library::with_base(
        text.splitn(2, '\0')
            .enumerate()
            .map(|(i, part)| (format!("input{i}.mo"), part.to_string()))
            .collect(),
    ))
}

/// Whether the input writes a number of six or more digits before any
/// decimal point or exponent. Such a number can size an array of up to the
/// 10^7 elements the exporter admits (MX004), and the check and the export
/// of one are linear work (about 2.5 µs and 400 bytes per element for the
/// check, more under the sanitizer) that the benchmarks measure; under the
/// fuzzer they only trip libFuzzer's memory and time limits. The targets
/// skip such inputs; `MX004_too_large` keeps the bound itself tested. The
/// digits of a fraction or an exponent size nothing: `Base.mo`'s
/// `pi = 3.141592653589793` had made every seed that starts with the
/// examples' prelude skip, so the export target never reached them.
pub fn writes_a_large_number(data: &[u8]) -> bool {
    let mut run = 0;
    let mut fraction = false;
    for &b in data {
        if b.is_ascii_digit() {
            if !fraction {
                run += 1;
                if run >= 6 {
                    return true;
                }
            }
        } else {
            run = 0;
            fraction = matches!(b, b'.' | b'e' | b'E') || (fraction && matches!(b, b'+' | b'-'));
        }
    }
    false
}
