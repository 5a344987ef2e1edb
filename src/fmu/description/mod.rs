//! The FMU's description: the one variable table ([`table`], built from the
//! instantiated system by [`build`]), its `ModelStructure` ([`dependencies`],
//! which also gives the state Jacobian's pattern the system image carries),
//! the FMI 2.0 rules it must satisfy ([`fmi_rules`]), what `--expose` keeps
//! of it ([`expose`]), and `modelDescription.xml` rendered from it: FMI 2.0
//! ([`model_description`], with the GUID) or FMI 3.0 ([`fmi3`], its arrays
//! and `resources/mofmu_fmi3.bin` in [`fmi3_arrays`]).

pub mod build;
pub mod dependencies;
pub mod expose;
pub mod fmi3;
pub mod fmi3_arrays;
pub mod fmi_rules;
pub mod model_description;
pub mod table;
