/**
 * The Foundry v14 members the system uses that foundry-vtt-types (13.345, which has no v14) does
 * not declare, each with the v14 API page it is read from (foundryvtt.com/api/v14/...). The system
 * reaches them only where module/compat/generation.mjs says v14 runs. Type-checking only.
 */

/**
 * `ChatCommandCallback` (api/v14 types/foundry.ChatCommandCallback.html): "Called in the context
 * of a ChatLog instance", with the matched command name, the regex match, the chat message data
 * and the options passed to ChatMessage.create; false posts no message.
 */
export type ChatCommandCallback = (
  this: unknown,
  command: string,
  match: RegExpMatchArray,
  chatData: { speaker?: object },
  createOptions: object
) => Promise<false | void>;

/**
 * An entry of `ChatLog.CHAT_COMMANDS` (api/v14 classes/foundry.applications.sidebar.tabs.ChatLog.html;
 * v14 deprecates `MESSAGE_PATTERNS` for it): `rgx` is matched against the message's HTML without
 * its outer paragraph (against its text when `isRoll`).
 */
export interface ChatCommandEntry {
  rgx: RegExp;
  fn?: ChatCommandCallback;
  isRoll?: boolean;
  isMultiline?: boolean;
  mode?: string;
}

/** `ChatLog.CHAT_COMMANDS` (api/v14 classes/foundry.applications.sidebar.tabs.ChatLog.html). */
export interface ChatLogV14 {
  CHAT_COMMANDS: Record<string, ChatCommandEntry>;
}

/**
 * `RegionPlacementOptions` (api/v14 interfaces/foundry.canvas.layers.types.RegionPlacementOptions.html),
 * with the `onMove` callback of the layer's `_placementContext` (api/v14
 * classes/foundry.canvas.layers.RegionLayer.html: `onMove: {count, document, event, index,
 * position, preview, shape, snap}`).
 */
export interface RegionPlacementOptions {
  allowEmpty?: boolean;
  allowRotation?: boolean;
  attachToToken?: boolean;
  create?: boolean;
  createOptions?: object;
  onMove?: (context: { position: { x: number; y: number }; snap: boolean; index: number; count: number }) => false | void;
}

/** A placed region's data as the system reads it back (api/v14 interfaces/foundry.documents.types.RegionData.html). */
export interface PlacedRegion {
  shapes: { type: string; points?: number[] }[];
}

/**
 * `RegionLayer#placeRegion(data, options)` (api/v14 classes/foundry.canvas.layers.RegionLayer.html):
 * the region placed with a preview; created unless `create` is false (then the preview document),
 * null when skipped.
 */
export interface RegionLayerV14 {
  placeRegion(data: object, options?: RegionPlacementOptions): Promise<PlacedRegion | null>;
}

/**
 * `foundry.canvas.layers.RegionLayer` with v14's placement (api/v14
 * classes/foundry.canvas.layers.RegionLayer.html `placeRegion`); the layer itself is v13's too.
 */
export declare class RegionLayerPlacement extends foundry.canvas.layers.RegionLayer {
  placeRegion(data: object, options?: RegionPlacementOptions): Promise<RegionDocument.Implementation | null>;
}

/**
 * ChatMessage with v14's message modes (api/v14 classes/foundry.documents.ChatMessage.html
 * `applyMode`; v14 deprecates `applyRollMode` for it until 16).
 */
export declare class ChatMessageModes extends ChatMessage {
  static applyMode(chatData: object, messageMode: string): object;
  applyMode(messageMode: string): void;
}

/**
 * An ActiveEffect's duration on v14 (api/v14 interfaces/foundry.documents.types.EffectDurationData.html):
 * "expiration occurs when both the end of the duration and the expiry event are reached"; `value`
 * null is "initialized to Infinity"; `units` one of `CONST.ACTIVE_EFFECT_DURATION_UNITS`.
 * The system writes `{value: 0, units: "turns", expiry: TURN_END_EXPIRY}` (module/data/effect-duration.mjs).
 */
export interface EffectDurationDataV14 {
  value: number | null;
  units: "years" | "months" | "days" | "hours" | "minutes" | "seconds" | "rounds" | "turns";
  expiry: string | null;
  expired: boolean;
}

/**
 * `CONFIG.ActiveEffect` on v14 (api/v14 variables/CONFIG.ActiveEffect.html): `expiryEvents`,
 * "Additional expiry events registered by packages" (an id → an i18n label), whose handling
 * `CONST.ACTIVE_EFFECT_EXPIRY_EVENTS` (api/v14 variables/CONST.ACTIVE_EFFECT_EXPIRY_EVENTS.html)
 * leaves to them; `expiryAction` what core's registry does to an expired effect.
 */
export interface ActiveEffectConfigV14 {
  expiryEvents: Record<string, string>;
  expiryAction: "update" | "delete" | null;
}
