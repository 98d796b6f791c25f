/**
 * Releases (scripts/release.mjs, scripts/release-manifest.mjs): the version written in five files
 * agrees (CI fails here if it does not), the manifest's URLs come from one repository base, the
 * changelog is cut Keep-a-Changelog style, and the release command, run in a temporary copy of the
 * checkout, bumps, builds dist/ and writes a manifest and zip whose URLs agree. Needs the built
 * wasm/ and target/packs (scripts/build.sh) for the end-to-end test.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  ROOT, bumpVersions, changelogSection, compareVersions, cutChangelog, readVersions, releaseProblems, repositoryBase,
  repositoryFields, withRepositoryFields
} from "../../scripts/release-manifest.mjs";

const VERSION_FILES = ["system.json", "package.json", "package-lock.json", "Cargo.toml", "Cargo.lock", "CHANGELOG.md"];
const read = (/** @type {string} */ root, /** @type {string} */ file) => readFileSync(join(root, file), "utf8");
const current = JSON.parse(read(ROOT, "system.json")).version;
const [major, minor] = current.split(".").map(Number);
const next = `${major}.${minor + 1}.0`;

/** A scratch copy of the files that hold the version. */
function versionFilesCopy() {
  const dir = mkdtempSync(join(tmpdir(), "icon-release-"));
  for (const file of VERSION_FILES) cpSync(join(ROOT, file), join(dir, file));
  return dir;
}

/**
 * Lines that differ between two texts of the same length in lines.
 * @param {string} a
 * @param {string} b
 */
function changedLines(a, b) {
  const [la, lb] = [a.split("\n"), b.split("\n")];
  assert.equal(la.length, lb.length, "same number of lines");
  return la.flatMap((line, i) => (line === lb[i] ? [] : [[line, lb[i]]]));
}

describe("the release metadata of this checkout", () => {
  test("every file holds the same version, system.json's URLs follow it, CHANGELOG has its section", () => {
    assert.deepEqual(releaseProblems(ROOT), []);
    const versions = readVersions(ROOT);
    assert.deepEqual(Object.keys(versions), ["system.json", "package.json", "package-lock.json",
      'package-lock.json packages[""]', "Cargo.toml [package]", "Cargo.lock icon-engine"]);
    assert.ok(Object.values(versions).every(v => v === current));
  });

  test("a version that differs in any one file is named", () => {
    const edits = {
      "package.json": (/** @type {string} */ t) => t.replace(`"version": "${current}"`, '"version": "9.9.9"'),
      "Cargo.toml": (/** @type {string} */ t) => t.replace(/^version = ".*"$/m, 'version = "9.9.9"'),
      "Cargo.lock": (/** @type {string} */ t) => t.replace(/(name = "icon-engine"\nversion = )".*"/, '$1"9.9.9"'),
      "package-lock.json": (/** @type {string} */ t) => t.replace(`"version": "${current}"`, '"version": "9.9.9"')
    };
    for (const [file, edit] of Object.entries(edits)) {
      const dir = versionFilesCopy();
      try {
        writeFileSync(join(dir, file), edit(read(dir, file)));
        const problems = releaseProblems(dir);
        assert.equal(problems.length, 1, `${file}: ${problems}`);
        assert.match(problems[0], new RegExp(`^${file.replace(".", "\\.")}.*version 9\\.9\\.9, but system\\.json says ${current.replaceAll(".", "\\.")}`));
      } finally {
        rmSync(dir, { recursive: true });
      }
    }
  });

  test("a stale download URL and a missing CHANGELOG section are named", () => {
    const dir = versionFilesCopy();
    try {
      const system = JSON.parse(read(dir, "system.json"));
      system.download = system.download.replace(`v${current}`, "v0.0.1");
      writeFileSync(join(dir, "system.json"), `${JSON.stringify(system, null, 2)}\n`);
      writeFileSync(join(dir, "CHANGELOG.md"), read(dir, "CHANGELOG.md").replace(`## [${current}]`, "## [0.0.1]"));
      const problems = releaseProblems(dir);
      assert.equal(problems.length, 2, String(problems));
      assert.match(problems[0], /^system\.json: download is .*v0\.0\.1.*, but package\.json's repository and the version give/);
      assert.equal(problems[1], `CHANGELOG.md: no "## [${current}]" section`);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

describe("the repository base and the URLs derived from it", () => {
  const pkg = { repository: { url: "git+https://github.com/acme/icon-engine.git" } };

  test("package.json's repository, tidied; the environment variable wins", () => {
    assert.deepEqual(repositoryBase({}, pkg),
      { base: "https://github.com/acme/icon-engine", declared: "https://github.com/acme/icon-engine", from: "package.json repository", reason: "" });
    assert.equal(repositoryBase({ ICON_ENGINE_REPOSITORY: "https://git.example.org/fork/icon/" }, pkg).base, "https://git.example.org/fork/icon");
    assert.equal(repositoryBase({ ICON_ENGINE_REPOSITORY: "https://git.example.org/fork/icon/" }, pkg).from, "ICON_ENGINE_REPOSITORY");
    assert.equal(repositoryBase({ ICON_ENGINE_REPOSITORY: " " }, { repository: "https://github.com/a/b" }).base, "https://github.com/a/b");
  });

  test("no base a user could download from: unset, not https, a .invalid placeholder", () => {
    assert.match(repositoryBase({}, {}).reason, /neither ICON_ENGINE_REPOSITORY nor package\.json's repository is set/);
    assert.equal(repositoryBase({}, {}).base, null);
    assert.equal(repositoryBase({}, { repository: "http://github.com/a/b" }).base, null);
    assert.equal(repositoryBase({}, { repository: "not a url" }).declared, null);
    const placeholder = repositoryBase({}, { repository: { url: "https://example.invalid/icon-engine" } });
    assert.equal(placeholder.base, null);
    assert.equal(placeholder.declared, "https://example.invalid/icon-engine");
    assert.match(placeholder.reason, /placeholder \(\.invalid\)/);
  });

  test("the manifest is the latest release's, the download this version's zip, media the README's screenshots", () => {
    const fields = repositoryFields("https://github.com/acme/icon-engine", "1.2.3");
    assert.equal(fields.manifest, "https://github.com/acme/icon-engine/releases/latest/download/system.json");
    assert.equal(fields.download, "https://github.com/acme/icon-engine/releases/download/v1.2.3/icon-engine.zip");
    assert.equal(fields.changelog, "https://github.com/acme/icon-engine/blob/v1.2.3/CHANGELOG.md");
    assert.deepEqual(fields.media.map(m => [m.type, m.url.split("/").slice(-4).join("/")]), [
      ["screenshot", "v1.2.3/docs/screenshots/character-sheet.png"],
      ["screenshot", "v1.2.3/docs/screenshots/attack-card.png"],
      ["screenshot", "v1.2.3/docs/screenshots/combat-tracker.png"],
      ["screenshot", "v1.2.3/docs/screenshots/abilities.png"]
    ]);
    for (const m of fields.media) assert.ok(existsSync(join(ROOT, "docs/screenshots", m.url.split("/").pop() ?? "")), m.url);
  });

  test("withRepositoryFields sets them for the manifest's version, drops them without a base, keeps other fields in place", () => {
    const manifest = JSON.parse(read(ROOT, "system.json"));
    const released = withRepositoryFields({ ...manifest, version: "4.5.6" }, "https://github.com/acme/icon-engine");
    assert.equal(released.download, "https://github.com/acme/icon-engine/releases/download/v4.5.6/icon-engine.zip");
    assert.deepEqual(withRepositoryFields(released, "https://github.com/acme/icon-engine"), released, "idempotent");
    const bare = withRepositoryFields(manifest, null);
    for (const key of ["url", "manifest", "download", "bugs", "readme", "changelog", "media"]) assert.ok(!(key in bare), key);
    assert.equal(bare.license, "LICENSE");
    assert.deepEqual(Object.keys(withRepositoryFields(bare, "https://github.com/a/b")), Object.keys(manifest),
      "the fields come back where system.json keeps them");
  });
});

describe("versions and the changelog", () => {
  test("versions order numerically", () => {
    assert.ok(compareVersions("0.10.0", "0.9.9") > 0);
    assert.ok(compareVersions("1.0.0", "1.0.0") === 0);
    assert.ok(compareVersions("1.2.3", "1.10.0") < 0);
  });

  test("bumping changes only the version lines (and system.json's URLs that name the version)", () => {
    const dir = versionFilesCopy();
    try {
      bumpVersions(dir, "7.8.9", (file, text) => writeFileSync(join(dir, file), text));
      assert.ok(Object.values(readVersions(dir)).every(v => v === "7.8.9"), JSON.stringify(readVersions(dir)));
      const counts = Object.fromEntries(["package.json", "package-lock.json", "Cargo.toml", "Cargo.lock"]
        .map(file => [file, changedLines(read(ROOT, file), read(dir, file)).length]));
      assert.deepEqual(counts, { "package.json": 1, "package-lock.json": 2, "Cargo.toml": 1, "Cargo.lock": 1 });
      for (const [was, now] of changedLines(read(ROOT, "system.json"), read(dir, "system.json"))) {
        assert.equal(now, was.replaceAll(current, "7.8.9"), "system.json: only the version and the URLs naming it");
      }
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  test("cutting moves Unreleased's entries under the version and leaves Unreleased empty", () => {
    const log = "# Changelog\n\nIntro.\n\n## [Unreleased]\n\n### Fixed\n\n- A thing.\n\n## [1.0.0] - 2026-01-01\n\n- Old.\n";
    const { text, notes } = cutChangelog(log, "1.1.0", "2026-02-03");
    assert.equal(notes, "### Fixed\n\n- A thing.");
    assert.equal(text, "# Changelog\n\nIntro.\n\n## [Unreleased]\n\n## [1.1.0] - 2026-02-03\n\n### Fixed\n\n- A thing.\n\n"
      + "## [1.0.0] - 2026-01-01\n\n- Old.\n");
    assert.equal(changelogSection(text, "Unreleased"), "");
    assert.equal(changelogSection(text, "1.0.0"), "- Old.");
    assert.throws(() => cutChangelog(text, "1.2.0", "2026-02-04"), /Unreleased section is empty: write what 1\.2\.0 changes first/);
    assert.throws(() => cutChangelog(log, "1.0.0", "2026-02-04"), /already has a section for 1\.0\.0/);
    assert.throws(() => cutChangelog("# Changelog\n", "1.0.0", "2026-02-04"), /no "## \[Unreleased\]" section/);
  });

  test("this CHANGELOG has a non-empty section for the current version and an Unreleased section", () => {
    const changelog = read(ROOT, "CHANGELOG.md");
    assert.ok(changelogSection(changelog, current), `a ${current} section with entries`);
    assert.notEqual(changelogSection(changelog, "Unreleased"), null);
  });
});

describe("npm run release, in a temporary copy of the checkout", () => {
  /** @type {string} */
  let dir;
  const base = "https://github.com/example/icon-engine";
  /**
   * @param {string[]} args
   * @param {Record<string, string>} [env]
   */
  const release = (args, env = { ICON_ENGINE_REPOSITORY: base }) => {
    const { ICON_ENGINE_REPOSITORY: _, ...rest } = process.env;
    return spawnSync("node", ["scripts/release.mjs", ...args], { cwd: dir, encoding: "utf8", env: { ...rest, ...env } });
  };
  const git = (/** @type {string[]} */ args) => execFileSync("git", args, { cwd: dir, encoding: "utf8" });

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "icon-release-"));
    // The checkout's files as they are (tracked and new, not ignored), as a fresh repository.
    const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
      .split("\0").filter(f => f && existsSync(join(ROOT, f)));
    for (const file of files) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      cpSync(join(ROOT, file), join(dir, file));
    }
    // What scripts/build.sh --dist-only packs: the two wasm modules, the compiled packs and the
    // rules reference's glossary.
    cpSync(join(ROOT, "wasm"), join(dir, "wasm"), { recursive: true });
    cpSync(join(ROOT, "target/packs"), join(dir, "target/packs"), { recursive: true });
    cpSync(join(ROOT, "packs/glossary.json"), join(dir, "packs/glossary.json"));
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    git(["init", "--quiet"]);
    git(["add", "-A"]);
    git(["-c", "user.name=test", "-c", "user.email=test@example.org", "commit", "--quiet", "-m", "checkout"]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("refuses a bad version, an older one, a dirty tree and a missing repository base, changing nothing", () => {
    const refusals = [
      [["0.2"], {}, /"0\.2" is not a version: give major\.minor\.patch/],
      [[current], {}, new RegExp(`${current.replaceAll(".", "\\.")} is not newer than the current version`)],
      [[next], { ICON_ENGINE_REPOSITORY: "" }, /package\.json repository \(https:\/\/example\.invalid\/icon-engine\) is a placeholder.*set ICON_ENGINE_REPOSITORY/],
      [[next, "--date", "tomorrow"], {}, /--date wants YYYY-MM-DD, not tomorrow/],
      [[next, "--force"], {}, /unknown arguments: --force/]
    ];
    for (const [args, env, message] of /** @type {[string[], Record<string, string>, RegExp][]} */ (refusals)) {
      const run = release(args, env);
      assert.equal(run.status, 1, `${args}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }
    writeFileSync(join(dir, "README.md"), `${read(dir, "README.md")}\nan edit\n`);
    const dirty = release([next]);
    assert.equal(dirty.status, 1);
    assert.match(dirty.stderr, /uncommitted changes/);
    git(["checkout", "--", "README.md"]);
    assert.equal(git(["status", "--porcelain"]), "", "nothing was written");
  });

  test(`release ${next}: versions bumped together, dist/system.json and the zip agree, notes written`, () => {
    const unreleased = changelogSection(read(dir, "CHANGELOG.md"), "Unreleased");
    const run = release([next, "--dist-only", "--date", "2026-12-01"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`Release ${next.replaceAll(".", "\\.")} is ready`));

    assert.ok(Object.values(readVersions(dir)).every(v => v === next), JSON.stringify(readVersions(dir)));
    assert.deepEqual(releaseProblems(dir), []);
    const check = spawnSync("node", ["scripts/release.mjs", "--check"], { cwd: dir, encoding: "utf8" });
    assert.equal(check.status, 0, check.stderr);

    const changelog = read(dir, "CHANGELOG.md");
    assert.equal(changelogSection(changelog, next), unreleased);
    assert.match(changelog, new RegExp(`## \\[Unreleased\\]\n\n## \\[${next.replaceAll(".", "\\.")}\\] - 2026-12-01\n`));
    assert.equal(read(dir, "dist/release-notes.md"), `${unreleased}\n`);

    const manifestText = read(dir, "dist/system.json");
    const manifest = JSON.parse(manifestText);
    assert.equal(manifest.version, next);
    assert.equal(manifest.download, `${base}/releases/download/v${next}/icon-engine.zip`);
    assert.equal(manifest.manifest, `${base}/releases/latest/download/system.json`);
    const zipped = execFileSync("python3", ["-c", "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read('icon-engine/system.json').decode())",
      join(dir, "dist/icon-engine.zip")], { encoding: "utf8" });
    assert.equal(zipped, manifestText, "the zip ships the manifest attached beside it");

    // The committed system.json keeps package.json's (placeholder) base, at the new version.
    const committed = JSON.parse(read(dir, "system.json"));
    assert.equal(committed.download, `https://example.invalid/icon-engine/releases/download/v${next}/icon-engine.zip`);
    const changed = git(["status", "--porcelain"]).split("\n").filter(Boolean).map(l => l.slice(3)).sort();
    assert.deepEqual(changed, ["CHANGELOG.md", "Cargo.lock", "Cargo.toml", "package-lock.json", "package.json", "system.json"]);
  });
});
