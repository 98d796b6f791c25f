export { default as ChatCards } from "./chat-cards.mjs";
export { default as ChatCommands } from "./chat-commands.mjs";
export { default as PackImportDialog } from "./pack-import-dialog.mjs";
