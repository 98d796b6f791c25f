/**
 * The system's Actor. Empty for now; it is registered from the start so later rules attach here
 * without a document-class migration.
 */
export default class IconActor extends Actor {}
