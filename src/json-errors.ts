import vm from 'node:vm';

// The upstream turns a tool's result into text with JSON.stringify in the
// server process (browser_evaluate's value, browser_run_code_unsafe's), and a
// value it cannot serialize becomes the tool's error: V8's words under Node
// ("Converting circular structure to JSON" with the path that closes the
// circle, "Do not know how to serialize a BigInt"). The standalone binary runs
// on JavaScriptCore, whose words differ ("JSON.stringify cannot serialize
// cyclic structures."). There, the two errors are reworded as V8 words them,
// by walking the value again the way JSON.stringify does, on that error path
// only.

const JSC_CYCLE = 'JSON.stringify cannot serialize cyclic structures.';
const JSC_BIGINT = 'JSON.stringify cannot serialize BigInt.';
const V8_BIGINT = 'Do not know how to serialize a BigInt';
// V8 prints the first two links of a long circle and the last one (json-stringifier.cc).
const PREFIX_LINES = 2;
const POSTFIX_LINES = 1;

type Key = string | number;
type Replacer = ((this: unknown, key: string, value: unknown) => unknown) | readonly (string | number)[] | null | undefined;

function constructorName(object: object): string {
  const proto = Object.getPrototypeOf(object) as { constructor?: { name?: unknown } } | null;
  const name = proto?.constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'Object';
}

function keyText(key: Key): string {
  if (typeof key === 'number') return `index ${key}`;
  return key === '' ? '<anonymous>' : `property '${key}'`;
}

function circleMessage(path: [Key, object][], start: number, closingKey: Key): string {
  const lines = [`--> starting at object with constructor '${constructorName(path[start]![1])}'`];
  const link = ([key, object]: [Key, object]) => `|     ${keyText(key)} -> object with constructor '${constructorName(object)}'`;
  let index = start + 1;
  const prefixEnd = Math.min(path.length, index + PREFIX_LINES);
  for (; index < prefixEnd; index++) lines.push(link(path[index]!));
  if (path.length > index + POSTFIX_LINES) lines.push('|     ...');
  for (index = Math.max(index, path.length - POSTFIX_LINES); index < path.length; index++) lines.push(link(path[index]!));
  lines.push(`--- ${keyText(closingKey)} closes the circle`);
  return `Converting circular structure to JSON\n    ${lines.join('\n    ')}`;
}

function ownKeys(value: object, replacer: Replacer): Key[] {
  if (Array.isArray(value)) return value.map((_, i) => i);
  if (Array.isArray(replacer)) return [...new Set(replacer.map(String))];
  return Object.keys(value);
}

/** What V8's JSON.stringify would throw for this value, or undefined when it would not throw. */
export function v8JsonErrorMessage(value: unknown, replacer?: Replacer): string | undefined {
  const path: [Key, object][] = [];
  const visit = (holder: unknown, key: Key, input: unknown): string | undefined => {
    let current = input;
    if ((typeof current === 'object' && current !== null) || typeof current === 'bigint') {
      const toJSON = (current as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') current = toJSON.call(current, String(key));
    }
    if (typeof replacer === 'function') current = replacer.call(holder, String(key), current);
    // Tags, not instanceof: a vm context's value comes from another realm.
    const tag = Object.prototype.toString.call(current);
    if (typeof current === 'bigint' || tag === '[object BigInt]') return V8_BIGINT;
    if (typeof current === 'object' && (tag === '[object Number]' || tag === '[object String]' || tag === '[object Boolean]')) return undefined;
    if (typeof current !== 'object' || current === null) return undefined;
    const start = path.findIndex(([, object]) => object === current);
    if (start !== -1) return circleMessage(path, start, key);
    path.push([key, current]);
    for (const child of ownKeys(current, replacer)) {
      const found = visit(current, child, (current as Record<Key, unknown>)[child]);
      if (found) return found;
    }
    path.pop();
    return undefined;
  };
  return visit({ '': value }, '', value);
}

/** Rewords the errors of one realm's JSON.stringify (an error of another realm is not a TypeError by instanceof). */
function reword(json: JSON): void {
  const native = json.stringify;
  json.stringify = function stringify(value: unknown, replacer?: Replacer, space?: string | number): string {
    try {
      return native(value, replacer as Parameters<typeof native>[1], space);
    } catch (error) {
      const message = (error as { message?: unknown } | null)?.message;
      if ((error as { name?: unknown } | null)?.name === 'TypeError' && (message === JSC_CYCLE || message === JSC_BIGINT)) {
        let v8Message: string | undefined;
        try {
          v8Message = v8JsonErrorMessage(value, replacer);
        } catch {
          // a toJSON or replacer that throws the second time: keep the engine's words
        }
        if (v8Message) (error as { message: string }).message = v8Message;
      }
      throw error;
    }
  } as typeof JSON.stringify;
}

/**
 * In the binary: JSON.stringify's errors read as V8's, in this realm and in
 * each vm context (browser_run_code_unsafe stringifies its result in one).
 */
export function rewordJsonErrorsAsV8(): void {
  reword(JSON);
  const createContext = vm.createContext;
  vm.createContext = function (this: unknown, ...args: Parameters<typeof vm.createContext>) {
    const context = createContext.apply(this, args);
    reword(vm.runInContext('JSON', context) as JSON);
    return context;
  } as typeof vm.createContext;
}
