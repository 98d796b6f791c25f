/**
 * A member of Foundry v13's Roll that foundry-vtt-types 13.345 does not declare. Type-checking only.
 *
 * `Roll#_prepareChatRenderContext({flavor, isPrivate})`: the protected step of `Roll#render` that
 * builds the chat template's context (formula, flavor, user, tooltip, total), factored out in
 * v12 so subclasses can add to it (foundryvtt/foundryvtt#11650, closed). v13 systems override it
 * and call super, e.g. Foundry's own Crucible (foundryvtt/crucible module/dice/attack-roll.mjs);
 * IconRoll (module/dice/icon-roll.mjs) does the same, and the browser shim provides it.
 *
 * foundry-vtt-types declares Roll as a module's default export, which module augmentation cannot
 * reach, so the member is declared on Roll's type once here and IconRoll extends
 * `foundry.dice.Roll` cast to it (as module/types/sheets.d.ts does for the sheets' bases). The
 * shim conformance check (scripts/shim-conformance.mjs) reads this file too.
 */
import type { AnyObject, EmptyObject, InexactPartial } from "@league-of-foundry-developers/foundry-vtt-types/utils";

/** What v13's templates/dice/roll.html reads. */
export interface ChatRenderContext {
  formula: string;
  flavor: string | null;
  user: string;
  tooltip: string;
  total: number | string;
}

/** `foundry.dice.Roll` with its protected chat-context step. */
export declare class RollWithChatContext<D extends AnyObject = EmptyObject> extends foundry.dice.Roll<D> {
  /**
   * The context `render` gives the chat template.
   * @param options - What `render` was given: the flavor, and whether the viewer may not see the result.
   */
  protected _prepareChatRenderContext(options?: InexactPartial<{ flavor: string; isPrivate: boolean }>): Promise<ChatRenderContext>;
}
