/** The Electron shell's permission decision: the desk camera for the app's own page, nothing else. */
import { describe, expect, it } from 'vitest';
import { grantsPermission } from '../../../electron/shell/mediaPermission';

const ask = (o: Partial<Parameters<typeof grantsPermission>[0]> = {}) =>
  grantsPermission({ permission: 'media', url: 'app://station/', isMainFrame: true, mediaTypes: ['video'], ...o });

describe('media permission (Electron shell)', () => {
  it('grants the camera to app://station/ (a request from its page, a check from its origin)', () => {
    expect(ask()).toBe(true);
    expect(ask({ url: 'app://station/index.html#/station' })).toBe(true);
    expect(ask({ url: 'app://station' })).toBe(true);
  });

  it('refuses the microphone, or camera and microphone together', () => {
    expect(ask({ mediaTypes: ['audio'] })).toBe(false);
    expect(ask({ mediaTypes: ['video', 'audio'] })).toBe(false);
    expect(ask({ mediaTypes: [] })).toBe(false);
    expect(ask({ mediaTypes: ['unknown'] })).toBe(false);
  });

  it('refuses any other page or frame', () => {
    expect(ask({ url: 'https://example.com/' })).toBe(false);
    expect(ask({ url: 'http://127.0.0.1:8080/' })).toBe(false);
    expect(ask({ url: 'app://other/' })).toBe(false);
    expect(ask({ url: 'app://station.evil/' })).toBe(false);
    expect(ask({ url: 'app://user@station/' })).toBe(false);
    expect(ask({ url: 'file:///index.html' })).toBe(false);
    expect(ask({ url: 'not a url' })).toBe(false);
    expect(ask({ isMainFrame: false })).toBe(false);
  });

  it('refuses every other permission, also to the app', () => {
    for (const permission of [
      'geolocation',
      'notifications',
      'clipboard-read',
      'hid',
      'serial',
      'usb',
      'midi',
      'openExternal',
    ])
      expect(ask({ permission })).toBe(false);
  });
});
