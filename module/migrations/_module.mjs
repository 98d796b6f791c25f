export { default as MigrationRunner } from "./migration-runner.mjs";
export { MIGRATIONS } from "./migration-list.mjs";
