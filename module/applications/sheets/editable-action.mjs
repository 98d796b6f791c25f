/**
 * A sheet action only a user who may edit the document can run. The templates leave these
 * actions out of a read-only sheet (`readOnly` in the context), but an observer's click must not
 * reach the handler either way: it would end in the server's permission error. Read-only actions
 * (tabs, opening an item) are registered unwrapped.
 * @template {{isEditable: boolean}} Sheet
 * @template Result
 * @param {(this: Sheet, event: PointerEvent, target: HTMLElement) => Result} handler  Called with
 *   the sheet as `this`.
 * @returns {(this: Sheet, event: PointerEvent, target: HTMLElement) => Result | undefined}
 */
export default function editableAction(handler) {
  return function (event, target) {
    if (!this.isEditable) {
      ui.notifications?.warn("ICONENGINE.Sheet.ReadOnly", { localize: true });
      return;
    }
    return handler.call(this, event, target);
  };
}
