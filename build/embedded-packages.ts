// What the standalone binary reports about the packages compiled into it.
// There is no node_modules next to the binary to resolve them from at run
// time, so build.ts hands these to the bundle as a define
// (STEALTH_EMBEDDED_PACKAGES, read by src/embedded-packages.ts).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { EmbeddedPackages } from '../src/embedded-packages.ts';

function manifest(name: string, from: string): { name: string; version: string; dir: string } {
  const file = createRequire(from).resolve(`${name}/package.json`);
  const { version } = JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string };
  return { name, version, dir: path.dirname(file) };
}

/** Reads the installed versions; fails if the upstream would run on a second playwright-core. */
export function embeddedPackages(root: string): EmbeddedPackages {
  const here = path.join(root, 'package.json');
  const upstream = manifest('@playwright/mcp', here);
  const upstreamBase = path.join(upstream.dir, 'package.json');
  const upstreamCore = manifest('playwright-core', upstreamBase);
  const bridgeCore = manifest('playwright-core', here);
  if (upstreamCore.dir !== bridgeCore.dir)
    throw new Error(
      `two copies of playwright-core: the upstream's ${upstreamCore.version} (${upstreamCore.dir}) and the bridge's ${bridgeCore.version} (${bridgeCore.dir}). ` +
        'Fix: pin playwright-core in package.json to the exact version @playwright/mcp depends on, then npm ci.',
    );
  const playwright = manifest('playwright', upstreamBase);
  const strip = ({ name, version }: { name: string; version: string }) => ({ name, version });
  return { upstream: strip(upstream), playwright: strip(playwright), playwrightCore: strip(upstreamCore) };
}
