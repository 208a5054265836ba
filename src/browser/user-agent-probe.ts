import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

/** Headless Chromium announces itself as HeadlessChrome; report it as Chrome. */
export async function honestUserAgent(browser: Browser): Promise<string | undefined> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { userAgent } = (await cdp.send('Browser.getVersion')) as { userAgent: string };
    return userAgent.includes('HeadlessChrome') ? userAgent.replace('HeadlessChrome', 'Chrome') : undefined;
  } finally {
    await cdp.detach().catch(() => {});
  }
}

// A persistent context takes its user agent at launch, before any browser
// exists to ask: a short plain launch of the same executable asks once per
// process (and headless mode), then the answer is reused.
const probed = new Map<string, Promise<string | undefined>>();

export function probedUserAgent(options: LaunchOptions & { executablePath: string }): Promise<string | undefined> {
  const key = `${options.executablePath}\0${options.headless !== false}`;
  let pending = probed.get(key);
  if (!pending) {
    pending = (async () => {
      const { executablePath, headless, chromiumSandbox, env, ignoreDefaultArgs, handleSIGINT, handleSIGTERM, handleSIGHUP } = options;
      const browser = await chromium.launch({ executablePath, headless, chromiumSandbox, env, ignoreDefaultArgs, handleSIGINT, handleSIGTERM, handleSIGHUP });
      try {
        return await honestUserAgent(browser);
      } finally {
        await browser.close().catch(() => {});
      }
    })();
    pending.catch(() => probed.delete(key));
    probed.set(key, pending);
  }
  return pending;
}
