import type { OwnCommands } from './own-commands.ts';
import { inlined, mayBeUserEvaluate, userEvaluate, withCompiled, type UserEvaluate } from './user-evaluate.ts';
import type { Message } from './watched-messages.ts';

// V8 mutes what goes wrong in code the inspector compiles for
// Runtime.callFunctionOn, as it does a cross-origin script's: an error the
// user's code throws later (from a timer, a listener) reaches the page's
// `error` listeners as "Script error." with no error object, and a promise it
// leaves rejected fires no `unhandledrejection` at all. Under the upstream the
// user's text runs through eval inside Playwright's UtilityScript, which
// Runtime.evaluate compiled, as the debugger's own code, whose errors are
// not muted. So the user's function is compiled first by Runtime.evaluate in
// the call's context (nothing of the user's runs then: it is a function
// expression), and the call gets it as one more argument, in a write that
// also lets the inspector forget it. Its stack frames stay `<anonymous>`.

// A remote object's id: the isolate's, the execution context's, then a counter (V8's RemoteObjectId).
const CONTEXT_OF_OBJECT = /^-?\d+\.(\d+)\.\d+$/;

/**
 * A call while the user's script runs (browser_evaluate, browser_run_code_unsafe): true to send it
 * as it is, or the text to send in its place: the compile (the call follows its answer), or the call
 * with the user's function inlined.
 */
export function userEvaluateCommand(text: string, sources: readonly string[], own: OwnCommands, sessionId: string | undefined, targetType: string | undefined): { compile: string } | { call: string } | true {
  const plan = mayBeUserEvaluate(text, sources) ? userEvaluate(text, sources) : undefined;
  if (!plan) return true;
  // A worker answers a call given the compiled function "Could not find object with given id": inlined there.
  const framed = targetType === 'page' || targetType === 'iframe';
  const compile = framed && sessionId && compileFirst(own, sessionId, plan);
  return compile ? { compile } : { call: inlined(plan) };
}

/** The Runtime.evaluate that compiles the user's function, to send in the call's place; undefined to inline it. */
function compileFirst(own: OwnCommands, sessionId: string, plan: UserEvaluate): string | undefined {
  const context = CONTEXT_OF_OBJECT.exec(plan.message.params.objectId ?? '')?.[1];
  if (!context) return undefined;
  // A page function that is an expression (browser_run_code_unsafe's `page.evaluate('…')`) runs here: with the call's gesture.
  const params = { expression: plan.compiled, contextId: Number(context), ...(plan.message.params.userGesture ? { userGesture: true } : {}) };
  return own.command(sessionId, 'Runtime.evaluate', params, { kind: 'compiled', plan }).text;
}

/** Once compiled: what goes to Chromium (the call) and to Playwright (its answer, when the compile threw). */
export function afterCompile(own: OwnCommands, sessionId: string, plan: UserEvaluate, answer: Message): { toBrowser?: string; toDriver?: string } {
  // Stopped (a hung page's script is terminated): the user's expression ran, and would run again inlined.
  if (answer.error && /terminat/i.test((answer.error as { message?: string }).message ?? '')) return { toDriver: JSON.stringify({ id: plan.message.id, error: answer.error, sessionId }) };
  // The context went, or is not one this reads: the call inlined gets Chromium's own answer for it.
  if (answer.error) return { toBrowser: inlined(plan) };
  const result = answer.result as { result?: { objectId?: string; type?: string }; exceptionDetails?: unknown } | undefined;
  // An expression that threw: the call's answer, as when it threw inside the call.
  if (result?.exceptionDetails || !result?.result?.objectId) return { toDriver: JSON.stringify({ id: plan.message.id, result: result ?? {}, sessionId }) };
  const objectId = result.result.objectId;
  return { toBrowser: [withCompiled(plan, objectId), own.command(sessionId, 'Runtime.releaseObject', { objectId }).text].join('\0') };
}
