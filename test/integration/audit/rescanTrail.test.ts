/**
 * Every scan of a parcel is in its audit trail, rescans too: the workflow rig (a real sandbox, the
 * station's journal, print queue and a virtual ZPL printer) with the desk "Stůl 1". Růžena scans a
 * parcel (closed, printed), scans it again and reprints it (damaged), scans it a third time and
 * skips it (Esc). Before, the two rescans were missing from the trail (their journal entries named
 * no parcel) and from the CSV export; now each is a step with who, when, the desk and what came of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../../electron/base/clock';
import { createAuditHandlers } from '../../../electron/audit/auditHandlers';
import { createAuditTrailRepo } from '../../../electron/store/auditTrailRepo';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { shipment } from '../api/support';
import { startRig, type Rig } from '../workflows/workflowRig';
import { at, registerOperator } from '../../support/scriptedShift';

const day = new Date(2026, 4, 12);
let t = at(day, 8, 0, 0);
const clock: Clock = { now: () => new Date(t), setInterval: systemClock.setInterval };

let sb: Sandbox;
let rig: Rig;
beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  rig = await startRig(sb, { clock });
});
afterAll(async () => {
  await rig?.close();
  await sb?.close();
});

describe('a rescanned parcel’s audit trail', () => {
  it('lists every scan with who, when, the desk and what came of it, in the detail and the CSV', async () => {
    const ruzena = registerOperator(rig.db, { name: 'Růžena Křížová', badge: '!LS-OP-R' }, t);
    rig.deps.desk.signIn(ruzena);
    const [d] = await rig.session.client.insertDeliveries([shipment({})]);
    const code = d!.externalId!;
    t = at(day, 9, 0, 0);
    expect((await rig.workflows.scanToClose.scan(code)).kind).toBe('printed');

    t = at(day, 9, 10, 0);
    const second = await rig.workflows.scanToClose.scan(code);
    expect(second.kind).toBe('already_closed');
    t = at(day, 9, 10, 5);
    const reprinted = await rig.workflows.scanToClose.reprint({
      deliveryId: d!.deliveryId,
      scanId: second.scanId,
      why: { code: 'damaged' },
    });
    expect(reprinted.kind).toBe('printed');

    t = at(day, 9, 20, 0);
    const third = await rig.workflows.scanToClose.scan(code);
    expect(third.kind).toBe('already_closed');
    t = at(day, 9, 20, 3);
    expect(rig.workflows.scanToClose.skip(third.scanId)?.kind).toBe('skipped');
    rig.deps.desk.signOut();

    const trail = createAuditTrailRepo(rig.db).ofDelivery(rig.session.accountId, d!.deliveryId);
    const scans = trail.filter((s) => s.step === 'scanned');
    expect(scans.map((s) => [s.at, s.code, s.operator?.name, s.desk])).toEqual([
      [at(day, 9, 0, 0).toISOString(), code, 'Růžena Křížová', 'Stůl 1'],
      [at(day, 9, 10, 0).toISOString(), code, 'Růžena Křížová', 'Stůl 1'],
      [at(day, 9, 20, 0).toISOString(), code, 'Růžena Křížová', 'Stůl 1'],
    ]);
    const rescans = trail.filter((s) => s.step === 'ended' && s.outcome === 'already_closed');
    expect(rescans.map((s) => [s.at, s.reasonCode, s.operator?.name])).toEqual([
      [at(day, 9, 10, 0).toISOString(), 'reprinted', 'Růžena Křížová'],
      [at(day, 9, 20, 0).toISOString(), 'skipped', 'Růžena Křížová'],
    ]);
    // The reprint with its reason follows the rescan it came from.
    const reprint = trail.find((s) => s.step === 'reprint')!;
    expect(reprint).toMatchObject({ reasonCode: 'damaged', operator: { name: 'Růžena Křížová' } });
    expect(trail.indexOf(reprint)).toBeGreaterThan(trail.indexOf(rescans[0]!));
    expect(trail.indexOf(reprint)).toBeLessThan(trail.indexOf(rescans[1]!));

    // The export of the day has the same three scans and both outcomes.
    const handlers = createAuditHandlers({
      trail: createAuditTrailRepo(rig.db),
      activeAccountId: () => rig.session.accountId,
    });
    const { csv } = await handlers['shipments.trailCsv']({
      from: at(day, 0, 0, 0).toISOString(),
      to: at(day, 24, 0, 0).toISOString(),
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      language: 'en',
    });
    const lines = csv
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter((l) => l.includes(`,${d!.deliveryId},`));
    expect(lines.filter((l) => l.includes(',scanned,'))).toHaveLength(3);
    expect(lines.filter((l) => /,ended,.*,already_closed,reprinted,/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /,ended,.*,already_closed,skipped,/.test(l))).toHaveLength(1);
  });
});
