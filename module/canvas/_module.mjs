export * as areaShapes from "./area-shapes.mjs";
export * as templateData from "./template-data.mjs";
export { default as AreaPlacement } from "./area-placement.mjs";
