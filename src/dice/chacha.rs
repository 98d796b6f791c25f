//! ChaCha20 (RFC 8439's block function, 64-bit block counter, zero nonce) as the core's dice stream:
//! the same words, in the same order, as `rand_chacha::ChaCha20Rng` gives for the same seed (a
//! test compares them), so replays of old rolls keep their faces.
//!
//! It is our own because the dice stream is the hot loop of `roll` and `rollMany`, and in wasm
//! `rand_chacha` runs scalar and four blocks at a time (256 bytes refilled even for one d20).
//! Here a block is made only when needed, with wasm `simd128` (one state row per vector) where
//! the build enables it, and plain `u32` arithmetic elsewhere.

use rand::SeedableRng;

/// "expand 32-byte k"
const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// A ChaCha20 keystream read as `u32` words.
#[derive(Debug, Clone)]
pub struct ChaCha20 {
    key: [u32; 8],
    /// The block the next refill makes.
    counter: u64,
    /// One block, or four consecutive ones once the stream is being read in bulk.
    buf: [u32; 64],
    /// Words in `buf`.
    len: usize,
    /// The next unread word of `buf` (`len`: none left).
    index: usize,
}

impl SeedableRng for ChaCha20 {
    type Seed = [u8; 32];

    /// The key is the seed's bytes as little-endian words (rand_core's `seed_from_u64` fills them).
    fn from_seed(seed: [u8; 32]) -> Self {
        let mut key = [0u32; 8];
        for (word, bytes) in key.iter_mut().zip(seed.chunks_exact(4)) {
            *word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        }
        Self::from_key(key)
    }
}

impl ChaCha20 {
    /// `SeedableRng::seed_from_u64` without the byte round trip (rand_core fills the seed with
    /// PCG32 outputs as little-endian bytes, which `from_seed` reads back as the same words); a
    /// test checks the two agree.
    pub fn from_u64(mut state: u64) -> Self {
        const MUL: u64 = 6_364_136_223_846_793_005;
        const INC: u64 = 11_634_580_027_462_260_723;
        let mut key = [0u32; 8];
        for word in &mut key {
            state = state.wrapping_mul(MUL).wrapping_add(INC);
            let xorshifted = (((state >> 18) ^ state) >> 27) as u32;
            *word = xorshifted.rotate_right((state >> 59) as u32);
        }
        Self::from_key(key)
    }

    fn from_key(key: [u32; 8]) -> Self {
        Self {
            key,
            counter: 0,
            buf: [0; 64],
            len: 0,
            index: 0,
        }
    }

    /// The next word of the stream.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= self.len {
            self.refill();
        }
        let word = self.buf[self.index];
        self.index += 1;
        word
    }

    /// A single roll reads a few words, so the first refills make one block; a stream read past
    /// two blocks is a batch, and four blocks at a time (one per vector lane) are cheaper per word.
    #[cold]
    fn refill(&mut self) {
        if self.counter < 2 {
            let b = block(&self.key, self.counter);
            self.buf[..16].copy_from_slice(&b);
            self.len = 16;
            self.counter += 1;
        } else {
            blocks4(&self.key, self.counter, &mut self.buf);
            self.len = 64;
            self.counter = self.counter.wrapping_add(4);
        }
        self.index = 0;
    }
}

/// ChaCha20's ten double rounds (columns, then diagonals) with the given quarter round, for the
/// scalar block and the four-lane one alike.
macro_rules! twenty_rounds {
    ($quarter:ident, $s:expr) => {
        for _ in 0..10 {
            $quarter($s, 0, 4, 8, 12);
            $quarter($s, 1, 5, 9, 13);
            $quarter($s, 2, 6, 10, 14);
            $quarter($s, 3, 7, 11, 15);
            $quarter($s, 0, 5, 10, 15);
            $quarter($s, 1, 6, 11, 12);
            $quarter($s, 2, 7, 8, 13);
            $quarter($s, 3, 4, 9, 14);
        }
    };
}

/// The block function's input: constants, key, counter (words 12–13), nonce 0 (words 14–15).
fn input(key: &[u32; 8], counter: u64) -> [u32; 16] {
    let mut s = [0u32; 16];
    s[..4].copy_from_slice(&SIGMA);
    s[4..12].copy_from_slice(key);
    s[12] = counter as u32;
    s[13] = (counter >> 32) as u32;
    s
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn block(key: &[u32; 8], counter: u64) -> [u32; 16] {
    #[inline(always)]
    fn quarter(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
        s[a] = s[a].wrapping_add(s[b]);
        s[d] = (s[d] ^ s[a]).rotate_left(16);
        s[c] = s[c].wrapping_add(s[d]);
        s[b] = (s[b] ^ s[c]).rotate_left(12);
        s[a] = s[a].wrapping_add(s[b]);
        s[d] = (s[d] ^ s[a]).rotate_left(8);
        s[c] = s[c].wrapping_add(s[d]);
        s[b] = (s[b] ^ s[c]).rotate_left(7);
    }
    let start = input(key, counter);
    let mut s = start;
    twenty_rounds!(quarter, &mut s);
    for (word, first) in s.iter_mut().zip(start) {
        *word = word.wrapping_add(first);
    }
    s
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn blocks4(key: &[u32; 8], counter: u64, out: &mut [u32; 64]) {
    for (i, chunk) in out.chunks_exact_mut(16).enumerate() {
        chunk.copy_from_slice(&block(key, counter.wrapping_add(i as u64)));
    }
}

/// Four consecutive blocks at once: vector `w` holds word `w` of each block, one per lane.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn blocks4(key: &[u32; 8], counter: u64, out: &mut [u32; 64]) {
    use core::arch::wasm32::*;

    #[inline(always)]
    fn rotl<const L: u32, const R: u32>(x: v128) -> v128 {
        v128_or(u32x4_shl(x, L), u32x4_shr(x, R))
    }
    #[inline(always)]
    fn quarter(s: &mut [v128; 16], a: usize, b: usize, c: usize, d: usize) {
        s[a] = u32x4_add(s[a], s[b]);
        s[d] = rotl::<16, 16>(v128_xor(s[d], s[a]));
        s[c] = u32x4_add(s[c], s[d]);
        s[b] = rotl::<12, 20>(v128_xor(s[b], s[c]));
        s[a] = u32x4_add(s[a], s[b]);
        s[d] = rotl::<8, 24>(v128_xor(s[d], s[a]));
        s[c] = u32x4_add(s[c], s[d]);
        s[b] = rotl::<7, 25>(v128_xor(s[b], s[c]));
    }
    let one = input(key, counter);
    let mut start = [u32x4_splat(0); 16];
    for (v, w) in start.iter_mut().zip(one) {
        *v = u32x4_splat(w);
    }
    // each lane's own 64-bit counter
    let lo: [u32; 4] = core::array::from_fn(|i| counter.wrapping_add(i as u64) as u32);
    let hi: [u32; 4] = core::array::from_fn(|i| (counter.wrapping_add(i as u64) >> 32) as u32);
    start[12] = u32x4(lo[0], lo[1], lo[2], lo[3]);
    start[13] = u32x4(hi[0], hi[1], hi[2], hi[3]);
    let mut s = start;
    twenty_rounds!(quarter, &mut s);
    for (w, (v, first)) in s.iter().zip(start).enumerate() {
        let v = u32x4_add(*v, first);
        out[w] = u32x4_extract_lane::<0>(v);
        out[16 + w] = u32x4_extract_lane::<1>(v);
        out[32 + w] = u32x4_extract_lane::<2>(v);
        out[48 + w] = u32x4_extract_lane::<3>(v);
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn block(key: &[u32; 8], counter: u64) -> [u32; 16] {
    use core::arch::wasm32::*;

    #[inline(always)]
    fn rotl<const L: u32, const R: u32>(x: v128) -> v128 {
        v128_or(u32x4_shl(x, L), u32x4_shr(x, R))
    }
    #[inline(always)]
    fn rows(a: &mut v128, b: &mut v128, c: &mut v128, d: &mut v128) {
        *a = u32x4_add(*a, *b);
        // rotations by 16 and 8 are byte shuffles
        *d = i8x16_shuffle::<2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13>(
            v128_xor(*d, *a),
            v128_xor(*d, *a),
        );
        *c = u32x4_add(*c, *d);
        *b = rotl::<12, 20>(v128_xor(*b, *c));
        *a = u32x4_add(*a, *b);
        *d = i8x16_shuffle::<3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14>(
            v128_xor(*d, *a),
            v128_xor(*d, *a),
        );
        *c = u32x4_add(*c, *d);
        *b = rotl::<7, 25>(v128_xor(*b, *c));
    }
    let s = input(key, counter);
    let load = |i: usize| u32x4(s[i], s[i + 1], s[i + 2], s[i + 3]);
    let (a0, b0, c0, d0) = (load(0), load(4), load(8), load(12));
    let (mut a, mut b, mut c, mut d) = (a0, b0, c0, d0);
    for _ in 0..10 {
        rows(&mut a, &mut b, &mut c, &mut d);
        // diagonals: rotate rows b, c, d left by 1, 2, 3 lanes
        b = i32x4_shuffle::<1, 2, 3, 0>(b, b);
        c = i32x4_shuffle::<2, 3, 0, 1>(c, c);
        d = i32x4_shuffle::<3, 0, 1, 2>(d, d);
        rows(&mut a, &mut b, &mut c, &mut d);
        b = i32x4_shuffle::<3, 0, 1, 2>(b, b);
        c = i32x4_shuffle::<2, 3, 0, 1>(c, c);
        d = i32x4_shuffle::<1, 2, 3, 0>(d, d);
    }
    let mut out = [0u32; 16];
    for (i, row) in [
        u32x4_add(a, a0),
        u32x4_add(b, b0),
        u32x4_add(c, c0),
        u32x4_add(d, d0),
    ]
    .into_iter()
    .enumerate()
    {
        out[4 * i] = u32x4_extract_lane::<0>(row);
        out[4 * i + 1] = u32x4_extract_lane::<1>(row);
        out[4 * i + 2] = u32x4_extract_lane::<2>(row);
        out[4 * i + 3] = u32x4_extract_lane::<3>(row);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;

    /// RFC 8439 §2.3.2's test vector has a nonce, which the dice stream never uses; the keystream
    /// of the all-zero key (counter 0, nonce 0) is the published ChaCha20 vector instead.
    #[test]
    fn zero_key_block_is_the_published_vector() {
        let mut c = ChaCha20::from_seed([0; 32]);
        let first: Vec<u32> = (0..4).map(|_| c.next_u32()).collect();
        // 76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28 (little-endian words)
        assert_eq!(first, [0xade0_b876, 0x903d_f1a0, 0xe56a_5d40, 0x28bd_8653]);
    }

    /// The stream is rand_chacha's ChaCha20Rng word for word, across block boundaries.
    #[test]
    fn same_words_as_rand_chacha() {
        for seed in [0u64, 1, 42, 0xdead_beef, (1 << 53) - 1] {
            let mut ours = ChaCha20::from_u64(seed);
            assert_eq!(ours.key, ChaCha20::seed_from_u64(seed).key, "seed {seed}");
            let mut theirs = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
            // one-block refills, then four-block ones
            for i in 0..2000 {
                assert_eq!(ours.next_u32(), theirs.next_u32(), "seed {seed}, word {i}");
            }
        }
    }
}
