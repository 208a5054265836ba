import { createRequire } from 'node:module';
import ownPackage from '../package.json' with { type: 'json' };
import { embeddedPackages } from './embedded-packages.ts';

// The upstream's manifest is read at run time (not bundled) so that doctor and
// stealth_bridge_info report the copy actually installed; the standalone binary
// has no node_modules and reports the copy compiled into it.
const upstreamPackage =
  embeddedPackages?.upstream ?? (createRequire(import.meta.url)('@playwright/mcp/package.json') as { name: string; version: string });

export const PACKAGE_NAME = ownPackage.name;
export const PACKAGE_VERSION = ownPackage.version;
export const UPSTREAM_PACKAGE = upstreamPackage.name;
export const UPSTREAM_VERSION = upstreamPackage.version;
