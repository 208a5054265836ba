// The layers' allowed imports, checked in `npm test` (as Playwright's DEPS.list
// files do): cli → transport → session → browser | cdp | instance | container
// → config → leaves (fs, metrics). A module may import its own layer and the
// layers below it, never one above; no import cycles between modules. api
// (the programmatic entry) sits beside cli, on top.
// Usage: node scripts/check-layers.ts [root]   (root holds src/; default: this checkout)
import fs from 'node:fs';
import path from 'node:path';

const ABOVE: Record<string, string[]> = {
  config: ['api', 'cli', 'transport', 'session', 'cdp', 'instance', 'metrics'],
  browser: ['api', 'cli', 'transport', 'session', 'cdp', 'instance'],
  cdp: ['api', 'cli', 'session', 'browser', 'instance'],
  instance: ['api', 'cli', 'transport', 'session', 'cdp'],
  container: ['api', 'cli', 'transport', 'session', 'browser', 'cdp', 'instance'],
  session: ['api', 'cli', 'transport'],
  transport: ['api', 'cli'],
  metrics: ['api', 'cli', 'transport', 'session', 'browser', 'cdp', 'instance', 'container', 'config'],
  fs: ['api', 'cli', 'transport', 'session', 'browser', 'cdp', 'instance', 'container', 'config', 'metrics'],
};
// Narrow exceptions: config reads the setting kinds other layers define; cdp shares the HTTP host guards.
const ALLOWED = [/^src\/config\/.* -> src\/(browser\/(proxy\/proxy-kind|context-options|extensions)|container\/kinds)\.ts$/, /^src\/cdp\/.* -> src\/transport\/http\/guards\.ts$/];

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const files: string[] = [];
(function walk(dir: string) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.ts')) files.push(full);
  }
})(path.join(root, 'src'));

const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
const layerOf = (file: string) => rel(file).split('/')[1]!;
const IMPORT = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'|import\('(\.[^']+)'\)/gm;

const graph = new Map<string, string[]>();
const violations: string[] = [];
for (const file of files) {
  const text = fs.readFileSync(file, 'utf8');
  const deps: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[3] ?? match[4] ?? match[5]!;
    const target = path.resolve(path.dirname(file), spec);
    if (!target.startsWith(path.join(root, 'src'))) continue;
    const typeOnly = Boolean(match[2]);
    if (!typeOnly) deps.push(target);
    const [from, to] = [rel(file), rel(target)];
    const above = ABOVE[layerOf(file)] ?? [];
    if (above.includes(layerOf(target)) && !ALLOWED.some((rule) => rule.test(`${from} -> ${to}`)))
      violations.push(`layer: ${from} imports ${to} (src/${layerOf(file)} may not import src/${layerOf(target)})`);
  }
  graph.set(file, deps);
}

// Cycles through value imports (type-only imports vanish at run time).
const state = new Map<string, 'open' | 'done'>();
const stack: string[] = [];
function visit(file: string): void {
  state.set(file, 'open');
  stack.push(file);
  for (const dep of graph.get(file) ?? []) {
    if (state.get(dep) === 'open') violations.push(`cycle: ${[...stack.slice(stack.indexOf(dep)), dep].map(rel).join(' -> ')}`);
    else if (!state.has(dep)) visit(dep);
  }
  stack.pop();
  state.set(file, 'done');
}
for (const file of files) if (!state.has(file)) visit(file);

if (violations.length) {
  process.stderr.write(`${violations.join('\n')}\n${violations.length} layer rule violation(s)\n`);
  process.exit(1);
}
process.stdout.write(`layers: ${files.length} modules, ${[...graph.values()].reduce((n, d) => n + d.length, 0)} imports, no violations\n`);
