//! Close names: the one rule by which every name a user types (a model for
//! `--model`, a parameter for `--set`, a variable for `simulate
//! --variables`, `--start-value` or `--output-variable`, a sweep's
//! parameters and outputs, a class or variable in the source) is matched
//! against the names that exist when it names nothing.
//!
//! A candidate is close when it differs from the written name only in
//! case, when its last dotted part is the written name (a name written
//! without its package or instance, `RCCircuit` for `Circuits.RCCircuit`),
//! or when at most a third of the letters (and at least one) differ.

/// The close candidates of `written`, closest first (same letters in
/// another case, then the name without its prefix, then by the number of
/// letters that differ, then alphabetically), at most three, each once.
/// When one differs only in case or prefix, only those are close.
pub fn close_names<'a>(
    written: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<&'a str> {
    let lower = written.to_lowercase();
    let limit = (written.chars().count() / 3).max(1);
    let mut scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter(|c| *c != written)
        .filter_map(|c| {
            let c_lower = c.to_lowercase();
            let distance = edit_distance(&lower, &c_lower);
            let last_part = c_lower
                .rsplit_once('.')
                .is_some_and(|(_, last)| last == lower);
            if distance == 0 {
                Some((0, c))
            } else if last_part {
                Some((1, c))
            } else if distance <= limit {
                Some((distance + 1, c))
            } else {
                None
            }
        })
        .collect();
    scored.sort_unstable();
    scored.dedup_by(|a, b| a.1 == b.1);
    // A name that differs only in case, or only by its prefix, is what was
    // meant: slips of other letters would only add noise beside it.
    if scored.first().is_some_and(|(rank, _)| *rank <= 1) {
        scored.retain(|(rank, _)| *rank <= 1);
    }
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// What a refusal of an unknown name adds: `; close names: `a`, `b``, or,
/// with none close, `; list them with HOW` (a command that lists every
/// name that could have been meant).
pub fn close_names_hint(close: &[impl AsRef<str>], how_to_list: &str) -> String {
    if close.is_empty() {
        return format!("; list them with `{how_to_list}`");
    }
    let quoted: Vec<String> = close.iter().map(|n| format!("`{}`", n.as_ref())).collect();
    format!("; close names: {}", quoted.join(", "))
}

/// Levenshtein distance (on characters).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(row[j]).min(row[j + 1])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slips_case_and_missing_prefixes_are_close() {
        let names = ["Length", "length2", "mass", "pendulum.phi", "g"];
        assert_eq!(close_names("Lenght", names), ["Length", "length2"]);
        assert_eq!(close_names("length3", names), ["Length", "length2"]);
        assert_eq!(close_names("MASS", names), ["mass"]);
        assert_eq!(close_names("G", names), ["g"]);
        assert_eq!(close_names("phi", names), ["pendulum.phi"]);
        assert_eq!(close_names("omega", names), Vec::<&str>::new());
        // A name is not close to itself.
        assert_eq!(close_names("g", names), Vec::<&str>::new());
    }

    #[test]
    fn the_hint_lists_close_names_or_says_how_to_list_them() {
        assert_eq!(
            close_names_hint(&["a", "b"], "x"),
            "; close names: `a`, `b`"
        );
        assert_eq!(
            close_names_hint(&[] as &[&str], "mofmu simulate F.fmu --list-variables"),
            "; list them with `mofmu simulate F.fmu --list-variables`"
        );
    }
}
