// The settings, one file per section of --help and of the table in
// docs/configuration.md; their order here is the order of that table.
import { browserSettings } from './settings/browser.ts';
import { identitySettings } from './settings/identity.ts';
import { serverSettings } from './settings/server.ts';
import { httpSettings } from './settings/http.ts';
import { cdpSettings } from './settings/cdp.ts';
import { containerSettings } from './settings/container.ts';
import { securitySettings } from './settings/security.ts';
import type { Setting } from './settings/setting.ts';

export type { Setting } from './settings/setting.ts';
export { LOG_LEVELS } from './settings/server.ts';

export const settings = {
  ...browserSettings,
  ...identitySettings,
  ...serverSettings,
  ...httpSettings,
  ...cdpSettings,
  ...containerSettings,
  ...securitySettings,
};

export type Settings = typeof settings;
export type SettingKey = keyof Settings;
type ValueOf<S> = S extends Setting<infer T> ? T : never;
export type Config = {
  [K in SettingKey]: Settings[K]['default'] extends string ? ValueOf<Settings[K]> : ValueOf<Settings[K]> | undefined;
};
