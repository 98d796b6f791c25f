/**
 * The shim's dice (`foundry.dice`; client/dice/roll.d.mts, client/dice/terms/*.d.mts).
 */
import { GENERATION } from "./generation.mjs";
import { deepClone, mergeObject, logCompatibilityWarning } from "./utils.mjs";
import { ChatMessage } from "./documents.mjs";
import { RollResolver } from "./applications.mjs";

/* ---- Dice (client/dice/roll.d.mts, client/dice/terms/*.d.mts) ---- */

class RollTerm {
  constructor() {
    /** @type {boolean} */
    this._evaluated = false;
  }
  get total() { return this.number ?? 0; }
  async evaluate() { this._evaluated = true; return this; }
  /** @returns {Record<string, unknown>} */
  toJSON() { return { class: this.constructor.name, ...this }; }
}

class NumericTerm extends RollTerm {
  constructor({ number = 0, options = {} } = {}) { super(); this.number = number; this.options = options; }
  get formula() { return String(this.number); }
}

class OperatorTerm extends RollTerm {
  constructor({ operator = "+", options = {} } = {}) { super(); this.operator = operator; this.options = options; }
  get formula() { return this.operator; }
  /** v13's: the operator itself (Roll#_evaluate reads the operators apart). */
  get total() { return this.operator; }
}

class Die extends RollTerm {
  constructor({ number = 1, faces = 6, modifiers = [], results = [], options = {} } = {}) {
    super();
    Object.assign(this, { number, faces, modifiers, results, options });
  }
  get denomination() { return this.faces === "F" ? "f" : "d"; }
  get formula() { return `${this.number}d${this.faces}${this.options.flavor ? `[${this.options.flavor}]` : ""}`; }
  get total() { return this.results.filter(r => r.active).reduce((sum, r) => sum + r.result, 0); }
  get values() { return this.results.map(r => r.result); }
  /** The user's fulfilment method for this die (`core.diceConfiguration`), else the configured default; none for dF here. */
  get method() {
    if (this.faces === "F") return undefined;
    const configured = /** @type {Record<string, string>} */ (game.settings.get("core", "diceConfiguration") ?? {})[`d${this.faces}`];
    return configured || CONFIG.Dice.fulfillment.defaultMethod || undefined;
  }
  /**
   * Each die's face: from the roll's resolver when the user enters this denomination by hand
   * (an interactive method, v13's manual entry), else from CONFIG.Dice.randomUniform.
   */
  async evaluate({ minimize = false, maximize = false } = {}) {
    const method = this.method;
    const resolver = !minimize && !maximize && method && CONFIG.Dice.fulfillment.methods[method]?.interactive ? TERM_RESOLVERS.get(this) : null;
    for (let i = 0; i < this.number; i++) {
      const faces = this.faces === "F" ? 3 : this.faces;
      let roll = minimize ? 1 : maximize ? faces : undefined;
      if (roll === undefined && resolver && method) roll = (await resolver.resolveResult(this, method)) ?? undefined;
      roll ??= Math.ceil(CONFIG.Dice.randomUniform() * faces);
      this.results.push({ result: this.faces === "F" ? roll - 2 : roll, active: true });
    }
    this._evaluated = true;
    return this;
  }
}

/** The resolver of the roll being evaluated, by its dice terms. @type {WeakMap<object, RollResolver>} */
const TERM_RESOLVERS = new WeakMap();

class Roll {
  static CHAT_TEMPLATE = "templates/dice/roll.html";
  static get resolverImplementation() { return RollResolver; }
  constructor(formula, data = {}, options = {}) {
    this.data = data;
    this.options = options;
    this.terms = Roll.parse(formula);
    this._formula = this.resetFormula();
    this._evaluated = false;
    this._total = undefined;
  }
  /** The v13 grammar this system's formulas use: `NdX[flavor]`, numbers, + and -. */
  static parse(formula) {
    const terms = [];
    for (const token of String(formula).split(/\s+(?=[+-]\s)|(?<=\s[+-])\s+/).map(t => t.trim()).filter(Boolean)) {
      if (token === "+" || token === "-") terms.push(new OperatorTerm({ operator: token }));
      else {
        const die = /^(\d*)d(\d+|F)(?:\[([^\]]*)\])?$/i.exec(token);
        if (die) terms.push(new Die({ number: Number(die[1] || 1), faces: die[2].toUpperCase() === "F" ? "F" : Number(die[2]), options: die[3] ? { flavor: die[3] } : {} }));
        else if (/^-?\d+(\.\d+)?$/.test(token)) terms.push(new NumericTerm({ number: Number(token) }));
        else throw new Error(`Unresolved StringTerm ${token} requested for evaluation`);
      }
    }
    return terms;
  }
  get formula() { return this._formula; }
  get dice() { return this.terms.filter(t => t instanceof Die); }
  get total() { return this._total; }
  get isDeterministic() { return !this.dice.length; }
  resetFormula() { return (this._formula = this.terms.map(t => t.formula).join(" ")); }
  async evaluate(options = {}) {
    if (this._evaluated) throw new Error(`The ${this.constructor.name} has already been evaluated and is now immutable`);
    this._evaluated = true;
    return this._evaluate(options);
  }
  /**
   * v13's: first the user's manual entry of the dice they roll by hand (the RollResolver form,
   * when a die's denomination is set to an interactive method), then each term.
   */
  async _evaluate(options = {}) {
    const resolver = options.allowInteractive !== false && !options.minimize && !options.maximize
      ? new this.constructor.resolverImplementation(this) : null;
    if (resolver) {
      for (const term of this.dice) TERM_RESOLVERS.set(term, resolver);
      await resolver.awaitFulfillment();
    }
    for (const term of this.terms) await term.evaluate(options);
    if (resolver?.rendered) await resolver.close();
    let total = 0;
    let sign = 1;
    for (const term of this.terms) {
      if (term instanceof OperatorTerm) sign = term.operator === "-" ? -1 : 1;
      else total += sign * term.total;
    }
    this._total = total;
    return this;
  }
  async render({ flavor, template = this.constructor.CHAT_TEMPLATE, isPrivate = false } = {}) {
    if (!this._evaluated) await this.evaluate();
    return foundry.applications.handlebars.renderTemplate(template, await this._prepareChatRenderContext({ flavor, isPrivate }));
  }
  async _prepareChatRenderContext({ flavor, isPrivate = false } = {}) {
    return { formula: isPrivate ? "???" : this._formula, flavor: isPrivate ? null : flavor ?? this.options.flavor, user: game.user.id,
      tooltip: "", total: isPrivate ? "?" : Math.round(this.total * 100) / 100 };
  }
  /**
   * @param {object} [messageData]
   * @param {{rollMode?: string | null, create?: boolean | null}} [options]  (v14: `messageMode`)
   */
  async toMessage(messageData = {}, { rollMode, messageMode, create = true } = {}) {
    if (!this._evaluated) await this.evaluate();
    const data = mergeObject({ author: game.user.id, content: String(this.total), sound: CONFIG.sounds.dice }, messageData, { inplace: false });
    data.rolls = [this];
    if (GENERATION >= 14) {
      if (rollMode) logCompatibilityWarning("The rollMode option of Roll#toMessage is deprecated in favor of messageMode", { since: 14, until: 16 });
      ChatMessage.implementation.applyMode(data, messageMode ?? game.settings.get("core", "messageMode"));
    } else ChatMessage.implementation.applyRollMode(data, rollMode ?? game.settings.get("core", "rollMode"));
    return create ? ChatMessage.implementation.create(data) : data;
  }
  toJSON() {
    // The terms as they are; JSON.stringify serializes each through its own toJSON, as Foundry's.
    return { class: this.constructor.name, options: deepClone(this.options), formula: this._formula, terms: this.terms,
      total: this._total, evaluated: this._evaluated };
  }
  static fromData(data) {
    const cls = CONFIG.Dice.rolls.find(r => r.name === data.class) ?? Roll;
    const roll = new cls(data.formula, {}, data.options);
    const kinds = { Die, NumericTerm, OperatorTerm };
    roll.terms = data.terms.map(({ class: kind, ...term }) => Object.assign(Object.create((kinds[kind] ?? NumericTerm).prototype), term));
    roll._formula = data.formula;
    roll._total = data.total;
    roll._evaluated = data.evaluated;
    return roll;
  }
}

export { RollTerm, NumericTerm, OperatorTerm, Die, TERM_RESOLVERS, Roll };
