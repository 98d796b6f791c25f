/**
 * Holds the browser tests' Foundry stand-in (test/browser/foundry-shim.mjs) to the Foundry v13
 * declarations (@league-of-foundry-developers/foundry-vtt-types, with the system's own
 * configuration in module/types), through the TypeScript compiler API, so the shim cannot invent
 * an API that the module then "works" against.
 *
 * A shim is its entry module and every module it imports by a relative path, transitively (the
 * browser shim is test/browser/foundry-shim.mjs composing test/browser/shim/*.mjs, one file per
 * Foundry namespace): all of them are read as one. What the shim provides is read from their
 * source, whatever it is:
 * - assignments to the global object: `globalThis.X = value`, `globalThis.X.Y = value` (also
 *   `window`/`self`), `Object.assign(globalThis[.X...], {...})`, `Object.defineProperty(globalThis,
 *   "X", {value | get})`, and assignments into a Foundry global the shim does not declare itself
 *   (`game.user = value`);
 * - Handlebars helpers it registers (`Handlebars.registerHelper(name, fn)` or `({name: fn})`):
 *   Foundry's helpers are the functions of `foundry.applications.handlebars`;
 * - hooks it fires or listens to (`Hooks.call/callAll/on/once("name", ...)`).
 * Each provided member is looked up member by member in the declared type of the same path
 * (objects are walked; a class's static and instance members are walked), and each leaf (a
 * function, a primitive, an array) must be assignable to its declared type. A member with no
 * counterpart, an incompatible one, a hook missing from HookConfig (or only deprecated), or a
 * hook call whose arguments do not fit, is a problem.
 *
 * A statement whose leading comment carries `@shim-unchecked <reason>` is skipped (and listed):
 * for what is not Foundry's API at all, such as the page's `shimReady` flag.
 *
 * CLI: `node scripts/shim-conformance.mjs [shim.mjs ...]` (default: the browser shim; each path an
 * entry module) prints what it checked and exits 1 on any problem. `npm run typecheck` runs it.
 */
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_SHIM = join(ROOT, "test/browser/foundry-shim.mjs");
/** The global object's names, and the same-length local names the checker sees instead. */
const GLOBAL_ALIASES = { globalThis: "__shimGlob", window: "__shwn", self: "__sf" };
const GLOBAL_NAMES = /\b(?:globalThis|window|self)\b(?=\s*[.[])/g;
const GLOBAL_OBJECTS = new Set([...Object.keys(GLOBAL_ALIASES), ...Object.values(GLOBAL_ALIASES)]);
const HOOK_METHODS = new Set(["call", "callAll", "on", "once"]);
/** The tag, starting a line of the comment right before a statement. */
const UNCHECKED = /^[ \t]*(?:\/\*\*?|\/\/|\*)?[ \t]*@shim-unchecked\b[ \t]*([^\n]*?)[ \t]*(?:\*\/)?[ \t]*$/m;

/**
 * @typedef {object} ShimReport
 * @property {string[]} files      The shim's modules read (its entry first), from the entry's folder.
 * @property {string[]} checked    Member paths found and held to a declaration.
 * @property {string[]} problems   One line per member with no or an incompatible counterpart.
 * @property {string[]} unchecked  Statements skipped by `@shim-unchecked`, with their reason.
 */

/**
 * A shim's modules: its entry, then each module it imports or re-exports by a relative path
 * (static `import`/`export ... from`), transitively, each once, in the order first met.
 * @param {string} entry  An absolute path.
 * @returns {string[]}
 */
export function shimFiles(entry) {
  const files = [entry];
  for (let i = 0; i < files.length; i++) {
    const info = ts.preProcessFile(ts.sys.readFile(files[i]) ?? "", true, false);
    for (const { fileName } of info.importedFiles) {
      if (!/^\.\.?\//.test(fileName)) continue;
      const path = resolve(dirname(files[i]), fileName);
      if (!files.includes(path)) files.push(path);
    }
  }
  for (const path of files) if (!existsSync(path)) throw new Error(`no shim module at ${path}`);
  return files;
}

/**
 * Check shim files against the declarations. One TypeScript program serves them all, and also
 * checks the system's own declaration files (module/types/*.d.ts), which the typecheck's
 * `skipLibCheck` (needed for foundry-vtt-types itself) would otherwise pass unread: an
 * unresolvable name there silently becomes `any`.
 * @param {string[]} [shims]  Paths of shim modules.
 * @param {{root?: string}} [options]  The project root (its jsconfig.json and module/types).
 * @returns {{shims: Map<string, ShimReport>, declarations: string[]}}  Per shim its report; the
 *   own declaration files' errors.
 */
export function checkShims(shims = [DEFAULT_SHIM], { root = ROOT } = {}) {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, "jsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: diagnostic => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    }
  });
  if (!config) throw new Error(`cannot read ${join(root, "jsconfig.json")}`);
  const typesDir = join(root, "module/types");
  const declarations = readdirSync(typesDir).filter(f => f.endsWith(".d.ts")).map(f => join(typesDir, f));
  const paths = shims.map(s => resolve(s));
  for (const path of paths) if (!existsSync(path)) throw new Error(`no shim at ${path}`);
  /** Each shim's modules (see shimFiles). */
  const modules = new Map(paths.map(path => [path, shimFiles(path)]));

  // One probe module per shim names the globals each provides, so the checker resolves them
  // exactly as module code sees them.
  const roots = new Map(paths.map(path => [path, new Set((modules.get(path) ?? []).flatMap(file =>
    [...globalRoots(ts.createSourceFile(file, ts.sys.readFile(file) ?? "", ts.ScriptTarget.Latest, true))]))]));
  const probes = new Map(paths.map((path, i) => [path, join(root, `test/browser/__shim_probe_${i}__.ts`)]));
  const probeText = (/** @type {string} */ path) => [
    'import type { Hooks as __Hooks } from "@league-of-foundry-developers/foundry-vtt-types/configuration";',
    "declare const __hooks: __Hooks.HookConfig;",
    "declare const __deprecatedHooks: __Hooks.DeprecatedHookConfig;",
    "declare const __helpers: typeof foundry.applications.handlebars;",
    ...[...(roots.get(path) ?? [])].map((name, i) => `const __root_${i} = ${name};`),
    "export {};"
  ].join("\n");
  const probeFor = new Map([...probes].map(([shim, probe]) => [probe, probeText(shim)]));
  // The checker must not learn the shim's globals as declarations: in a JS file TypeScript reads
  // `globalThis.X = value` as declaring the global X (merged into foundry-vtt-types' own X, so the
  // shim would be held to itself), and a file without import/export as a script whose top-level
  // names are global. So the checker sees the global object under a same-length local name (the
  // positions stay), and the shim as the ES module it is (`<script type="module">`).
  for (const path of new Set([...modules.values()].flat())) {
    const text = (ts.sys.readFile(path) ?? "").replace(GLOBAL_NAMES, name => GLOBAL_ALIASES[/** @type {keyof typeof GLOBAL_ALIASES} */ (name)]);
    probeFor.set(path, `${text}\nvar ${Object.values(GLOBAL_ALIASES).join(" = {}, ")} = {};\nexport {};\n`);
  }
  const host = ts.createCompilerHost(config.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (file, language, ...rest) => {
    const text = probeFor.get(resolve(file));
    return text === undefined ? getSourceFile.call(host, file, language, ...rest) : ts.createSourceFile(file, text, language, true);
  };
  host.fileExists = file => probeFor.has(resolve(file)) || fileExists.call(host, file);
  host.readFile = file => probeFor.get(resolve(file)) ?? readFile.call(host, file);
  const program = ts.createProgram({
    rootNames: [...declarations, ...paths, ...probes.values()],
    // Diagnostics are only asked of our own files below, so not skipping lib checks costs nothing else.
    options: { ...config.options, noEmit: true, skipLibCheck: false },
    host
  });
  const checker = program.getTypeChecker();
  const declarationProblems = declarations.flatMap(file => {
    const source = program.getSourceFile(file);
    return source ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)] : [];
  }).map(d => {
    const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
    const where = d.file ? `${d.file.fileName.replace(`${root}/`, "")}${at ? `(${at.line + 1},${at.character + 1})` : ""}` : "";
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });

  const extensions = declaredExtensions(checker, declarations.map(file => program.getSourceFile(file)).filter(f => !!f));
  /** @type {Map<string, ShimReport>} */
  const reports = new Map();
  for (const path of paths) {
    const sources = (modules.get(path) ?? []).map(file => program.getSourceFile(file));
    const probe = program.getSourceFile(/** @type {string} */ (probes.get(path)));
    if (!probe || !sources.every(source => !!source)) throw new Error(`${path}: not in the program`);
    const report = new ShimCheck(checker, /** @type {ts.SourceFile[]} */ (sources), probe, [...(roots.get(path) ?? [])], program, extensions).run();
    reports.set(path, { files: (modules.get(path) ?? []).map(file => relative(dirname(path), file)), ...report });
  }
  return { shims: reports, declarations: declarationProblems };
}

/**
 * Members Foundry v13 has that foundry-vtt-types 13.345 lacks, as module/types declares them: a
 * declared class there that extends a Foundry class (`RollWithChatContext extends
 * foundry.dice.Roll`) adds its own members to that class, for the shim as for the module.
 * @param {ts.TypeChecker} checker
 * @param {ts.SourceFile[]} files  module/types/*.d.ts
 * @returns {Map<ts.Symbol, {statics: ts.Type[], instances: ts.Type[]}>}  By the extended class's symbol.
 */
function declaredExtensions(checker, files) {
  /** @type {Map<ts.Symbol, {statics: ts.Type[], instances: ts.Type[]}>} */
  const found = new Map();
  for (const file of files) {
    for (const statement of file.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name) continue;
      const heritage = statement.heritageClauses?.find(h => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
      const own = checker.getSymbolAtLocation(statement.name);
      if (!heritage || !own) continue;
      const base = checker.getTypeAtLocation(heritage.expression).getSymbol();
      if (!base) continue;
      const entry = found.get(base) ?? { statics: [], instances: [] };
      entry.statics.push(checker.getTypeOfSymbol(own));
      entry.instances.push(checker.getDeclaredTypeOfSymbol(own));
      found.set(base, entry);
    }
  }
  return found;
}

/**
 * The global names a shim writes to (the roots of its provided paths).
 * @param {ts.SourceFile} source
 * @returns {Set<string>}
 */
function globalRoots(source) {
  const names = new Set();
  const declared = localNames(source);
  /** @param {ts.Node} node */
  const visit = node => {
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const path = accessPath(node.left);
      if (path && GLOBAL_OBJECTS.has(path[0]) && path.length > 1) names.add(path[1]);
      else if (path && path.length > 1 && !declared.has(path[0]) && !GLOBAL_OBJECTS.has(path[0])) names.add(path[0]);
    }
    if (ts.isCallExpression(node)) {
      const callee = accessPath(node.expression);
      const target = node.arguments[0] ? accessPath(node.arguments[0]) : null;
      if (callee?.join(".") === "Object.assign" && target && GLOBAL_OBJECTS.has(target[0])) {
        if (target.length > 1) names.add(target[1]);
        else for (const arg of node.arguments.slice(1)) {
          if (ts.isObjectLiteralExpression(arg)) {
            for (const p of arg.properties) if (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) names.add(p.name.text);
          }
        }
      }
      if (callee?.join(".") === "Object.defineProperty" && target?.length === 1 && GLOBAL_OBJECTS.has(target[0])) {
        const key = node.arguments[1];
        if (key && ts.isStringLiteralLike(key)) names.add(key.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/**
 * Names declared anywhere in a file (so an assignment into one is not into a Foundry global).
 * @param {ts.SourceFile} source
 */
function localNames(source) {
  const names = new Set();
  /** @param {ts.Node} node */
  const visit = node => {
    if ((ts.isVariableDeclaration(node) || ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isParameter(node))
      && node.name && ts.isIdentifier(node.name)) names.add(node.name.text);
    if (ts.isImportSpecifier(node) || ts.isNamespaceImport(node) || ts.isImportClause(node)) {
      if (node.name) names.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/**
 * `a.b["c"].d` as ["a", "b", "c", "d"], or null for anything else.
 * @param {ts.Expression} node
 * @returns {string[] | null}
 */
function accessPath(node) {
  if (ts.isIdentifier(node)) return [node.text];
  if (ts.isParenthesizedExpression(node)) return accessPath(node.expression);
  if (ts.isPropertyAccessExpression(node)) {
    const head = accessPath(node.expression);
    return head && [...head, node.name.text];
  }
  if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
    const head = accessPath(node.expression);
    return head && [...head, node.argumentExpression.text];
  }
  return null;
}

/**
 * The checker's id of a type (every type object has one; the public API does not declare it).
 * @param {ts.Type} type
 * @returns {number}
 */
const typeId = type => /** @type {ts.Type & {id: number}} */ (type).id;

class ShimCheck {
  /**
   * @param {ts.TypeChecker} checker
   * @param {ts.SourceFile[]} sources  The shim's modules, its entry first.
   * @param {ts.SourceFile} probe   Its probe module (declared globals, hook and helper tables).
   * @param {string[]} roots        The globals named in the probe, in order.
   * @param {ts.Program} program    Tells the language's lib files apart.
   * @param {ReturnType<typeof declaredExtensions>} [extensions]  What module/types adds to Foundry's classes.
   */
  constructor(checker, sources, probe, roots, program, extensions = new Map()) {
    this.checker = checker;
    this.program = program;
    this.extensions = extensions;
    this.sources = sources;
    this.probe = probe;
    /** The names each module declares or imports. @type {Map<ts.SourceFile, Set<string>>} */
    this.declared = new Map(sources.map(source => [source, localNames(source)]));
    /** Where each module is named in the report: its path from the entry's folder. @type {Map<ts.SourceFile, string>} */
    this.names = new Map(sources.map(source => [source, relative(dirname(sources[0].fileName), source.fileName)]));
    /** @type {Omit<ShimReport, "files">} */
    this.report = { checked: [], problems: [], unchecked: [] };
    /** Shim types already held to a set of declared types (see #compare). @type {Set<string>} */
    this.compared = new Set();
    /** The declared class each shim class is provided as, by the shim instance type's id (see run). @type {Map<number, ts.Type[]>} */
    this.standsFor = new Map();
    /** While run() first collects what the shim provides. @type {{path: string[], type: ts.Type}[] | null} */
    this.collecting = null;
    /** @type {Map<string, ts.Type | null>} */
    this.rootTypes = new Map();
    for (const statement of probe.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        const name = ts.isIdentifier(declaration.name) ? declaration.name.text : "";
        const type = checker.getTypeAtLocation(declaration.initializer ?? declaration.name);
        if (name === "__hooks") this.hooks = type;
        else if (name === "__deprecatedHooks") this.deprecatedHooks = type;
        else if (name === "__helpers") this.helpers = type;
        else if (name.startsWith("__root_") && declaration.initializer) {
          const root = roots[Number(name.slice("__root_".length))];
          // An undeclared name resolves to no symbol (and the error type).
          const known = !!checker.getSymbolAtLocation(declaration.initializer);
          this.rootTypes.set(root, known ? type : null);
        }
      }
    }
  }

  /** @returns {Omit<ShimReport, "files">} */
  run() {
    // First what each shim class stands for (the class the shim provides it as), so an instance
    // met anywhere (Roll.parse() returning an OperatorTerm where RollTerm is declared) is held to
    // its own class, checked where the class is provided, rather than to the declared base.
    /** @type {{path: string[], type: ts.Type}[]} */
    const provisions = [];
    this.collecting = provisions;
    this.#visit();
    this.collecting = null;
    /** @param {string[]} path @param {ts.Type} type @param {number} depth */
    const register = (path, type, depth) => {
      if (!this.#fromShim(type) || depth > 4) return;
      const constructs = this.checker.getSignaturesOfType(type, ts.SignatureKind.Construct);
      if (!constructs.length) {
        // Classes inside provided namespaces (`foundry.dice = {Roll, terms: {Die}}`).
        if (type.flags & ts.TypeFlags.Object && !this.checker.getSignaturesOfType(type, ts.SignatureKind.Call).length) {
          for (const property of type.getProperties()) register([...path, property.name], this.checker.getTypeOfSymbol(property), depth + 1);
        }
        return;
      }
      const instances = this.#constituents(this.#lookup(path) ?? [])
        .flatMap(t => this.checker.getSignaturesOfType(t, ts.SignatureKind.Construct).map(c => c.getReturnType()));
      const shimInstance = typeId(constructs[0].getReturnType());
      if (instances.length) this.standsFor.set(shimInstance, [...(this.standsFor.get(shimInstance) ?? []), ...instances]);
    };
    for (const { path, type } of provisions) register(path, type, 0);
    this.#visit();
    return this.report;
  }

  /** Walk the shim's statements: what it provides, the helpers it registers, the hooks it calls. */
  #visit() {
    /** @param {ts.Node} node */
    const visit = node => {
      if (this.collecting) {
        if (this.#uncheckedReason(node) !== null) return;
        if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) this.#assignment(node);
        if (ts.isCallExpression(node)) this.#call(node);
        ts.forEachChild(node, visit);
        return;
      }
      const reason = this.#uncheckedReason(node);
      if (reason === "") this.report.problems.push(`@shim-unchecked without a reason (${this.#where(node)})`);
      if (reason) {
        this.report.unchecked.push(`${this.#where(node)}: ${reason}`);
        return;
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) this.#assignment(node);
      if (ts.isCallExpression(node)) this.#call(node);
      ts.forEachChild(node, visit);
    };
    for (const source of this.sources) visit(source);
  }

  /**
   * The reason of a `@shim-unchecked` comment leading a statement, or null.
   * @param {ts.Node} node
   */
  #uncheckedReason(node) {
    if (!ts.isStatement(node)) return null;
    const text = node.getSourceFile().text;
    const range = ts.getLeadingCommentRanges(text, node.pos)?.at(-1);
    const match = range ? UNCHECKED.exec(text.slice(range.pos, range.end)) : null;
    return match ? match[1] : null;
  }

  /**
   * The `@shim-unchecked` reason of a shim class member or object property (its own leading
   * comment), or null.
   * @param {ts.Symbol} property
   */
  #uncheckedMemberReason(property) {
    const declaration = property.valueDeclaration;
    if (!declaration || !this.sources.includes(declaration.getSourceFile())) return null;
    const text = declaration.getSourceFile().text;
    const range = ts.getLeadingCommentRanges(text, declaration.pos)?.at(-1);
    const match = range ? UNCHECKED.exec(text.slice(range.pos, range.end)) : null;
    return match ? match[1] : null;
  }

  /** @param {ts.Node} node */
  #where(node) {
    const source = node.getSourceFile();
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    return `${this.names.get(source) ?? source.fileName} line ${line + 1}`;
  }

  /** @param {ts.BinaryExpression} node */
  #assignment(node) {
    const path = accessPath(node.left);
    if (!path || path.length < 2) return;
    let provided;
    if (GLOBAL_OBJECTS.has(path[0])) provided = path.slice(1);
    else if (!this.declared.get(node.getSourceFile())?.has(path[0])) provided = path;
    else return;
    this.#provide(provided, this.checker.getTypeAtLocation(node.right), node);
  }

  /** @param {ts.CallExpression} node */
  #call(node) {
    const callee = accessPath(node.expression);
    if (!callee) return;
    const name = callee.join(".");
    const [first, ...rest] = node.arguments;
    if (name === "Object.assign" && first) {
      const target = accessPath(first);
      if (!target || !GLOBAL_OBJECTS.has(target[0])) return;
      for (const arg of rest) {
        const type = this.checker.getTypeAtLocation(arg);
        for (const property of type.getProperties()) {
          this.#provide([...target.slice(1), property.name], this.checker.getTypeOfSymbolAtLocation(property, arg), arg);
        }
      }
    } else if (name === "Object.defineProperty" && first) {
      const target = accessPath(first);
      const key = rest[0];
      const descriptor = rest[1];
      if (!target || !GLOBAL_OBJECTS.has(target[0]) || !key || !ts.isStringLiteralLike(key) || !descriptor) return;
      const descriptorType = this.checker.getTypeAtLocation(descriptor);
      const value = descriptorType.getProperty("value");
      const get = descriptorType.getProperty("get");
      const type = value ? this.checker.getTypeOfSymbolAtLocation(value, descriptor)
        : get ? this.checker.getSignaturesOfType(this.checker.getTypeOfSymbolAtLocation(get, descriptor), ts.SignatureKind.Call)[0]?.getReturnType()
          : undefined;
      if (type) this.#provide([...target.slice(1), key.text], type, node);
    } else if (this.collecting) {
      // The first pass only collects what is provided.
    } else if (callee.at(-1) === "registerHelper" && callee.at(-2) === "Handlebars") {
      this.#helpers(node);
    } else if (HOOK_METHODS.has(callee.at(-1) ?? "") && callee.at(-2) === "Hooks") {
      this.#hook(node, /** @type {string} */ (callee.at(-1)));
    }
  }

  /**
   * A member the shim puts at `path` (from the global object), with the shim's type.
   * @param {string[]} path
   * @param {ts.Type} type
   * @param {ts.Node} node
   */
  #provide(path, type, node) {
    if (this.collecting) {
      this.collecting.push({ path, type });
      return;
    }
    const candidates = this.#lookup(path, node);
    if (candidates) this.#compare(path.join("."), type, candidates, node);
  }

  /**
   * The declared types at a path from a global, or null (a problem, when `node` is given).
   * @param {string[]} path
   * @param {ts.Node} [node]
   * @returns {ts.Type[] | null}
   */
  #lookup(path, node) {
    const [root, ...members] = path;
    const declared = this.rootTypes.get(root);
    if (!declared) {
      if (node) this.report.problems.push(`${root}: the shim provides a global that foundry-vtt-types does not declare (${this.#where(node)})`);
      return null;
    }
    let candidates = [declared];
    const walked = [root];
    for (const member of members) {
      const next = this.#members(candidates, member);
      walked.push(member);
      if (!next.length) {
        if (node) this.report.problems.push(`${walked.join(".")}: no such member in foundry-vtt-types (${this.#where(node)})`);
        return null;
      }
      candidates = next;
    }
    return candidates;
  }

  /**
   * The declared types of `name` on any of `types` (a union's members count separately; an index
   * signature counts).
   * @param {ts.Type[]} types
   * @param {string} name
   * @returns {ts.Type[]}
   */
  #members(types, name) {
    /** @type {ts.Type[]} */
    const found = [];
    for (const type of this.#constituents(types)) {
      const property = type.getProperty(name) ?? this.checker.getPropertyOfType(this.checker.getApparentType(type), name)
        ?? this.#extensionMember(type, name);
      if (property) found.push(this.checker.getTypeOfSymbol(property));
      else {
        const index = type.getStringIndexType();
        if (index) found.push(index);
      }
    }
    return found;
  }

  /**
   * A member module/types declares on a Foundry class that foundry-vtt-types lacks (see
   * declaredExtensions), static or instance as `type` is the class or an instance.
   * @param {ts.Type} type
   * @param {string} name
   * @returns {ts.Symbol | undefined}
   */
  #extensionMember(type, name, depth = 0) {
    const symbol = type.getSymbol();
    const extension = symbol && this.extensions.get(symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol);
    if (!extension) {
      // A declared subclass of the extended class (Roll.AnyConstructor's AnyRoll, a configured ChatLog).
      if (depth > 5 || !type.isClassOrInterface()) return undefined;
      for (const base of this.checker.getBaseTypes(type)) {
        const member = this.#extensionMember(base, name, depth + 1);
        if (member) return member;
      }
      return undefined;
    }
    const isClass = this.checker.getSignaturesOfType(type, ts.SignatureKind.Construct).length > 0;
    for (const own of isClass ? extension.statics : extension.instances) {
      const member = own.getProperty(name);
      // Only what the extension itself declares, not what it inherits back from the class.
      if (member?.getDeclarations()?.some(d => d.parent && ts.isClassDeclaration(d.parent) && d.parent.name?.text === own.getSymbol()?.getName())) return member;
    }
    return undefined;
  }

  /**
   * Declared types without null/undefined; a type parameter (a generic class's `D`, `this`)
   * stands for its constraint.
   * @param {ts.Type[]} types
   * @returns {ts.Type[]}
   */
  #whole(types) {
    return types.map(t => this.#resolved(this.checker.getNonNullableType(t)))
      .filter(t => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Never)));
  }

  /** @param {ts.Type} type */
  #resolved(type) {
    // A type parameter (`D`, `this`), or a type built on one (`NonNullable<AssignmentType>` of a
    // generic field): its constraint.
    const generic = (type.flags & ts.TypeFlags.Instantiable)
      || (type.isIntersection() && type.types.some(t => t.flags & ts.TypeFlags.Instantiable));
    if (!generic) return type;
    // A class's own type parameter with a default (DocumentSheetV2's RenderContext) stands for
    // that default, which is what the class is used as; otherwise for its constraint.
    const fallback = (type.flags & ts.TypeFlags.TypeParameter) ? this.checker.getDefaultFromTypeParameter(type) : undefined;
    return fallback ?? this.checker.getBaseConstraintOfType(type) ?? this.checker.getUnknownType();
  }

  /**
   * {@link #whole}, with unions split (for looking members up).
   * @param {ts.Type[]} types
   * @returns {ts.Type[]}
   */
  #constituents(types) {
    return this.#whole(types).flatMap(type => type.isUnion() ? this.#whole(type.types) : [type]);
  }

  /**
   * Hold one provided value to its declared candidates: classes and plain objects member by
   * member, functions by their parameters and (member by member) what they return, anything else
   * (primitives, arrays) by assignability.
   * @param {string} path
   * @param {ts.Type} type
   * @param {ts.Type[]} candidates
   * @param {ts.Node} node
   * @param {Set<ts.Type>} [seen]  Guards against self-referencing shim objects.
   */
  #compare(path, type, candidates, node, seen = new Set()) {
    const checker = this.checker;
    const whole = this.#whole(candidates);
    // Declared as anything (any/unknown), or as void (a result nobody reads): nothing to hold it to
    // beyond existing.
    const open = (/** @type {ts.Type} */ t) => !!(t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Void));
    if (candidates.some(t => open(t) || (t.isUnion() && t.types.some(open)))) {
      this.report.checked.push(path);
      return;
    }
    // The shim's `this` (a method returning it, a hook given it) is its class.
    type = this.#resolved(type);
    // `Actor | undefined`, `HTMLElement | null`: each part held on its own (null and undefined
    // must be declared too).
    if (type.isUnion() && type.types.some(t => this.#fromShim(t))) {
      for (const part of type.types) {
        if (part.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)) {
          if (!candidates.some(c => checker.isTypeAssignableTo(part, c))) this.#leaf(path, part, candidates, node);
        } else this.#compare(path, part, candidates, node, seen);
      }
      return;
    }
    if (seen.has(type)) return;
    seen = new Set(seen).add(type);
    // An instance of a shim class held where its class is provided: it fits wherever that
    // declared class does.
    const standsFor = this.standsFor.get(typeId(type));
    if (standsFor?.some(d => candidates.some(c => checker.isTypeAssignableTo(d, c)))) {
      this.report.checked.push(path);
      return;
    }
    // The same shim class is reached by several paths (Actor, foundry.documents.Actor,
    // CONFIG.Actor.documentClass): held to the same declarations once, its problems named once.
    const key = `${typeId(type)}:${candidates.map(typeId).sort((a, b) => a - b).join(",")}`;
    if (this.compared.has(key)) return;
    this.compared.add(key);
    // An array of shim objects (CONFIG.Dice.rolls, Roll#terms): its elements held to the declared elements.
    if (checker.isArrayType(type)) {
      const element = checker.getTypeArguments(/** @type {ts.TypeReference} */ (type))[0];
      const elements = whole.filter(d => checker.isArrayType(d) || checker.isTupleType(d)).flatMap(d => checker.getTypeArguments(/** @type {ts.TypeReference} */ (d)));
      if (element && elements.length && this.#fromShim(element)) {
        this.#compare(`${path}[]`, element, elements, node, seen);
        return;
      }
    }
    // Only what the shim itself made is walked. A value of another type (a Set, a Promise, or a
    // foundry-vtt-types type the shim got from a declared global, such as `game.users.get()`)
    // must fit whole: walking it would hold the declarations to themselves, and foundry-vtt-types'
    // documents reach one another endlessly (an iterator's map() returns yet another iterator).
    if (!this.#fromShim(type)) {
      this.#leaf(path, type, candidates, node);
      return;
    }
    const declared = this.#constituents(candidates);
    const constructs = checker.getSignaturesOfType(type, ts.SignatureKind.Construct);
    if (constructs.length) {
      this.report.checked.push(`${path} (class)`);
      const classes = declared.filter(t => checker.getSignaturesOfType(t, ts.SignatureKind.Construct).length);
      if (!classes.length) {
        this.report.problems.push(`${path}: a class in the shim, but foundry-vtt-types declares ${this.#show(declared)} (${this.#where(node)})`);
        return;
      }
      for (const property of type.getProperties()) {
        if (property.name === "prototype" || this.#notWalked(property)) continue;
        this.#member(path, property, classes, node, seen, ".");
      }
      const instance = constructs[0].getReturnType();
      seen = new Set(seen).add(instance); // its methods returning `this` are not walked again
      const instances = classes.flatMap(t => checker.getSignaturesOfType(t, ts.SignatureKind.Construct).map(s => s.getReturnType()));
      for (const property of instance.getProperties()) {
        if (this.#notWalked(property)) continue;
        this.#member(path, property, instances, node, seen, "#");
      }
      this.#parameters(`${path} constructor`, constructs, classes.flatMap(t => checker.getSignaturesOfType(t, ts.SignatureKind.Construct)), node);
      return;
    }
    const calls = checker.getSignaturesOfType(type, ts.SignatureKind.Call);
    if (calls.length) {
      this.#callable(path, calls, declared, whole, type, node, seen);
      return;
    }
    const plain = (type.flags & ts.TypeFlags.Object) && !checker.isArrayType(type) && !checker.isTupleType(type);
    // An empty registry (`sheetClasses: {}`, `PARTS = {}`) where Foundry declares an object: it
    // provides no member, so it invents none (Foundry's own start empty and are filled at init).
    if (plain && !type.getProperties().length && !checker.getSignaturesOfType(type, ts.SignatureKind.Call).length
      && whole.some(d => (d.flags & ts.TypeFlags.Object) && !checker.getSignaturesOfType(d, ts.SignatureKind.Call).length)) {
      this.report.checked.push(path);
      return;
    }
    if (plain && type.getProperties().length) {
      for (const property of type.getProperties()) {
        if (!this.#notWalked(property)) this.#member(path, property, declared, node, seen, ".");
      }
      return;
    }
    this.#leaf(path, type, candidates, node);
  }

  /**
   * A function: some declared call signature must take what the shim's requires (arity; each
   * parameter's type related either way, as TypeScript relates method parameters), and what it
   * returns is held to what the declared signatures return (awaited when both are promises).
   * @param {string} path
   * @param {readonly ts.Signature[]} calls   The shim's call signatures.
   * @param {ts.Type[]} declared              Declared candidates, unions split.
   * @param {ts.Type[]} whole                 Declared candidates, whole.
   * @param {ts.Type} type                    The shim's function type.
   * @param {ts.Node} node
   * @param {Set<ts.Type>} seen
   */
  #callable(path, calls, declared, whole, type, node, seen) {
    const checker = this.checker;
    const signatures = declared.flatMap(t => checker.getSignaturesOfType(t, ts.SignatureKind.Call));
    if (!signatures.length) {
      this.#leaf(path, type, whole, node);
      return;
    }
    this.report.checked.push(path);
    this.#parameters(path, calls, signatures, node);
    // Checked before #whole, which drops void (void & {} is never) and would leave nothing to hold.
    const declaredReturns = signatures.map(s => s.getReturnType());
    const open = (/** @type {ts.Type} */ t) => !!(t.flags & (ts.TypeFlags.Void | ts.TypeFlags.Any | ts.TypeFlags.Unknown));
    if (declaredReturns.some(t => open(t) || (t.isUnion() && t.types.some(open)))) return;
    const returns = this.#whole(declaredReturns);
    if (!returns.length) return;
    const given = calls[0].getReturnType();
    const promised = returns.filter(t => this.#isPromise(t));
    // Foundry's `RollTerm | Promise<RollTerm>` (sync or async): an async shim is held to the promised side.
    const either = this.#constituents(returns).filter(t => this.#isPromise(t));
    if (either.length && either.length < this.#constituents(returns).length && this.#isPromise(given)) {
      const awaited = either.map(t => this.#promised(t));
      this.#compare(`${path}()`, checker.getAwaitedType(given) ?? given, awaited, node, seen);
      return;
    }
    if (promised.length && promised.length < returns.length && this.#isPromise(given)) {
      const awaited = promised.map(t => this.#promised(t));
      this.#compare(`${path}()`, checker.getAwaitedType(given) ?? given, awaited, node, seen);
      return;
    }
    if (promised.length === returns.length) {
      if (!this.#isPromise(given)) {
        this.report.problems.push(`${path}: returns ${this.#show([given])}, Foundry's returns a Promise (${this.#where(node)})`);
        return;
      }
      const awaited = promised.map(t => this.#promised(t));
      this.#compare(`${path}()`, checker.getAwaitedType(given) ?? given, awaited, node, seen);
      return;
    }
    // The declared returns whole, null and undefined included: a shim returning null where
    // Foundry's returns `Actor | null` fits.
    this.#compare(`${path}()`, given, declaredReturns, node, seen);
  }

  /**
   * Some declared signature takes the shim's required arguments, with related parameter types.
   * @param {string} path
   * @param {readonly ts.Signature[]} shim
   * @param {readonly ts.Signature[]} declared
   * @param {ts.Node} node
   */
  #parameters(path, shim, declared, node) {
    const checker = this.checker;
    const fits = (/** @type {ts.Signature} */ mine, /** @type {ts.Signature} */ theirs) => {
      const theirParameters = theirs.getParameters();
      const rest = theirParameters.some(p => this.#isRest(p));
      if (!rest && this.#requiredParameters(mine) > theirParameters.length) return false;
      return mine.getParameters().every((parameter, i) => {
        const their = theirParameters[i];
        if (!their || this.#isRest(parameter) || this.#isRest(their)) return true;
        // Optional or not is the arity's business; the types are compared without undefined.
        const a = checker.getNonNullableType(checker.getTypeOfSymbol(parameter));
        const b = this.#resolved(checker.getNonNullableType(checker.getTypeOfSymbol(their)));
        return checker.isTypeAssignableTo(b, a) || checker.isTypeAssignableTo(a, b);
      });
    };
    if (shim.some(mine => declared.some(theirs => fits(mine, theirs)))) return;
    const show = (/** @type {readonly ts.Signature[]} */ list) => list.map(s => checker.signatureToString(s)).join(" | ");
    const text = `${path}: the shim's parameters (${show(shim)}) do not fit Foundry's (${show(declared)})`;
    this.report.problems.push(`${text.length > 300 ? `${text.slice(0, 297)}...` : text} (${this.#where(node)})`);
  }

  /**
   * Was a type made in the shim (its object literal, function or class is declared there)? For a
   * union or intersection: any of its parts.
   * @param {ts.Type} type
   * @returns {boolean}
   */
  #fromShim(type) {
    if (type.isUnionOrIntersection()) return type.types.some(t => this.#fromShim(t));
    // Readonly<{...}> of an Object.freeze'd shim literal is the shim's literal.
    if (type.aliasTypeArguments?.some(t => this.#fromShim(t))) return true;
    const declarations = type.getSymbol()?.getDeclarations() ?? [];
    return declarations.some(d => this.sources.includes(d.getSourceFile()));
  }

  /**
   * Members that are nobody's API: symbol-keyed ones (`[Symbol.iterator]`), #private ones, and
   * those a shim class inherits from the language's own (a Collection's Map#set): Foundry's
   * classes extend the same built-ins.
   * @param {ts.Symbol} property
   */
  #notWalked(property) {
    if (property.name.startsWith("__@") || property.name.startsWith("#")) return true;
    const declarations = property.getDeclarations() ?? [];
    return declarations.length > 0 && declarations.every(d => this.program.isSourceFileDefaultLibrary(d.getSourceFile()));
  }

  /**
   * A branded type without its brand (`0 & Branded<...>` is `0`); anything else as it is.
   * @param {ts.Type} type
   * @returns {ts.Type}
   */
  #unbranded(type) {
    if (!type.isIntersection()) return type;
    const rest = type.types.filter(t => t.getSymbol()?.getName() !== "Branded");
    return rest.length === 1 ? rest[0] : type;
  }

  /**
   * What a declared promise resolves to: its own type argument (`Promise<RenderContext>` is the
   * class's RenderContext, which #resolved reads as its default), not `Awaited<RenderContext>`.
   * @param {ts.Type} type
   * @returns {ts.Type}
   */
  #promised(type) {
    const [argument] = this.checker.getTypeArguments(/** @type {ts.TypeReference} */ (type));
    return argument ?? this.checker.getAwaitedType(type) ?? type;
  }

  /** @param {ts.Type} type */
  #isPromise(type) {
    const name = type.getSymbol()?.getName();
    return name === "Promise" || name === "PromiseLike";
  }

  /**
   * @param {string} path
   * @param {ts.Symbol} property  Of the shim's value.
   * @param {ts.Type[]} declared  Declared types of the value.
   * @param {ts.Node} node
   * @param {Set<ts.Type>} seen
   * @param {string} separator    "." for static/plain members, "#" for instance members.
   */
  #member(path, property, declared, node, seen, separator) {
    const name = `${path}${separator}${property.name}`;
    const reason = this.#uncheckedMemberReason(property);
    if (reason !== null) {
      if (reason === "") this.report.problems.push(`@shim-unchecked without a reason (${name})`);
      else if (!this.report.unchecked.some(line => line.endsWith(`: ${property.name}: ${reason}`))) {
        this.report.unchecked.push(`${this.#where(/** @type {ts.Node} */ (property.valueDeclaration))}: ${property.name}: ${reason}`);
      }
      return;
    }
    const found = this.#members(declared, property.name);
    if (!found.length) {
      this.report.problems.push(`${name}: no such member in foundry-vtt-types (${this.#where(node)})`);
      return;
    }
    const type = this.checker.getTypeOfSymbol(property);
    this.#compare(name, type, found, node, seen);
  }

  /**
   * @param {string} path
   * @param {ts.Type} type
   * @param {ts.Type[]} declared  Whole (unsplit) declared types, null and undefined included where declared.
   * @param {ts.Node} node
   */
  #leaf(path, type, declared, node) {
    this.report.checked.push(path);
    if (declared.some(d => this.checker.isTypeAssignableTo(type, d))) return;
    // foundry-vtt-types brands its constants (`0 & Branded<"constants.USER_ROLES">`), a type no
    // JavaScript value has: the shim's value is held to the constant itself.
    const unbranded = this.#constituents(declared).map(d => this.#unbranded(d));
    const parts = type.isUnion() ? type.types : [type];
    if (parts.every(part => unbranded.some(d => this.checker.isTypeAssignableTo(part, d)))) return;
    this.report.problems.push(`${path}: the shim's ${this.#show([type])} does not fit foundry-vtt-types' ${this.#show(declared)} (${this.#where(node)})`);
  }

  /** @param {ts.Signature} signature */
  #requiredParameters(signature) {
    let required = 0;
    for (const [i, parameter] of signature.getParameters().entries()) {
      const declaration = parameter.valueDeclaration;
      const optional = !declaration || !ts.isParameter(declaration) || !!declaration.questionToken || !!declaration.initializer
        || !!declaration.dotDotDotToken || ts.getJSDocParameterTags(declaration).some(tag => tag.isBracketed
          || (tag.typeExpression && ts.isJSDocOptionalType(tag.typeExpression.type)));
      if (!optional) required = i + 1;
    }
    return required;
  }

  /** @param {ts.Symbol} parameter */
  #isRest(parameter) {
    const declaration = parameter.valueDeclaration;
    return !!declaration && ts.isParameter(declaration) && !!declaration.dotDotDotToken;
  }

  /** @param {ts.CallExpression} node */
  #helpers(node) {
    const [name, fn] = node.arguments;
    /** @type {[string, ts.Type, ts.Node][]} */
    const helpers = [];
    if (name && ts.isStringLiteralLike(name) && fn) helpers.push([name.text, this.checker.getTypeAtLocation(fn), fn]);
    else if (name && ts.isObjectLiteralExpression(name)) {
      const type = this.checker.getTypeAtLocation(name);
      for (const property of type.getProperties()) helpers.push([property.name, this.checker.getTypeOfSymbolAtLocation(property, name), name]);
    } else {
      this.report.problems.push(`Handlebars helper with a computed name: cannot be checked (${this.#where(node)})`);
      return;
    }
    for (const [helper, type, at] of helpers) {
      const path = `Handlebars helper "${helper}"`;
      const declared = this.helpers ? this.#members([this.helpers], helper) : [];
      if (!declared.length) {
        this.report.problems.push(`${path}: Foundry has no such helper (foundry.applications.handlebars.${helper}) (${this.#where(at)})`);
        continue;
      }
      this.#compare(path, type, declared, at);
    }
  }

  /**
   * @param {ts.CallExpression} node
   * @param {string} method  call, callAll, on or once.
   */
  #hook(node, method) {
    const [name, ...args] = node.arguments;
    if (name && ts.isTemplateExpression(name)) {
      this.#hookFamily(node, name, method);
      return;
    }
    if (!name || !ts.isStringLiteralLike(name)) {
      this.report.problems.push(`Hooks.${method} with a computed hook name: cannot be checked (${this.#where(node)})`);
      return;
    }
    const path = `hook "${name.text}" (Hooks.${method})`;
    this.report.checked.push(path);
    const declared = this.hooks?.getProperty(name.text);
    if (!declared) {
      const deprecated = !!this.deprecatedHooks?.getProperty(name.text);
      this.report.problems.push(`${path}: ${deprecated ? "deprecated in v13" : "not a hook foundry-vtt-types declares"} (${this.#where(node)})`);
      return;
    }
    const hookType = this.checker.getNonNullableType(this.checker.getTypeOfSymbol(declared));
    if (method === "on" || method === "once") {
      const listener = args[0];
      if (listener && !this.checker.isTypeAssignableTo(this.checker.getTypeAtLocation(listener), hookType)) {
        this.report.problems.push(`${path}: the listener does not fit ${this.checker.typeToString(hookType)} (${this.#where(node)})`);
      }
      return;
    }
    const [signature] = this.checker.getSignaturesOfType(hookType, ts.SignatureKind.Call);
    if (!signature) return;
    const parameters = signature.getParameters();
    if (args.length > parameters.length) {
      this.report.problems.push(`${path}: ${args.length} arguments, the hook takes ${parameters.length} (${this.#where(node)})`);
    }
    if (args.length < this.#requiredParameters(signature)) {
      this.report.problems.push(`${path}: ${args.length} arguments, the hook needs ${this.#requiredParameters(signature)} (${this.#where(node)})`);
    }
    for (const [i, arg] of args.entries()) {
      const parameter = parameters[i];
      if (!parameter) break;
      const expected = this.checker.getTypeOfSymbol(parameter);
      const given = this.checker.getTypeAtLocation(arg);
      // A shim object (its ChatMessage, a context literal holding one) cannot be a whole Foundry
      // document: held member by member, as everything the shim provides is.
      if (this.#fromShim(given)) {
        this.#compare(`${path} argument ${i + 1} (${parameter.name})`, given, [expected], arg);
        continue;
      }
      if (!this.checker.isTypeAssignableTo(given, expected)) {
        this.report.problems.push(`${path}: argument ${i + 1} (${parameter.name}) is ${this.#show([given])}, the hook takes ${this.#show([expected])} (${this.#where(node)})`);
      }
    }
  }

  /**
   * A hook named by a template (`preCreate${documentName}`, `render${cls.name}`): Foundry's hooks
   * named per document or application class. At least one hook foundry-vtt-types declares must
   * have that shape (its arguments depend on which, so they are not checked).
   * @param {ts.CallExpression} node
   * @param {ts.TemplateExpression} name
   * @param {string} method
   */
  #hookFamily(node, name, method) {
    const escape = (/** @type {string} */ text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const shape = `${name.head.text}${name.templateSpans.map(span => `*${span.literal.text}`).join("")}`;
    const pattern = new RegExp(`^${escape(name.head.text)}${name.templateSpans.map(span => `[A-Za-z0-9]+${escape(span.literal.text)}`).join("")}$`);
    const path = `hook family "${shape}" (Hooks.${method})`;
    this.report.checked.push(path);
    const declared = (this.hooks?.getProperties() ?? []).filter(hook => pattern.test(hook.name));
    if (!declared.length) this.report.problems.push(`${path}: no hook foundry-vtt-types declares has this shape (${this.#where(node)})`);
  }

  /** @param {ts.Type[]} types */
  #show(types) {
    const text = types.map(t => this.checker.typeToString(t)).join(" | ");
    return text.length > 160 ? `${text.slice(0, 157)}...` : text;
  }
}

/** The CLI: check the shims named (default: the browser shim); exit 1 on a problem. */
async function main() {
  const shims = process.argv.slice(2);
  const started = Date.now();
  const { shims: reports, declarations } = checkShims(shims.length ? shims : [DEFAULT_SHIM]);
  let failed = declarations.length > 0;
  console.log(`own declarations (module/types/*.d.ts): ${declarations.length} errors`);
  for (const line of declarations) console.log(`  ERROR      ${line}`);
  for (const [path, report] of reports) {
    console.log(`shim conformance: ${path.replace(`${ROOT}/`, "")} (${report.files.length} modules): ${report.checked.length} members held to foundry-vtt-types`
      + `, ${report.unchecked.length} marked @shim-unchecked, ${report.problems.length} problems`);
    for (const line of report.unchecked) console.log(`  unchecked  ${line}`);
    for (const line of report.problems) console.log(`  PROBLEM    ${line}`);
    failed ||= report.problems.length > 0;
  }
  console.log(`shim conformance: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = failed ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
