import { ConfigError } from './config-error.ts';

// The upstream looks `--device` up in Playwright's device list and, for a name
// it does not know, emulates nothing without a word (or fails on a later
// context option: "Cannot set properties of undefined"). Here an unknown name
// stops the start, with the names it was probably meant to be. The list is
// playwright-core's own (the one the upstream reads), never a copy.

const normal = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Up to three names of the list that look like `name` (case, spaces and punctuation aside, or sharing its first word). */
function lookalikes(name: string, known: readonly string[]): string[] {
  const typed = normal(name);
  const first = normal(name.split(/\s+/)[0] ?? '');
  const same = known.filter((k) => normal(k) === typed);
  if (same.length) return same;
  // The list runs oldest to newest within a maker: the newest first.
  const containing = known.filter((k) => typed.length > 2 && (normal(k).includes(typed) || typed.includes(normal(k)))).reverse();
  const sharing = known.filter((k) => first.length > 2 && normal(k.split(/\s+/)[0] ?? '') === first).reverse();
  return [...new Set([...containing, ...sharing])].filter((k) => !/ landscape$/.test(k)).slice(0, 3);
}

export function checkDevice(name: unknown, origin: string, descriptors: Record<string, unknown>): void {
  if (typeof name !== 'string' || name === '' || Object.hasOwn(descriptors, name)) return;
  const known = Object.keys(descriptors);
  const near = lookalikes(name, known);
  const hint = near.length ? `Did you mean ${near.map((k) => `"${k}"`).join(', ')}? ` : '';
  throw new ConfigError(
    `${origin}: unknown device "${name}" (Playwright MCP would emulate no device at all). ${hint}Fix: use one of Playwright's ${known.length} device names, exactly as written (case and spaces count), e.g. ${origin === '--device' ? '--device ' : `${origin}=`}"${near[0] ?? 'iPhone 15'}"; or drop it.`,
  );
}
