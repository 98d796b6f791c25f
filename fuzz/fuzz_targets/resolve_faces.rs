//! `resolve` with arbitrary faces: any number of arrays of any integers, for requests of every
//! kind. It must answer `done`, `more` or an error, never panic; a `done` replays.
#![no_main]
use arbitrary::Arbitrary;
use icon_engine::request::{self, Prepared, Request, Resolution};
use libfuzzer_sys::fuzz_target;

const REQUESTS: &[&str] = &[
    r#"{"kind":"dice","formula":"4d6kh3 + 1d8[fire] + 3"}"#,
    r#"{"kind":"dice","formula":"3d6x"}"#,
    r#"{"kind":"dice","formula":"(2d4)d6rr1"}"#,
    r#"{"kind":"dice","formula":"10d10cs>=7df1 - 2dF"}"#,
    r#"{"kind":"dice","formula":"2d20kl1 * 2 / 3"}"#,
    r#"{"kind":"dice","formula":"4d6xo5r2min2max5"}"#,
    r#"{"kind":"icon.attack","boons":3,"curses":1,"defense":10}"#,
    r#"{"kind":"icon.save","boons":1}"#,
    r#"{"kind":"icon.damage","result":"crit","die":8,"dice":2,"fray":2,"bonusDice":1}"#,
    r#"{"kind":"icon.action","rating":3,"boons":1,"push":true}"#,
    r#"{"kind":"icon.fortune","dice":2}"#,
    r#"{"kind":"icon.evasion"}"#,
    r#"{"kind":"icons.test","ability":5,"difficulty":4}"#,
    r#"{"kind":"tribute.test","rank":2,"focus":2,"burden":1,"die":8,"opposition":{"rank":1,"focus":1,"burden":0}}"#,
    r#"{"kind":"narrator.skill","skill":12,"difficulty":0}"#,
    r#"{"kind":"mns.action","target":12}"#,
    r#"{"kind":"mns.save","score":10}"#,
];

#[derive(Debug, Arbitrary)]
struct Input {
    request: u8,
    faces: Vec<Vec<i64>>,
    small: bool,
}

fuzz_target!(|input: Input| {
    let json = REQUESTS[usize::from(input.request) % REQUESTS.len()];
    let req: Request = serde_json::from_str(json).expect("the fixed requests decode");
    let p = Prepared::new(&req).expect("the fixed requests are valid");
    // small faces land on real die faces more often, so deeper states are reached
    let faces: Vec<Vec<i64>> = if input.small {
        input
            .faces
            .iter()
            .map(|a| a.iter().map(|v| v.rem_euclid(12) - 1).collect())
            .collect()
    } else {
        input.faces
    };
    if let Ok(Resolution::Done(done)) = request::resolve(&p, &faces) {
        let again = request::resolve(&p, &done.faces).expect("a done outcome replays");
        assert_eq!(again, Resolution::Done(done));
    }
});
