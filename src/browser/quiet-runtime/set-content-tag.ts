// Playwright's page.setContent() runs document.open(), console.debug(tag)
// and document.write() in one evaluate, and waits for that console message:
// on it, it forgets the frame's lifecycle and waits for the next load. With
// the domain off, the message reached Playwright at the next sync, after the
// load it was meant to precede, and setContent waited out its timeout (30 s;
// the upstream's answers at once). So the shim announces the tag itself as
// the command goes to Chromium (the page logs it first thing), and drops the
// page's own message when a sync replays it.

const TAG = /--playwright--set--content--[0-9a-f]+--/;
// The command runs on a handle of the frame's utility world: V8's object ids read "<isolate>.<context>.<n>".
const CONTEXT_OF_OBJECT = /"objectId":"-?\d+\.(\d+)\.\d+"/;
const CONTEXT_ID = /"executionContextId":(\d+)/;
/** Tags announced, whose message each replay until a discard would bring again. */
const KEPT = 64;

export class SetContentTags {
  #announced: string[] = [];

  /** For a command that runs setContent's evaluate: the console event Playwright waits for; else undefined. */
  announce(command: string, sessionId: string): string | undefined {
    const tag = TAG.exec(command)?.[0];
    const contextId = tag && (CONTEXT_ID.exec(command)?.[1] ?? CONTEXT_OF_OBJECT.exec(command)?.[1]);
    if (!tag || !contextId) return undefined;
    this.#announced.push(tag);
    if (this.#announced.length > KEPT) this.#announced.shift();
    const params = { type: 'debug', args: [{ type: 'string', value: tag }], executionContextId: Number(contextId), timestamp: Date.now(), stackTrace: { callFrames: [] } };
    return JSON.stringify({ method: 'Runtime.consoleAPICalled', params, sessionId });
  }

  /** Whether a replayed console message is a tag announced already. */
  announced(start: string, full: () => string): boolean {
    if (!this.#announced.length || !start.includes('"type":"debug"')) return false;
    const tag = TAG.exec(full())?.[0];
    return tag !== undefined && this.#announced.includes(tag);
  }
}
