//! The encounter forecast's exports (the `forecast` feature): only a GM's forecast loads this
//! module (module/forecast/forecast.mjs `loadForecast`), never a player's client. Requests cross
//! as JSON text (module/forecast/forecast.mjs writes it) and answers go back as JSON text; the
//! fights are played in batches from JS, so the dialog can show its progress between them.

use super::{js_error, json, long_string_arg};
use crate::forecast::tally::Tally;
use wasm_bindgen::prelude::*;

/// A forecast under way: the request prepared once, the fights played so far counted.
#[wasm_bindgen(js_name = Forecast)]
pub struct JsForecast {
    forecast: crate::forecast::Forecast,
    tally: Tally,
}

#[wasm_bindgen(js_class = Forecast)]
impl JsForecast {
    /// Checks and prepares a forecast request (its JSON text; docs/js-contract.md, "Encounter
    /// forecast"), refused past its size limit before it is read.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string")] request: JsValue,
    ) -> Result<JsForecast, JsError> {
        let text = long_string_arg("forecast request", &request)?;
        let forecast = crate::forecast::Forecast::from_json(&text).map_err(js_error)?;
        let tally = forecast.tally();
        Ok(JsForecast { forecast, tally })
    }

    /// The fights the request asks for.
    #[wasm_bindgen(getter)]
    pub fn fights(&self) -> u32 {
        self.forecast.fights()
    }

    /// The fights played so far.
    #[wasm_bindgen(getter)]
    pub fn played(&self) -> u32 {
        self.tally.played
    }

    /// The forecast's seed (a safe integer): the same request with it plays the same fights.
    #[wasm_bindgen(getter)]
    pub fn seed(&self) -> f64 {
        self.forecast.seed() as f64
    }

    /// Plays up to `count` more fights; returns the fights played so far.
    pub fn play(&mut self, count: u32) -> Result<u32, JsError> {
        self.forecast
            .play(&mut self.tally, count)
            .map_err(js_error)?;
        Ok(self.tally.played)
    }

    /// The report of the fights played so far, as JSON text.
    pub fn report(&self) -> Result<String, JsError> {
        json(&self.forecast.report(&self.tally).map_err(js_error)?)
    }

    /// Fight `fight` step by step (every turn-order event and request with its faces), as JSON
    /// text.
    pub fn trace(&mut self, fight: u32) -> Result<String, JsError> {
        json(&self.forecast.trace(fight).map_err(js_error)?)
    }
}
