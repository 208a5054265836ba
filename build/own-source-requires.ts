// A Bun.build plugin for the standalone binary, over our own src/. Node code
// often loads a package with createRequire(import.meta.url)('pkg'): at run
// time, from node_modules, which the binary does not have, and Bun's bundler
// does not follow it (the binary then fails with "Cannot find module").
// The literal call form is rewritten to a plain require('pkg'), which the
// bundler embeds: the same module instance the bundled upstream uses. Other
// createRequire(import.meta.url) uses (a require.resolve() probing for an
// optional package, say) resolve nothing in the binary; the build notes each
// one so its author can check that the binary handles a missing package.
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
        source.split('\n').forEach((text, line) => {
          if (ANY_USE.test(text))
            console.error(`build: note: ${path.relative(process.cwd(), args.path)}:${line + 1} resolves packages at run time (createRequire); the binary has no node_modules, so that path must handle a missing package`);
        });
        return { contents: source, loader: 'ts' };
      });
    },
  };
}
