import vm from 'node:vm';
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

const UTILITY_CALL = '(utilityScript, ...args) => utilityScript.evaluate(...args)';
// browser_evaluate's wrapper, on the page or on an element (its source, as Playwright sends it).
const WRAPPER = /^async \((element, )?expr\) => \{\s*const value = eval\(`\(\$\{expr\}\)`\);\s*const isFunction = typeof value === "function";\s*const result = await \(isFunction \? value\((element)?\) : value\);\s*return \{ result, isFunction \};\s*\}$/;

/** Whether the upstream's eval of `(text)` would parse it (the whole call stays as it was otherwise). */
function parses(text: string): boolean {
  try {
    new vm.Script(`(${text})`);
    return true;
  } catch {
    return false;
  }
}

function wrapper(onElement: boolean, text: string): string {
  const params = onElement ? 'element, expr' : 'expr';
  // Sloppy code at the top of a script, `this` the window and no `arguments`, as
  // the upstream's wrapper is (Playwright's global.eval of it is an indirect eval).
  // The text on the first line, after `0, ` as a sequence whose last value it is
  // (text the upstream's eval reads as `(1), (2)` gives 2 here too), passed through a call
  // so that V8 infers no name for it (in `const value = async () => …`, even in an array
  // or after a comma, the function is named "value" in a stack). `await 0` defers without
  // the page's Promise or then, which a page can replace.
  return `(${params}) => (async () => { await 0; const value = ((text) => text)((0, (${text}
)));
const isFunction = typeof value === "function";
const result = await (isFunction ? value(${onElement ? 'element' : ''}) : value);
return { result, isFunction };
})()`;
}

/** A quick look before parsing: only browser_evaluate's calls carry both. */
export const mayBeUserEvaluate = (text: string): boolean => text.includes(UTILITY_CALL) && text.includes('const value = eval(');

/** browser_evaluate's call with the user's text compiled into it, or undefined to send the call as it is. */
export function cleanUserEvaluate(text: string): string | undefined {
  const message = JSON.parse(text) as Message & { params?: { functionDeclaration?: unknown; arguments?: { value?: unknown }[] } };
  const params = message.params;
  if (params?.functionDeclaration !== UTILITY_CALL || !Array.isArray(params.arguments)) return undefined;
  // UtilityScript.evaluate(isFunction, returnByValue, serialize, expression, argCount, ...args, ...handles)
  const [, , , , expression, argCount] = params.arguments;
  const shape = typeof expression?.value === 'string' ? WRAPPER.exec(expression.value) : null;
  const count = argCount?.value;
  if (!shape || typeof count !== 'number' || count < 1) return undefined;
  const userText = params.arguments[5 + count]?.value;
  if (typeof userText !== 'string' || !parses(userText)) return undefined;
  params.functionDeclaration = `(utilityScript, isFunction, returnByValue, serialize, expression, ...rest) => utilityScript.evaluate(isFunction, returnByValue, serialize, ${wrapper(!!shape[1], userText)}, ...rest)`;
  return JSON.stringify(message);
}
