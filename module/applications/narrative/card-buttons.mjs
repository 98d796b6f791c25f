/**
 * The buttons of an action card: which narrative event or clock tick each one means, and the
 * wiring of a rendered card to handlers. DOM only, no Foundry, so the browser test clicks the
 * rendered card through exactly this code; module/applications/narrative/narrative-cards.mjs
 * passes the handlers that update the actor and the clocks.
 * @import { ProgressClock } from "./clocks.mjs"
 */
import { fillClockSelect } from "./clocks.mjs";

/** Buttons that settle the roll's strain: once one is used, all are. */
export const STRAIN_BUTTONS = /** @type {const} */ (["takeStrain", "criticalStrain"]);

/**
 * The narrative event of a card button, from the card's data.
 * @param {string} button  `takeStrain`, `resist` or `criticalStrain`.
 * @param {{strain: number, risk: string}} card
 * @returns {object}
 */
export function narrativeEventOf(button, { strain, risk }) {
  switch (button) {
    case "takeStrain": return { type: "takeStrain", amount: strain, critical: false };
    case "criticalStrain": return { type: "takeStrain", amount: strain, critical: true };
    case "resist": return { type: "resist", risk };
    default: throw new Error(`not a narrative button: ${button}`);
  }
}

/**
 * @typedef {object} CardHandlers
 * @property {(event: object, button: string) => Promise<unknown>} narrative  Apply a narrative event to the card's actor.
 * @property {(clockId: string, segments: number) => Promise<unknown>} tickClock
 */

/**
 * Wire a rendered action card: fill its clock select, disable what was already applied, and
 * call the handlers on click. Buttons stay disabled while their handler runs and afterwards when
 * it succeeded (a consequence is settled once; a clock is ticked once per roll).
 * @param {HTMLElement} root   The card's `.icon-action-card` element.
 * @param {ProgressClock[]} clocks
 * @param {CardHandlers} handlers
 * @param {{applied?: string[], isGM?: boolean}} [options]
 */
export function bindNarrativeCard(root, clocks, handlers, { applied = [], isGM = false } = {}) {
  const select = /** @type {HTMLSelectElement|null} */ (root.querySelector("select.narrative-clock"));
  if (select) fillClockSelect(select, clocks);
  const strainSettled = applied.some(a => /** @type {readonly string[]} */ (STRAIN_BUTTONS).includes(a));
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (root.querySelectorAll("[data-narrative-action]"))) {
    const name = button.dataset.narrativeAction ?? "";
    if (button.hasAttribute("data-gm-only") && !isGM) button.hidden = true;
    if (applied.includes(name) || (strainSettled && /** @type {readonly string[]} */ (STRAIN_BUTTONS).includes(name))) button.disabled = true;
    if (name === "tickClock" && !clocks.length) button.disabled = true;
    button.addEventListener("click", async () => {
      button.disabled = true;
      let done = false;
      try {
        if (name === "tickClock") {
          if (!select?.value) return;
          await handlers.tickClock(select.value, Number(button.dataset.segments));
        } else {
          const card = { strain: Number(button.dataset.strain ?? 0), risk: button.dataset.risk ?? "risky" };
          await handlers.narrative(narrativeEventOf(name, card), name);
        }
        done = name !== "resist";
      } catch {
        // The handlers report their own errors; the button stays usable for another try.
      } finally {
        button.disabled = done;
      }
    });
  }
}
