// esbuild's `__toESM` turns a required module into an import namespace by
// defining one getter per export on a fresh object, at every import: the core
// bundle runs it ~200 times at load, mostly on Node's builtins (`fs` alone has
// ~100 exports), and a slow start spent ~60 ms in it. The namespace made for a
// module is kept and handed to its next importer while the module has the
// same own keys: the getters read the module's live values, so only a module
// that gained or lost exports in between (a CommonJS module still loading in
// a require cycle) gets a new one, as it did before.

const HELPER = 'var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(';
const HELPER_END = '\n));\n';

// One line: the bundle's line numbers (its stack traces) stay as they were.
const KEPT = [
  '((toESM, kept = [new WeakMap(), new WeakMap()]) => (mod, isNodeMode) => {',
  'if (mod === null || (typeof mod !== "object" && typeof mod !== "function")) return toESM(mod, isNodeMode);',
  'const keys = __getOwnPropNames(mod).length, byMode = kept[isNodeMode ? 1 : 0], known = byMode.get(mod);',
  'if (known !== undefined && known.keys === keys) return known.namespace;',
  'const namespace = toESM(mod, isNodeMode); byMode.set(mod, { keys, namespace }); return namespace;',
  '})(',
].join(' ');

/** The bundle's text with its `__toESM` keeping namespaces; unchanged when the helper is not esbuild's as known. */
export function withKeptNamespaces(text: string): string {
  const start = text.indexOf(HELPER);
  if (start === -1 || text.indexOf(HELPER, start + 1) !== -1) return text;
  const end = text.indexOf(HELPER_END, start);
  if (end === -1 || end - start > 1000) return text;
  const expression = text.slice(start + 'var __toESM = '.length, end + 3);
  return `${text.slice(0, start)}var __toESM = ${KEPT}${expression})${text.slice(end + 3)}`;
}
