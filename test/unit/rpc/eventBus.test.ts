import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../../electron/status/eventBus';

describe('the station event bus (exists before anything emits)', () => {
  it('an event emitted before the RPC server is connected is dropped: the page gets only what comes after', () => {
    const bus = createEventBus();
    bus.emit('station.tick', { now: '2026-11-24T03:00:00.000Z' });
    const seen: unknown[] = [];
    bus.connect((name, payload) => seen.push([name, payload]));
    bus.emit('station.tick', { now: '2026-11-24T03:00:01.000Z' });
    expect(seen).toEqual([['station.tick', { now: '2026-11-24T03:00:01.000Z' }]]);
  });

  it('delivers to every connected sink until it is disconnected', () => {
    const bus = createEventBus();
    const seen: string[] = [];
    const stopA = bus.connect((name) => seen.push(`a:${name}`));
    bus.connect((name) => seen.push(`b:${name}`));
    bus.emit('station.tick', { now: '2026-11-24T03:00:00.000Z' });
    stopA();
    bus.emit('settings.changed', {} as never);
    expect(seen).toEqual(['a:station.tick', 'b:station.tick', 'b:settings.changed']);
  });
});
