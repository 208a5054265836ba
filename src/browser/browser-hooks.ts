/** How a session adds to each launch (CDP debugging port), holds its licence seat and hears of a browser's end. */
export interface BrowserHooks {
  extraArgs?(): Promise<string[]>;
  /** The seat a launch takes; by default one claimed per launch (stdio), a session may hold its own (HTTP). */
  claimSeat?(): Promise<() => void>;
  onBrowserGone?(): void;
}
