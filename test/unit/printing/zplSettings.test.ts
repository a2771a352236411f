import { describe, expect, it } from 'vitest';
import { applyZplSettings, splitZplLabels } from '../../../electron/printing/zplSettings';
import { printerSettings } from '../../../shared/contract/printing';

const label = '^XA^LH0,0^FO50,50^BCN,100^FDPKG1^FS^PQ1^XZ';

describe('per-printer ZPL settings', () => {
  it('leave the service bytes untouched with default settings and one copy', () => {
    expect(applyZplSettings(label, printerSettings.parse({}))).toBe(label);
  });

  it('add darkness, offset, rotation and copies to every label of a multi-package shipment', () => {
    const s = printerSettings.parse({ darkness: 5, offsetX: 20, offsetY: -10, rotate180: true, copies: 2 });
    const out = applyZplSettings(`${label}\n${label.replace('PKG1', 'PKG2')}`, s);
    const labels = splitZplLabels(out);
    expect(labels).toHaveLength(2);
    for (const l of labels) {
      expect(l.startsWith('^XA^MD5^LS-20^LT-10^POI')).toBe(true);
      expect(l.endsWith('^PQ2^XZ')).toBe(true);
      expect(l.match(/\^PQ/g)).toHaveLength(1);
    }
  });

  it('multiply the job copies by the printer copies', () => {
    expect(applyZplSettings(label, printerSettings.parse({ copies: 2 }), 3)).toContain('^PQ6^XZ');
  });

  it('reject settings out of the printer range', () => {
    expect(printerSettings.safeParse({ darkness: 40 }).success).toBe(false);
    expect(printerSettings.safeParse({ offsetY: 500 }).success).toBe(false);
    expect(printerSettings.safeParse({ dpi: 250 }).success).toBe(false);
  });
});
