//! What the front-end targets share: how one fuzz input becomes the files
//! of a library. Included by each target with `#[path]` (a fuzz target is a
//! binary of its own, so there is no library crate to put it in).

/// The input as UTF-8 text split at the first NUL byte into (at most) two
/// files loaded in that order, so that cross-file rules (look-ahead,
/// `within`, mutual package dependency) are reached too; `None` when the
/// input is not UTF-8.
pub fn files_of(data: &[u8]) -> Option<Vec<(String, String)>> {
    let text = std::str::from_utf8(data).ok()?;
    Some(
        text.splitn(2, '\0')
            .enumerate()
            .map(|(i, part)| (format!("input{i}.mo"), part.to_string()))
            .collect(),
    )
}
