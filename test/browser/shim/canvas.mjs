/**
 * The shim's canvas (`canvas`, `foundry.canvas`, `foundry.grid`, PIXI; client/canvas/*.d.mts,
 * common/grid/*.d.mts): a scene's grid, tokens and areas.
 */
import { GENERATION } from "./generation.mjs";
import { deepClone, Hooks } from "./utils.mjs";
import { Scene, MeasuredTemplateDocument, shapePoints } from "./documents.mjs";

/* ---- The canvas (client/canvas/*.d.mts, common/grid/*.d.mts): a scene's grid, tokens and templates ---- */

/**
 * UserTargets (client/canvas/placeables/tokens/targets.d.mts): the Token placeables a user targets.
 */
class UserTargets extends Set {
  constructor(user) {
    super();
    this.user = user;
  }
  get ids() { return [...this].map(token => token.id); }
}

/** The parts of PIXI (pixi.js 7) the system draws with: a polygon of points, and display containers with events. */
class PixiPolygon {
  constructor(...points) { this.points = Array.isArray(points[0]) ? [...points[0]] : points; }
  contains(x, y) {
    let inside = false;
    const p = this.points;
    for (let i = 0, j = p.length - 2; i < p.length; j = i, i += 2) {
      if ((p[i + 1] > y) !== (p[j + 1] > y) && x < ((p[j] - p[i]) * (y - p[i + 1])) / (p[j + 1] - p[i + 1]) + p[i]) inside = !inside;
    }
    return inside;
  }
}
class PixiContainer {
  children = [];
  #listeners = new Map();
  addChild(...children) { this.children.push(...children); return children[0]; }
  removeChildren() { return this.children.splice(0); }
  on(event, fn) { this.#listeners.set(event, [...(this.#listeners.get(event) ?? []), fn]); return this; }
  off(event, fn) { this.#listeners.set(event, (this.#listeners.get(event) ?? []).filter(f => f !== fn)); return this; }
  /** @returns {boolean} */
  emit(event, ...args) {
    const listeners = this.#listeners.get(event) ?? [];
    for (const fn of [...listeners]) fn(...args);
    return listeners.length > 0;
  }
}

/**
 * foundry.grid.SquareGrid (common/grid/square.d.mts): offsets `{i, j}` (row, column), points, and
 * paths measured by its diagonal rule (the world's core.gridDiagonals, as v13's scenes use it).
 */
class SquareGrid {
  constructor({ size = 100, distance = 1, units = "", diagonals = 0 } = {}) {
    Object.assign(this, { size, sizeX: size, sizeY: size, distance, units, diagonals, type: 1 });
  }
  get isSquare() { return true; }
  get isGridless() { return false; }
  get isHexagonal() { return false; }
  getOffset(coords) {
    if ("i" in coords) return { i: coords.i, j: coords.j };
    return { i: Math.floor(coords.y / this.size), j: Math.floor(coords.x / this.size) };
  }
  getTopLeftPoint(coords) {
    const { i, j } = this.getOffset(coords);
    return { x: j * this.size, y: i * this.size };
  }
  getCenterPoint(coords) {
    const { x, y } = this.getTopLeftPoint(coords);
    return { x: x + this.size / 2, y: y + this.size / 2 };
  }
  getSnappedPoint(point) { return this.getCenterPoint(point); }
  /** The spaces, distance and cost of a path, a diagonal step counted by the grid's rule (EQUIDISTANT: 1; EXACT: √2; the rest as 1.5). */
  measurePath(waypoints) {
    let spaces = 0;
    let distance = 0;
    let diagonalsSoFar = 0;
    for (let k = 1; k < waypoints.length; k++) {
      const a = this.getOffset(waypoints[k - 1]);
      const b = this.getOffset(waypoints[k]);
      const di = Math.abs(b.i - a.i);
      const dj = Math.abs(b.j - a.j);
      const diagonals = Math.min(di, dj);
      const straight = Math.max(di, dj) - diagonals;
      const rule = this.diagonals;
      const diagonalCost = rule === 0 ? diagonals : rule === 1 ? diagonals * Math.SQRT2 : rule === 3 ? 2 * diagonals
        : rule === 4 ? diagonals + Math.floor((diagonals + (diagonalsSoFar % 2)) / 2) : rule === 5 ? diagonals + Math.ceil((diagonals + (diagonalsSoFar % 2)) / 2)
          : 1.5 * diagonals;
      diagonalsSoFar += diagonals;
      spaces += straight + diagonalCost;
      distance += (straight + diagonalCost) * this.distance;
    }
    return { distance, spaces, cost: distance, waypoints: [] };
  }
}

/** foundry.canvas.placeables.PlaceableObject (client/canvas/placeables/placeable-object.d.mts): an object of a viewed scene's document. */
class PlaceableObject extends PixiContainer {
  constructor(document) {
    super();
    this.document = document;
  }
  get id() { return this.document.id; }
  get scene() { return this.document.parent; }
  async draw() { this.refresh(); return this; }
  refresh() { canvas.paint(); return this; }
  destroy() { this.removeChildren(); }
}

/** foundry.canvas.placeables.Token (client/canvas/placeables/token.d.mts): where it stands, and who targets it. */
class Token extends PlaceableObject {
  /** @returns {foundry.canvas.layers.TokenLayer} the canvas's */
  get layer() { return /** @type {foundry.canvas.layers.TokenLayer} */ (/** @type {unknown} */ (canvas.tokens)); }
  get actor() { return this.document.actor; }
  get name() { return this.document.name; }
  get x() { return this.document.x; }
  get y() { return this.document.y; }
  get w() { return this.document.width * canvas.grid.size; }
  get h() { return this.document.height * canvas.grid.size; }
  get center() { return { x: this.x + this.w / 2, y: this.y + this.h / 2 }; }
  get isTargeted() { return game.user.targets.has(this); }
  /** v13's: whether the user controls (has selected) this token. */
  get controlled() { return this.layer.controlledObjects.has(this.id); }
  /** v13's: select this token, releasing the others unless `releaseOthers` is false. */
  control({ releaseOthers = true } = {}) {
    if (releaseOthers) this.layer.releaseAll();
    this.layer.controlledObjects.set(this.id, this);
    canvas.paint();
    return true;
  }
  /** v13's: deselect this token. */
  release() {
    this.layer.controlledObjects.delete(this.id);
    canvas.paint();
    return true;
  }
  /**
   * v13's (Token#isVisible, kept in `visible`): a hidden token is seen by a GM only; another is
   * seen where the user's vision reaches it. The shim has no vision: a test puts a token out of
   * the user's sight with {@link putOutOfSight}.
   */
  get visible() { return !(this.document.hidden && !game.user.isGM) && !OUT_OF_SIGHT.has(this.document.id); }
  get renderable() { return true; }
  /**
   * v13's: this token targeted (or not) by the user, releasing the others unless `releaseOthers`
   * is false; the user's targets are broadcast to the other clients unless it is one step of a
   * group selection (`groupSelection`: the caller broadcasts once at the end).
   */
  setTarget(targeted = true, { user = null, releaseOthers = true, groupSelection = false } = {}) {
    user ??= game.user;
    const targets = user.targets;
    if (releaseOthers) for (const token of [...targets]) if (token !== this) targets.delete(token);
    if (targeted) targets.add(this);
    else targets.delete(this);
    if (!groupSelection) user.broadcastActivity({ targets: targets.ids });
    canvas.paint();
  }
}

/**
 * The ids of tokens the user's vision does not reach (walls, darkness). Test plumbing: Foundry
 * computes it from vision sources.
 * @type {Set<string>}
 */
const OUT_OF_SIGHT = new Set();

/**
 * Put a token out of (or back into) the user's sight. Test plumbing (an export).
 * @param {string} tokenId
 * @param {boolean} [out]
 */
export function putOutOfSight(tokenId, out = true) {
  if (out) OUT_OF_SIGHT.add(tokenId);
  else OUT_OF_SIGHT.delete(tokenId);
}

/**
 * foundry.canvas.placeables.MeasuredTemplate (client/canvas/placeables/template.d.mts): its shape
 * (`_computeShape`, from t, distance, direction, angle, width) and the grid spaces it highlights
 * (`_getGridHighlightPositions`: the spaces whose centres are inside its shape), drawn by the board.
 */
class MeasuredTemplate extends PlaceableObject {
  /** @returns {foundry.canvas.layers.TemplateLayer} the canvas's */
  get layer() { return /** @type {foundry.canvas.layers.TemplateLayer} */ (/** @type {unknown} */ (canvas.templates)); }
  /** @type {PIXI.Polygon | undefined} */
  shape = undefined;
  refresh() {
    this.shape = this._computeShape();
    return super.refresh();
  }
  _computeShape() {
    const { t, distance, direction, angle, width } = this.document;
    const r = (distance / canvas.grid.distance) * canvas.grid.size;
    const rad = d => (d * Math.PI) / 180;
    const point = (deg, len) => [Math.cos(rad(deg)) * len, Math.sin(rad(deg)) * len];
    if (t === "circle") return new PixiPolygon(Array.from({ length: 32 }, (_, k) => point((360 * k) / 32, r)).flat());
    if (t === "cone") {
      const half = (angle || 90) / 2;
      return new PixiPolygon([0, 0, ...Array.from({ length: 9 }, (_, k) => point(direction - half + (k * 2 * half) / 8, r)).flat()]);
    }
    if (t === "rect") {
      const [dx, dy] = point(direction, r);
      return new PixiPolygon([0, 0, dx, 0, dx, dy, 0, dy]);
    }
    const w = ((width || canvas.grid.distance) / canvas.grid.distance) * canvas.grid.size / 2;
    const [ex, ey] = point(direction, r);
    const [nx, ny] = point(direction + 90, w);
    return new PixiPolygon([nx, ny, ex + nx, ey + ny, ex - nx, ey - ny, -nx, -ny]);
  }
  _getGridHighlightPositions() {
    const shape = this.shape ?? this._computeShape();
    const size = canvas.grid.size;
    const out = [];
    for (let y = 0; y < canvas.dimensions.height; y += size) {
      for (let x = 0; x < canvas.dimensions.width; x += size) {
        if (shape.contains(x + size / 2 - this.document.x, y + size / 2 - this.document.y)) out.push({ x, y });
      }
    }
    return out;
  }
}

/** v14's Region placeable (`foundry.canvas.placeables.Region`): its shapes' outlines, drawn by the board. */
class Region extends PlaceableObject {
  /** @returns {foundry.canvas.layers.RegionLayer} the canvas's */
  get layer() { return /** @type {foundry.canvas.layers.RegionLayer} */ (/** @type {unknown} */ (canvas.regions)); }
}

/** A layer of placeables (client/canvas/layers/base/placeables-layer.d.mts): its objects by id, its preview, activation. */
class PlaceablesLayer extends PixiContainer {
  constructor() {
    super();
    this.objects = new PixiContainer();
    this.preview = new PixiContainer();
  }
  get placeables() { return this.objects.children; }
  get(id) { return this.placeables.find(object => object.id === id); }
  get active() { return canvas.activeLayer === this; }
  activate() { canvas.activeLayer = /** @type {foundry.canvas.layers.CanvasLayer} */ (/** @type {unknown} */ (this)); return this; }
  deactivate() { return this; }
  getSnappedPoint(point) { return canvas.grid.getSnappedPoint(point, {}); }
  clearPreviewContainer() { for (const object of this.preview.removeChildren()) object.destroy?.(); canvas.paint(); }
}
class TokenLayer extends PlaceablesLayer {
  /** v13's: the tokens the user controls, by id. */
  controlledObjects = new Map();
  get controlled() { return [...this.controlledObjects.values()]; }
  /** v13's: release every controlled token; the number released. */
  releaseAll() {
    const count = this.controlledObjects.size;
    this.controlledObjects.clear();
    return count;
  }
}
/**
 * v14's regions layer (API v14 `foundry.canvas.layers.RegionLayer`) and its `placeRegion(data,
 * options)` (`RegionPlacementOptions`: create, allowRotation, createOptions; and `onMove`): a
 * preview of the region follows the pointer (its shapes moved so that the first one's bounds'
 * centre is at the pointer; `onMove(context)` sees `{position, snap, shape, preview, document,
 * event, index, count}` first, may change `context.position`, and returning false keeps the
 * preview where it is); the wheel turns it when rotation is allowed (15°, 45° with Shift); a left
 * click confirms: the region is created (or, with `create: false`, the preview document is
 * returned); a right click skips its only shape, which returns null.
 */
class RegionLayer extends PlaceablesLayer {
  async placeRegion(data, { create = true, allowRotation = true, createOptions = {}, onMove } = {}) {
    const scene = canvas.scene;
    const doc = new CONFIG.Region.documentClass(deepClone(data), { parent: scene });
    const object = new CONFIG.Region.objectClass(doc);
    const initialLayer = canvas.activeLayer;
    this.activate();
    this.preview.addChild(object);
    await object.draw();
    const shapes = deepClone(doc._source.shapes);
    const points = shapePoints(shapes[0] ?? {});
    const xs = points.filter((_, k) => k % 2 === 0);
    const ys = points.filter((_, k) => k % 2 === 1);
    const reference = { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2 };
    let position = { ...reference };
    let rotation = 0;
    const place = () => {
      const rad = (rotation * Math.PI) / 180;
      const turn = (x, y) => [position.x + (x - reference.x) * Math.cos(rad) - (y - reference.y) * Math.sin(rad),
        position.y + (x - reference.x) * Math.sin(rad) + (y - reference.y) * Math.cos(rad)];
      doc.updateSource({ shapes: shapes.map(shape => {
        if (shape.type === "polygon") return { ...shape, points: shape.points.flatMap((v, k, all) => (k % 2 ? [] : turn(v, all[k + 1]))) };
        const [x, y] = turn(shape.x, shape.y);
        return { ...shape, x, y, ...(shape.type === "rectangle" ? { rotation: (shape.rotation ?? 0) + rotation } : {}) };
      }) });
      object.refresh();
    };
    const stage = canvas.stage;
    const view = canvas.app.view;
    return new Promise(resolve => {
      /** @param {((value: unknown) => unknown) | null} then */
      const finish = async then => {
        stage.off("mousemove", move);
        stage.off("mouseup", confirm);
        view.removeEventListener("wheel", wheel);
        view.oncontextmenu = null;
        this.clearPreviewContainer();
        initialLayer?.activate?.();
        if (!then) return resolve(null);
        if (!create) return resolve(doc);
        const created = await scene.createEmbeddedDocuments("Region", [doc.toObject()], createOptions);
        return resolve(created?.[0] ?? null);
      };
      const move = event => {
        const context = { position: event.getLocalPosition(this), snap: true, shape: doc.shapes[0], preview: object, document: doc, event, index: 0, count: 1 };
        if (onMove?.(context) === false) return;
        position = { x: context.position.x, y: context.position.y };
        place();
      };
      const wheel = event => {
        if (!allowRotation) return;
        event.preventDefault();
        rotation += Math.sign(event.deltaY) * (event.shiftKey ? 45 : 15);
        place();
      };
      const confirm = event => {
        if (event.button !== 0) return;
        finish(resolve);
      };
      stage.on("mousemove", move);
      stage.on("mouseup", confirm);
      view.addEventListener("wheel", wheel);
      view.oncontextmenu = event => {
        event.preventDefault();
        finish(null);
      };
    });
  }
}

/**
 * v13's templates layer, with its own left-drag: on the active layer, a left press that moves
 * further than the drag resistance draws a new template (`_onDragLeftStart`) and the release
 * creates it (`_onDragLeftDrop`), unless the drag was cancelled (`_onDragLeftCancel`). The
 * layer's interaction manager handles the release after the stage's own listeners (a workflow
 * that uses the pointer, as a template preview does, cancels the layer's drag there).
 */
class TemplateLayer extends PlaceablesLayer {
  /** @type {{origin: {x: number, y: number}, preview: MeasuredTemplate | null} | null} */
  #drag = null;
  /**
   * Core's drag workflow on this layer, from the stage's pointer.
   * @shim-unchecked test plumbing: Foundry's MouseInteractionManager of the layer
   */
  listenTo(stage) {
    stage.on("mousedown", event => {
      if (!this.active || event.button !== 0) return;
      this.#drag = { origin: event.getLocalPosition(this), preview: null };
    });
    stage.on("mousemove", event => {
      const drag = this.#drag;
      if (!drag || drag.preview) return;
      const at = event.getLocalPosition(this);
      if (Math.hypot(at.x - drag.origin.x, at.y - drag.origin.y) < 10) return;
      const doc = new MeasuredTemplateDocument({ t: "circle", x: drag.origin.x, y: drag.origin.y, distance: 1 }, { parent: canvas.scene });
      drag.preview = new (CONFIG.MeasuredTemplate.objectClass ?? MeasuredTemplate)(doc);
      this.preview.addChild(drag.preview);
    });
    stage.on("mouseup", event => {
      if (event.button !== 0) return;
      setTimeout(() => {
        const drag = this.#drag;
        this.#drag = null;
        if (!drag?.preview) return;
        this.clearPreviewContainer();
        canvas.scene?.createEmbeddedDocuments("MeasuredTemplate", [drag.preview.document.toObject()]);
      }, 0);
    });
  }
  /** v13's: the layer's drag is cancelled, its preview cleared. */
  _onDragLeftCancel(event) {
    this.#drag = null;
    this.clearPreviewContainer();
  }
}

/**
 * The Canvas (client/canvas/board.d.mts) of one viewed scene: `draw(scene)` builds its grid (the
 * scene's size and distance, the world's diagonal rule) and its placeables, which follow their
 * documents. PIXI draws nothing here: the board below paints the scene into a 2D canvas element
 * (`app.view`), and the pointer on it reaches the stage as PIXI's federated events do.
 */
class Canvas {
  /** @type {Scene | null} */
  #scene = null;
  /** @type {SquareGrid | null} */
  #grid = null;
  /** @type {PlaceablesLayer | null} */
  #activeLayer = null;
  tokens = new TokenLayer();
  /** v13's templates layer; v14 has the regions layer instead (its templates layer is deprecated). */
  templates = GENERATION >= 14 ? undefined : new TemplateLayer();
  regions = GENERATION >= 14 ? new RegionLayer() : undefined;
  /** @returns {foundry.canvas.layers.CanvasLayer | null} the layer the user works on */
  get activeLayer() { return /** @type {foundry.canvas.layers.CanvasLayer | null} */ (/** @type {unknown} */ (this.#activeLayer)); }
  set activeLayer(layer) { this.#activeLayer = /** @type {PlaceablesLayer | null} */ (/** @type {unknown} */ (layer)); }
  stage = new PixiContainer();
  app = { view: document.createElement("canvas"), stage: this.stage };
  get ready() { return !!this.#scene; }
  get scene() { return this.#scene; }
  get grid() { return this.#grid; }
  // The shim's scenes have no padding: the scene's rectangle is the whole board.
  get dimensions() { return this.#scene ? { width: this.#scene.width, height: this.#scene.height, size: this.#grid.size, distance: this.#grid.distance,
    sceneRect: { x: 0, y: 0, width: this.#scene.width, height: this.#scene.height } } : null; }
  get id() { return this.#scene?.id ?? null; }
  async draw(scene = null) {
    this.#scene = scene;
    if (!scene) return this;
    const { size, distance, units } = scene.grid;
    this.#grid = new SquareGrid({ size, distance, units, diagonals: game.settings.get("core", "gridDiagonals") });
    this.refresh();
    this.activeLayer = this.tokens;
    Hooks.callAll("canvasReady", this);
    return this;
  }
  /**
   * Placeables made anew for the scene's documents.
   * @shim-unchecked test plumbing: Foundry's placeables follow their documents by themselves
   */
  refresh() {
    const scene = this.#scene;
    if (!scene) return;
    const targeted = new Set(game.user.targets.ids);
    game.user.targets.clear();
    this.tokens.objects.removeChildren();
    this.tokens.objects.addChild(...scene.tokens.map(doc => new Token(doc)));
    for (const token of this.tokens.placeables) if (targeted.has(token.id)) game.user.targets.add(token);
    if (GENERATION >= 14) {
      this.regions.objects.removeChildren();
      this.regions.objects.addChild(...scene.regions.map(doc => new CONFIG.Region.objectClass(doc)));
    } else {
      // the configured class draws the system's templates
      const cls = CONFIG.MeasuredTemplate.objectClass ?? MeasuredTemplate;
      this.templates.objects.removeChildren();
      this.templates.objects.addChild(...scene.templates.map(doc => new cls(doc)));
      for (const template of this.templates.placeables) template.shape = template._computeShape();
    }
    this.paint();
  }
  /**
   * Paint the board.
   * @shim-unchecked test plumbing: stands in for PIXI's rendering, for screenshots
   */
  paint() { paintBoard(this); }
}

/** Token images loaded for the board, by path. @type {Map<string, HTMLImageElement>} */
const BOARD_IMAGES = new Map();

/**
 * The board: the viewed scene painted into `canvas.app.view` (grid lines, each template's
 * highlighted spaces and outline, tokens with their names, targets ringed). Test plumbing: the
 * shim's stand-in for PIXI's rendering, so screenshots show the scene.
 */
function paintBoard(board) {
  const view = board.app.view;
  const scene = board.scene;
  if (!scene) return;
  const grid = board.grid;
  view.width = scene.width;
  view.height = scene.height;
  view.id ||= "board";
  if (!view.isConnected) document.body.append(view);
  const g = view.getContext("2d");
  g.fillStyle = "#e8e4d8";
  g.fillRect(0, 0, view.width, view.height);
  g.strokeStyle = "rgba(0,0,0,0.25)";
  g.lineWidth = 1;
  for (let x = 0; x <= view.width; x += grid.size) { g.beginPath(); g.moveTo(x + 0.5, 0); g.lineTo(x + 0.5, view.height); g.stroke(); }
  for (let y = 0; y <= view.height; y += grid.size) { g.beginPath(); g.moveTo(0, y + 0.5); g.lineTo(view.width, y + 0.5); g.stroke(); }
  // v14's regions: each shape filled, its outline drawn (holes left unfilled).
  for (const region of GENERATION >= 14 ? [...board.regions.placeables, ...board.regions.preview.children] : []) {
    for (const shape of region.document.shapes) {
      const points = shapePoints(shape);
      if (!points.length) continue;
      g.beginPath();
      for (let k = 0; k < points.length; k += 2) g[k ? "lineTo" : "moveTo"](points[k], points[k + 1]);
      g.closePath();
      g.fillStyle = shape.hole ? "#e8e4d8" : "rgba(200, 60, 30, 0.35)";
      g.fill();
      g.strokeStyle = "rgba(150, 30, 10, 0.9)";
      g.lineWidth = 2;
      g.stroke();
    }
  }
  const templates = GENERATION >= 14 ? [] : [...board.templates.placeables, ...board.templates.preview.children];
  for (const template of templates) {
    g.fillStyle = "rgba(200, 60, 30, 0.35)";
    for (const { x, y } of template._getGridHighlightPositions()) g.fillRect(x, y, grid.size, grid.size);
    const points = template.shape?.points ?? [];
    if (points.length) {
      g.strokeStyle = "rgba(150, 30, 10, 0.9)";
      g.lineWidth = 3;
      g.beginPath();
      for (let k = 0; k < points.length; k += 2) g[k ? "lineTo" : "moveTo"](template.document.x + points[k], template.document.y + points[k + 1]);
      g.closePath();
      g.stroke();
    }
  }
  for (const token of board.tokens.placeables) {
    const src = token.document.texture?.src ?? CONST.DEFAULT_TOKEN;
    let img = BOARD_IMAGES.get(src);
    if (!img) {
      img = new Image();
      img.src = src;
      img.onload = () => board.paint();
      BOARD_IMAGES.set(src, img);
    }
    g.fillStyle = "#ffffff";
    g.fillRect(token.x + 4, token.y + 4, token.w - 8, token.h - 8);
    if (img.complete && img.naturalWidth) g.drawImage(img, token.x + 6, token.y + 6, token.w - 12, token.h - 12);
    g.fillStyle = "#000000";
    g.font = "11px sans-serif";
    g.fillText(token.name ?? "", token.x + 4, token.y + token.h - 4, token.w - 8);
    if (token.isTargeted) {
      g.strokeStyle = "#d4a000";
      g.lineWidth = 4;
      g.strokeRect(token.x + 2, token.y + 2, token.w - 4, token.h - 4);
    }
  }
}

/**
 * The pointer on the board reaches the stage as PIXI's federated events do: `mousemove`,
 * `mousedown`, `mouseup` (and their `pointer*` names) with `button`, `getLocalPosition` (the
 * canvas is drawn at its own scale, no pan or zoom) and `stopPropagation`.
 * @shim-unchecked test plumbing: PIXI's event system, from the DOM
 */
function listenToBoard(board) {
  const view = board.app.view;
  const relay = (dom, names) => view.addEventListener(dom, event => {
    const rect = view.getBoundingClientRect();
    const local = { x: event.clientX - rect.left, y: event.clientY - rect.top };
    const federated = { button: event.button, clientX: event.clientX, clientY: event.clientY, nativeEvent: event,
      getLocalPosition: () => ({ ...local }), stopPropagation: () => {} };
    federated.data = federated;
    for (const name of names) board.stage.emit(name, federated);
  });
  relay("mousemove", ["mousemove", "pointermove"]);
  relay("mousedown", ["mousedown", "pointerdown"]);
  relay("mouseup", ["mouseup", "pointerup"]);
  board.templates?.listenTo(board.stage);
}

export { UserTargets, PixiPolygon, PixiContainer, SquareGrid, PlaceableObject, Token, OUT_OF_SIGHT, MeasuredTemplate, Region, PlaceablesLayer, TokenLayer, RegionLayer, TemplateLayer, Canvas, BOARD_IMAGES, paintBoard, listenToBoard };
