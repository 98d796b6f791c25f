//! Request decoding from arbitrary JSON text (every kind), then every verb on what decodes.
#![no_main]
use icon_engine::decode::from_json_text;
use icon_engine::request::{self, Prepared, Request};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(req) = from_json_text::<Request>("request", text) else {
        return;
    };
    let Ok(p) = Prepared::new(&req) else { return };
    let _ = request::plan(&p);
    // the roll, and its outcome as the wasm boundary hands it over (JSON text)
    if let Ok(done) = request::roll(&p, data.len() as u64) {
        let _ = serde_json::to_string(&done);
    }
    let _ = icon_engine::batch::roll_many(&p, 3, 1);
    let _ = request::resolve(&p, &[]);
    // odds last: the budget bounds it (~40 ms at worst), so it slows the run but cannot hang it
    let _ = request::odds(&p);
    if let Ok(arrays) = icon_engine::batch::odds_arrays(&p) {
        let _ = serde_json::to_string(&arrays);
    }
});
