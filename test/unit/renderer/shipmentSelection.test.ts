/** Multi-select on the Shipments list behaves as in a file manager (click, Ctrl/Cmd+click, Shift+click). */
import { describe, expect, it } from 'vitest';
import { clickRow, emptySelection, selectAll } from '../../../renderer/src/screens/shipments/selection';
import { stateGroups, toQuery, noFilters } from '../../../renderer/src/screens/shipments/filters';

const ids = (s: { ids: ReadonlySet<number> }) => [...s.ids].sort((a, b) => a - b);

describe('shipment list selection', () => {
  it('a click picks one row; Ctrl+click adds and removes rows; Shift+click picks the range from the anchor', () => {
    let s = clickRow(emptySelection, 2, 102, { shift: false, toggle: false });
    expect(ids(s)).toEqual([102]);
    s = clickRow(s, 5, 105, { shift: false, toggle: true });
    expect(ids(s)).toEqual([102, 105]);
    s = clickRow(s, 2, 102, { shift: false, toggle: true });
    expect(ids(s)).toEqual([105]);
    // Anchor is row 5 (the last Ctrl+click): Shift+click on row 3 picks rows 3-5 only.
    s = clickRow(s, 2, 102, { shift: false, toggle: false });
    s = clickRow(s, 4, 104, { shift: true, toggle: false }, [102, 103, 104]);
    expect(ids(s)).toEqual([102, 103, 104]);
    // Ctrl+Shift adds the range to what is picked.
    s = clickRow(
      clickRow(s, 9, 109, { shift: false, toggle: true }),
      11,
      111,
      { shift: true, toggle: true },
      [109, 110, 111],
    );
    expect(ids(s)).toEqual([102, 103, 104, 109, 110, 111]);
  });

  it('select all picks every id given', () => {
    expect(ids(selectAll([3, 1, 2]))).toEqual([1, 2, 3]);
  });
});

describe('shipment list filters', () => {
  it('maps what the worker picks to the cache query: state groups by the spec ids, carrier, place, dates, trimmed text', () => {
    expect(toQuery(noFilters)).toEqual({});
    expect(stateGroups.find((g) => g.id === 'delivered')!.states).toEqual([3, 5]);
    expect(
      toQuery({
        state: 'returned',
        carrier: 'PPR',
        place: 'WH-BRNO',
        from: '2026-11-01',
        to: '2026-11-30',
        text: '  Nováková ',
      }),
    ).toEqual({
      states: [4, 6],
      agents: ['PPR'],
      collectionPlaces: ['WH-BRNO'],
      createdFrom: '2026-11-01',
      createdTo: '2026-11-30',
      text: 'Nováková',
    });
  });
});
