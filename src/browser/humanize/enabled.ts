import type { BrowserContext, Page } from 'playwright-core';
import { serverObject } from '../utility-world.ts';
import { toolCallOf } from './cancelled-calls.ts';

// The contexts whose input is humanised (--humanize); the patched Playwright
// methods are shared by every context of the process.

const contexts = new WeakSet<BrowserContext>();

export const humanizeContext = (context: BrowserContext): void => void contexts.add(context);

/**
 * While a page shows its actions (browser_video_show_actions), Playwright
 * annotates every input action and holds each for the annotation's duration:
 * a humanised click's dozens of moves became dozens of callouts ("Mouse move")
 * and seconds of waiting. The user asked for the page to show what the agent
 * does, so it gets the upstream's actions, one callout each, as the upstream
 * draws them.
 */
const showsActions = (page: Page): boolean => serverObject(page)?.screencast?._actions !== undefined;

/** Humanised input for a call the client still waits for: a cancelled one's rest goes as the upstream's (cancelled-calls.ts). */
export const isHumanized = (page: Page): boolean => contexts.has(page.context()) && !showsActions(page) && !toolCallOf(page)?.aborted;
