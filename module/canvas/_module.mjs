export * as areaShapes from "./area-shapes.mjs";
export * as templateData from "./template-data.mjs";
export { default as AreaPlacement } from "./area-placement.mjs";
export { default as SceneSight } from "./scene-sight.mjs";
export { default as TokenMovement } from "./token-movement.mjs";
