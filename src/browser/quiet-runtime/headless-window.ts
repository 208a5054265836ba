// Playwright tells a headed browser by its user agent (no "Headless" in it) and
// sizes each page's window as the viewport plus a headed window's bars. Ours
// runs headless under a user agent of its own, so a page's window got a headed
// Linux window's bars (8 px wide, 85 tall) around the viewport, while a
// headless window puts the page 87 px below its top and flush with its sides,
// which a mouse event's screenY − clientY − screenY tells (87, and 0 across): a
// window whose outerHeight − innerHeight (85) is less than that, as no window
// has. Playwright's bounds are set back to the viewport plus the headless
// window's own bars, which the upstream's headless windows have too.

type Bars = { width: number; height: number };

// Playwright's headed bars by the platform it reads in the user agent (crPage.ts _updateViewport).
const HEADED_BARS: Record<'win' | 'mac' | 'linux', Bars> = { win: { width: 16, height: 88 }, mac: { width: 2, height: 80 }, linux: { width: 8, height: 85 } };
const HEADLESS_BARS: Bars = { width: 0, height: 87 };

const platformOf = (userAgent: string) => (userAgent.includes('Windows') ? 'win' : userAgent.includes('Macintosh') ? 'mac' : 'linux');

/** For a browser launched headless, without a persistent profile (whose window Playwright makes taller still). */
export class HeadlessWindow {
  #asked = new Set<number>();
  #bars: Bars | undefined;

  /** Playwright's Browser.getVersion or Browser.setWindowBounds: true to send it as it is, or the text to send. */
  command(method: string, id: number, full: () => string): true | string {
    if (method === 'Browser.getVersion') this.#asked.add(id);
    else if (method === 'Browser.setWindowBounds') return this.#rewritten(full()) ?? true;
    return true;
  }

  /** An answer to Playwright: the version's tells which bars Playwright will add. */
  answered(id: number, text: () => string): void {
    if (!this.#asked.delete(id)) return;
    const userAgent = (JSON.parse(text()) as { result?: { userAgent?: string } }).result?.userAgent;
    if (typeof userAgent === 'string' && !userAgent.includes('Headless')) this.#bars = HEADED_BARS[platformOf(userAgent)];
  }

  /** Browser.setWindowBounds with the headless bars in place of the headed ones; undefined to send it as it is. */
  #rewritten(text: string): string | undefined {
    const bars = this.#bars;
    if (!bars) return undefined;
    const message = JSON.parse(text) as { params?: { bounds?: { width?: unknown; height?: unknown; windowState?: unknown } } };
    const bounds = message.params?.bounds;
    if (!bounds || typeof bounds.width !== 'number' || typeof bounds.height !== 'number' || bounds.windowState !== undefined) return undefined;
    bounds.width = bounds.width - bars.width + HEADLESS_BARS.width;
    bounds.height = bounds.height - bars.height + HEADLESS_BARS.height;
    return JSON.stringify(message);
  }
}
