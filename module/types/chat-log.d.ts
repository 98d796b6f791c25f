/**
 * Members of Foundry v13's chat log that foundry-vtt-types 13.345 leaves out (its ChatLog is a
 * stub: "TODO: Stub"). Type-checking only.
 *
 * v13's ChatMessage shows its changes in the log through them: `_onCreate` calls
 * `ui.chat.postOne(this, {notify: true})`, `_onUpdate` `ui.chat.updateMessage(this)` (or
 * `deleteMessage` when it is no longer visible), `_onDelete` `ui.chat.deleteMessage(this.id,
 * options)` (v13's client/documents/chat-message.mjs, read through the code search corpus). The
 * browser shim's chat log provides these three and is held to them by
 * scripts/shim-conformance.mjs, which reads a class declared here that extends a Foundry class as
 * members of that class.
 */

/** `foundry.applications.sidebar.tabs.ChatLog` with its message methods. */
export declare class ChatLogMessages extends foundry.applications.sidebar.tabs.ChatLog {
  /** Render a new message and add it to the log. */
  postOne(message: ChatMessage.Implementation, options?: { before?: string; notify?: boolean }): Promise<void>;
  /** Render a message again in place. */
  updateMessage(message: ChatMessage.Implementation, notify?: boolean): Promise<void>;
  /** Remove a message's element from the log. */
  deleteMessage(messageId: string, options?: { deleteAll?: boolean }): void;
  /**
   * Send what the user typed: v13's `processMessage(message, {speaker})` (the `chatMessage` hook,
   * then core's commands); v14's takes the chat editor's HTML (api/v14
   * classes/foundry.applications.sidebar.tabs.ChatLog.html).
   */
  processMessage(message: string): Promise<ChatMessage.Implementation | void>;
  /** v14 only: the chat commands (module/types/foundry-v14.d.ts `ChatCommandEntry`). */
  static CHAT_COMMANDS: Record<string, import("./foundry-v14").ChatCommandEntry>;
}
