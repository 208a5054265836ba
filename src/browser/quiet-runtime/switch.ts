// A launch that wants the shim carries this switch with a token of its own
// (`=<token>`): the spawn hook taps that process's pipe and files the shim
// under the token, where the launch finds it. Chromium ignores the switch,
// like the instance marker; a browser started ahead from a recipe carries an
// older token, which the adoption does not compare (spawn-recipe.ts).
export const QUIET_RUNTIME_SWITCH = '--stealth-playwright-mcp-quiet-runtime';

export function quietRuntimeArg(token: string): string {
  return `${QUIET_RUNTIME_SWITCH}=${token}`;
}

/** The token of a launch's quiet-runtime switch, if it has one. */
export function quietRuntimeToken(args: readonly unknown[]): string | undefined {
  const arg = args.find((a): a is string => typeof a === 'string' && a.startsWith(`${QUIET_RUNTIME_SWITCH}=`));
  return arg?.slice(QUIET_RUNTIME_SWITCH.length + 1);
}
