//! The sweep's Parquet dataset: `summary.parquet` (one row per case) and
//! `trajectories/case=<id>/part-0.parquet` (time and the chosen outputs of one case,
//! a Hive-partitioned dataset that pyarrow and pandas read as one table with a `case`
//! column).
//!
//! Each case's file is written whole and renamed into place, and carries its summary
//! row (and what identifies the case: its parameter values and the sweep's settings)
//! in the file's key-value metadata. The case files are therefore the record of what
//! has run: a resumed sweep reads them back, and the summary is rebuilt from them and
//! rewritten whole, so an interrupted sweep never leaves a partial row anywhere.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::basic::{ConvertedType, LogicalType, Repetition, Type as PhysicalType};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;
use serde::{Deserialize, Serialize};

use super::error::SweepError;
use super::outcome::{CaseResult, Status};

/// The key of the case record in a trajectory file's key-value metadata.
const RECORD_KEY: &str = "mofmu.sweep.case";

/// What a trajectory file records about its case, besides the trajectory.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct CaseRecord {
    /// The sweep's settings (FMU contents, times, tolerance, outputs): a case is only
    /// taken as done when these are the same.
    pub settings: String,
    pub names: Vec<String>,
    /// The parameter values as IEEE bit patterns, so they compare exactly.
    pub values: Vec<u64>,
    pub status: String,
    pub message: String,
    pub wall_s: f64,
    /// Final values of the outputs (`None` when the case has none, or not a number).
    pub finals: Vec<Option<f64>>,
}

impl CaseRecord {
    pub(crate) fn result(&self, case: usize) -> Option<CaseResult> {
        Some(CaseResult {
            case,
            values: self.values.iter().map(|&b| f64::from_bits(b)).collect(),
            status: Status::parse(&self.status)?,
            message: self.message.clone(),
            wall_s: self.wall_s,
            finals: self.finals.iter().map(|v| v.unwrap_or(f64::NAN)).collect(),
        })
    }
}

/// `DIR/trajectories`.
pub(crate) fn trajectories_dir(dir: &Path) -> PathBuf {
    dir.join("trajectories")
}

/// `DIR/trajectories/case=<id>/part-0.parquet`.
pub(crate) fn case_file(dir: &Path, case: usize) -> PathBuf {
    trajectories_dir(dir)
        .join(format!("case={case}"))
        .join("part-0.parquet")
}

fn properties(metadata: Option<Vec<KeyValue>>) -> Arc<WriterProperties> {
    Arc::new(
        WriterProperties::builder()
            .set_writer_version(WriterVersion::PARQUET_1_0)
            .set_dictionary_enabled(false)
            .set_created_by(format!("mofmu {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(metadata)
            .build(),
    )
}

fn double(name: &str, repetition: Repetition) -> Result<Arc<Type>, SweepError> {
    Ok(Arc::new(
        Type::primitive_type_builder(name, PhysicalType::DOUBLE)
            .with_repetition(repetition)
            .build()?,
    ))
}

fn string(name: &str) -> Result<Arc<Type>, SweepError> {
    Ok(Arc::new(
        Type::primitive_type_builder(name, PhysicalType::BYTE_ARRAY)
            .with_repetition(Repetition::REQUIRED)
            .with_logical_type(Some(LogicalType::String))
            .with_converted_type(ConvertedType::UTF8)
            .build()?,
    ))
}

fn schema(fields: Vec<Arc<Type>>) -> Result<Arc<Type>, SweepError> {
    Ok(Arc::new(
        Type::group_type_builder("schema")
            .with_fields(fields)
            .build()?,
    ))
}

/// One column's values, written in schema order.
enum Column<'a> {
    Double(&'a [f64]),
    /// A nullable double: `None` is null.
    OptionalDouble(Vec<Option<f64>>),
    Int64(Vec<i64>),
    Utf8(Vec<&'a str>),
}

/// A Parquet file of one row group holding `columns` (none when there are no rows).
fn file_bytes(
    fields: Vec<Arc<Type>>,
    columns: &[Column<'_>],
    rows: usize,
    metadata: Option<Vec<KeyValue>>,
) -> Result<Vec<u8>, SweepError> {
    let mut bytes = Vec::new();
    let mut writer = SerializedFileWriter::new(&mut bytes, schema(fields)?, properties(metadata))?;
    if rows > 0 {
        let mut group = writer.next_row_group()?;
        let mut columns = columns.iter();
        while let Some(mut writer) = group.next_column()? {
            let column = columns
                .next()
                .ok_or_else(|| SweepError::Parquet("more fields than columns".into()))?;
            match column {
                Column::Double(values) => {
                    writer
                        .typed::<DoubleType>()
                        .write_batch(values, None, None)?;
                }
                Column::OptionalDouble(values) => {
                    let present: Vec<f64> = values.iter().flatten().copied().collect();
                    let levels: Vec<i16> = values.iter().map(|v| i16::from(v.is_some())).collect();
                    writer
                        .typed::<DoubleType>()
                        .write_batch(&present, Some(&levels), None)?;
                }
                Column::Int64(values) => {
                    writer
                        .typed::<Int64Type>()
                        .write_batch(values, None, None)?;
                }
                Column::Utf8(values) => {
                    let values: Vec<ByteArray> = values.iter().map(|&s| s.into()).collect();
                    writer
                        .typed::<ByteArrayType>()
                        .write_batch(&values, None, None)?;
                }
            }
            writer.close()?;
        }
        group.close()?;
    }
    writer.close()?;
    Ok(bytes)
}

/// Writes a case's trajectory (`time` and the outputs, one column each; no rows for a
/// case that failed) with its record, atomically.
pub(crate) fn write_case(
    dir: &Path,
    case: usize,
    outputs: &[String],
    columns: &[Vec<f64>],
    record: &CaseRecord,
) -> Result<(), SweepError> {
    let path = case_file(dir, case);
    let mut fields = vec![double("time", Repetition::REQUIRED)?];
    for name in outputs {
        fields.push(double(name, Repetition::REQUIRED)?);
    }
    let rows = columns.first().map_or(0, Vec::len);
    let columns: Vec<Column<'_>> = columns.iter().map(|c| Column::Double(c)).collect();
    let record = serde_json::to_string(record).map_err(|e| SweepError::Parquet(e.to_string()))?;
    let metadata = vec![KeyValue::new(RECORD_KEY.to_string(), record)];
    let bytes = file_bytes(fields, &columns, rows, Some(metadata))?;
    write_file(&path, &bytes)
}

/// The record of a case file, or `None` when there is no readable one.
pub(crate) fn read_case(dir: &Path, case: usize) -> Option<CaseRecord> {
    let file = fs::File::open(case_file(dir, case)).ok()?;
    let reader = SerializedFileReader::new(file).ok()?;
    let metadata = reader.metadata().file_metadata().key_value_metadata()?;
    let value = metadata
        .iter()
        .find(|kv| kv.key == RECORD_KEY)?
        .value
        .as_ref()?;
    serde_json::from_str(value).ok()
}

/// A case's trajectory: the column names (`time` first, then the outputs) and one
/// vector per column. `None` when the case has no readable file.
pub(crate) fn read_trajectory(dir: &Path, case: usize) -> Option<(Vec<String>, Vec<Vec<f64>>)> {
    use parquet::record::Field;
    let file = fs::File::open(case_file(dir, case)).ok()?;
    let reader = SerializedFileReader::new(file).ok()?;
    let names: Vec<String> = reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    let mut columns = vec![Vec::new(); names.len()];
    for row in reader.get_row_iter(None).ok()? {
        let row = row.ok()?;
        for (column, (_, field)) in row.get_column_iter().enumerate() {
            let Field::Double(value) = field else {
                return None;
            };
            columns.get_mut(column)?.push(*value);
        }
    }
    Some((names, columns))
}

/// Writes `summary.parquet` from the results (in case order), atomically.
pub(crate) fn write_summary(
    dir: &Path,
    names: &[String],
    outputs: &[String],
    results: &[CaseResult],
) -> Result<(), SweepError> {
    let mut fields = vec![Arc::new(
        Type::primitive_type_builder("case", PhysicalType::INT64)
            .with_repetition(Repetition::REQUIRED)
            .build()?,
    )];
    for name in names {
        fields.push(double(name, Repetition::REQUIRED)?);
    }
    fields.push(string("status")?);
    fields.push(string("message")?);
    fields.push(double("wall_s", Repetition::REQUIRED)?);
    for name in outputs {
        fields.push(double(&format!("final.{name}"), Repetition::OPTIONAL)?);
    }
    let parameters: Vec<Vec<f64>> = (0..names.len())
        .map(|p| results.iter().map(|r| r.values[p]).collect())
        .collect();
    let wall: Vec<f64> = results.iter().map(|r| r.wall_s).collect();
    let mut columns = vec![Column::Int64(
        results.iter().map(|r| r.case as i64).collect(),
    )];
    columns.extend(parameters.iter().map(|c| Column::Double(c)));
    columns.push(Column::Utf8(
        results.iter().map(|r| r.status.name()).collect(),
    ));
    columns.push(Column::Utf8(
        results.iter().map(|r| r.message.as_str()).collect(),
    ));
    columns.push(Column::Double(&wall));
    for o in 0..outputs.len() {
        columns.push(Column::OptionalDouble(
            results
                .iter()
                .map(|r| Some(r.finals[o]).filter(|v| !v.is_nan()))
                .collect(),
        ));
    }
    let bytes = file_bytes(fields, &columns, results.len(), None)?;
    write_file(&dir.join("summary.parquet"), &bytes)
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), SweepError> {
    let io = |source| SweepError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(io)?;
    }
    crate::fix::write_atomically(path, bytes).map_err(io)
}

/// Removes what an interrupted run left: temporary files (a write that never got its
/// rename), and the case folders of ids at or past `cases` (an earlier, larger sweep
/// into the same folder), so the dataset holds exactly this sweep's cases.
pub(crate) fn tidy(dir: &Path, cases: usize) -> Result<(), SweepError> {
    let io = |path: &Path, source| SweepError::Io {
        path: path.to_path_buf(),
        source,
    };
    let remove_temporaries = |folder: &Path| -> Result<(), SweepError> {
        let Ok(entries) = fs::read_dir(folder) else {
            return Ok(());
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if name.to_string_lossy().starts_with(".tmp") && entry.path().is_file() {
                fs::remove_file(entry.path()).map_err(|e| io(&entry.path(), e))?;
            }
        }
        Ok(())
    };
    remove_temporaries(dir)?;
    let trajectories = trajectories_dir(dir);
    let Ok(entries) = fs::read_dir(&trajectories) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Some(id) = name
            .strip_prefix("case=")
            .and_then(|id| id.parse::<usize>().ok())
        else {
            continue;
        };
        if id >= cases {
            fs::remove_dir_all(entry.path()).map_err(|e| io(&entry.path(), e))?;
        } else {
            remove_temporaries(&entry.path())?;
        }
    }
    Ok(())
}
