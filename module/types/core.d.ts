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
  iconSaveable(statuses: string[]): string[];
  iconAfterAbility(statuses: string[]): string[];
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
