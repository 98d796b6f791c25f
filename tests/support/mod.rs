//! Code shared by the test files (`mod support;`).

use icon_engine::dice::odds::num::Num;
use icon_engine::dice::parse;
use icon_engine::dice::resolve::{resolve, Step};
use std::collections::BTreeMap;

/// An independent computation of a formula's odds: every possible sequence of faces fed through
/// the resolver (following its `more` requests), weighted exactly or in floats. It is the rolling
/// code's own answer, independent of the odds code; feasible for small formulas.
pub fn enumerate<N: Num>(src: &str) -> BTreeMap<i64, N> {
    let f = parse(src).unwrap();
    let mut out = BTreeMap::new();
    fn go<N: Num>(
        f: &icon_engine::dice::Formula,
        faces: &mut Vec<Vec<i64>>,
        p: N,
        out: &mut BTreeMap<i64, N>,
    ) {
        match resolve(f, faces).unwrap() {
            Step::Done(e) => {
                let slot = out.entry(e.total).or_insert(N::zero());
                *slot = slot.add(p).unwrap();
            }
            Step::More(needs) => {
                // take the first batch; the rest come back in the next call
                let need = &needs[0];
                let vals: Vec<i64> = need.die.values().collect();
                let k = need.count as usize;
                let mut idx = vec![0usize; k];
                let w = N::ratio(1, (vals.len() as u64).pow(k as u32)).unwrap();
                loop {
                    faces.push(idx.iter().map(|i| vals[*i]).collect());
                    go(f, faces, p.mul(w).unwrap(), out);
                    faces.pop();
                    let mut pos = 0;
                    loop {
                        if pos == k {
                            return;
                        }
                        idx[pos] += 1;
                        if idx[pos] < vals.len() {
                            break;
                        }
                        idx[pos] = 0;
                        pos += 1;
                    }
                }
            }
        }
    }
    go(&f, &mut Vec::new(), N::one(), &mut out);
    out
}
