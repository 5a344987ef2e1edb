//! Physical units. For now: parsing unit strings into SI base units for
//! the FMU's `UnitDefinitions`.

pub mod parse;
