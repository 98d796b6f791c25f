//! FxHash (rustc's hasher): for the core's hash maps of small keys (the odds' die states, the
//! boundary's strings), where SipHash, built to resist chosen keys, costs more than the rest of
//! the work. The keys are the core's own values, never a caller's text in bulk.

use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap`'s hasher state for FxHash.
pub type FxBuild = BuildHasherDefault<Fx>;

/// The hasher: a word at a time, rotate, xor, multiply.
#[derive(Default)]
pub struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut add = |word: u64| self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            add(u64::from_le_bytes([
                w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7],
            ]));
        }
        for &b in words.remainder() {
            add(u64::from(b));
        }
    }
    fn write_u64(&mut self, word: u64) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
    fn write_u32(&mut self, word: u32) {
        self.write_u64(u64::from(word));
    }
    fn write_u8(&mut self, byte: u8) {
        self.write_u64(u64::from(byte));
    }
    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}
