// A `--user-agent` switch (user-agent.ts: headless stock Chromium without
// "HeadlessChrome") also empties Chromium's user-agent client hints: the
// brands stay, but getHighEntropyValues() answers an empty fullVersionList,
// uaFullVersion, architecture and bitness, and the Sec-CH-UA-Full-Version-List
// and Sec-CH-UA-Arch headers a site asks for (Accept-CH) are never sent.
// No Chrome does that. The same browser without the switch (measured against
// Debian's Chromium 156, unautomated) answers what this module rebuilds; the
// pipe shim hands it to every page, frame and worker before its first script
// (Network.setUserAgentOverride with userAgentMetadata: runtime-shim.ts).

/** CDP's Emulation.UserAgentMetadata. */
export interface UserAgentMetadata {
  brands: { brand: string; version: string }[];
  fullVersionList: { brand: string; version: string }[];
  fullVersion: string;
  platform: string;
  platformVersion: string;
  architecture: string;
  model: string;
  mobile: boolean;
  bitness: string;
  wow64: boolean;
  formFactors: string[];
}

export interface UserAgentOverride {
  userAgent: string;
  userAgentMetadata: UserAgentMetadata;
}

// Chromium's GREASE brand (components/embedder_support/user_agent_utils.cc,
// the updated algorithm), seeded by the major version. Checked against real
// headers: 120 "Not_A Brand";v="8" first, 126 "Not/A)Brand";v="8" first,
// 131 and 143 ("Not_A Brand" and "Not A(Brand";v="24") last behind Google
// Chrome and Chromium, 156 (this machine's Chromium) "Not:A-Brand";v="8" first.
const GREASE_CHARS = [' ', '(', ':', '-', '.', '/', ')', ';', '=', '?', '_'];
const GREASE_VERSIONS = ['8', '99', '24'];
const ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
] as const;

/** The brand a `--version` line names besides Chromium's own, or undefined for an unknown one. */
function productBrand(versionOutput: string): string | null | undefined {
  if (/^\s*Chromium\b/.test(versionOutput)) return null;
  if (/^\s*Google Chrome\b/.test(versionOutput)) return 'Google Chrome';
  return undefined;
}

function brandList(major: number, full: boolean, version: string, brand: string | null): { brand: string; version: string }[] {
  const grease = { brand: `Not${GREASE_CHARS[major % GREASE_CHARS.length]}A${GREASE_CHARS[(major + 1) % GREASE_CHARS.length]}Brand`, version: GREASE_VERSIONS[major % GREASE_VERSIONS.length]! + (full ? '.0.0.0' : '') };
  const chromium = { brand: 'Chromium', version };
  if (brand === null) return major % 2 === 0 ? [grease, chromium] : [chromium, grease];
  const order = ORDERS[major % ORDERS.length]!;
  const list: { brand: string; version: string }[] = [];
  list[order[0]] = grease;
  list[order[1]] = chromium;
  list[order[2]] = { brand, version };
  return list;
}

const ARCHITECTURE: Partial<Record<NodeJS.Architecture, { architecture: string; bitness: string }>> = {
  x64: { architecture: 'x86', bitness: '64' },
  arm64: { architecture: 'arm', bitness: '64' },
};

/**
 * The client hints this Chromium gives without a user-agent switch, or
 * undefined where they are not known here: a host other than Linux (its
 * platform version is the OS's own), an unknown product or architecture.
 */
export function clientHintsFor(userAgent: string, version: string, versionOutput: string, host: { platform: NodeJS.Platform; arch: NodeJS.Architecture } = process): UserAgentOverride | undefined {
  const brand = productBrand(versionOutput);
  const arch = ARCHITECTURE[host.arch];
  const major = Number(version.split('.')[0]);
  if (host.platform !== 'linux' || brand === undefined || !arch || !Number.isInteger(major)) return undefined;
  return {
    userAgent,
    userAgentMetadata: {
      brands: brandList(major, false, String(major), brand),
      fullVersionList: brandList(major, true, version, brand),
      fullVersion: version,
      platform: 'Linux',
      platformVersion: '',
      ...arch,
      model: '',
      mobile: false,
      wow64: false,
      formFactors: ['Desktop'],
    },
  };
}
