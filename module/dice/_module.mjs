export { default as Fraction } from "./fraction.mjs";
export { default as IconRoll } from "./icon-roll.mjs";
export { default as OddsReport } from "./odds-report.mjs";
export { default as planFormula } from "./plan-formula.mjs";
