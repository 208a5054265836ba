// A Bun.build plugin for the standalone binary, over our own src/. Node code
// often loads a package with createRequire(import.meta.url)('pkg'): at run
// time, from node_modules, which the binary does not have, and Bun's bundler
// does not follow it (the binary then fails with "Cannot find module").
// The literal call form is rewritten to a plain require('pkg'), which the
// bundler embeds: the same module instance the bundled upstream uses. Any
// other createRequire(import.meta.url) use cannot be embedded and fails the
// build with the fix, instead of failing on a user's machine.
import path from 'node:path';
import type { BunPlugin } from 'bun';

const LITERAL_CALL = /\bcreateRequire\(import\.meta\.url\)\((\s*(['"])[^'"]+\2\s*)\)/g;
const ANY_USE = /\bcreateRequire\(import\.meta\.url\)/;

export function ownSourceRequires(srcDir: string): BunPlugin {
  return {
    name: 'own-source-requires',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!args.path.startsWith(srcDir + path.sep)) return undefined;
        const source = (await Bun.file(args.path).text()).replace(LITERAL_CALL, (_m, specifier: string) => `require(${specifier})`);
        const line = source.split('\n').findIndex((l) => ANY_USE.test(l));
        if (line !== -1)
          throw new Error(
            `${path.relative(process.cwd(), args.path)}:${line + 1}: createRequire(import.meta.url) is used other than as createRequire(import.meta.url)('<literal>'), ` +
              'so the standalone binary cannot embed what it loads (it has no node_modules). ' +
              "Fix: call it with a string literal, or use a literal import (e.g. (await import('playwright-core/lib/coreBundle')).default).",
          );
        return { contents: source, loader: 'ts' };
      });
    },
  };
}
