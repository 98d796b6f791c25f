//! Dice: Foundry-compatible formulas, their resolution from rolled faces, exact odds and the RNG.

pub mod ast;
pub mod chacha;
pub mod odds;
pub mod parse;
pub mod resolve;
pub mod rng;

pub use ast::{Die, Formula};
pub use parse::parse;
