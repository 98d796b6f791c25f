/**
 * The system's Item. Empty for now; registered from the start for the same reason as IconActor.
 */
export default class IconItem extends Item {}
