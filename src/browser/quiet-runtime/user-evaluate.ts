import { parses } from './parses.ts';
import type { Message } from './watched-messages.ts';

// The upstream's browser_evaluate sends a wrapper of its own that evals the
// user's text, and Playwright evals that wrapper inside its UtilityScript. A
// page function the user's code calls (a wrapped document.getElementById, a
// getter) can read its callers in `new Error().stack`: "eval at evaluate" and
// "UtilityScript.evaluate", Playwright's name, which detectors look for
// (rebrowser's sourceUrlLeak; "UtilityScript." in a stack). Here the same
// wrapper is sent with the user's text in the source of the call itself, and
// runs a microtask later: its callers are `<anonymous>` frames only, as for
// code typed into DevTools' console. Same world, same `this`, same results and
// error messages (their stacks name these frames); a text the upstream's eval
// could not parse is sent as it was.
// browser_run_code_unsafe's own page.evaluate, locator.evaluate and $eval get
// the same: a page function found in the code the tool runs is compiled at the
// top of the call's source (global scope, as Playwright's indirect eval has it)
// and called a microtask later.

const UTILITY_CALL = '(utilityScript, ...args) => utilityScript.evaluate(...args)';
// Each call below passes Playwright's arguments on as UTILITY_CALL does, one spread of
// them with only the expression (and isFunction) replaced: a page that broke arrays'
// iteration gets the upstream's answer.
// browser_evaluate's wrapper, on the page or on an element (its source, as Playwright sends it).
const WRAPPER = /^async \((element, )?expr\) => \{\s*const value = eval\(`\(\$\{expr\}\)`\);\s*const isFunction = typeof value === "function";\s*const result = await \(isFunction \? value\((element)?\) : value\);\s*return \{ result, isFunction \};\s*\}$/;
// The same wrapper in the standalone binary, whose bundle Bun minifies (whitespace and syntax; names kept).
const WRAPPER_MINIFIED = /^async ?\((element,)?expr\) ?=> ?\{let value=eval\(`\(\$\{expr\}\)`\),isFunction=typeof value==="function",result=await\(isFunction\?value\((element)?\):value\);return\{result,isFunction\}\}$/;

function wrapper(onElement: boolean, text: string): string {
  const params = onElement ? 'element, expr' : 'expr';
  // Sloppy code at the top of a script, `this` the window and no `arguments`, as
  // the upstream's wrapper is (Playwright's global.eval of it is an indirect eval).
  // The text on the first line, after `0, ` as a sequence whose last value it is
  // (text the upstream's eval reads as `(1), (2)` gives 2 here too), passed through a call
  // so that V8 infers no name for it (in `const value = async () => …`, even in an array
  // or after a comma, the function is named "value" in a stack). `await 0` defers without
  // the page's Promise or then, which a page can replace.
  // A page whose Object.prototype has a `then` (which never calls back, to break
  // drivers) would hang every `await` of a plain object and every return of one
  // from an async function: the answer is returned without a prototype, and a
  // result is awaited only when its `then` is not the one every plain object
  // inherits (the same as `await` on a page without one).
  return `(${params}) => (async () => { await 0; const value = ((text) => text)((0, (${text}
)));
const isFunction = typeof value === "function";
const returned = isFunction ? value(${onElement ? 'element' : ''}) : value;
const result = returned !== null && (typeof returned === "object" || typeof returned === "function") && returned.then !== ({}).then ? await returned : returned;
return { __proto__: null, result, isFunction };
})()`;
}

/**
 * Calls UtilityScript.evaluate with the wrapper in place of Playwright's. A
 * result by value is serialized here rather than by UtilityScript, whose async
 * answer is a plain object, so that a page's `Object.prototype.then` cannot
 * hold it either (CDP awaits the returned promise without `then`).
 */
function utilityCall(wrapperSource: string): string {
  return `(utilityScript, ...args) => { args[2] = ${wrapperSource}; if (args[1] !== true || typeof utilityScript.jsonValue !== "function") return utilityScript.evaluate(...args);
args[1] = false; const pending = utilityScript.evaluate(...args);
return (async () => { const value = await pending; let json; try { json = utilityScript.jsonValue(true, value); } catch { json = undefined; } return json !== null && typeof json === "object" ? { __proto__: null, ...json } : json; })(); }`;
}

// The user's page function at the top of the source (evaluated before the call: a function
// expression runs nothing, an expression runs here with the script's own frame as its only
// caller), where no binding of ours is in its scope; called a microtask later, as
// UtilityScript.evaluate would (isFunction: true, false, or a function's own choice).
// All of it on one line before the user's text, which stays on the first line of the source
// (as in its stack under the upstream). A result by value (page.evaluate) comes back as
// browser_evaluate's does: boxed without a prototype and serialized here, so that a page's
// `Object.prototype.then` cannot hold it. A handle (evaluateHandle) must be the object
// itself: that one is left as Playwright has it.
function codeCall(text: string): string {
  const callValue = 'isFunction === true || (isFunction !== false && typeof value === "function") ? value(...parameters) : value';
  return `((value) => (utilityScript, ...args) => { const isFunction = args[0]; args[0] = true; if (args[1] !== true || typeof utilityScript.jsonValue !== "function") { args[2] = (...parameters) => (async () => { await 0; return ${callValue}; })(); return utilityScript.evaluate(...args); } args[1] = false; args[2] = (...parameters) => (async () => { await 0; const returned = ${callValue}; const result = returned !== null && (typeof returned === "object" || typeof returned === "function") && returned.then !== ({}).then ? await returned : returned; return { __proto__: null, result }; })(); const pending = utilityScript.evaluate(...args); return (async () => { const { result } = await pending; let json; try { json = utilityScript.jsonValue(true, result); } catch { json = undefined; } return json !== null && typeof json === "object" ? { __proto__: null, ...json } : json; })(); })((0, (${text}
)))`;
}

/** Playwright's text of a page function (trimmed; a method shorthand made a function; a function in parentheses) is in the user's code. */
function inCode(expression: string, sources: readonly string[]): boolean {
  const bare = /^\((async\s*)?function[\s(]/.test(expression) && expression.endsWith(')') ? expression.slice(1, -1) : expression;
  const candidates = [bare, bare.replace(/^(async )?function /, '$1')];
  return sources.some((source) => candidates.some((text) => text.length > 0 && source.includes(text)));
}

/** A quick look before parsing: browser_evaluate's calls carry both; with a script's code running, any Playwright evaluation may hand it a page function of that code. */
export const mayBeUserEvaluate = (text: string, sources: readonly string[]): boolean => text.includes(UTILITY_CALL) && (sources.length > 0 || text.includes('const value = eval(') || text.includes('let value=eval('));

export type CallMessage = Message & { id: number; params: { functionDeclaration: string; objectId?: string; userGesture?: boolean; arguments: { value?: unknown; objectId?: string }[] } };

/**
 * A user's evaluation, two ways to send it: its function compiled on its own
 * (`compiled`, a function expression) and handed to the call as one more last
 * argument (`declaration`), or inlined in the call (`inlined`).
 */
export interface UserEvaluate {
  message: CallMessage;
  compiled: string;
  declaration: string;
  inlined: string;
}

// The function the call gets last, taken off before Playwright's arguments are used.
const LAST_ARGUMENT = 'args.pop()';
const CALL_LAST_ARGUMENT = '(...args) => args.pop()(...args)';

/**
 * browser_evaluate's call with the user's text compiled apart, or a call of a
 * page function from the code of a running script (`sources`); undefined to
 * send the call as it is.
 */
export function userEvaluate(text: string, sources: readonly string[] = []): UserEvaluate | undefined {
  const message = JSON.parse(text) as CallMessage;
  const params = message.params;
  if (params?.functionDeclaration !== UTILITY_CALL || !Array.isArray(params.arguments)) return undefined;
  // UtilityScript.evaluate(isFunction, returnByValue, expression, argCount, ...args, ...handles) (playwright-core 1.66; 1.64 had a `serialize` before `expression`)
  const [, , , expression, argCount] = params.arguments;
  if (typeof expression?.value !== 'string') return undefined;
  const shape = WRAPPER.exec(expression.value) ?? WRAPPER_MINIFIED.exec(expression.value);
  if (!shape) {
    if (!inCode(expression.value, sources) || !parses(`(0, (${expression.value}\n))`)) return undefined;
    const compiled = codeCall(expression.value);
    return { message, compiled, declaration: CALL_LAST_ARGUMENT, inlined: compiled };
  }
  const count = argCount?.value;
  if (typeof count !== 'number' || count < 1) return undefined;
  const userText = params.arguments[4 + count]?.value;
  if (typeof userText !== 'string' || !parses(`(${userText})`)) return undefined;
  const compiled = wrapper(!!shape[1], userText);
  return { message, compiled, declaration: utilityCall(LAST_ARGUMENT), inlined: utilityCall(compiled) };
}

/** The call with the user's function inlined, as text to send. */
export function inlined(plan: UserEvaluate): string {
  return JSON.stringify({ ...plan.message, params: { ...plan.message.params, functionDeclaration: plan.inlined } });
}

/** The call with the user's function, compiled apart, as its last argument. */
export function withCompiled(plan: UserEvaluate, objectId: string): string {
  const params = plan.message.params;
  return JSON.stringify({ ...plan.message, params: { ...params, functionDeclaration: plan.declaration, arguments: [...params.arguments, { objectId }] } });
}
