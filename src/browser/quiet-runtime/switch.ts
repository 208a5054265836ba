// A launch that wants the shim carries this switch with a token of its own
// (`=<token>`, then `:no-console` when the page's console is not collected):
// the spawn hook taps that process's pipe and files the shim under the token,
// where the launch finds it. Chromium ignores the switch, like the instance
// marker; a browser started ahead from a recipe carries an older value, which
// the adoption does not compare (spawn-recipe.ts).
export const QUIET_RUNTIME_SWITCH = '--stealth-playwright-mcp-quiet-runtime';
const NO_CONSOLE = ':no-console';

export interface QuietRuntimeLaunch {
  token: string;
  /** The page's console messages and errors are collected (replayed at syncs), or discarded unread. */
  console: boolean;
}

export function quietRuntimeArg(launch: QuietRuntimeLaunch): string {
  return `${QUIET_RUNTIME_SWITCH}=${launch.token}${launch.console ? '' : NO_CONSOLE}`;
}

/** What a launch's quiet-runtime switch asks for, if it has one. */
export function quietRuntimeLaunch(args: readonly unknown[]): QuietRuntimeLaunch | undefined {
  const arg = args.find((a): a is string => typeof a === 'string' && a.startsWith(`${QUIET_RUNTIME_SWITCH}=`));
  if (!arg) return undefined;
  const value = arg.slice(QUIET_RUNTIME_SWITCH.length + 1);
  return value.endsWith(NO_CONSOLE) ? { token: value.slice(0, -NO_CONSOLE.length), console: false } : { token: value, console: true };
}
