import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { useTempDir } from './helpers/fixtures.ts';
import { RecordingStdioTransport, serverCommand, testEnv, textOf } from './helpers/server.ts';
import { CHROMIUM, UPSTREAM_CLI } from './helpers/upstream-cli.ts';

// An MCP client over stdio (VS Code, Cursor, Claude Code...) names its
// workspace in `roots`, and may start the server in another directory. The
// upstream CLI asks for them at its first tool call and takes the first as its
// workspace: its files (snapshots, screenshots, traces) go there, and files
// there may be uploaded. Ours did not ask: files went to the server's working
// directory, and an upload from the workspace was refused. Both sides here
// run with the same client, the same roots and the same working directory.

type Side = 'upstream' | 'ours';
const UPLOAD_PAGE = 'data:text/html,<title>upload</title><input type=file aria-label=Pick onchange="document.title = this.files[0].name">';

interface Run {
  asked: number;
  texts: string[];
  /** Files under the workspace root and the working directory, relative, times and ids as N, each name once. */
  inRoot: string[];
  inCwd: string[];
  /** Each link a result gave, and whether it resolves from the workspace root (else the working directory). */
  links: string[];
}

const filesUnder = (dir: string): string[] => [
  ...new Set(
    fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      // A trace's screencast frames come or not with the machine's timing; its .stacks file is the
      // client side's, written where the browser was launched with a trace dir (ours launches it).
      .filter((name) => !fs.statSync(path.join(dir, name)).isDirectory() && !/screencast[\\/]|\.stacks$/.test(name))
      .map((name) => name.replace(/\d{4}-\d\d-\d\dT[\d-]+Z|trace-\d+|page@[0-9a-f]+-\d+/g, 'N')),
  ),
].sort();

async function play(side: Side, base: string, args: string[], roots: 'offered' | 'none'): Promise<Run> {
  const root = path.join(base, side, 'workspace');
  const cwd = path.join(base, side, 'cwd');
  const home = path.join(base, side, 'home');
  for (const dir of [root, cwd, home]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(root, 'notes.txt'), 'in the workspace');
  let transport: RecordingStdioTransport;
  if (side === 'upstream') {
    transport = new RecordingStdioTransport(process.execPath, [UPSTREAM_CLI, '--browser', 'chromium', '--executable-path', CHROMIUM, '--headless', '--isolated', '--no-sandbox', ...args], { PATH: process.env.PATH ?? '', HOME: home, TMPDIR: path.join(base, 'tmp') }, cwd);
  } else {
    const [command, baseArgs] = serverCommand();
    // No output dir: files go where the upstream's rule puts them, from the workspace.
    const { PLAYWRIGHT_MCP_OUTPUT_DIR: _, ...env } = testEnv('unused', { HOME: home, TMPDIR: path.join(base, 'tmp') });
    transport = new RecordingStdioTransport(command, [...baseArgs, ...args], env, cwd);
  }
  fs.mkdirSync(path.join(base, 'tmp'), { recursive: true });
  const client = new Client({ name: 'workspace-client', version: '1.0.0' }, { capabilities: roots === 'offered' ? { roots: { listChanged: true } } : {} });
  let asked = 0;
  if (roots === 'offered')
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked++;
      return { roots: [{ uri: pathToFileURL(root).href, name: 'workspace' }] };
    });
  await client.connect(transport);
  const texts: string[] = [];
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const text = textOf(await client.callTool({ name, arguments: args }));
    texts.push(`${name}: ${text}`);
    return text;
  };
  try {
    await call('browser_navigate', { url: UPLOAD_PAGE });
    await call('browser_take_screenshot', { type: 'png', filename: 'shot.png' });
    await call('browser_click', { element: 'Pick', target: 'input[type=file]' });
    await call('browser_file_upload', { paths: [path.join(root, 'notes.txt')] });
    await call('browser_start_tracing');
    await call('browser_navigate', { url: 'data:text/html,<title>traced</title><p>traced</p>' });
    await call('browser_stop_tracing');
  } finally {
    await client.close();
    await transport.exit;
  }
  const links = texts
    .flatMap((text) => [...text.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!))
    .map((link) => `${link.replace(/\d{4}-\d\d-\d\dT[\d-]+Z|trace-\d+/g, 'N')}: ${fs.existsSync(path.resolve(root, link)) ? 'in the workspace' : fs.existsSync(path.resolve(cwd, link)) ? 'in the working dir' : 'missing'}`);
  return { asked, texts, inRoot: filesUnder(root), inCwd: filesUnder(cwd), links };
}

describe('workspace roots over stdio, as under the upstream CLI (alongside, in the same run)', () => {
  const base = useTempDir('spm-roots-');

  test("a client's first root is the workspace: files land there, links resolve, a file there uploads", { timeout: 180_000 }, async () => {
    const args = ['--caps', 'devtools'];
    const upstream = await play('upstream', base.path, args, 'offered');
    const ours = await play('ours', base.path, args, 'offered');
    assert.equal(upstream.asked, 1, 'the upstream asks for the roots once');
    assert.equal(ours.asked, 1, 'ours asks for the roots once, as the upstream does');
    assert.ok(upstream.inRoot.includes('shot.png') && upstream.inRoot.some((f) => f.endsWith('.trace')), `the yardstick: the upstream writes into the workspace: ${upstream.inRoot}`);
    assert.deepEqual(ours.inRoot, upstream.inRoot, 'the same files in the workspace');
    assert.deepEqual(ours.inCwd, upstream.inCwd, 'nothing more in the working directory');
    assert.deepEqual(ours.links, upstream.links, 'each link a result gives resolves as the upstream\'s does');
    const uploaded = (run: Run) => run.texts.find((t) => t.startsWith('browser_file_upload'))!;
    assert.doesNotMatch(uploaded(upstream), /### Error/, 'the yardstick: the upstream lets a workspace file be uploaded');
    assert.doesNotMatch(uploaded(ours), /### Error/, `ours lets it be uploaded too: ${uploaded(ours)}`);
    assert.match(ours.texts.find((t) => t.startsWith('browser_start_tracing'))!, /\.trace/);
  });

  for (const [label, args, roots] of [
    ['a client without roots: the working directory is the workspace', [], 'none'],
    ['--ignore-roots: the working directory is the workspace, the roots are not asked for', ['--ignore-roots'], 'offered'],
  ] as const) {
    test(label, { timeout: 180_000 }, async () => {
      const upstream = await play('upstream', path.join(base.path, label.slice(0, 12)), [...args, '--caps', 'devtools'], roots);
      const ours = await play('ours', path.join(base.path, label.slice(0, 12)), [...args, '--caps', 'devtools'], roots);
      assert.equal(ours.asked, upstream.asked);
      assert.ok(upstream.inCwd.includes('shot.png'), `the yardstick: ${upstream.inCwd}`);
      assert.deepEqual(ours.inCwd, upstream.inCwd);
      assert.deepEqual(ours.inRoot, upstream.inRoot);
      assert.deepEqual(ours.links, upstream.links);
    });
  }
});
