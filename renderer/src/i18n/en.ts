/** English texts of the station UI. cs.ts must have every key (the type makes it so). */
export const en = {
  'app.title': 'Label Station',
  'nav.station': 'Station',
  'nav.shipments': 'Shipments',
  'nav.queue': 'Print queue',
  'nav.endOfDay': 'End of day',
  'nav.tracking': 'Tracking',
  'nav.settings': 'Settings',
  'conn.up': 'Connected',
  'conn.down': 'Station not connected — reconnecting…',
  'service.reachable': 'Service reachable',
  'service.unreachable': 'Service unreachable',
  'status.title': 'Station status',
  'status.version': 'Version',
  'status.host': 'Host',
  'status.dataDir': 'Data folder',
  'status.service': 'Service',
  'status.printers': 'Printers',
  'status.noPrinters': 'none found',
  'status.clock': 'Core clock',
  'status.waitingTick': 'waiting for the first event…',
  'status.loading': 'Loading…',
  'status.check': 'Check the service now',
  'env.sandbox': 'built-in sandbox',
  'env.test': 'test environment',
  'env.production': 'production',
  'banner.demo': 'Demo mode: the station runs on the built-in sandbox with virtual printers. Nothing is sent to a carrier.',
  'lang.label': 'Language',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
