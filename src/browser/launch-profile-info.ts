import { displayEndpoint } from './attach.ts';
import type { LaunchPlan } from './launch-options.ts';
import { maskCredentialsIn } from './proxy/proxy-url.ts';
import type { ShimCounters } from './quiet-runtime/runtime-shim.ts';
import type { LaunchProfile } from './spawn-ahead/prepared-start.ts';
import { spawnAheadReport } from './spawn-ahead/spawn-ahead.ts';
import { mergeArgs } from './stealth-profile.ts';

/** What a session's browser is right now, beyond its plan. */
export interface LaunchState {
  consoleFallbackActive: boolean | null;
  /** The current browser's quiet-runtime counters, if it has the shim. */
  quiet: ShimCounters | undefined;
  prelaunched: boolean;
  profile: LaunchProfile | undefined;
}

/** The launch profile a session's browsers get, for stealth_bridge_info. */
export function launchProfileInfo(plan: LaunchPlan, state: LaunchState) {
  return {
    stealthArgs: plan.stealth !== null && !plan.attach,
    seed: plan.stealth?.seed ?? null,
    platform: plan.stealth?.platform ?? null,
    timezone: plan.stealth?.timezone ?? null,
    locale: plan.stealth?.locale ?? null,
    sandbox: plan.launch.chromiumSandbox === true,
    consoleFallback: plan.consoleFallback,
    consoleFallbackActive: state.consoleFallbackActive,
    // The current browser's context syncs and the context events they gave Playwright.
    quietRuntime: state.quiet ? { ...state.quiet } : plan.quietRuntime && !plan.attach ? { syncs: 0, contextsCreated: 0, contextsDestroyed: 0 } : null,
    // Whether the page's console messages and errors are read at all (--console-capture).
    consoleCapture: plan.consoleCapture || plan.attach !== undefined,
    prelaunched: state.prelaunched,
    // Whether the current browser started on a profile Chromium made before (prepared) or made its own (fresh); null before a launch, or one on a persistent profile.
    profile: state.profile ?? null,
    // Over stdio: whether Chromium was started from the last start's command line, before playwright-core loaded.
    spawnAhead: spawnAheadReport(),
    attached: plan.attach ? { kind: plan.attach.kind, endpoint: displayEndpoint(plan.attach.endpoint), ownContext: plan.attach.ownContext, fingerprint: 'not managed: the attached browser is used as it is' } : null,
    humanize: plan.humanize,
    switches: plan.switches,
    viewport: plan.context.viewport ?? null,
    // With the session's own switches; an inline proxy's credentials masked.
    args: mergeArgs(plan.launch.args ?? [], plan.extras?.args ?? []).map((arg) => maskCredentialsIn(arg)),
  };
}
