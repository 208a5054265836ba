import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, LaunchOptions } from 'playwright-core';
import { chromium } from '../playwright-bundles.ts';
import { ensureDisplay } from '../container/ensure-display.ts';
import { makeDir } from '../fs/make-dir.ts';
import type { Logger } from '../log.ts';
import type { BrowserHooks } from './browser-hooks.ts';
import { mergeFeatureSwitchesAtSpawn } from './chromium-features.ts';
import type { LaunchPlan } from './launch-options.ts';
import { LICENCE_STATUS_ENV, licenceRefusal } from './licence-exit.ts';
import { expectQuietRuntime, installQuietRuntimeHook } from './quiet-runtime/spawn-hook.ts';
import { quietRuntimeArg } from './quiet-runtime/switch.ts';
import { mergeArgs } from './stealth-profile.ts';

export interface SpawnedBrowser {
  browser: Browser;
  /** Set for a persistent profile: closing it (not the browser) flushes cookies and storage. */
  persistent: BrowserContext | undefined;
  executablePath: string;
  /** The quiet runtime's token and whether it keeps the console, when the plan has one. */
  quiet: { token: string; console: boolean } | undefined;
  contextOptions: LaunchPlan['context'];
  /** Frees the licence seat the launch took (once the browser is gone). */
  releaseSeat: () => void;
}

/**
 * Starts the plan's browser: a display when headed, the build (downloaded on
 * first use, progress on stderr), the session's extras (proxy relay, GeoIP,
 * profile), a licence seat, and the pipe shim's hook when the runtime stays
 * quiet. A session closed meanwhile ends it before Chromium starts.
 */
export async function spawnBrowser(plan: LaunchPlan, hooks: BrowserHooks, log: Logger, closed: () => boolean): Promise<SpawnedBrowser> {
  await ensureDisplay(plan.launch.headless !== false);
  const executablePath = await plan.binary.ensure(log);
  if (closed()) throw new Error('The session is closed.');
  const extraArgs = (await hooks.extraArgs?.()) ?? [];
  const licenceEnv = plan.binary.launchEnv();
  const extras = plan.extras;
  await extras?.beforeLaunch?.();
  const env = { ...licenceEnv, ...plan.stealth?.env, ...extras?.env };
  const quiet = plan.quietRuntime ? { token: randomUUID(), console: plan.consoleCapture } : undefined;
  const options: LaunchOptions & { executablePath: string } = {
    ...plan.launch,
    executablePath,
    args: [...mergeArgs(plan.launch.args ?? [], extras?.args ?? []), ...extraArgs, ...(quiet ? [quietRuntimeArg(quiet)] : [])],
    ...(extras?.proxy ? { proxy: extras.proxy } : {}),
    // Playwright replaces the child's environment when `env` is given.
    ...(Object.keys(env).length ? { env: { ...process.env, ...plan.launch.env, ...env } } : {}),
  };
  const contextOptions = { ...plan.context, ...extras?.context };
  const statusFile = licenceEnv[LICENCE_STATUS_ENV];
  if (statusFile) await makeDir(path.dirname(statusFile), 0o700).catch(() => {});
  const browserType = await chromium();
  mergeFeatureSwitchesAtSpawn();
  if (plan.quietRuntime) installQuietRuntimeHook();
  const releaseSeat = await (hooks.claimSeat?.() ?? plan.binary.claimSeat(log));
  // A session's own user agent (its contextOptions) comes with Playwright's hints, as the upstream's does.
  const forgetExpected = quiet ? expectQuietRuntime(quiet.token, { userAgent: contextOptions.userAgent ? undefined : plan.userAgentOverride }) : () => {};
  try {
    if (extras?.userDataDir) {
      const persistent = await browserType.launchPersistentContext(extras.userDataDir, { ...options, ...contextOptions });
      return { browser: persistent.browser()!, persistent, executablePath, quiet, contextOptions, releaseSeat };
    }
    return { browser: await browserType.launch(options), persistent: undefined, executablePath, quiet, contextOptions, releaseSeat };
  } catch (error) {
    releaseSeat();
    throw licenceRefusal(error, statusFile) ?? error;
  } finally {
    forgetExpected();
  }
}
