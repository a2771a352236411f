/** The route each carrier's labels really take (electron/printing/routing.ts decideRoute), as the routing screen shows it. */
import { describe, expect, it } from 'vitest';
import { decideRoute, defaultRoutingRules } from '../../../electron/printing/routing';

describe('route decision', () => {
  it('a carrier without ZPL under a ZPL default goes as A4 PDF to the protocol printer', () => {
    expect(decideRoute(defaultRoutingRules, 'CCR')).toEqual({
      carrier: 'CCR',
      route: { format: 'pdf-a4', printerId: 'virtual-pdf', position: 1 },
      via: 'pdf-fallback',
    });
  });
  it('a ZPL carrier takes the default as it is', () => {
    expect(decideRoute(defaultRoutingRules, 'NP')).toEqual({
      carrier: 'NP',
      route: { format: 'zpl', printerId: 'virtual-zpl' },
      via: 'default',
    });
  });
  it("a carrier's own rule wins; without a protocol printer the fallback prints nothing", () => {
    const rules = { ...defaultRoutingRules, carriers: { CCR: { format: 'pdf-single' as const, printerId: 'office' } } };
    expect(decideRoute(rules, 'CCR')).toEqual({
      carrier: 'CCR',
      route: { format: 'pdf-single', printerId: 'office' },
      via: 'carrier',
    });
    expect(decideRoute({ ...defaultRoutingRules, protocolPrinterId: null }, 'CCR')).toEqual({
      carrier: 'CCR',
      route: null,
      via: 'none',
    });
  });
});
