// Comparing the editor's code with a past submission: CodeMirror's unified merge view, in a
// compartment that is empty while not comparing. Deleted lines show above the code that
// replaced them; the code stays editable.
import { Compartment } from "@codemirror/state";
import { unifiedMergeView } from "@codemirror/merge";

export const diffSlot = new Compartment();

export function compareWith(view, original) {
  view.dispatch({
    effects: diffSlot.reconfigure(unifiedMergeView({ original, mergeControls: false, gutter: true })),
  });
}

export function stopComparing(view) {
  view.dispatch({ effects: diffSlot.reconfigure([]) });
}
