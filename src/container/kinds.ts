import * as v from 'valibot';
import type { Kind } from '../config/kinds.ts';

/** Xvfb's screen spec: WIDTHxHEIGHTxDEPTH, within what Chromium and X accept. */
export const xvfbScreen: Kind<string> = {
  accepts: 'WIDTHxHEIGHTxDEPTH, e.g. 1920x1080x24 (sides 320-7680, depth 16, 24 or 30)',
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d+x\d+x\d+$/),
    v.check((s) => {
      const [w, h, d] = s.split('x').map(Number) as [number, number, number];
      return w >= 320 && w <= 7680 && h >= 320 && h <= 7680 && [16, 24, 30].includes(d);
    }),
  ),
};
