import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { embeddedPackages } from '../../embedded-packages.ts';

export interface ResolvedPackage {
  name: string;
  version: string | null;
  path: string | null;
}

function resolvePackage(name: string, from: string): ResolvedPackage {
  try {
    const manifest = createRequire(from).resolve(`${name}/package.json`);
    const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
    return { name, version, path: path.dirname(manifest) };
  } catch {
    return { name, version: null, path: null };
  }
}

export interface PackageReport {
  upstream: ResolvedPackage;
  playwright: ResolvedPackage;
  /** The playwright-core the upstream runs on. */
  upstreamCore: ResolvedPackage;
  /** The playwright-core the bridge launches browsers with. */
  bridgeCore: ResolvedPackage;
  coreBundlePath: string | null;
  upstreamEntry: string | null;
  /** Compiled into the standalone binary: no paths, one copy checked at build time. */
  embedded: boolean;
}

/** Where the upstream and its playwright-core resolve from, seen from this module. */
export function resolvePackages(): PackageReport {
  if (embeddedPackages) {
    const { upstream, playwright, playwrightCore } = embeddedPackages;
    const at = (p: { name: string; version: string }): ResolvedPackage => ({ ...p, path: null });
    return { upstream: at(upstream), playwright: at(playwright), upstreamCore: at(playwrightCore), bridgeCore: at(playwrightCore), coreBundlePath: null, upstreamEntry: null, embedded: true };
  }
  const here = import.meta.url;
  const upstream = resolvePackage('@playwright/mcp', here);
  const upstreamBase = upstream.path ? path.join(upstream.path, 'package.json') : here;
  const upstreamCore = resolvePackage('playwright-core', upstreamBase);
  const coreBundle = upstreamCore.path ? path.join(upstreamCore.path, 'lib', 'coreBundle.js') : null;
  const entry = upstream.path ? path.join(upstream.path, 'index.js') : null;
  return {
    upstream,
    playwright: resolvePackage('playwright', upstreamBase),
    upstreamCore,
    bridgeCore: resolvePackage('playwright-core', here),
    coreBundlePath: coreBundle && fs.existsSync(coreBundle) ? coreBundle : null,
    upstreamEntry: entry && fs.existsSync(entry) ? entry : null,
    embedded: false,
  };
}
