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
import type { ClassData, FoeTemplateData, JobData } from "../data/grant-data.mjs";
import type { UseEffect } from "../applications/item-use.mjs";
import type { CardRecord } from "../data/card-data.mjs";
import type { AppliedEffect } from "../dice/cards/ability-card.mjs";
import type { AreaFlag } from "../canvas/template-data.mjs";
import type { GrantFlag } from "../documents/item-grants.mjs";
import type { UseConfig, UseOutcome } from "../applications/item-use.mjs";
import type { AttackState } from "../dice/tactical-requests.mjs";
import type { Moment } from "../data/ability-rules.mjs";
import type { api } from "../api.mjs";
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
      class: typeof ClassData;
      job: typeof JobData;
      foeTemplate: typeof FoeTemplateData;
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
    /**
     * Foundry v12+'s world setting Square Grid Diagonals (one of CONST.GRID_DIAGONALS; its default is
     * system.json's `grid.diagonals`: foundryvtt/foundryvtt#9998). foundry-vtt-types 13.345 lacks it.
     */
    "core.gridDiagonals": number;
  }

  namespace Hooks {
    /** The system's own hooks, for other modules. */
    interface HookConfig {
      /** The system's hooks for other modules (module/hooks.mjs; docs/api.md lists each). A `pre` hook returning false cancels. */
      "icon-engine.preUseItem": (item: Item.Implementation, config: UseConfig) => boolean | void;
      "icon-engine.useItem": (item: Item.Implementation, outcome: UseOutcome) => void;
      "icon-engine.preCreateTemplate": (item: Item.Implementation, data: Record<string, unknown>) => boolean | void;
      "icon-engine.createTemplate": (item: Item.Implementation, template: import("../canvas/area-placement.mjs").AreaDocument, tokens: TokenDocument.Implementation[]) => void;
      "icon-engine.preAttack": (actor: Actor.Implementation, state: AttackState, context: { ability: Item.Implementation | null }) => boolean | void;
      "icon-engine.attack": (actor: Actor.Implementation, message: ChatMessage.Implementation | null | undefined, state: AttackState, context: { ability: Item.Implementation | null }) => void;
      "icon-engine.preDamage": (actor: Actor.Implementation, request: Record<string, unknown>, context: { target: object | null; key: number; result: string }) => boolean | void;
      "icon-engine.damage": (actor: Actor.Implementation, roll: IconRoll, context: { target: object | null; key: number; result: string }) => void;
      "icon-engine.preApplyDamage": (target: Actor.Implementation, change: { amount: number; options: Record<string, unknown> }) => boolean | void;
      "icon-engine.applyDamage": (target: Actor.Implementation, applied: AppliedDamage) => void;
      "icon-engine.preSave": (actor: Actor.Implementation, request: { status: string | null; boons: number; curses: number; bonus: number; blessing: boolean }) => boolean | void;
      "icon-engine.save": (actor: Actor.Implementation, roll: IconRoll, message: ChatMessage.Implementation | null | undefined) => void;
      "icon-engine.preApplyEffect": (target: Actor.Implementation, change: { effect: UseEffect; inflicter: Actor.Implementation | null }) => boolean | void;
      "icon-engine.applyEffect": (target: Actor.Implementation, done: { effect: UseEffect; inflicter: Actor.Implementation | null; landed: boolean }) => void;
      "icon-engine.preTurnChange": (combat: Combat.Implementation, event: Record<string, unknown>, context: { user: User.Implementation | null; state: unknown }) => boolean | void;
      "icon-engine.turnChange": (combat: Combat.Implementation, change: { events: Record<string, unknown>[]; effects: { type: string; id?: string }[]; state: unknown }) => void;
      "icon-engine.roundChange": (combat: Combat.Implementation, round: number, previous: number) => void;
      "icon-engine.preGrantItems": (actor: Actor.Implementation, grant: { source: Item.Implementation; items: Record<string, unknown>[] }) => boolean | void;
      "icon-engine.grantItems": (actor: Actor.Implementation, created: Item.Implementation[], source: Item.Implementation) => void;
      "icon-engine.recharge": (actor: Actor.Implementation, moment: Moment, updates: Record<string, unknown>[]) => void;
      /** Party resolve changed (module/documents/combat-effects.mjs): the combat and the new value. */
      "icon-engine.partyResolve": (combat: Combat.Implementation, partyResolve: number) => void;
      /**
       * Foundry v13's: the scene controls by name, each with its tools by name
       * (SceneControls#_getControlButtons). foundry-vtt-types 13.345 leaves it commented out
       * ("needs individual attention"); module/applications/narrative/clock-panel.mjs adds a tool.
       */
      getSceneControlButtons: (controls: Record<string, foundry.applications.ui.SceneControls.Control>) => void;
      /**
       * Foundry v13's and v14's (API `hookEvents.preMoveToken`): before a token moves, on the
       * mover's client; false prevents the move. foundry-vtt-types 13.345 does not declare it;
       * module/canvas/token-movement.mjs reads the movement through its own typedef.
       */
      preMoveToken: (document: TokenDocument.Implementation, movement: unknown, operation: object) => boolean | void;
    }
  }

  interface FlagConfig {
    Actor: {
      "icon-engine"?: {
        /** Uses of each interrupt ability (by item id) since the start of the actor's turn ("interrupts refresh at the start of the owner's turn"). */
        interruptsUsed?: Record<string, number>;
        /** Slashed damage taken in the current turn ("no more than once a turn"; module/data/slashed.mjs). */
        slashedThisTurn?: boolean;
        /** Dangerous terrain damage taken in the current turn ("only ... once a turn"; module/data/terrain.mjs). */
        terrainThisTurn?: boolean;
        /** The turn (ActorTurns.turnStamp) each Combo ability was last used in: not both versions in one turn. */
        comboTurns?: Record<string, string>;
        /** The messages whose action rolls this character paid aid for (module/applications/narrative/aid-effort.mjs). */
        aidPaid?: string[];
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
        /**
         * An ability's status that lasts to the end of its bearer's next turn (module/documents/item-recharge.mjs),
         * as v13 and older worlds hold it; v14 writes the effect's `duration.expiry` instead (module/data/effect-duration.mjs).
         */
        endsAtTurnEnd?: boolean;
        /** The card whose part put the status on (module/applications/card-actions.mjs). */
        source?: { card: string | null; name: string };
        /** The stance or aura (an effect's uuid) this ongoing effect lasts with (module/documents/lasting-effects.mjs). */
        cause?: string;
        /** A stance's or an aura's own effect. */
        lasting?: import("../documents/lasting-effects.mjs").LastingFlag;
      };
    };
    Item: {
      "icon-engine"?: {
        /** What class, job or foe template gave the item (module/documents/item-grants.mjs). */
        grant?: GrantFlag;
        /** The content pack and record it was imported from (module/packs/content-pack.mjs). */
        contentPack?: { pack: string; id: string };
      };
    };
    Macro: {
      "icon-engine"?: {
        /** A hotbar macro that uses this item (module/applications/hotbar.mjs). */
        itemMacro?: string;
      };
    };
    MeasuredTemplate: {
      "icon-engine"?: {
        /** An ICON area (module/canvas/template-data.mjs). */
        area?: AreaFlag;
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
        /** An item's use card from before ability cards (shown as stored, without its buttons). */
        use?: object;
        /** An ability's card (module/data/card-data.mjs), a claim its readers cut to shape. */
        card?: CardRecord;
        /** An ability card's parts applied on the author's own client, by `${key}` then part index. */
        effectsApplied?: Record<string, Record<string, AppliedEffect>>;
        /** Counter dealt back per target key (stays dealt after an undo of the damage). */
        counterDealt?: Record<string, boolean>;
        /** A save rolled from an ability card: the card's message and the target's key. */
        saveFor?: { message: string; key: number };
        /** A healing card: whose health it changed and how to undo it (its author's record, over actors they own). */
        healed?: { actor: string; undo: import("../data/health-changes.mjs").HealthUndo };
        /** The healing card was undone. */
        healUndone?: boolean;
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
    canvas: typeof import("../canvas/_module.mjs");
    api: typeof api;
    CONFIG: typeof ICONENGINE;
  };
}

export type { IconRoll };
