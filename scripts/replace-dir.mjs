/**
 * A generated folder put in place of the checked-in one only when they differ (same file names,
 * same bytes), so a build that changes nothing leaves the tree and its timestamps alone.
 */
import { existsSync, readFileSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * Replaces `target` with `work` when they differ, else removes `work`.
 * @param {string} target
 * @param {string} work
 * @returns {boolean} whether `target` changed
 */
export function replaceDirIfChanged(target, work) {
  const names = readdirSync(work);
  const same = existsSync(target) && readdirSync(target).join("\n") === names.join("\n")
    && names.every(f => readFileSync(path.join(target, f)).equals(readFileSync(path.join(work, f))));
  if (same) rmSync(work, { recursive: true, force: true });
  else {
    rmSync(target, { recursive: true, force: true });
    renameSync(work, target);
  }
  return !same;
}
