/**
 * Types of the wasm rules core, written from docs/js-contract.md.
 * wasm-pack's own icon_engine.d.ts types every request and answer as `any`, and wasm/ is a build
 * output that may be missing when the type check runs, so module/core.mjs casts to these.
 */

/** A tagged request: `{kind, ...fields}` (docs/js-contract.md lists the kinds). */
export type CoreRequest = DiceRequest | { kind: string; [field: string]: unknown };

export interface DiceRequest {
  kind: "dice";
  formula: string;
}

/** One group of dice to roll: Foundry builds the term `${count}${notation}`. */
export interface PlanDie {
  faces: number;
  count: number;
  role: string;
  notation: string;
  /** Index in the outcome's `terms` that these dice belong to. */
  term: number;
}

export interface More {
  status: "more";
  dice: PlanDie[];
}

/** Optional fields may arrive as null: the boundary serialises missing values as null. */
export interface DieResult {
  value: number;
  active: boolean;
  count?: number | null;
  exploded?: boolean | null;
  rerolled?: boolean | null;
  discarded?: boolean | null;
  success?: boolean | null;
  failure?: boolean | null;
}

export interface TermOutcome {
  notation: string;
  flavor?: string | null;
  total: number;
  results: DieResult[];
}

export interface Done {
  status: "done";
  kind: string;
  total: number;
  faces: number[][];
  /** Set by `roll`. */
  seed?: number;
  /** `dice` requests: the normalised formula. */
  formula?: string;
  /** `dice` requests: one entry per dice term, in formula order. */
  terms?: TermOutcome[];
  [field: string]: unknown;
}

export type Resolution = Done | More;

/** When a part of an ability fires (`icon.ability`, docs/js-contract.md). */
export type AbilityTrigger = "use" | "hit" | "crit" | "miss" | "exceed" | "failedSave" | "charge" | "comeback"
  | "finishingBlow" | "slay" | "gamble" | "heroic";

/** One part of an ability: when it fires, on whom, and the status (a bare id, "" none) and mark it puts there. */
export interface AbilityPart {
  trigger: AbilityTrigger;
  /** Gamble N+ (1–6): only, and always, with `trigger: "gamble"`. */
  gamble?: number;
  to?: "target" | "self";
  status?: string;
  mark?: boolean;
}

/** A target of one use of an ability, as the use left it. */
export interface AbilityTarget {
  /** How the attack against it landed (an evaded one missed); null: no attack roll against it. */
  attack?: "hit" | "crit" | "miss" | null;
  exceed?: boolean;
  save?: "saved" | "failed" | null;
  /** Bloodied before this ability's damage. */
  bloodied?: boolean;
  /** This ability's damage took it to 0 HP. */
  slain?: boolean;
  statuses?: string[];
  mob?: boolean;
  summon?: boolean;
  /** The user is its foe (default true). */
  fromFoe?: boolean;
}

/** `{kind: "icon.ability", ...}`: at most 12 parts and 64 targets. */
export interface AbilityRequest {
  kind: "icon.ability";
  parts: AbilityPart[];
  user?: { statuses?: string[]; bloodied?: boolean; slowTurn?: boolean; heroic?: boolean };
  /** The use's Gamble d6 (1–6), needed by a gamble part. */
  gamble?: number | null;
  targets?: AbilityTarget[];
}

/** What stopped a status or mark. */
export type Blocked = "unstoppable" | "sealed" | "intangible" | "mob" | "summon" | "defeated";

export interface Landing {
  lands: boolean;
  blockedBy: Blocked | null;
}

/** A part that fired: its index in `parts`; its status and mark, null when it has none. */
export interface FiredPart {
  index: number;
  status: Landing | null;
  mark: Landing | null;
}

/** `resolve(abilityRequest, [])`: the parts fired against each target (in order) and on the user; `total` counts them all. */
export interface AbilityOutcome extends Done {
  kind: "icon.ability";
  targets: { parts: FiredPart[] }[];
  self: FiredPart[];
}

export interface ExactOdds {
  totals: [number, string][];
  mean: string;
  outcomes: Record<string, string>;
}

export interface Odds {
  /** The normalised dice formula. */
  formula: string;
  totals: [number, number][];
  mean: number;
  sd: number;
  outcomes: Record<string, number>;
  exact: ExactOdds | null;
}

export interface CacheStats {
  parses: number;
  hits: number;
  size: number;
}

export type Seed = number | bigint | string;

export interface Rng {
  uniform(): number;
  readonly seed: number;
  free(): void;
}

/** A repair, a skipped value, or something unsafe in a field (`field`: a JSON pointer into the entry, or the page with `pageId`). */
export interface ImportWarning {
  documentId: string | null;
  pageId: string | null;
  field: string | null;
  kind: string;
  detail: string;
}

/** The accounting of a pack import: `lines` = documents + skipped + superseded + deleted + unknownDeletions + indexLines + bad.length. */
export interface ImportReport {
  lines: number;
  documents: number;
  skipped: number;
  superseded: number;
  deleted: number;
  unknownDeletions: number;
  indexLines: number;
  bad: { line: number; error: string }[];
  warnings: ImportWarning[];
}

/** A printed chart's row: `id` for i18n keys, the seed's `label`, the chart's `value`. */
export interface ChartEntry {
  id: string;
  label: string;
  value: number;
}

/** `rulesetTables()`: the charts the other rulesets print. */
export interface RulesetTables {
  iconsLevels: { level: number; description: string; names: [string, string, string] }[];
  tributeRealityLevels: ChartEntry[];
  narratorDifficulty: ChartEntry[];
  narratorOpposed: ChartEntry[];
  narratorKnowledge: ChartEntry[];
  narratorDeterministic: number;
  mnsSpecialDice: string[];
}

/** The core's public API: module/core.mjs (`loadCore()`, `getCore()`), over the raw wasm exports. */
export interface CoreApi {
  plan(request: CoreRequest): PlanDie[];
  resolve(request: CoreRequest, faces: number[][]): Resolution;
  roll(request: CoreRequest, seed?: Seed): Done & { seed: number };
  odds(request: CoreRequest): Odds;
  /** `n` totals from one stream started at `seed` (the first is `roll(request, seed).total`). */
  rollMany(request: CoreRequest, n: number, seed?: Seed): Float64Array;
  /** `odds` as typed arrays; `exact` when the common denominator fits 64 bits. */
  oddsArrays(request: CoreRequest): {
    formula: string; values: Float64Array; p: Float64Array; mean: number; sd: number;
    outcomes: Record<string, number>; exact: null | { denominator: bigint; numerators: BigUint64Array };
  };
  version(): string;
  cacheStats(): CacheStats;
  combatApply(state: object | null, event: object): { state: object | null; effects: object[] };
  narrativeApply(state: object, event: object): { state: object; effects: object[] };
  clockTick(clock: { segments: number; filled: number }, ticks: number): { segments: number; filled: number; complete: boolean };
  sessionXp(checklist: { ideals?: number; challenged?: number; ambition?: number; burdenInvoked?: boolean }): number;
  iconDerived(target: object): { bloodied: boolean; bloodiedValue: number; healableMax: number; vigorCap: number; fallen: boolean };
  iconSituation(situation: object): { boons: number; curses: number; cover: boolean };
  /**
   * Line of sight, cover, adjacency and height from one character to each target on a grid of
   * `grid` pixels a space, past `barriers` (segments in pixels, `height` in levels or null: nothing
   * sees past it). One answer per target, in order; `coverBy`/`blockedBy` index `barriers`.
   */
  iconSightlines(request: {
    grid: number;
    from: SightBody;
    targets: SightBody[];
    barriers?: { a: [number, number]; b: [number, number]; height?: number | null }[];
  }): { sight: boolean; cover: boolean; coverBy: number | null; blockedBy: number | null; adjacent: boolean; heightDifference: number; distance: number }[];
  /** A token's move as ICON prices it (engagement, difficult terrain) and what it breaks. */
  iconMovement(request: {
    grid: number;
    mover: SightBody;
    mode?: { dash?: boolean; flying?: boolean; phasing?: boolean; skirmisher?: boolean; unstoppable?: boolean; immobile?: boolean };
    path: [number, number][];
    others?: { body: SightBody; foe?: boolean; solid?: boolean }[];
    difficult?: [number, number][];
    walls?: { a: [number, number]; b: [number, number]; height?: number | null }[];
    /** `path` is waypoints, joined by the cheapest route that breaks no rule. */
    route?: boolean;
  }): {
    cost: number;
    steps: { to: [number, number]; cost: number; engaged: boolean; difficult: boolean }[];
    problems: { step: number; problem: "immobile" | "diagonal" | "obstructed" | "wall" | "endsOccupied"; by: number | null }[];
  };
  iconSaveable(statuses: string[]): string[];
  /** What is left once the character uses an ability: stunned ends, stealth too unless `dash` (default false). */
  iconAfterAbility(statuses: string[], options?: { dash?: boolean }): string[];
  /** The statuses that take effect (in order, `+` kept): an Unstoppable character's statuses are left out. */
  iconEffectiveStatuses(statuses: string[]): string[];
  rulesetTables(): RulesetTables;
  mnsLookup(query: { table: string; [field: string]: unknown }): Record<string, unknown>;
  Rng: new (seed?: Seed) => Rng;
}

/** A glossary term: `key` is the lowercase term without its placeholder, for matching status ids. */
export interface GlossaryTerm {
  term: string;
  key: string;
  definition: string;
  page: string;
  /** The heading the term sits under on its page, if any. */
  section: string | null;
}

export interface ImportOptions {
  format?: "auto" | "nedb" | "json";
  force?: boolean;
}

/** The pack importer's API: module/packs/importer.mjs (`loadImporter()`), a wasm module of its own. */
export interface ImporterApi {
  importPack(text: string, options?: ImportOptions): { documents: object[]; report: ImportReport };
  glossaryTerms(html: string, page: string): GlossaryTerm[];
  glossary(text: string, options?: ImportOptions): GlossaryTerm[];
  version(): string;
}

/** A character on the grid for `iconSightlines`: its top-left space, size in spaces, level and height (1–3). */
export interface SightBody {
  i: number;
  j: number;
  rows?: number;
  cols?: number;
  level?: number;
  height?: number;
}
