// Style Dictionary 5 with @tokens-studio/sd-transforms 2, as sd-transforms'
// README builds a Tokens Studio export ("Multi-dimensional Theming"): its
// `register(StyleDictionary)`, `permutateThemes($themes)`, one build per
// permutation whose sources are the permutation's sets in its order, the
// `tokens-studio` preprocessor and transform group, platform css, format
// `css/variables` with `outputReferences: false`.
//
// Two things differ from the README, neither touching a value: each
// permutation's variables are scoped under `[data-sdt="<i>"]` (the format's
// `selector` option) so that they can share a page, and every variable is
// named `--sdt-<n>` by a name transform that records the token's path and
// type (`names.json`), since tokens are matched with marque's by path.
//
// Usage: node sd_transforms.mjs <node_modules> <plan.json> <out dir>
// plan.json: [{ slug, dir, sets: [set name, in order], themes: $themes | null }]
// Writes <out>/<slug>/<i>.css and <out>/<slug>/plan.json.
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [modules, planFile, out] = process.argv.slice(2);
const require = createRequire(join(modules, 'x.js'));
const load = async name => import(pathToFileURL(require.resolve(name)).href);
const { default: StyleDictionary } = await load('style-dictionary');
const { register, permutateThemes } = await load('@tokens-studio/sd-transforms');

register(StyleDictionary);

// A separator no theme name holds, so a permutation's name splits back into
// its themes (one per group, in the order groups first appear).
const SEP = '\u001f';
let names = {};
let ids = new Map();
StyleDictionary.registerTransform({
  name: 'sdt/path',
  type: 'name',
  transform: token => {
    const key = JSON.stringify(token.path);
    if (!ids.has(key)) {
      ids.set(key, `sdt-${ids.size}`);
    }
    const name = ids.get(key);
    names[`--${name}`] = {
      path: token.path,
      type: token.$type ?? token.type ?? null,
      originalType: token.$extensions?.['studio.tokens']?.originalType ?? null,
    };
    return name;
  },
});

for (const ex of JSON.parse(readFileSync(planFile, 'utf-8'))) {
  names = {};
  ids = new Map();
  const dir = join(out, ex.slug);
  mkdirSync(dir, { recursive: true });
  let perms;
  let groups = [];
  if (ex.themes && ex.themes.length > 0) {
    perms = Object.entries(permutateThemes(ex.themes, { separator: SEP }));
    groups = [...new Set(ex.themes.map(t => t.group))];
  } else {
    perms = [['default', ex.sets]];
  }
  const done = [];
  for (const [i, [label, sets]] of perms.entries()) {
    const themes = groups.length > 0 ? label.split(SEP) : [];
    const perm = {
      label: label.split(SEP).join(' + '),
      choices: groups.map((g, k) => [g, themes[k]]),
      sets,
      error: null,
    };
    try {
      const sd = new StyleDictionary({
        source: sets.map(s => join(ex.dir, `${s}.json`)),
        preprocessors: ['tokens-studio'],
        log: { verbosity: 'silent', warnings: 'disabled' },
        platforms: {
          css: {
            transformGroup: 'tokens-studio',
            transforms: ['sdt/path'],
            buildPath: `${dir}/`,
            files: [
              {
                destination: `${i}.css`,
                format: 'css/variables',
                options: { selector: `[data-sdt="${i}"]`, outputReferences: false },
              },
            ],
          },
        },
      });
      await sd.buildAllPlatforms();
    } catch (e) {
      perm.error = String(e?.message ?? e).slice(0, 2000);
      writeFileSync(join(dir, `${i}.css`), '');
    }
    done.push(perm);
  }
  writeFileSync(join(dir, 'plan.json'), JSON.stringify({ perms: done, names }));
}
