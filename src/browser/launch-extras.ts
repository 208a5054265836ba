import type { BrowserContextOptions, LaunchOptions } from 'playwright-core';

/**
 * What a session's proxy, GeoIP match, profile and extensions add to its
 * launch plan; prepared when the session starts (src/session/session-setup.ts).
 */
export interface LaunchExtras {
  /** Playwright's proxy object (driver and relay modes). */
  proxy?: LaunchOptions['proxy'];
  /** Inline proxy, GeoIP and extension switches; win over the plan's by switch name. */
  args: string[];
  /** For the browser process (TZ from the GeoIP match). */
  env: Record<string, string>;
  /** GeoIP timezone/locale as context options (stock engine only: the stealth one takes flags). */
  context: BrowserContextOptions;
  /** A persistent profile: launchPersistentContext instead of launch + newContext. */
  userDataDir?: string;
  /** Before each launch (a crashed browser leaves Chromium's lock behind). */
  beforeLaunch?(): Promise<void>;
}
