import type { ReplayedCall } from './console-replay.ts';
import type { UserEvaluate } from './user-evaluate.ts';

// The commands the shim sends on its own (runtime-shim.ts explains the sync),
// with ids far below Playwright's (positive) and its Browser.close id
// (-9999), and what each answer means when it comes back.

const FIRST_OWN_ID = -1_000_000;
const PREVIEW_GROUP = 'stealth-playwright-mcp-preview';

export type Purpose =
  /** A sync's enable: at its answer, the replay is complete. */
  | { kind: 'enable' }
  /** At its answer the domain is off: what follows is the next enable's replay, from the storage's start. */
  | { kind: 'disable' }
  /** At its answer V8's console storage is empty. */
  | { kind: 'discard' }
  | { kind: 'preview'; call: ReplayedCall; index: number }
  /** At its answer a sync's last previews are in: the sync ends. */
  | { kind: 'previewed' }
  /** Its answer (or its session's end) tells that the renderer runs commands. */
  | { kind: 'answered'; resolve: () => void }
  /** Its answer is the user's function, compiled for the call that waits for it (compiled-evaluate.ts). */
  | { kind: 'compiled'; plan: UserEvaluate };

type Bindings = ReadonlyMap<string, string | undefined>;

export class OwnCommands {
  #nextId = FIRST_OWN_ID;
  #pending = new Map<number, Purpose & { sessionId: string }>();

  static owns(id: number): boolean {
    return id <= FIRST_OWN_ID;
  }

  command(sessionId: string, method: string, params?: Record<string, unknown>, purpose?: Purpose): { id: number; text: string } {
    const id = this.#nextId--;
    if (purpose) this.#pending.set(id, { ...purpose, sessionId });
    return { id, text: JSON.stringify({ id, method, ...(params ? { params } : {}), sessionId }) };
  }

  /** What an answer is for (once). */
  take(id: number): (Purpose & { sessionId: string }) | undefined {
    const purpose = this.#pending.get(id);
    this.#pending.delete(id);
    return purpose;
  }

  /** A session went: its commands get no answer. The ones dropped, for their callers to settle. */
  forget(sessionId: string): Purpose[] {
    const gone: Purpose[] = [];
    for (const [id, purpose] of this.#pending) if (purpose.sessionId === sessionId) (this.#pending.delete(id), gone.push(purpose));
    return gone;
  }

  /** Runtime.disable forgets bindings for documents to come: they follow every disable. */
  #disable(sessionId: string, bindings: Bindings): string[] {
    const out = [this.command(sessionId, 'Runtime.disable', undefined, { kind: 'disable' }).text];
    for (const [name, executionContextName] of bindings) out.push(this.command(sessionId, 'Runtime.addBinding', executionContextName === undefined ? { name } : { name, executionContextName }).text);
    return out;
  }

  /** A sync's first write; without the console kept, what the page logged is discarded unread first. */
  firstPass(sessionId: string, bindings: Bindings, keepConsole: boolean): string {
    const commands = keepConsole ? [] : [this.discard(sessionId)];
    commands.push(this.command(sessionId, 'Runtime.enable', undefined, { kind: 'enable' }).text, ...this.#disable(sessionId, bindings));
    return commands.join('\0');
  }

  /** The last replay's previews, then what was logged since, then (when asked) the discard, in one write. */
  nextPass(sessionId: string, bindings: Bindings, calls: readonly ReplayedCall[], discard: boolean): string {
    const commands = this.#previews(sessionId, calls);
    if (commands.length) commands.push(this.command(sessionId, 'Runtime.releaseObjectGroup', { objectGroup: PREVIEW_GROUP }).text);
    const enable = this.command(sessionId, 'Runtime.enable', undefined, { kind: 'enable' }).text;
    commands.push(enable);
    if (discard) commands.push(this.command(sessionId, 'Runtime.discardConsoleEntries', undefined, { kind: 'discard' }).text);
    commands.push(...this.#disable(sessionId, bindings));
    return commands.join('\0');
  }

  /** The last replay's previews alone; the answer to the write's last command ends the sync. */
  lastPreviews(sessionId: string, calls: readonly ReplayedCall[]): string {
    const commands = this.#previews(sessionId, calls);
    commands.push(this.command(sessionId, 'Runtime.releaseObjectGroup', { objectGroup: PREVIEW_GROUP }, { kind: 'previewed' }).text);
    return commands.join('\0');
  }

  #previews(sessionId: string, calls: readonly ReplayedCall[]): string[] {
    const commands: string[] = [];
    for (const call of calls)
      for (const index of call.waiting) {
        const params = { objectId: call.message.params.args[index]!.objectId, functionDeclaration: 'function () { return this; }', generatePreview: true, objectGroup: PREVIEW_GROUP, silent: true };
        commands.push(this.command(sessionId, 'Runtime.callFunctionOn', params, { kind: 'preview', call, index }).text);
      }
    return commands;
  }

  /** Without the console kept: what the page logged is dropped from the storage, unread (before a sync) or once replayed. */
  discard(sessionId: string): string {
    return this.command(sessionId, 'Runtime.discardConsoleEntries').text;
  }
}
