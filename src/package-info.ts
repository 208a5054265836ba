import ownPackage from '../package.json' with { type: 'json' };
import upstreamPackage from '@playwright/mcp/package.json' with { type: 'json' };

export const PACKAGE_NAME = ownPackage.name;
export const PACKAGE_VERSION = ownPackage.version;
export const NODE_ENGINES = ownPackage.engines.node;
export const UPSTREAM_PACKAGE = upstreamPackage.name;
export const UPSTREAM_VERSION = upstreamPackage.version;
