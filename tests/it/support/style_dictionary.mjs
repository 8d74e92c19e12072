// Style Dictionary 5 itself, as its README builds legacy sources for CSS:
// every source file of an export, platform css with transform group `css`,
// format `css/variables`, `outputReferences: false`.
//
// What differs, touching no value:
// - the variables are scoped under `[data-sd]` (the format's `selector`
//   option), to share a page with marque's;
// - every variable is named `--sd-<n>` by a name transform run after the
//   group's, which records the token's path in `names`, since tokens are
//   matched with marque's by path;
// - the files are read and deep-merged here, in order, as Style Dictionary
//   merges its `source`, and each reference's `.value` suffix is dropped
//   (`{a.b.value}` is read `{a.b}`, as Style Dictionary 3 read both):
//   Style Dictionary 5.5.5 reports every `{a.b.value}` as "not defined",
//   so without this it builds none of these exports;
// - a reference it cannot resolve still (Auro's into a token's child
//   token, `{a.110.px}`, children it does not read, and its comments' into
//   notes) is reported on the console rather than thrown
//   (`log.errors.brokenReferences`), so that the rest builds; such a token
//   is left out.
//
// Usage: node style_dictionary.mjs <node_modules> <plan.json> <out dir>
// plan.json: [{ slug, files: [source file, …] }]
// Writes <out>/<slug>.css and <out>/<slug>.json ({ names, error }).
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [modules, planFile, out] = process.argv.slice(2);
const require = createRequire(join(modules, 'x.js'));
const { default: StyleDictionary } = await import(
  pathToFileURL(require.resolve('style-dictionary')).href
);

let names = {};
let ids = new Map();
StyleDictionary.registerTransform({
  name: 'sd/path',
  type: 'name',
  transform: token => {
    const key = JSON.stringify(token.path);
    if (!ids.has(key)) {
      ids.set(key, `sd-${ids.size}`);
    }
    const name = ids.get(key);
    names[`--${name}`] = { path: token.path, type: token.$type ?? token.type ?? null };
    return name;
  },
});

// Files deep-merged in order, as Style Dictionary merges its sources.
function merge(into, from) {
  for (const [k, v] of Object.entries(from)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      into[k] = merge(into[k] && typeof into[k] === 'object' ? into[k] : {}, v);
    } else {
      into[k] = v;
    }
  }
  return into;
}

mkdirSync(out, { recursive: true });
for (const ex of JSON.parse(readFileSync(planFile, 'utf-8'))) {
  names = {};
  ids = new Map();
  let error = null;
  const tokens = {};
  for (const file of ex.files) {
    const text = readFileSync(file, 'utf-8').replace(/\{([^{}]+?)\.value\}/g, '{$1}');
    merge(tokens, JSON.parse(text));
  }
  try {
    const sd = new StyleDictionary({
      tokens,
      log: {
        verbosity: 'silent',
        warnings: 'disabled',
        errors: { brokenReferences: 'console' },
      },
      platforms: {
        css: {
          transformGroup: 'css',
          transforms: ['sd/path'],
          buildPath: `${out}/`,
          files: [
            {
              destination: `${ex.slug}.css`,
              format: 'css/variables',
              options: { selector: '[data-sd]', outputReferences: false },
            },
          ],
        },
      },
    });
    await sd.buildAllPlatforms();
  } catch (e) {
    error = String(e?.message ?? e).slice(0, 2000);
    writeFileSync(join(out, `${ex.slug}.css`), '');
  }
  writeFileSync(join(out, `${ex.slug}.json`), JSON.stringify({ names, error }));
}
