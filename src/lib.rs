//! # ICON Engine rules core
//!
//! Pure functions for the ICON Engine Foundry VTT system: every rule is a function of its inputs,
//! with no global state and no I/O. Three verbs work over one tagged [`request::Request`] type:
//! [`request::plan`] (the dice to roll), [`request::resolve`] (decide the outcome from the faces
//! rolled), [`request::odds`] (exact probabilities) and, combining plan and resolve with the
//! seeded [`dice::rng::DiceRng`], [`request::roll`].
//!
//! Only the `wasm` module touches JavaScript values (built into the client core or the pack
//! importer by Cargo feature); everything else is plain Rust, usable from
//! native tests, the CLI and benchmarks.

pub mod batch;
pub mod cache;
pub mod combat;
pub mod decode;
pub mod dice;
pub mod error;
/// The encounter forecast: native builds (tests, the CLI, benchmarks) and the GM-only `forecast`
/// wasm module only, so the client core does not carry it.
#[cfg(any(not(target_arch = "wasm32"), feature = "forecast"))]
pub mod forecast;
pub mod packs;
pub mod request;
pub mod rulesets;

#[cfg(all(
    target_arch = "wasm32",
    any(feature = "client", feature = "importer", feature = "forecast")
))]
mod wasm;

pub use error::{Error, ErrorKind, Result};

/// The crate version, shown in the system's about box and used in tests.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
