import type { OwnCommands } from './own-commands.ts';
import type { SessionState } from './session-state.ts';

// A page's renderer reached on Playwright's own DevTools sessions (the quiet
// ones the shim knows): its commands are sent among Playwright's, and their
// answers are the shim's (own-commands.ts). Only Playwright's sessions: the
// short-lived ones a lookup or a probe opens are queued behind a loop that
// never yields, while an attached session's command interrupts it.

export class RendererControl {
  #sessions: ReadonlyMap<string, SessionState>;
  #own: OwnCommands;
  #toBrowser: (message: string) => void;

  constructor(sessions: ReadonlyMap<string, SessionState>, own: OwnCommands, toBrowser: (message: string) => void) {
    this.#sessions = sessions;
    this.#own = own;
    this.#toBrowser = toBrowser;
  }

  /**
   * Stops the script each target's renderer runs (a loop that never yields).
   * V8 stops the *next* script when none runs (the loop may have ended
   * meanwhile), so an evaluation of `0` follows at once, to be that script
   * rather than the page's or Playwright's own. The answers are dropped.
   */
  stopScripts(targetIds: ReadonlySet<string>): void {
    this.#sendToTargets(targetIds, (sessionId) => [this.#own.command(sessionId, 'Runtime.terminateExecution').text, this.#own.command(sessionId, 'Runtime.evaluate', { expression: '0', silent: true }).text]);
  }

  /**
   * Whether the target's renderer evaluates `0` within ms: one round trip,
   * where a probe's own session costs an attach and a detach too. Undefined
   * without such a session.
   */
  answers(targetId: string, ms: number): Promise<boolean | undefined> {
    const sessionId = [...this.#sessions].find(([, state]) => state.quiet && state.targetId === targetId)?.[0];
    if (sessionId === undefined) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      const answered = () => (clearTimeout(timer), resolve(true));
      this.#toBrowser(this.#own.command(sessionId, 'Runtime.evaluate', { expression: '0', silent: true }, { kind: 'answered', resolve: answered }).text);
    });
  }

  /** How long ago the target's renderer last ran something of Playwright's (ms; undefined without such a session, or before any answer). */
  sinceAnswer(targetId: string): number | undefined {
    const answeredAt = [...this.#sessions.values()].find((state) => state.quiet && state.targetId === targetId)?.answeredAt;
    return answeredAt ? performance.now() - answeredAt : undefined;
  }

  /**
   * Crashes each target's renderer (Page.crash, which the renderer runs on its
   * IO thread whatever its main thread does). Every page of that renderer crashes.
   */
  crash(targetIds: ReadonlySet<string>): void {
    this.#sendToTargets(targetIds, (sessionId) => [this.#own.command(sessionId, 'Page.crash').text]);
  }

  #sendToTargets(targetIds: ReadonlySet<string>, commandsFor: (sessionId: string) => string[]): void {
    const commands = [...this.#sessions].filter(([, state]) => state.quiet && state.targetId !== undefined && targetIds.has(state.targetId)).flatMap(([sessionId]) => commandsFor(sessionId));
    if (commands.length) this.#toBrowser(commands.join('\0'));
  }
}
