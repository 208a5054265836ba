// A Bun.build plugin for the standalone binary. Bun bakes the build machine's
// absolute __dirname into the bundle, so playwright-core's dynamic
// require(path.join(packageRoot, "package.json")) and friends only work inside
// the build tree (toolchain.md §2, "the trap"). Rewriting them to static
// requires lets the bundler embed the files instead.
import type { BunPlugin } from 'bun';

const FILES = /playwright-core[\\/]lib[\\/](coreBundle|serverRegistry)\.js$/;
const JSON_REQUIRE = /require\((import_path\d*)\.default\.join\(packageRoot, "(package|browsers)\.json"\)\)/g;
const WEBP_READ = /import_fs\.default\.readFileSync\((import_path\d*)\.default\.join\(__dirname, "webp_codec\.wasm"\)\)/g;

// How many rewrites each file must get; a different count means the pinned
// playwright-core changed shape and the binary would break on another machine.
const EXPECTED: Record<string, number> = { coreBundle: 3, serverRegistry: 1 };

export const playwrightStaticRequires: BunPlugin = {
  name: 'playwright-static-requires',
  setup(build) {
    build.onLoad({ filter: FILES }, async (args) => {
      const which = FILES.exec(args.path)![1]!;
      let count = 0;
      let source = await Bun.file(args.path).text();
      source = source.replace(JSON_REQUIRE, (_match, _path, file: string) => (count++, `require("../${file}.json")`));
      source = source.replace(WEBP_READ, () => (count++, 'import_fs.default.readFileSync(require("./webp_codec.wasm"))'));
      if (count !== EXPECTED[which])
        throw new Error(
          `${args.path}: rewrote ${count} dynamic requires, expected ${EXPECTED[which]}. ` +
            'Fix: playwright-core changed; update the patterns in build/playwright-static-requires.ts (see shared/research/toolchain.md §2).',
        );
      return { contents: source, loader: 'js' };
    });
  },
};
