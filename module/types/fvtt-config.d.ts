/**
 * Tells foundry-vtt-types about this system: its document classes, data models, flags and globals.
 * Type-checking only; nothing here exists at run time.
 */
import type { ICONENGINE } from "../config.mjs";
import type IconActor from "../documents/icon-actor.mjs";
import type IconItem from "../documents/icon-item.mjs";
import type IconCombat from "../documents/icon-combat.mjs";
import type IconCombatant from "../documents/icon-combatant.mjs";
import type IconRoll from "../dice/icon-roll.mjs";
import type { OddsReportData } from "../dice/odds-report.mjs";
import type { AppliedDamage } from "../dice/cards/icon-tactical.mjs";
import type CharacterData from "../data/character-data.mjs";
import type FoeData from "../data/foe-data.mjs";
import type HeroData from "../data/hero-data.mjs";
import type AbilityData from "../data/ability-data.mjs";
import type RelicData from "../data/relic-data.mjs";
import type TraitData from "../data/trait-data.mjs";
import type IconCombatData from "../data/combat-data.mjs";
import type IconCombatantData from "../data/combatant-data.mjs";

declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  interface AssumeHookRan {
    init: never;
  }

  interface SystemNameConfig {
    name: "icon-engine";
  }

  interface DocumentClassConfig {
    Actor: typeof IconActor;
    Item: typeof IconItem;
    Combat: typeof IconCombat;
    Combatant: typeof IconCombatant;
  }

  interface DataModelConfig {
    Actor: {
      character: typeof CharacterData;
      foe: typeof FoeData;
      hero: typeof HeroData;
    };
    Item: {
      ability: typeof AbilityData;
      relic: typeof RelicData;
      trait: typeof TraitData;
    };
    /** Every Combat and Combatant is of the core "base" type (module/data/combat-data.mjs). */
    Combat: {
      base: typeof IconCombatData;
    };
    Combatant: {
      base: typeof IconCombatantData;
    };
  }

  /** World settings of narrative play (module/applications/narrative/clock-panel.mjs). */
  interface SettingConfig {
    "icon-engine.clocks": { id: string; name: string; segments: number; filled: number }[];
    "icon-engine.position": { risk: string; effect: string };
  }

  namespace Hooks {
    /** The system's own hooks, for other modules. */
    interface HookConfig {
      /** Party resolve changed (module/documents/combat-effects.mjs): the combat and the new value. */
      "iconEngine.partyResolve": (combat: Combat.Implementation, partyResolve: number) => void;
      /**
       * Foundry v13's: the scene controls by name, each with its tools by name
       * (SceneControls#_getControlButtons). foundry-vtt-types 13.345 leaves it commented out
       * ("needs individual attention"); module/applications/narrative/clock-panel.mjs adds a tool.
       */
      getSceneControlButtons: (controls: Record<string, foundry.applications.ui.SceneControls.Control>) => void;
    }
  }

  interface FlagConfig {
    Actor: {
      "icon-engine"?: {
        /** Interrupts used since the start of the actor's turn ("interrupts refresh at the start of the owner's turn"). */
        interruptsUsed?: number;
        /** Slashed damage taken in the current turn ("no more than once a turn"; module/data/slashed.mjs). */
        slashedThisTurn?: boolean;
        /** Dangerous terrain damage taken in the current turn ("only ... once a turn"; module/data/terrain.mjs). */
        terrainThisTurn?: boolean;
      };
    };
    /** Status effects (module/data/status-effects.mjs, health-changes.mjs). */
    ActiveEffect: {
      "icon-engine"?: {
        /** "state" for the plain states the core adds (immune, fallen); ICON statuses have their group. */
        kind?: string;
        /** An ongoing status, which a save cannot remove. */
        ongoing?: boolean;
        /** A mark: which, placed by whom (an actor UUID and its name; module/data/marks.mjs). */
        mark?: { mark: string; placer: string; placerName: string };
      };
    };
    ChatMessage: {
      "icon-engine": {
        odds?: OddsReportData;
        /** Narrative card buttons already used (strain settled, clock ticked). */
        applied?: string[];
        /** Attack cards: damage applied per target key, with its breakdown and undo data. */
        damageApplied?: Record<string, AppliedDamage>;
        /** End-of-turn save cards (module/documents/combat-effects.mjs): whose statuses can be saved against. */
        saves?: { actorUuid: string; statuses: string[] };
        /** A turn announcement (module/documents/combat-effects.mjs), one of the system's own cards. */
        announcement?: boolean;
        /** Tactical messages: who attacked with what. */
        tactical?: { attacker?: string; ability?: string | null };
        /** The `/icon help` card (module/applications/chat-commands.mjs). */
        help?: boolean;
      };
    };
    Token: {
      "icon-engine"?: {
        /** A summon, removed at the end of combat: the UUID of its summoner's token or actor (`true`: summoner not known). */
        summoned?: string | boolean;
      };
    };
  }
}

declare global {
  interface CONFIG {
    ICONENGINE: typeof ICONENGINE;
  }

  /** The system's API, for macros and other modules. */
  var iconEngine: {
    applications: typeof import("../applications/_module.mjs");
    core: typeof import("../core.mjs");
    data: typeof import("../data/_module.mjs");
    dice: typeof import("../dice/_module.mjs");
    documents: typeof import("../documents/_module.mjs");
    CONFIG: typeof ICONENGINE;
  };
}

export type { IconRoll };
