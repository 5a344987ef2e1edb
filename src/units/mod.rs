//! Physical units: unit strings, dimensional inference and consistency
//! checking per class, and the units of a model's variables for the FMU.
//!
//! `parse` reads Modelica unit strings; `term` holds units with unknowns
//! and the solver; `infer` checks one class, from its components'
//! signatures, and gives its unit signature (the class database checks each
//! class once and keeps the signatures); `report` flattens signatures over a
//! model; `print` writes units back in derived form.

pub mod infer;
pub mod parse;
pub mod print;
pub mod report;
pub mod term;

pub use infer::{
    declared_unit_errors, function_units, signature_of, ClassUnits, UnitSignatures, Verdict,
};
pub use report::{model_units, FlatUnit, ModelUnits, Origin};

impl Verdict {
    pub fn describe(self) -> &'static str {
        match self {
            Verdict::ConsistentComplete => "consistent and complete",
            Verdict::ConsistentIncomplete => "consistent but incomplete",
            Verdict::Inconsistent => "inconsistent",
        }
    }
}
