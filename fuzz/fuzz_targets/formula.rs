//! The formula parser on arbitrary text: parse, print, parse again (the same formula), plan.
#![no_main]
use icon_engine::dice::parse;
use icon_engine::dice::resolve::plan;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(formula) = parse(text) else { return };
    let printed = formula.to_string();
    let again = parse(&printed).unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}: {e}"));
    assert_eq!(again.to_string(), printed, "printing is stable");
    let _ = plan(&formula);
});
