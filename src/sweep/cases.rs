//! The cases of a sweep: a table of parameter values, one row per case, from a grid
//! (`--grid NAME=SPEC`, several grids give their cartesian product) or from a CSV
//! file, checked against the FMU's model description before anything runs.

use std::path::Path;

use crate::harness::model_description::{
    Causality, Initial, ModelDescription, ScalarVariable, Variability, VariableKind,
};

use super::error::SweepError;

/// The table of cases: parameter names (columns) and one row of values per case.
/// Case `i` is row `i`; its id is `i`, and its values identify it for resume.
#[derive(Debug, Clone, PartialEq)]
pub struct Cases {
    pub names: Vec<String>,
    pub rows: Vec<Vec<f64>>,
}

impl Cases {
    /// The cartesian product of the grids, in the order given: the first grid varies
    /// slowest and the last fastest (row-major, like `itertools.product`). Each grid is
    /// `NAME=a:b:n` (n points from a to b inclusive, equally spaced) or
    /// `NAME=v1,v2,...` (a list).
    pub fn from_grids(grids: &[String]) -> Result<Cases, SweepError> {
        let mut names = Vec::new();
        let mut axes = Vec::new();
        for grid in grids {
            let (name, values) = parse_grid(grid)?;
            if names.contains(&name) {
                return Err(SweepError::DuplicateParameter(name));
            }
            names.push(name);
            axes.push(values);
        }
        if axes.is_empty() {
            return Err(SweepError::NoCases("no --grid was given".into()));
        }
        let mut rows: Vec<Vec<f64>> = vec![Vec::new()];
        for axis in &axes {
            rows = rows
                .iter()
                .flat_map(|row| {
                    axis.iter().map(move |&value| {
                        let mut row = row.clone();
                        row.push(value);
                        row
                    })
                })
                .collect();
        }
        Ok(Cases { names, rows })
    }

    /// A CSV table: a header of parameter names, one row of numbers per case (`true`
    /// and `false` stand for 1 and 0).
    pub fn from_csv(path: &Path) -> Result<Cases, SweepError> {
        let text = std::fs::read_to_string(path).map_err(|e| SweepError::Cases {
            path: path.to_path_buf(),
            line: 0,
            message: format!("cannot read it: {e}"),
        })?;
        Cases::parse_csv(path, &text)
    }

    /// A Parquet table (as pandas' `to_parquet` writes one): a column per parameter,
    /// numeric or Boolean, one row per case; nulls are refused.
    pub fn from_parquet(path: &Path) -> Result<Cases, SweepError> {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        use parquet::record::Field;
        let fault = |line: u64, message: String| SweepError::Cases {
            path: path.to_path_buf(),
            line,
            message,
        };
        let file =
            std::fs::File::open(path).map_err(|e| fault(0, format!("cannot read it: {e}")))?;
        let reader = SerializedFileReader::new(file)
            .map_err(|e| fault(0, format!("not a Parquet file: {e}")))?;
        let rows_iter = reader
            .get_row_iter(None)
            .map_err(|e| fault(0, format!("cannot read its rows: {e}")))?;
        let mut names: Vec<String> = Vec::new();
        let mut rows = Vec::new();
        for (index, row) in rows_iter.enumerate() {
            // Rows are numbered from 1, as a reader of the table counts them.
            let number = index as u64 + 1;
            let row = row.map_err(|e| fault(number, e.to_string()))?;
            let mut values = Vec::new();
            for (column, (name, field)) in row.get_column_iter().enumerate() {
                if index == 0 {
                    names.push(name.clone());
                } else if names.get(column) != Some(name) {
                    return Err(fault(number, "rows with different columns".into()));
                }
                let value = match field {
                    Field::Bool(b) => f64::from(u8::from(*b)),
                    Field::Byte(v) => f64::from(*v),
                    Field::Short(v) => f64::from(*v),
                    Field::Int(v) => f64::from(*v),
                    Field::Long(v) => *v as f64,
                    Field::UByte(v) => f64::from(*v),
                    Field::UShort(v) => f64::from(*v),
                    Field::UInt(v) => f64::from(*v),
                    Field::ULong(v) => *v as f64,
                    Field::Float(v) => f64::from(*v),
                    Field::Double(v) => *v,
                    other => {
                        return Err(fault(number, format!("`{name}` is {other}, not a number")))
                    }
                };
                if !value.is_finite() {
                    return Err(fault(
                        number,
                        format!("`{name}` is {value}, not a finite number"),
                    ));
                }
                values.push(value);
            }
            rows.push(values);
        }
        for (i, name) in names.iter().enumerate() {
            if names[..i].contains(name) {
                return Err(SweepError::DuplicateParameter(name.clone()));
            }
        }
        if rows.is_empty() || names.is_empty() {
            return Err(SweepError::NoCases(format!(
                "{} has no rows",
                path.display()
            )));
        }
        Ok(Cases { names, rows })
    }

    /// A table of cases by its extension: `.parquet` or CSV.
    pub fn from_file(path: &Path) -> Result<Cases, SweepError> {
        if path.extension().is_some_and(|e| e == "parquet") {
            Cases::from_parquet(path)
        } else {
            Cases::from_csv(path)
        }
    }

    /// [`Cases::from_csv`] of text already read (`path` names it in errors).
    pub fn parse_csv(path: &Path, text: &str) -> Result<Cases, SweepError> {
        let fault = |line: u64, message: String| SweepError::Cases {
            path: path.to_path_buf(),
            line,
            message,
        };
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        let header = reader
            .headers()
            .map_err(|e| fault(1, format!("no header of parameter names: {e}")))?
            .clone();
        let mut names: Vec<String> = Vec::new();
        for name in &header {
            if name.is_empty() {
                return Err(fault(1, "an empty parameter name in the header".into()));
            }
            if names.iter().any(|n| n == name) {
                return Err(SweepError::DuplicateParameter(name.to_string()));
            }
            names.push(name.to_string());
        }
        if names.is_empty() {
            return Err(fault(1, "no header of parameter names".into()));
        }
        let mut rows = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|e| {
                let line = e.position().map_or(0, |p| p.line());
                fault(line, e.to_string())
            })?;
            let line = record.position().map_or(0, |p| p.line());
            if record.iter().all(str::is_empty) {
                continue;
            }
            let row = record
                .iter()
                .zip(&names)
                .map(|(field, name)| {
                    parse_number(field)
                        .ok_or_else(|| fault(line, format!("`{field}` ({name}) is not a number")))
                })
                .collect::<Result<Vec<f64>, SweepError>>()?;
            rows.push(row);
        }
        if rows.is_empty() {
            return Err(SweepError::NoCases(format!(
                "{} has a header and no rows",
                path.display()
            )));
        }
        Ok(Cases { names, rows })
    }

    /// Checks every parameter against the model description: the variable exists, a
    /// start value may be set on it before initialisation, and every value fits its
    /// type. Run before anything is simulated.
    pub fn validate(&self, model: &ModelDescription) -> Result<(), SweepError> {
        for (column, name) in self.names.iter().enumerate() {
            let Some(variable) = model.variable(name) else {
                return Err(SweepError::UnknownParameter {
                    name: name.clone(),
                    close: close_names(name, model, settable),
                });
            };
            if !settable(variable) {
                return Err(SweepError::NotSettable {
                    name: name.clone(),
                    what: describe(variable),
                    close: close_names(name, model, settable),
                });
            }
            for (case, row) in self.rows.iter().enumerate() {
                if let Err(reason) = fits(variable, row[column]) {
                    return Err(SweepError::BadValue {
                        name: name.clone(),
                        case,
                        reason,
                    });
                }
            }
        }
        Ok(())
    }
}

/// Checks the names of the recorded outputs: each is a numeric variable of the model.
pub fn validate_outputs(outputs: &[String], model: &ModelDescription) -> Result<(), SweepError> {
    if outputs.is_empty() {
        return Err(SweepError::UnknownOutput {
            name: String::new(),
            close: Vec::new(),
        });
    }
    let numeric = |v: &ScalarVariable| v.kind != VariableKind::String;
    for (i, name) in outputs.iter().enumerate() {
        if outputs[..i].contains(name) {
            return Err(SweepError::DuplicateOutput(name.clone()));
        }
        match model.variable(name) {
            Some(v) if numeric(v) => {}
            _ => {
                return Err(SweepError::UnknownOutput {
                    name: name.clone(),
                    close: close_names(name, model, numeric),
                })
            }
        }
    }
    Ok(())
}

/// Whether a start value may be set on `v` before initialisation (FMI 2.0,
/// fmi2SetReal before fmi2EnterInitializationMode): a parameter or an input, or a
/// variable with an exact or approximate start that is not a constant.
fn settable(v: &ScalarVariable) -> bool {
    if v.kind == VariableKind::String || v.variability == Variability::Constant {
        return false;
    }
    match v.causality {
        Causality::Parameter | Causality::Input => true,
        Causality::CalculatedParameter | Causality::Independent => false,
        _ => matches!(v.initial, Some(Initial::Exact) | Some(Initial::Approx)),
    }
}

/// What a variable is, for the message that says it cannot be set.
fn describe(v: &ScalarVariable) -> String {
    if v.kind == VariableKind::String {
        return "a String".into();
    }
    if v.variability == Variability::Constant {
        return "a constant".into();
    }
    match v.causality {
        Causality::CalculatedParameter => {
            "a calculated parameter (computed from other parameters: vary those)".into()
        }
        Causality::Independent => "the independent variable".into(),
        _ => "computed by the model (its start is not exact or approximate)".into(),
    }
}

/// Whether `value` fits the variable's type.
fn fits(v: &ScalarVariable, value: f64) -> Result<(), String> {
    match v.kind {
        VariableKind::Real if value.is_finite() => Ok(()),
        VariableKind::Real => Err(format!("{value} is not a finite number")),
        VariableKind::Integer | VariableKind::Enumeration => {
            if value.fract() == 0.0 && value >= i32::MIN as f64 && value <= i32::MAX as f64 {
                Ok(())
            } else {
                Err(format!("{value} is not a 32-bit integer"))
            }
        }
        VariableKind::Boolean if value == 0.0 || value == 1.0 => Ok(()),
        VariableKind::Boolean => Err(format!("{value} is not a Boolean (0 or 1)")),
        VariableKind::String => Err("a String cannot be set from a number".into()),
    }
}

/// Up to three names of the model close to `name` among the variables `keep` admits,
/// closest first ([`crate::names::close_names`]).
fn close_names(
    name: &str,
    model: &ModelDescription,
    keep: impl Fn(&ScalarVariable) -> bool,
) -> Vec<String> {
    let candidates = model
        .variables
        .iter()
        .filter(|v| keep(v))
        .map(|v| v.name.as_str());
    crate::names::close_names(name, candidates)
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// `NAME=a:b:n` or `NAME=v1,v2,...` into the name and its values.
fn parse_grid(grid: &str) -> Result<(String, Vec<f64>), SweepError> {
    let bad = |reason: &str| SweepError::Grid {
        grid: grid.to_string(),
        reason: reason.to_string(),
    };
    let Some((name, spec)) = grid.split_once('=') else {
        return Err(bad("write NAME=a:b:n or NAME=v1,v2,..."));
    };
    let (name, spec) = (name.trim(), spec.trim());
    if name.is_empty() {
        return Err(bad("no parameter name before `=`"));
    }
    let values = if spec.contains(':') {
        let parts: Vec<&str> = spec.split(':').map(str::trim).collect();
        let [a, b, n] = parts[..] else {
            return Err(bad("a range is a:b:n (from a to b inclusive, n points)"));
        };
        let a = parse_number(a).ok_or_else(|| bad(&format!("`{a}` is not a number")))?;
        let b = parse_number(b).ok_or_else(|| bad(&format!("`{b}` is not a number")))?;
        let n: usize = n
            .parse()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| bad(&format!("`{n}` is not a count of points (1 or more)")))?;
        if n == 1 && a != b {
            return Err(bad("one point from a to b: write a:a:1 or a list"));
        }
        linspace(a, b, n)
    } else {
        spec.split(',')
            .map(|v| {
                let v = v.trim();
                parse_number(v).ok_or_else(|| bad(&format!("`{v}` is not a number")))
            })
            .collect::<Result<Vec<f64>, SweepError>>()?
    };
    Ok((name.to_string(), values))
}

/// `n` points from `a` to `b`, both ends exact.
fn linspace(a: f64, b: f64, n: usize) -> Vec<f64> {
    if n == 1 {
        return vec![a];
    }
    let last = (n - 1) as f64;
    (0..n)
        .map(|i| {
            if i == n - 1 {
                b
            } else {
                a + (b - a) * (i as f64 / last)
            }
        })
        .collect()
}

/// A number, or `true`/`false` for 1/0; never NaN or infinite.
fn parse_number(text: &str) -> Option<f64> {
    match text {
        "true" => return Some(1.0),
        "false" => return Some(0.0),
        _ => {}
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_has_exact_ends_and_equal_steps() {
        let (name, values) = parse_grid("rod.T0 = 290:300:5").unwrap();
        assert_eq!(name, "rod.T0");
        assert_eq!(values, vec![290.0, 292.5, 295.0, 297.5, 300.0]);
        let (_, values) = parse_grid("g=0.5:2:16").unwrap();
        assert_eq!(values.len(), 16);
        assert_eq!((values[0], values[15]), (0.5, 2.0));
        assert_eq!(parse_grid("x=1,2.5,true").unwrap().1, vec![1.0, 2.5, 1.0]);
    }

    #[test]
    fn bad_grids_say_what_is_wrong() {
        for grid in [
            "x", "=1", "x=1:2", "x=1:2:0", "x=a:2:3", "x=1,,2", "x=nan", "x=1:2:1",
        ] {
            let error = parse_grid(grid).expect_err(grid);
            assert!(matches!(error, SweepError::Grid { .. }), "{grid}: {error}");
            assert_eq!(error.code(), "SW001", "{error}");
        }
    }

    #[test]
    fn grids_multiply_with_the_first_varying_slowest() {
        let cases = Cases::from_grids(&["a=1,2".to_string(), "b=10:30:3".to_string()]).unwrap();
        assert_eq!(cases.names, vec!["a", "b"]);
        let rows: Vec<[f64; 2]> = cases.rows.iter().map(|r| [r[0], r[1]]).collect();
        assert_eq!(
            rows,
            vec![
                [1.0, 10.0],
                [1.0, 20.0],
                [1.0, 30.0],
                [2.0, 10.0],
                [2.0, 20.0],
                [2.0, 30.0]
            ]
        );
        let twice = Cases::from_grids(&["a=1".to_string(), "a=2".to_string()]);
        assert!(matches!(twice, Err(SweepError::DuplicateParameter(_))));
    }

    #[test]
    fn csv_cases_are_rows_in_file_order() {
        let path = Path::new("cases.csv");
        let cases = Cases::parse_csv(path, "a, b\n1, 2\n\n3,4e-1\n").unwrap();
        assert_eq!(cases.names, vec!["a", "b"]);
        assert_eq!(cases.rows, vec![vec![1.0, 2.0], vec![3.0, 0.4]]);
        let error = Cases::parse_csv(path, "a,b\n1,2\n3,x\n").unwrap_err();
        assert!(
            error.to_string().contains("cases.csv:3"),
            "the line of the fault: {error}"
        );
        let error = Cases::parse_csv(path, "a,b\n1,2,3\n").unwrap_err();
        assert!(error.to_string().contains("cases.csv:2"), "{error}");
        assert!(matches!(
            Cases::parse_csv(path, "a,b\n"),
            Err(SweepError::NoCases(_))
        ));
    }
}
