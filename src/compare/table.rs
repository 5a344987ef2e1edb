//! Reading a result or reference CSV the way csv-compare and the FMI
//! Cross-Check read them: a header of (optionally quoted) names, `;` or `,`
//! between fields (the header decides), `#` comment lines, a time column
//! named `time`, `t` or `Time` (the first column when none is), then one
//! row of numbers per sample. Times must not decrease; a time may repeat
//! (an event: the values before and after it).

use thiserror::Error;

/// The signals of one CSV file over its time column.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Signal names, without the time column.
    pub names: Vec<String>,
    pub time: Vec<f64>,
    /// One column per name, as long as `time`.
    pub columns: Vec<Vec<f64>>,
    /// The field delimiter found in the header.
    pub delimiter: char,
}

impl Table {
    pub fn column(&self, name: &str) -> Option<&[f64]> {
        let index = self.names.iter().position(|n| n == name)?;
        Some(&self.columns[index])
    }
}

/// Why a CSV file cannot be read; line numbers count from 1.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum TableError {
    #[error("the file has no header line")]
    NoHeader,
    #[error("the header has only one column (is the delimiter `;` or `,`?)")]
    OneColumn,
    #[error("the header names `{0}` twice")]
    DuplicateName(String),
    #[error("the header has an empty name in column {0}")]
    EmptyName(usize),
    #[error("line {line}: {found} fields where the header has {expected}")]
    RowLength {
        line: u64,
        expected: usize,
        found: usize,
    },
    #[error("line {line}, column {column}: `{text}` is not a number")]
    NotANumber {
        line: u64,
        column: usize,
        text: String,
    },
    #[error("line {line}: the time {time} is not finite")]
    TimeNotFinite { line: u64, time: f64 },
    #[error("line {line}: the time goes back from {previous} to {time}")]
    TimeDecreases { line: u64, previous: f64, time: f64 },
    #[error("the file has no data rows")]
    NoRows,
    #[error("line {line}: {message}")]
    Syntax { line: u64, message: String },
}

/// Names that mark the time column, as csv-compare knows them.
pub const TIME_NAMES: [&str; 3] = ["time", "t", "Time"];

/// Parses CSV text into a [`Table`].
pub fn parse_table(text: &str) -> Result<Table, TableError> {
    let header_line = text
        .lines()
        .find(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .ok_or(TableError::NoHeader)?;
    let delimiter = if count_outside_quotes(header_line, ';') > 0 {
        ';'
    } else {
        ','
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter as u8)
        .comment(Some(b'#'))
        .flexible(true)
        .trim(csv::Trim::All)
        .has_headers(true)
        .from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .map_err(syntax_error)?
        .iter()
        .map(clean_name)
        .collect();
    if header.len() < 2 {
        return Err(TableError::OneColumn);
    }
    for (i, name) in header.iter().enumerate() {
        if name.is_empty() {
            return Err(TableError::EmptyName(i + 1));
        }
        if header[..i].contains(name) {
            return Err(TableError::DuplicateName(name.clone()));
        }
    }
    let time_column = header
        .iter()
        .position(|name| TIME_NAMES.contains(&name.as_str()))
        .unwrap_or(0);
    let names: Vec<String> = header
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != time_column)
        .map(|(_, name)| name.clone())
        .collect();
    let mut time = Vec::new();
    let mut columns: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for record in reader.records() {
        let record = record.map_err(syntax_error)?;
        let line = record.position().map_or(0, |p| p.line());
        // A line of nothing but a trailing empty field is not a row.
        if record.iter().all(str::is_empty) {
            continue;
        }
        if record.len() != header.len() {
            return Err(TableError::RowLength {
                line,
                expected: header.len(),
                found: record.len(),
            });
        }
        let mut column = 0;
        for (i, field) in record.iter().enumerate() {
            let value = parse_number(field).ok_or_else(|| TableError::NotANumber {
                line,
                column: i + 1,
                text: field.chars().take(40).collect(),
            })?;
            if i == time_column {
                if !value.is_finite() {
                    return Err(TableError::TimeNotFinite { line, time: value });
                }
                if let Some(&previous) = time.last() {
                    if value < previous {
                        return Err(TableError::TimeDecreases {
                            line,
                            previous,
                            time: value,
                        });
                    }
                }
                time.push(value);
            } else {
                columns[column].push(value);
                column += 1;
            }
        }
    }
    if time.is_empty() {
        return Err(TableError::NoRows);
    }
    Ok(Table {
        names,
        time,
        columns,
        delimiter,
    })
}

/// Reads a signal list: one name per line, optionally quoted; blank lines,
/// `#` comments and the time column's name are skipped.
pub fn parse_signal_list(text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for line in text.lines() {
        let name = clean_name(line);
        if name.is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if TIME_NAMES.contains(&name.as_str()) || names.contains(&name) {
            continue;
        }
        names.push(name);
    }
    names
}

/// A number as csv-compare reads it (decimal point, optional exponent,
/// `nan`/`inf` in any case), also when quoted. A Boolean column, as FMPy
/// writes one (`True`/`False`, in any case), reads as 1 and 0.
fn parse_number(field: &str) -> Option<f64> {
    let text = field.trim().trim_matches('"').trim();
    if text.is_empty() {
        return None;
    }
    if text.eq_ignore_ascii_case("true") {
        return Some(1.0);
    }
    if text.eq_ignore_ascii_case("false") {
        return Some(0.0);
    }
    text.parse::<f64>().ok()
}

/// A header name without surrounding blanks and quotes.
fn clean_name(raw: &str) -> String {
    raw.trim()
        .trim_matches(|c| c == '"' || c == '\'')
        .trim()
        .to_string()
}

fn count_outside_quotes(line: &str, wanted: char) -> usize {
    let mut quoted = false;
    let mut count = 0;
    for c in line.chars() {
        if c == '"' {
            quoted = !quoted;
        } else if c == wanted && !quoted {
            count += 1;
        }
    }
    count
}

fn syntax_error(e: csv::Error) -> TableError {
    let line = e.position().map_or(0, |p| p.line());
    let message = match e.kind() {
        csv::ErrorKind::Utf8 { .. } => "the text is not UTF-8".to_string(),
        _ => e.to_string(),
    };
    TableError::Syntax { line, message }
}

#[cfg(test)]
mod tests {
    use super::parse_number;

    #[test]
    fn numbers_and_booleans_as_importers_write_them() {
        assert_eq!(parse_number(" 1.5e3 "), Some(1500.0));
        assert_eq!(parse_number("\"-2\""), Some(-2.0));
        assert_eq!(parse_number("False"), Some(0.0));
        assert_eq!(parse_number("\"true\""), Some(1.0));
        assert!(parse_number("NaN").is_some_and(f64::is_nan));
        assert_eq!(parse_number("abc"), None);
        assert_eq!(parse_number(""), None);
    }
}
