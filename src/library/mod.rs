//! A library: the parsed files of one run in load order and their class
//! tree, and the compilability policy that checks it class by class
//! ([`check`]). Export, the incremental session and the CLI are peers built
//! on this layer: each loads a [`Library`] and checks it here, and none
//! reaches into another. No I/O happens here: the files come in as texts
//! (`crate::loader` reads them from disk).

mod base;
mod check;
mod load;

pub use base::{with_base, BUNDLED_BASE, BUNDLED_BASE_NAME};
pub(crate) use check::{check_class, finish_check, has_load_diagnostic};
pub use check::{check_library, check_library_into, check_library_with};
pub(crate) use load::{library_of, parse_file};
pub use load::{load_library, Library};
