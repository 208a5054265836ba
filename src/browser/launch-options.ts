import type { LaunchOptions } from 'playwright-core';
import type { Config } from '../config/settings.ts';
import type { UpstreamConfig } from '../config/upstream.ts';
import type { BrowserBinary } from './binary.ts';

export interface LaunchPlan {
  launch: LaunchOptions;
  context: NonNullable<NonNullable<UpstreamConfig['browser']>['contextOptions']>;
}

// What the upstream adds on its own launch path (it does not when handed a
// context), so the bridge must add it: no navigator.webdriver, an explicit
// headless, Chromium only.
const AUTOMATION_CONTROLLED_OFF = '--disable-blink-features=AutomationControlled';

export function launchPlan(config: Config, upstream: UpstreamConfig, binary: BrowserBinary): LaunchPlan {
  const fromUpstream = upstream.browser?.launchOptions ?? {};
  const args = [...(fromUpstream.args ?? [])];
  if (!args.some((a) => a.startsWith('--disable-blink-features'))) args.push(AUTOMATION_CONTROLLED_OFF);
  return {
    launch: {
      ...fromUpstream,
      executablePath: binary.executablePath,
      headless: config.headless,
      chromiumSandbox: !config.noSandbox,
      args,
      // The bridge closes its browsers itself on signals; Playwright's own
      // handlers would race it and exit the process early.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    },
    context: upstream.browser?.contextOptions ?? {},
  };
}
