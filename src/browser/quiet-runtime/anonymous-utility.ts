import { parses } from './parses.ts';

// Playwright builds its UtilityScript in a page's main world for the first
// evaluate there (browser_evaluate, a script's page.evaluate) and serializes
// each result through it. Its class and helpers are named, and a page that
// wraps a builtin they call (Function.prototype.bind as it is built;
// Object.keys, Array.prototype.push, Map.prototype.get as a result is
// serialized) reads those names in `new Error().stack`: "new UtilityScript",
// "UtilityScript.jsonValue", "innerSerialize", Playwright's names, which
// detectors look for. The same source is sent with its own functions' names
// replaced by short ones, as a minifier would leave them; nothing else in it
// changes (property names, the export Playwright reads, strings).

/** The source Playwright evaluates to build its UtilityScript. */
const MARK = 'module.exports.UtilityScript()';
/** How that Runtime.evaluate starts (its text as sent: JSON), for a look at a message's first bytes. */
export const UTILITY_SOURCE_HEAD = '"params":{"expression":"\\n      (() => {\\n';

// The functions whose names show in a stack: top-level declarations, the
// class, a nested `function name(` and a `const name = (…) =>`.
const DECLARED = [
  /^function\s+([A-Za-z_$][\w$]*)\s*\(/gm,
  /^var\s+([A-Za-z_$][\w$]*)\s*=\s*(?:class\b|function\b|async\b|\(|[\w$]+\s*=>)/gm,
  /\bfunction\s+([A-Za-z_$][\w$]*)\s*\(/g,
  /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?\([^()]*\)\s*=>/g,
];

/** Every whole-word `name` that is not a property read (`.name`). */
const words = (name: string) => new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');

/**
 * `source` with the binding `name` called `fresh`: an object key (`{ name: …`) is
 * kept, a shorthand property (`{ name }`, in a literal or a pattern) keeps its key.
 */
function rename(source: string, name: string, fresh: string): string {
  return source.replace(words(name), (found, at: number) => {
    if (!/[{,]\s*$/.test(source.slice(Math.max(0, at - 40), at))) return fresh;
    const after = source.slice(at + found.length, at + found.length + 40);
    if (/^\s*:(?!:)/.test(after)) return found;
    return /^\s*[,}]/.test(after) ? `${found}: ${fresh}` : fresh;
  });
}

function declaredNames(source: string): string[] {
  const names = new Set<string>();
  for (const pattern of DECLARED) for (const match of source.matchAll(pattern)) names.add(match[1]!);
  return [...names];
}

/** Short names the source does not use yet: $a … $z, $aa, $ab, … */
function* freshNames(source: string): Generator<string> {
  for (let i = 0; ; i++) {
    let letters = '';
    for (let n = i; n >= 0; n = Math.floor(n / 26) - 1) letters = String.fromCharCode(97 + (n % 26)) + letters;
    if (!source.includes(`$${letters}`)) yield `$${letters}`;
  }
}

let last: { source: string; renamed: string } | undefined;

/** `source` with its functions renamed; the same string when it is not Playwright's UtilityScript. */
export function anonymousUtilityScript(source: string): string {
  if (!source.includes(MARK)) return source;
  if (last?.source === source) return last.renamed;
  const fresh = freshNames(source);
  let renamed = source;
  for (const name of declaredNames(source)) renamed = rename(renamed, name, fresh.next().value!);
  // A source this does not read right (a later Playwright's) goes as it came.
  if (!parses(renamed)) renamed = source;
  last = { source, renamed };
  return renamed;
}

/** A Runtime.evaluate Playwright sends to build its UtilityScript, with the names replaced; undefined for any other. */
export function renamedUtilityEvaluate(text: string): string | undefined {
  if (!text.includes(MARK)) return undefined;
  const message = JSON.parse(text) as { params?: { expression?: unknown } };
  const expression = message.params?.expression;
  if (typeof expression !== 'string') return undefined;
  const renamed = anonymousUtilityScript(expression);
  if (renamed === expression) return undefined;
  message.params!.expression = renamed;
  return JSON.stringify(message);
}
