//! The model and its system image at other values of the size: the
//! exporter instantiates (it holds the class database and the `--set`
//! values, [`Instantiate`]), this file schedules and images, and keeps what
//! it built so that no size is built twice.
//!
//! The search ([`super::structural_parameter`]) comes back to sizes it has
//! left: the sizes above a small derivation size confirm it, the sizes
//! below it are tried for the smallest admitted value, and the exported
//! size's own derivation overlaps the small one's. Every such size is at
//! most [`KEPT_UP_TO`]; above it a size is visited once (the exported size
//! and the three after it, the sizes just below it), and its model and
//! image (10^6 volumes at a large export) are not kept.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::codegen::kernel::Kernel;
use crate::fmu::description::dependencies;
use crate::fmu::image::system;
use crate::fmu::image::system_image::SystemImage;
use crate::instantiate::System;

/// A system image the probe derived at a size.
pub type SystemImageOf = SystemImage<'static>;

/// The model instantiated with the Integer parameter `path` set to `n`
/// (the exporter's other `--set` values kept), or None when it does not
/// instantiate at that size.
pub type Instantiate<'a> = dyn Fn(&str, i64) -> Option<System> + 'a;

/// The largest size at which a structural parameter's template is derived:
/// the template is affine in the size, so it is derived from small images
/// (`min(n0, STRUCTURAL_PROBE)` and the next three sizes) and checked
/// against the exported image at n0. A rod exported at 10^6 volumes then
/// costs four instantiations of 16 to 19 volumes, not of 10^6.
pub const STRUCTURAL_PROBE: i64 = 16;

/// The largest size whose model and image the probe keeps: the small
/// derivation's sizes reach `STRUCTURAL_PROBE + 3`, and every size the
/// search visits twice is one of them or below them.
const KEPT_UP_TO: i64 = STRUCTURAL_PROBE + 3;

/// The model at one size and its system image.
#[derive(Clone)]
pub struct Probed {
    pub sys: Rc<System>,
    pub image: Rc<SystemImageOf>,
}

/// Images of the model at sizes of one Integer parameter (`path`).
pub struct SizeProbe<'a> {
    instantiate: &'a Instantiate<'a>,
    path: &'a str,
    kernels: &'a [Kernel],
    model_identifier: &'a str,
    /// The GUID the exporter writes into the images before it has hashed
    /// the FMU.
    pub draft_guid: &'a str,
    /// What each size up to [`KEPT_UP_TO`] gave, None when the model does
    /// not instantiate or schedule there.
    kept: RefCell<HashMap<i64, Option<Probed>>>,
}

impl<'a> SizeProbe<'a> {
    pub fn new(
        instantiate: &'a Instantiate<'a>,
        path: &'a str,
        kernels: &'a [Kernel],
        model_identifier: &'a str,
        draft_guid: &'a str,
    ) -> Self {
        SizeProbe {
            instantiate,
            path,
            kernels,
            model_identifier,
            draft_guid,
            kept: RefCell::new(HashMap::new()),
        }
    }

    /// The model with the parameter set to `n` and its system image, or
    /// None when it does not instantiate or schedule at that size. Built
    /// once per size.
    pub fn at(&self, n: i64) -> Option<Probed> {
        if n > KEPT_UP_TO {
            return self.build(n);
        }
        if let Some(kept) = self.kept.borrow().get(&n) {
            return kept.clone();
        }
        let probed = self.build(n);
        self.kept.borrow_mut().insert(n, probed.clone());
        probed
    }

    /// The system image with the parameter set to `n` ([`Self::at`]).
    pub fn image(&self, n: i64) -> Option<Rc<SystemImageOf>> {
        self.at(n).map(|p| p.image)
    }

    /// Instantiates, schedules and images the model at `n`.
    fn build(&self, n: i64) -> Option<Probed> {
        let sys = (self.instantiate)(self.path, n)?;
        let schedule = crate::schedule::schedule(&sys).ok()?;
        let continuous = dependencies::continuous(&sys, &schedule);
        let pattern = dependencies::state_pattern(&continuous, &sys);
        let image = system::image(
            &sys,
            self.kernels,
            &schedule,
            self.model_identifier,
            pattern,
        )
        .into_owned();
        Some(Probed {
            sys: Rc::new(sys),
            image: Rc::new(image),
        })
    }
}
