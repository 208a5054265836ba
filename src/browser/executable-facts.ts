import fsp from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../fs/write-atomic.ts';

// Facts about a browser executable that cost a process start to learn (what
// `--version` prints, whether the driver hears its console), kept on disk per
// executable in the cache dir: only the first server on a machine pays for
// them (~60 ms and ~200 ms, on the path to the first page). An executable
// that changes (an upgrade: new size, mtime or inode) is a new key.

const FILE = 'executable-facts.json';
const stored = v.record(v.string(), v.record(v.string(), v.unknown()));
type Stored = v.InferOutput<typeof stored>;

async function keyOf(executablePath: string): Promise<string | undefined> {
  const stat = await fsp.stat(executablePath).catch(() => undefined);
  return stat ? [executablePath, stat.size, stat.mtimeMs, stat.ino].join('\0') : undefined;
}

async function readAll(file: string): Promise<Stored> {
  const parsed = v.safeParse(stored, await fsp.readFile(file, 'utf8').then((t) => JSON.parse(t) as unknown, () => ({})));
  return parsed.success ? parsed.output : {};
}

/** The fact remembered for this executable, or `learn()`'s answer, remembered. An unwritable cache only costs the speed-up. */
export async function rememberedFact<T>(cacheDir: string | undefined, executablePath: string, fact: string, schema: v.GenericSchema<T>, learn: () => Promise<T>): Promise<T> {
  const key = cacheDir ? await keyOf(executablePath) : undefined;
  if (!cacheDir || !key) return learn();
  const file = path.join(cacheDir, FILE);
  const known = v.safeParse(schema, (await readAll(file))[key]?.[fact]);
  if (known.success) return known.output;
  const learned = await learn();
  // Read again: another server may have added facts meanwhile.
  const all = await readAll(file);
  all[key] = { ...all[key], [fact]: learned };
  await fsp.mkdir(cacheDir, { recursive: true }).catch(() => {});
  await writeFileAtomic(file, JSON.stringify(all), 0o644).catch(() => {});
  return learned;
}
