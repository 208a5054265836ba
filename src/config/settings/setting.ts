import type { Kind } from '../kinds.ts';

// The one table of settings: flags, env names, defaults, `--help`, the docs
// table and validation all read from here. A default is written the way a user
// would type it and goes through the same validation as user input.
export interface Setting<T> {
  flag: string;
  env: string;
  kind: Kind<T>;
  default?: string;
  help: string;
  /** Values are never echoed back (errors, logs, info). */
  secret?: boolean;
  section: 'browser' | 'identity' | 'server' | 'http' | 'cdp' | 'container' | 'security';
}

export function setting<T, D extends string | undefined = undefined>(
  s: Omit<Setting<T>, 'default'> & { default?: D },
): Setting<T> & { default: D } {
  return s as Setting<T> & { default: D };
}
