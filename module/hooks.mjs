/**
 * The hooks the system fires for other modules, all named `icon-engine.*` (docs/api.md lists each
 * with its arguments). A `pre` hook is called with Foundry's `Hooks.call`: a listener that returns
 * `false` cancels the action, and one that changes the request object it is given changes what
 * happens (the request is passed by reference and read again after the hook). The hook without
 * `pre` is called with `Hooks.callAll` once the action is done.
 */

/** Every hook's name, by what it is about. */
export const HOOKS = Object.freeze({
  preUseItem: "icon-engine.preUseItem",
  useItem: "icon-engine.useItem",
  preCreateTemplate: "icon-engine.preCreateTemplate",
  createTemplate: "icon-engine.createTemplate",
  preAttack: "icon-engine.preAttack",
  attack: "icon-engine.attack",
  preDamage: "icon-engine.preDamage",
  damage: "icon-engine.damage",
  preApplyDamage: "icon-engine.preApplyDamage",
  applyDamage: "icon-engine.applyDamage",
  preSave: "icon-engine.preSave",
  save: "icon-engine.save",
  preApplyEffect: "icon-engine.preApplyEffect",
  applyEffect: "icon-engine.applyEffect",
  preTurnChange: "icon-engine.preTurnChange",
  turnChange: "icon-engine.turnChange",
  roundChange: "icon-engine.roundChange",
  preGrantItems: "icon-engine.preGrantItems",
  grantItems: "icon-engine.grantItems",
  partyResolve: "icon-engine.partyResolve",
  recharge: "icon-engine.recharge"
});

/** @typedef {typeof HOOKS[keyof typeof HOOKS]} HookName */

/**
 * Foundry's Hooks, when called (not when this module is imported): the calls with a name as a
 * string (the system's hooks are declared in module/types/fvtt-config.d.ts).
 * @returns {{call(name: string, ...args: unknown[]): boolean, callAll(name: string, ...args: unknown[]): true}}
 */
const hooks = () => /** @type {never} */ (/** @type {unknown} */ (Hooks));

/**
 * Fire a `pre` hook: false when a listener cancelled.
 * @param {HookName} name
 * @param {...unknown} args
 * @returns {boolean}
 */
export function callPre(name, ...args) {
  return hooks().call(name, ...args) !== false;
}

/**
 * Fire a hook after the action.
 * @param {HookName} name
 * @param {...unknown} args
 */
export function callAfter(name, ...args) {
  hooks().callAll(name, ...args);
}

/**
 * The error a cancelled action ends with: its i18n text, naming the hook.
 * @param {HookName} name
 */
export function cancelled(name) {
  const text = game.i18n?.format("ICONENGINE.Api.Cancelled", { hook: name }) ?? `${name} cancelled`;
  return Object.assign(new Error(text), { name: "IconEngineCancelled", hook: name });
}
