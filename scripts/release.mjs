#!/usr/bin/env node
/**
 * Cuts a release, and writes the manifest the build ships.
 *
 *   npm run release -- 0.2.0           (node scripts/release.mjs 0.2.0 [--date YYYY-MM-DD])
 *     From a clean git tree: bumps the version in system.json, package.json, package-lock.json,
 *     Cargo.toml and Cargo.lock together, moves CHANGELOG.md's Unreleased entries under 0.2.0,
 *     checks everything agrees, builds (scripts/build.sh) and checks what it made: dist/system.json
 *     and dist/icon-engine.zip (whose manifest is the same bytes, whose download URL is this
 *     version's zip, whose core reports this version), and dist/release-notes.md. Needs a
 *     repository base (ICON_ENGINE_REPOSITORY or package.json's repository): a release's manifest
 *     must say where its zip is. Prints the commit, tag and files to attach; commits nothing.
 *     --dist-only builds only dist/ from the wasm and packs already built (the release test uses
 *     it; a real release compiles).
 *   node scripts/release.mjs --check
 *     Exit 1, naming each file, if the versions, system.json's URLs or CHANGELOG disagree.
 *   node scripts/release.mjs --manifest OUT
 *     Writes system.json with its URLs for the build's repository base to OUT (scripts/build.sh),
 *     or without them, saying so, when there is none.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  MANIFEST_NAME, REPOSITORY_ENV, ROOT, ZIP_NAME, bumpVersions, compareVersions, cutChangelog, isVersion, jsonText,
  manifestTypeErrors, manifestValueProblems, readJson, releaseProblems, repositoryBase, repositoryFields,
  withRepositoryFields
} from "./release-manifest.mjs";

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  console.error(`release: ${message}`);
  process.exit(1);
}

/**
 * Writes the build's manifest (system.json with the derived URLs for this build's base).
 * @param {string} out
 */
function writeManifest(out) {
  const { base, from, reason } = repositoryBase(process.env, readJson(ROOT, "package.json"));
  const manifest = withRepositoryFields(readJson(ROOT, "system.json"), base);
  writeFileSync(out, jsonText(manifest));
  if (base) console.error(`[build] manifest URLs from ${from}: download ${manifest.download}`);
  else {
    console.error(`[build] no repository base: ${reason}. The manifest has no url, manifest or download, so Foundry`
      + " cannot install or update this build from a URL: unzip dist/icon-engine.zip into Data/systems/ instead."
      + ` A release build sets ${REPOSITORY_ENV}=https://github.com/OWNER/REPO (or package.json's repository).`);
  }
}

/**
 * The entries of a zip and the bytes of one of them (python's zipfile, as the build writes it).
 * @param {string} zip
 * @param {string} name
 * @returns {{names: string[], data: Buffer}}
 */
function readZip(zip, name) {
  const script = "import sys, zipfile, json\nz = zipfile.ZipFile(sys.argv[1])\n"
    + "sys.stdout.write(json.dumps({'names': z.namelist(), 'data': z.read(sys.argv[2]).hex() if sys.argv[2] in z.namelist() else None}))";
  const out = JSON.parse(execFileSync("python3", ["-c", script, zip, name], { encoding: "utf8", maxBuffer: 1 << 28 }));
  return { names: out.names, data: Buffer.from(out.data ?? "", "hex") };
}

/**
 * @param {string} version
 * @param {{distOnly: boolean, date: string}} options
 */
async function release(version, { distOnly, date }) {
  const run = (/** @type {string} */ cmd, /** @type {string[]} */ args, /** @type {object} */ opts = {}) =>
    execFileSync(cmd, args, { cwd: ROOT, encoding: "utf8", ...opts });

  if (!isVersion(version)) fail(`"${version}" is not a version: give major.minor.patch, e.g. 0.2.0`);
  const before = releaseProblems(ROOT);
  if (before.length) fail(`the checkout disagrees with itself before the bump:\n  ${before.join("\n  ")}`);
  const current = readJson(ROOT, "system.json").version;
  if (compareVersions(version, current) <= 0) fail(`${version} is not newer than the current version ${current}`);
  let status;
  try {
    status = run("git", ["status", "--porcelain"]);
  } catch {
    fail("not a git checkout: a release is cut from a clean clone");
  }
  if (status.trim()) fail(`the git tree has uncommitted changes; commit or stash them first:\n${status}`);
  const { base, from, reason } = repositoryBase(process.env, readJson(ROOT, "package.json"));
  if (!base) fail(`${reason}. A release's manifest must say where its zip is: set ${REPOSITORY_ENV}=https://github.com/OWNER/REPO or package.json's repository`);

  // 1. the version everywhere, and the changelog's section
  const changed = [];
  bumpVersions(ROOT, version, (file, text) => {
    writeFileSync(join(ROOT, file), text);
    changed.push(file);
  });
  const { text, notes } = cutChangelog(readFileSync(join(ROOT, "CHANGELOG.md"), "utf8"), version, date);
  writeFileSync(join(ROOT, "CHANGELOG.md"), text);
  changed.push("CHANGELOG.md");
  const after = releaseProblems(ROOT);
  if (after.length) fail(`after the bump the checkout still disagrees (a bug in the release script):\n  ${after.join("\n  ")}`);
  console.error(`release: ${current} -> ${version} in ${changed.join(", ")}; repository base from ${from}: ${base}`);

  // 2. the build
  try {
    execFileSync("bash", ["scripts/build.sh", ...(distOnly ? ["--dist-only"] : [])], { cwd: ROOT, stdio: "inherit" });
  } catch {
    fail(`the build failed. The version files are bumped: fix the build and run this again after \`git checkout -- .\`, or build with \`bash scripts/build.sh\``);
  }

  // 3. what the build made
  const dist = join(ROOT, "dist");
  const manifestFile = join(dist, MANIFEST_NAME);
  const zipFile = join(dist, ZIP_NAME);
  for (const file of [manifestFile, zipFile]) if (!existsSync(file)) fail(`the build made no ${file}`);
  const manifestBytes = readFileSync(manifestFile);
  const manifest = JSON.parse(manifestBytes.toString("utf8"));
  const want = repositoryFields(base, version);
  if (manifest.version !== version) fail(`dist/system.json says version ${manifest.version}`);
  for (const key of /** @type {const} */ (["manifest", "download", "url"])) {
    if (manifest[key] !== want[key]) fail(`dist/system.json's ${key} is ${manifest[key]}, not ${want[key]}`);
  }
  const zipped = readZip(zipFile, `icon-engine/${MANIFEST_NAME}`);
  if (!zipped.data.equals(manifestBytes)) fail(`the zip's icon-engine/${MANIFEST_NAME} is not dist/${MANIFEST_NAME}`);
  for (const path of [...manifest.esmodules, ...manifest.styles, ...manifest.languages.map((/** @type {any} */ l) => l.path),
    "wasm/icon_engine.js", "wasm/icon_engine_bg.wasm", "wasm/icon_importer.js", "wasm/icon_importer_bg.wasm",
    "wasm/icon_forecast.js", "wasm/icon_forecast_bg.wasm", "packs/glossary.json"]) {
    if (!zipped.names.includes(`icon-engine/${path}`)) fail(`the zip has no icon-engine/${path}`);
  }
  const shape = [...manifestValueProblems(manifest), ...(await manifestTypeErrors({ [MANIFEST_NAME]: manifest }))[MANIFEST_NAME]];
  if (shape.length) fail(`dist/system.json is not a valid v13 system manifest:\n  ${shape.join("\n  ")}`);
  if (distOnly) console.error("release: --dist-only: the core in the zip was built before the bump (not checked)");
  else {
    const smoke = JSON.parse(run("node", ["scripts/wasm-smoke.mjs", "dist/icon-engine/wasm/icon_engine.js", "dist/icon-engine/wasm/icon_engine_bg.wasm"]));
    if (smoke.version !== version) fail(`the core in the zip reports version ${smoke.version}`);
  }
  writeFileSync(join(dist, "release-notes.md"), `${notes}\n`);

  console.log(`Release ${version} is ready.
  Attach: dist/${MANIFEST_NAME}, dist/${ZIP_NAME}   Notes: dist/release-notes.md
  Manifest URL: ${want.manifest}
  Download:     ${want.download}
Then:
  git commit -am "Release ${version}" && git tag v${version} && git push --follow-tags
  and publish the release v${version} with those two files.`);
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "--manifest") {
    if (!args[1]) fail("--manifest needs the path to write");
    writeManifest(args[1]);
  } else if (args[0] === "--check") {
    const problems = releaseProblems(ROOT);
    if (problems.length) fail(`the release metadata disagrees:\n  ${problems.join("\n  ")}`);
    console.log(`release metadata agrees: version ${readJson(ROOT, "system.json").version}`);
  } else {
    const version = args.find(a => !a.startsWith("--"));
    if (!version) fail("usage: npm run release -- VERSION [--date YYYY-MM-DD] [--dist-only] | --check | --manifest OUT");
    const dateAt = args.indexOf("--date");
    const date = dateAt >= 0 ? args[dateAt + 1] : new Date().toISOString().slice(0, 10);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date ?? "")) fail(`--date wants YYYY-MM-DD, not ${date}`);
    const known = new Set(["--dist-only", "--date", version, date]);
    const unknown = args.filter(a => !known.has(a));
    if (unknown.length) fail(`unknown arguments: ${unknown.join(" ")}`);
    await release(version, { distOnly: args.includes("--dist-only"), date });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
