/**
 * Plain-data types of the ICON system data, derived from the data models' schemas (module/data),
 * for the pure functions that take system data (sheet contexts, rules, requests). Type-checking
 * only; nothing here exists at run time.
 */
import type CharacterData from "../data/character-data.mjs";
import type FoeData from "../data/foe-data.mjs";
import type HeroData from "../data/hero-data.mjs";
import type AbilityData from "../data/ability-data.mjs";
import type { defineHeroSchema } from "../data/hero-data.mjs";
import type { IconDerived } from "../data/base-actor-data.mjs";

type SourceData<Schema extends foundry.data.fields.DataSchema> = foundry.data.fields.SchemaField.SourceData<Schema>;

/** A character's `system` source (as stored). */
export type CharacterSource = SourceData<ReturnType<typeof CharacterData.defineSchema>>;
/** A foe's `system` source. */
export type FoeSource = SourceData<ReturnType<typeof FoeData.defineSchema>>;
/**
 * A hero's `system` source: every ruleset's block. HeroData itself is typed with the biography
 * only (module/data/hero-data.mjs), so this is what the hero sheet reads its stats as.
 */
export type HeroSource = SourceData<ReturnType<typeof defineHeroSchema>>;
/** An ability item's `system` source. */
export type AbilitySource = SourceData<ReturnType<typeof AbilityData.defineSchema>>;

/** Prepared system data: the source plus what `prepareDerivedData` adds (null while the core loads). */
export type Prepared<Source> = Source & { derived: IconDerived | null };
export type CharacterSystem = Prepared<CharacterSource>;
export type FoeSystem = Prepared<FoeSource>;

/** The system data of the actor types with ICON health (HP, vigor, wounds). */
export type IconHealthSystem = CharacterData | FoeData;

/** An actor of a type with ICON health (a character or a foe). */
export type IconHealthActor = Actor.Implementation & { system: IconHealthSystem };

/** The system data of ICON's own actor types (the ICON sheets are registered for these only). */
export type IconActorSystem = CharacterData | FoeData | HeroData;

/** A character's system data as the narrative rules read it: action ratings by name. */
export type CharacterNarrative = Omit<CharacterSource, "actions"> & { actions: Record<string, number> };
