import { localTools } from './local-tools/index.ts';

/**
 * The tool label of a call's metrics. Label values must stay a small set: a
 * name the server does not offer (or the upstream answers "not found") is
 * `unknown`, whatever a client sends.
 */
export function toolLabel(name: string, errorText?: string): string {
  if (localTools.has(name)) return name;
  if (!/^browser_[a-z_]{1,40}$/.test(name)) return 'unknown';
  if (errorText !== undefined && /Tool "[^"]*" not found/.test(errorText)) return 'unknown';
  return name;
}
