#!/usr/bin/env node
// `npm run dist`: the installers from electron-builder.yml for this OS, with the auto-update feed
// when STATION_UPDATE_URL names one at build time. electron-builder then writes it into the app
// (resources/app-update.yml, which electron/shell/main.ts looks for before it checks for updates) and
// writes latest*.yml next to the installers; both go to that address. Nothing is uploaded here.
import { build } from 'electron-builder';

const url = process.env.STATION_UPDATE_URL?.trim();
if (url && !url.startsWith('https://')) {
  console.error(
    `STATION_UPDATE_URL must be an https:// address (the app downloads its updates from it), not "${url}".`,
  );
  process.exit(2);
}
if (!url) console.log('STATION_UPDATE_URL is not set: the installers will not check for updates.');
await build({
  config: { extends: 'electron-builder.yml', ...(url ? { publish: [{ provider: 'generic', url }] } : {}) },
  publish: 'never',
});
