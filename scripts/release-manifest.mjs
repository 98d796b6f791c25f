/**
 * What a release is made of, as plain functions the release command (scripts/release.mjs), the
 * build (scripts/build.sh writes dist's manifest through `release.mjs --manifest`) and the tests
 * share:
 *   - the version, kept in five places that must agree (system.json, package.json,
 *     package-lock.json, Cargo.toml's [package], Cargo.lock's own entry) and in CHANGELOG.md;
 *   - the repository base, taken from one place: ICON_ENGINE_REPOSITORY at build time, else
 *     package.json's `repository`; every URL of the manifest is derived from it and the version
 *     (GitHub's release layout, as Lancer publishes: the manifest of the latest release, the zip of
 *     this version);
 *   - the manifest's shape, checked by the TypeScript compiler against foundry-vtt-types' v13
 *     package declarations (BaseSystem's schema), so the check follows the declarations.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file is in scripts/). */
export const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The environment variable that sets the repository base at build time. */
export const REPOSITORY_ENV = "ICON_ENGINE_REPOSITORY";

/** The zip a release attaches, and the manifest beside it. */
export const ZIP_NAME = "icon-engine.zip";
export const MANIFEST_NAME = "system.json";

/** The README's screenshots, published as the manifest's media (docs/screenshots/). */
export const SCREENSHOTS = Object.freeze([
  { file: "character-sheet.png", caption: "The character sheet in Foundry's light theme (Combat tab: HP and vigor bars, wounds, stat block, attack and healing buttons) and dark theme (Narrative tab: action ratings, strain, a burden clock, bonds)" },
  { file: "attack-card.png", caption: "An attack in the light theme: the dialog with the target's exact odds to hit, crit and exceed before the roll, and the chat card the roll makes, its damage applied with Undo" },
  { file: "combat-tracker.png", caption: "The combat tracker in the dark theme, mid-round: the party acting next, a character's turn under way, party resolve, Undo and End combat" },
  { file: "abilities.png", caption: "A character's abilities, traits and relics as cards in the light theme (cost, reach, area, charges, tags, Use; one spent), and the use card an ability posts in the dark theme, a button per effect" }
]);

/** The manifest fields derived from the repository base and the version (absent without a base). */
export const DERIVED_FIELDS = Object.freeze(["url", "manifest", "download", "bugs", "readme", "changelog", "media"]);

/** A release version: plain major.minor.patch, which Cargo, npm and Foundry all order the same way. */
const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/**
 * @param {string} version
 * @returns {boolean}
 */
export function isVersion(version) {
  return VERSION.test(version);
}

/**
 * Compares two release versions numerically.
 * @param {string} a
 * @param {string} b
 * @returns {number} negative, 0 or positive as a is older, equal or newer
 */
export function compareVersions(a, b) {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

/**
 * @param {string} root
 * @param {string} file
 */
const readText = (root, file) => readFileSync(join(root, file), "utf8");

/**
 * @param {string} root
 * @param {string} file
 * @returns {any}
 */
export const readJson = (root, file) => JSON.parse(readText(root, file));

/**
 * The same JSON layout the files already have (2 spaces, a final newline), so a bump changes
 * only the version lines.
 * @param {unknown} value
 */
export const jsonText = value => `${JSON.stringify(value, null, 2)}\n`;

/** Cargo.toml's own version: the first `version =` line of the [package] table. */
const CARGO_TOML_VERSION = /^(\[package\][^[]*?^version\s*=\s*")([^"]*)(")/m;
/** Cargo.lock's entry for this crate. */
const CARGO_LOCK_VERSION = /^(\[\[package\]\]\nname = "icon-engine"\nversion = ")([^"]*)(")/m;

/**
 * Every place the version is written, read from a checkout.
 * @param {string} root
 * @returns {Record<string, string|undefined>} file (and field) -> version
 */
export function readVersions(root) {
  const lock = readJson(root, "package-lock.json");
  return {
    "system.json": readJson(root, "system.json").version,
    "package.json": readJson(root, "package.json").version,
    "package-lock.json": lock.version,
    'package-lock.json packages[""]': lock.packages?.[""]?.version,
    "Cargo.toml [package]": CARGO_TOML_VERSION.exec(readText(root, "Cargo.toml"))?.[2],
    "Cargo.lock icon-engine": CARGO_LOCK_VERSION.exec(readText(root, "Cargo.lock"))?.[2]
  };
}

/**
 * Writes `version` into every place readVersions reads, changing nothing else.
 * @param {string} root
 * @param {string} version
 * @param {(file: string, text: string) => void} write
 */
export function bumpVersions(root, version, write) {
  const system = readJson(root, "system.json");
  system.version = version;
  write("system.json", jsonText(withRepositoryFields(system, repositoryBase({}, readJson(root, "package.json")).declared)));
  const pkg = readJson(root, "package.json");
  pkg.version = version;
  write("package.json", jsonText(pkg));
  const lock = readJson(root, "package-lock.json");
  lock.version = version;
  if (lock.packages?.[""]) lock.packages[""].version = version;
  write("package-lock.json", jsonText(lock));
  for (const [file, pattern] of /** @type {const} */ ([["Cargo.toml", CARGO_TOML_VERSION], ["Cargo.lock", CARGO_LOCK_VERSION]])) {
    const text = readText(root, file);
    if (!pattern.test(text)) throw new Error(`${file}: cannot find this crate's version line to bump`);
    write(file, text.replace(pattern, (_, before, _old, after) => `${before}${version}${after}`));
  }
}

/**
 * The repository base: ICON_ENGINE_REPOSITORY if set, else package.json's `repository` (a string
 * or {url}). `declared` is that URL tidied (no git+ or .git), which the committed system.json
 * carries. `base` is the same when a user could download from it, else null: unset, not https, or
 * a placeholder under the reserved `.invalid` domain (RFC 2606), which is what the repository
 * declares until it has a public home. Builds and releases use `base`.
 * @param {Record<string, string|undefined>} env
 * @param {{repository?: string|{url?: string}}} pkg
 * @returns {{base: string|null, declared: string|null, from: string|null, reason: string}}
 */
export function repositoryBase(env, pkg) {
  const fromEnv = env[REPOSITORY_ENV]?.trim();
  const fromPkg = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;
  const raw = fromEnv || fromPkg?.trim();
  const from = fromEnv ? REPOSITORY_ENV : fromPkg ? "package.json repository" : null;
  if (!raw) return { base: null, declared: null, from, reason: `neither ${REPOSITORY_ENV} nor package.json's repository is set` };
  const declared = raw.replace(/^git\+/, "").replace(/\.git$/, "").replace(/\/+$/, "");
  let url;
  try {
    url = new URL(declared);
  } catch {
    return { base: null, declared: null, from, reason: `${from} (${raw}) is not a URL` };
  }
  if (url.protocol !== "https:") return { base: null, declared, from, reason: `${from} (${raw}) is not an https URL` };
  if (url.hostname === "invalid" || url.hostname.endsWith(".invalid")) {
    return { base: null, declared, from, reason: `${from} (${raw}) is a placeholder (.invalid)` };
  }
  return { base: declared, declared, from, reason: "" };
}

/**
 * The manifest fields derived from a repository base and a version (GitHub's layout): the
 * manifest is the latest release's, so installed copies see updates; the download is this
 * version's zip; readme, changelog and screenshots are read at this version's tag.
 * @param {string} base
 * @param {string} version
 */
export function repositoryFields(base, version) {
  const tag = `v${version}`;
  return {
    url: base,
    manifest: `${base}/releases/latest/download/${MANIFEST_NAME}`,
    download: `${base}/releases/download/${tag}/${ZIP_NAME}`,
    bugs: `${base}/issues`,
    readme: `${base}/blob/${tag}/README.md`,
    changelog: `${base}/blob/${tag}/CHANGELOG.md`,
    media: SCREENSHOTS.map(({ file, caption }) => ({
      type: "screenshot",
      url: `${base}/raw/${tag}/docs/screenshots/${file}`,
      caption
    }))
  };
}

/**
 * The manifest with its derived fields set for `base` and its own version, or removed when there
 * is no base. Other fields keep their order; derived fields take the places they had, new ones go
 * after `license`.
 * @param {Record<string, unknown>} manifest
 * @param {string|null} base
 * @returns {Record<string, unknown>}
 */
export function withRepositoryFields(manifest, base) {
  /** @type {Record<string, unknown>} */
  const derived = base ? repositoryFields(base, String(manifest.version)) : {};
  /** @type {Record<string, unknown>} */
  const out = {};
  const place = () => {
    for (const key of DERIVED_FIELDS) if (key in derived && !(key in out)) out[key] = derived[key];
  };
  for (const [key, value] of Object.entries(manifest)) {
    if (DERIVED_FIELDS.includes(key)) {
      if (key in derived) out[key] = derived[key];
    } else out[key] = value;
    if (key === "license") place();
  }
  place();
  return out;
}

/**
 * What is wrong with a checkout's release metadata: the versions disagree, system.json's derived
 * fields are not those of package.json's repository and the version, or CHANGELOG.md has no
 * section for the version. Empty when all is well.
 * @param {string} root
 * @returns {string[]}
 */
export function releaseProblems(root) {
  const problems = [];
  const versions = readVersions(root);
  const expected = versions["system.json"];
  for (const [where, version] of Object.entries(versions)) {
    if (version === undefined) problems.push(`${where}: no version found`);
    else if (!isVersion(version)) problems.push(`${where}: version "${version}" is not major.minor.patch`);
    else if (version !== expected) problems.push(`${where}: version ${version}, but system.json says ${expected}`);
  }
  const system = readJson(root, "system.json");
  const { declared } = repositoryBase({}, readJson(root, "package.json"));
  const want = withRepositoryFields(system, declared);
  for (const key of DERIVED_FIELDS) {
    if (JSON.stringify(system[key]) !== JSON.stringify(want[key])) {
      problems.push(`system.json: ${key} is ${JSON.stringify(system[key])}, but package.json's repository and the version give ${JSON.stringify(want[key])}`);
    }
  }
  if (expected && !changelogSection(readText(root, "CHANGELOG.md"), expected)) {
    problems.push(`CHANGELOG.md: no "## [${expected}]" section`);
  }
  return problems;
}

/** A second-level heading of CHANGELOG.md: `## [Unreleased]` or `## [1.2.3] - 2026-01-31`. */
const SECTION = /^## \[([^\]]+)\][^\n]*\n/gm;

/**
 * The text of one CHANGELOG section (without its heading), or null when there is none.
 * @param {string} changelog
 * @param {string} name "Unreleased" or a version
 * @returns {string|null}
 */
export function changelogSection(changelog, name) {
  const headings = [...changelog.matchAll(SECTION)];
  const index = headings.findIndex(m => m[1] === name);
  if (index < 0) return null;
  const start = /** @type {number} */ (headings[index].index) + headings[index][0].length;
  const end = headings[index + 1]?.index ?? changelog.length;
  return changelog.slice(start, end).trim();
}

/**
 * Moves the Unreleased section's entries under a new heading for `version` (Keep a Changelog),
 * leaving Unreleased empty.
 * @param {string} changelog
 * @param {string} version
 * @param {string} date YYYY-MM-DD
 * @returns {{text: string, notes: string}}
 */
export function cutChangelog(changelog, version, date) {
  const notes = changelogSection(changelog, "Unreleased");
  if (notes === null) throw new Error('CHANGELOG.md has no "## [Unreleased]" section');
  if (!notes) throw new Error(`CHANGELOG.md's Unreleased section is empty: write what ${version} changes first`);
  if (changelogSection(changelog, version) !== null) throw new Error(`CHANGELOG.md already has a section for ${version}`);
  const heading = /^## \[Unreleased\][^\n]*\n/m;
  const match = /** @type {RegExpExecArray} */ (heading.exec(changelog));
  const start = match.index + match[0].length;
  const next = [...changelog.matchAll(SECTION)].find(m => /** @type {number} */ (m.index) > match.index);
  const end = next?.index ?? changelog.length;
  const text = `${changelog.slice(0, start)}\n## [${version}] - ${date}\n\n${notes}\n\n${changelog.slice(end).replace(/^\n+/, "")}`;
  return { text: text.replace(/\n*$/, "\n"), notes };
}

/**
 * Foundry's own checks on a manifest that types cannot say (BasePackage's schema validators,
 * read in foundry-vtt-types' base-package.d.mts and the v13 source it declares): the package id's
 * characters, pack names without periods, languages Intl knows, non-blank required strings.
 * @param {any} manifest
 * @returns {string[]}
 */
export function manifestValueProblems(manifest) {
  const problems = [];
  if (typeof manifest.id === "string") {
    if (!/^[A-Za-z0-9-_]+$/.test(manifest.id)) problems.push(`id "${manifest.id}": only letters, digits, - and _`);
    if (/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(manifest.id)) problems.push(`id "${manifest.id}" is a name operating systems reserve`);
  }
  for (const key of ["id", "title", "version"]) {
    if (typeof manifest[key] !== "string" || !manifest[key]) problems.push(`${key} must be a non-empty string`);
  }
  for (const [i, pack] of (manifest.packs ?? []).entries()) {
    if (typeof pack.name === "string" && pack.name.includes(".")) problems.push(`packs[${i}].name "${pack.name}" may not contain periods`);
    for (const key of ["name", "label", "path"]) if (!pack[key]) problems.push(`packs[${i}].${key} must not be blank`);
    // CONST.SYSTEM_SPECIFIC_COMPENDIUM_TYPES: their packs name the system they belong to
    if (["Actor", "Item"].includes(pack.type) && !pack.system) problems.push(`packs[${i}] holds ${pack.type}s, so it must name its system`);
  }
  for (const [i, language] of (manifest.languages ?? []).entries()) {
    try {
      Intl.getCanonicalLocales(language.lang);
    } catch {
      problems.push(`languages[${i}].lang "${language.lang}" is not a locale Intl.getCanonicalLocales accepts`);
    }
  }
  for (const key of DERIVED_FIELDS.filter(k => k !== "media")) {
    if (key in manifest && !/^https:\/\/[^\s]+$/.test(manifest[key])) problems.push(`${key} "${manifest[key]}" is not an https URL`);
  }
  return problems;
}

/**
 * The manifest type the compiler checks against: foundry-vtt-types' BaseSystem.CreateData (every
 * field and its type, from BaseSystem's and BasePackage's schemas), with the fields whose schema
 * options say `required: true, blank: false` and give no initial value made required (the types
 * package makes every CreateData field optional because Foundry fills initial values, but these
 * have none). Two declarations are stricter than Foundry and are relaxed to what Foundry accepts:
 * documentTypes names any subset of document types (the types want all of them), and a pack's
 * ownership any subset of user roles (the types want every role, though Foundry's own default is
 * {PLAYER, ASSISTANT}).
 */
const MANIFEST_TYPE = `
type Declared = foundry.packages.BaseSystem.CreateData;
type Options<F> = F extends { options: infer O } ? O : never;
type Known<S> = keyof { [K in keyof S as string extends K ? never : number extends K ? never : K]: 0 };
type MustGive<S> = { [K in Known<S>]: K extends keyof S
  ? (Options<S[K]> extends { required: true; blank: false } ? ("initial" extends keyof Options<S[K]> ? never : K) : never)
  : never }[Known<S>];
type Strict<Data, Schema> = Data & { [K in MustGive<Schema> & keyof Data]-?: NonNullable<Data[K]> };
type Pack = Strict<Omit<PackageCompendiumData, "ownership">, foundry.packages.BasePackage.PackageCompendiumSchema>
  & { ownership?: Partial<foundry.packages.BasePackage.OwnershipRecord> };
type Manifest = Strict<Omit<Declared, "documentTypes" | "packs" | "authors" | "languages" | "media">, foundry.packages.BaseSystem.Schema> & {
  documentTypes?: Partial<NonNullable<Declared["documentTypes"]>>;
  packs?: Pack[];
  authors?: Strict<PackageAuthorData, foundry.packages.BasePackage.PackageAuthorSchema>[];
  languages?: Strict<PackageLanguageData, foundry.packages.BasePackage.PackageLanguageSchema>[];
  media?: foundry.data.fields.SchemaField.CreateData<foundry.packages.BasePackage.PackageMediaSchema>[];
};
`;

/**
 * Type-checks manifests against the v13 declarations (MANIFEST_TYPE): each manifest becomes an
 * object literal of type Manifest in an in-memory TypeScript file, so unknown keys (excess
 * property checks), wrong types, pack document types outside COMPENDIUM_DOCUMENT_TYPES and
 * missing required fields are compile errors. About 5 s and 400 MB for any number of manifests.
 * @param {Record<string, unknown>} manifests label -> manifest
 * @param {string} [root] the checkout whose node_modules has the types
 * @returns {Promise<Record<string, string[]>>} label -> the compiler's messages (with line numbers)
 */
export async function manifestTypeErrors(manifests, root = ROOT) {
  const ts = (await import("typescript")).default;
  /** @type {Map<string, string>} */
  const files = new Map();
  /** @type {Map<string, string>} */
  const labels = new Map();
  let n = 0;
  for (const [label, manifest] of Object.entries(manifests)) {
    // The file sits in the checkout so the types resolve from its node_modules; it is never written.
    const file = join(root, `scripts/.manifest-check-${n++}.ts`);
    files.set(file, `${MANIFEST_TYPE}\nconst manifest: Manifest = ${JSON.stringify(manifest, null, 2)};\nexport {};\n`);
    labels.set(file, label);
  }
  const options = {
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.esnext.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: ["@league-of-foundry-developers/foundry-vtt-types"],
    strict: true,
    skipLibCheck: true,
    noEmit: true
  };
  const host = ts.createCompilerHost(options);
  const readSource = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const text = files.get(name);
    return text === undefined ? readSource(name, language, ...rest) : ts.createSourceFile(name, text, language);
  };
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  /** @type {Record<string, string[]>} */
  const out = {};
  const headerLines = MANIFEST_TYPE.split("\n").length;
  for (const [file, label] of labels) {
    const source = program.getSourceFile(file);
    out[label] = ts.getPreEmitDiagnostics(program, source).map(d => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 - headerLines : 0;
      return `${line > 0 ? `manifest line ${line}: ` : ""}${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
    });
  }
  return out;
}
