import { SYSTEM_ID } from "../config.mjs";
import { outline } from "./area-shapes.mjs";
import { templateSpaces } from "./template-data.mjs";

/** @type {ReturnType<typeof define> | null} */
let defined = null;

/**
 * The measured template placeable of Foundry 13 (`CONFIG.MeasuredTemplate.objectClass`), made
 * when first asked for: Foundry 14 deprecates `MeasuredTemplate` (its areas are regions,
 * module/canvas/area-placement.mjs), so nothing reads it there.
 */
export default function iconTemplateClass() {
  defined ??= define();
  return defined;
}

function define() {
  return IconTemplateOf(foundry.canvas.placeables.MeasuredTemplate);
}

/**
 * A template holding an ICON area (`flags.icon-engine.area`, module/canvas/template-data.mjs) is
 * drawn as the spaces it covers and highlights exactly those; any other template is Foundry's.
 * @param {typeof foundry.canvas.placeables.MeasuredTemplate} Base
 */
const IconTemplateOf = Base => class IconTemplate extends Base {
  /**
   * The covered spaces' outline, relative to the template's origin (the centre of its first space).
   * @override
   */
  _computeShape() {
    const size = canvas?.grid?.size;
    const spaces = size ? templateSpaces(this.document, size, SYSTEM_ID) : null;
    if (!size || !spaces?.length) return super._computeShape();
    const loops = outline(spaces, size, { x: this.document.x, y: this.document.y });
    // The shapes are one piece (a diagonal line's spaces join at their corners): one loop.
    const longest = loops.reduce((a, b) => (b.length > a.length ? b : a), /** @type {number[]} */ ([]));
    return new PIXI.Polygon(longest);
  }

  /**
   * The top-left corners of the covered spaces.
   * @override
   */
  _getGridHighlightPositions() {
    const grid = canvas?.grid;
    const spaces = grid ? templateSpaces(this.document, grid.size, SYSTEM_ID) : null;
    if (!grid || !spaces) return super._getGridHighlightPositions();
    return spaces.map(space => grid.getTopLeftPoint(space));
  }
};
