// SHA256SUMS in the format of coreutils' sha256sum ("<hex>  <name>"), so a
// user can check a download with `sha256sum -c` and install.sh can grep it.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function writeChecksums(dir: string, files: string[]): Promise<void> {
  const lines = await Promise.all(files.map(async (f) => `${await sha256(f)}  ${path.basename(f)}\n`));
  await writeFile(path.join(dir, 'SHA256SUMS'), lines.sort((a, b) => a.slice(66).localeCompare(b.slice(66))).join(''));
}
