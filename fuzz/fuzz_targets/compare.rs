//! Arbitrary bytes as two CSV files through `mofmu compare`'s core: the
//! parser must return a table or an error, never panic; two tables that
//! parse are compared both ways at several tolerances, summarised to JSON,
//! and every tube's plot outline is computed. The input is split at the
//! first NUL byte into the reference and the result (without a NUL, the
//! text is compared with itself).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mofmu::compare::{compare, parse_table, summarize, Tube};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut parts = text.splitn(2, '\0');
    let first = parts.next().unwrap_or("");
    let second = parts.next().unwrap_or(first);
    let (Ok(reference), Ok(result)) = (parse_table(first), parse_table(second)) else {
        return;
    };
    for tolerance in [0.002, 1.0, 1e-300] {
        let reports = compare(&reference, &result, None, tolerance);
        let _ = summarize("reference", "result", tolerance, reports).to_json();
        let _ = compare(&result, &reference, Some(&result.names), tolerance);
    }
    for column in &reference.columns {
        if let Some(tube) = Tube::new(&reference.time, column, 0.002) {
            let _ = tube.outline();
        }
    }
});
