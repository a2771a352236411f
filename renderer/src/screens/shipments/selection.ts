/**
 * Multi-select as in a file manager: click picks one, Ctrl/Cmd+click toggles one, Shift+click
 * picks the range from the anchor (the last plain or Ctrl click). Pure, so it is easy to test.
 */
export interface Selection {
  ids: ReadonlySet<number>;
  /** Row index of the anchor for Shift ranges. */
  anchor: number | null;
}

export const emptySelection: Selection = { ids: new Set(), anchor: null };

export interface ClickMods {
  shift: boolean;
  toggle: boolean;
}

/** `rangeIds` are the ids of rows anchor..index (inclusive), in any order. */
export function clickRow(sel: Selection, index: number, id: number, mods: ClickMods, rangeIds?: number[]): Selection {
  if (mods.shift && sel.anchor !== null && rangeIds) {
    const ids = new Set(mods.toggle ? sel.ids : []);
    for (const r of rangeIds) ids.add(r);
    return { ids, anchor: sel.anchor };
  }
  if (mods.toggle) {
    const ids = new Set(sel.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { ids, anchor: index };
  }
  return { ids: new Set([id]), anchor: index };
}

export function selectAll(ids: number[]): Selection {
  return { ids: new Set(ids), anchor: null };
}
