// What a person does to a form between the first paint and hydration (docs/decisions/105). The
// page is painted before its scripts run (decision 101), so on a slow phone a person can type in a
// field or choose in a select before React listens. The browser keeps what they did, but React's
// change handlers never saw it: a console filter chosen early was not applied, Earn's search typed
// early did not search, a controlled field's state stayed empty. Once the page is hydrated, each
// field that no longer holds what the server wrote gets the event React listens for, so its
// handlers see what the person did.

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** Whether the field differs from the server's HTML: typed in, chosen, ticked, or restored by the browser. */
function changedByThePerson(field: Field): boolean {
  if (field.disabled) return false;
  if (field instanceof HTMLSelectElement)
    return [...field.options].some((option) => option.selected !== option.defaultSelected);
  if (field instanceof HTMLInputElement && field.type === "checkbox") return field.checked !== field.defaultChecked;
  // A radio group changed by the person is told by the radio they chose. The default they left is
  // not replayed: setting its `checked` to tell React would choose it again and unchoose theirs.
  if (field instanceof HTMLInputElement && field.type === "radio") return field.checked && !field.defaultChecked;
  if (field instanceof HTMLInputElement && (field.type === "file" || field.type === "hidden")) return false;
  return field.value !== field.defaultValue;
}

/**
 * React's handlers fire only for a value its tracker has not seen, and the tracker took the
 * field's value at hydration, the person's own. So the tracker is told of another value first
 * (through the field's own `value` or `checked` property, which React wraps), the person's is put
 * back beneath it, and the event React listens for on that kind of field is sent.
 */
function replay(field: Field) {
  if (field instanceof HTMLSelectElement) {
    field.dispatchEvent(new Event("change", { bubbles: true }));
  } else if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")) {
    const checked = field.checked;
    field.checked = !checked;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "checked")!.set!.call(field, checked);
    // A plain Event, not a MouseEvent: it reaches React's click listener without toggling the box again.
    field.dispatchEvent(new Event("click", { bubbles: true }));
  } else {
    const value = field.value;
    const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    field.value = value === "" ? " " : "";
    Object.getOwnPropertyDescriptor(prototype, "value")!.set!.call(field, value);
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }
}

let replayed = false;

/** From the root's first effect, once the page is hydrated; once a page (a development re-run of effects does nothing). */
export function replayEarlyInput(): void {
  if (replayed) return;
  replayed = true;
  document.querySelectorAll<Field>("input, select, textarea").forEach((field) => {
    if (changedByThePerson(field)) replay(field);
  });
}
