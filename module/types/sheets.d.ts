/**
 * The Handlebars document-sheet bases of the ICON sheets, for foundry-vtt-types. Type-checking only.
 *
 * Checking `class X extends HandlebarsApplicationMixin(ActorSheetV2)` in our own code makes
 * TypeScript 5.9 compare the mixin's intersection of constructors against foundry-vtt-types
 * 13.345's self-referential render-context types: TS2589 (excessively deep), about a minute and
 * 3 GB per run. Declared once here with explicit type parameters, as foundry-vtt-types declares
 * its own mixed sheets (e.g. `DocumentSheetConfig`), the mixin's type is resolved once and the
 * sheets are checked against the real ApplicationV2 / DocumentSheetV2 / ActorSheetV2 members.
 * module/applications/sheets/*.mjs cast the run-time `HandlebarsApplicationMixin(ActorSheetV2)`
 * to these (a checked cast: the mixin's type must be comparable to the declared class).
 */

/** Render options of a Handlebars actor sheet: the document sheet's, plus `parts`. */
export interface HandlebarsActorSheetRenderOptions
  extends foundry.applications.sheets.ActorSheetV2.RenderOptions,
    foundry.applications.api.HandlebarsApplicationMixin.RenderOptions {}

/**
 * Render options of a Handlebars item sheet. (foundry-vtt-types 13.345 does not export ItemSheetV2's
 * namespace, so its RenderOptions/RenderContext/Configuration are spelled as DocumentSheetV2's, which
 * they extend without adding anything.)
 */
export interface HandlebarsItemSheetRenderOptions
  extends foundry.applications.api.DocumentSheetV2.RenderOptions,
    foundry.applications.api.HandlebarsApplicationMixin.RenderOptions {}

/** `HandlebarsApplicationMixin(ActorSheetV2)`, with its type parameters given. */
export declare class HandlebarsActorSheet<
  RenderContext extends foundry.applications.sheets.ActorSheetV2.RenderContext = foundry.applications.sheets.ActorSheetV2.RenderContext,
  Configuration extends foundry.applications.sheets.ActorSheetV2.Configuration = foundry.applications.sheets.ActorSheetV2.Configuration,
  RenderOptions extends HandlebarsActorSheetRenderOptions = HandlebarsActorSheetRenderOptions,
> extends foundry.applications.api.HandlebarsApplicationMixin(foundry.applications.sheets.ActorSheetV2)<
  RenderContext,
  Configuration,
  RenderOptions
> {}

/** `HandlebarsApplicationMixin(ItemSheetV2)`, with its type parameters given. */
export declare class HandlebarsItemSheet<
  RenderContext extends foundry.applications.api.DocumentSheetV2.RenderContext<Item.Implementation> = foundry.applications.api.DocumentSheetV2.RenderContext<Item.Implementation>,
  Configuration extends foundry.applications.api.DocumentSheetV2.Configuration<Item.Implementation> = foundry.applications.api.DocumentSheetV2.Configuration<Item.Implementation>,
  RenderOptions extends HandlebarsItemSheetRenderOptions = HandlebarsItemSheetRenderOptions,
> extends foundry.applications.api.HandlebarsApplicationMixin(foundry.applications.sheets.ItemSheetV2)<
  RenderContext,
  Configuration,
  RenderOptions
> {}

export type DeepPartial<T extends object> = import("@league-of-foundry-developers/foundry-vtt-types/utils").DeepPartial<T>;

/** What `_prepareContext` gets: the render options so far, and whether this is the first render. */
export type ActorSheetContextOptions = DeepPartial<HandlebarsActorSheetRenderOptions> & { isFirstRender: boolean };
export type ItemSheetContextOptions = DeepPartial<HandlebarsItemSheetRenderOptions> & { isFirstRender: boolean };

/** The same for a plain ApplicationV2 (the dialogs, the clock panel). */
export type ApplicationContextOptions = DeepPartial<foundry.applications.api.ApplicationV2.RenderOptions> & { isFirstRender: boolean };
/**
 * What a plain ApplicationV2's `_prepareContext` returns: Foundry's (all optional) context plus
 * the template's own fields (without the index signature, TypeScript's weak-type check refuses a
 * context that shares no field with Foundry's).
 */
export type ApplicationContext = foundry.applications.api.ApplicationV2.RenderContext & Record<string, unknown>;
/** `_onRender`/`_onFirstRender`'s arguments of a plain ApplicationV2. */
export type ApplicationRenderContext = DeepPartial<foundry.applications.api.ApplicationV2.RenderContext>;
export type ApplicationRenderOptions = DeepPartial<foundry.applications.api.ApplicationV2.RenderOptions>;
