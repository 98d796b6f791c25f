export { default as IconActor } from "./icon-actor.mjs";
export { default as IconItem } from "./icon-item.mjs";
