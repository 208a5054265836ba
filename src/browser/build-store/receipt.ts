import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';

// `.install.json` in a build directory is its completeness marker: it is
// written into the staging directory before the rename that publishes it, so a
// build directory without a valid receipt is leftover junk, never a build.
export const RECEIPT_FILE = '.install.json';

const receiptSchema = v.object({
  schema: v.literal(1),
  provider: v.string(),
  version: v.string(),
  platform: v.string(),
  tier: v.picklist(['keyless', 'keyed']),
  executable: v.string(),
  archive: v.object({ name: v.string(), sha256: v.string(), bytes: v.number() }),
  verification: v.picklist(['signed', 'pinned-sha256', 'none']),
  keyId: v.optional(v.string()),
  manifestVersion: v.optional(v.string()),
  source: v.string(),
  installedAt: v.string(),
  installedBy: v.string(),
});

export type Receipt = v.InferOutput<typeof receiptSchema>;

export async function writeReceipt(dir: string, receipt: Receipt): Promise<void> {
  await fs.writeFile(path.join(dir, RECEIPT_FILE), `${JSON.stringify(receipt, null, 2)}\n`, { mode: 0o644 });
}

/** The receipt of a complete build whose executable is present and runnable, else undefined. */
export async function readInstalled(dir: string): Promise<Receipt | undefined> {
  const text = await fs.readFile(path.join(dir, RECEIPT_FILE), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  let parsed: v.SafeParseResult<typeof receiptSchema>;
  try {
    parsed = v.safeParse(receiptSchema, JSON.parse(text));
  } catch {
    return undefined;
  }
  if (!parsed.success) return undefined;
  const exe = path.join(dir, parsed.output.executable);
  if (path.relative(dir, exe).startsWith('..')) return undefined;
  const runnable = await fs.access(exe, constants.X_OK).then(() => true, () => false);
  return runnable ? parsed.output : undefined;
}
