// Trunk's one post-build hook (two hooks would run at once, and both edit index.html):
//   1. the rooms: takes the parts that scripts/bin/wasm-bindgen split off into the page (each
//      named by its content hash, the loader too), points the loader at trunk's hashed main JS,
//      preloads the loader with the main JS (it imports it statically) and lists every part for
//      the service worker, which fetches them once the page is interactive. A build whose main JS
//      does not import this build's loader fails here: an unsplit page is never shipped;
//   2. the book (docs/, scripts/docs.sh) into docs/, and its chapters for learners and teachers
//      listed for the service worker (<meta name="barrierscope-book">), with the files they need:
//      the page's ? Help link opens them offline; other chapters are cached as they are read;
//   3. no inline script (scripts/no-inline-script.mjs);
//   4. the first screen before the wasm: the app draws it in headless Chromium, and it goes into
//      the page (scripts/prerender.mjs).
// In a release build it also minifies the service worker.
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join, posix } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
const src = process.env.TRUNK_SOURCE_DIR || process.cwd();
if (!dir) throw new Error('run by trunk as a post_build hook (TRUNK_STAGING_DIR is not set)');

function fail(msg) {
  console.error(`\nerror: the page was not split into rooms: ${msg}\n` +
    'Build it through bash scripts/serve.sh or bash scripts/test.sh, or with scripts/bin first on PATH ' +
    '(export PATH="$PWD/scripts/bin:$PATH"; bash scripts/setup.sh installs wasm-split-cli).\n');
  process.exit(1);
}

const partsDir = join(src, 'target', 'barrierscope-parts');
let manifest;
try {
  manifest = JSON.parse(await readFile(join(partsDir, 'manifest.json'), 'utf8'));
} catch {
  fail('scripts/bin/wasm-bindgen left no parts (was it the wasm-bindgen trunk ran?)');
}
const staged = await readdir(dir);
let mainJs = null;
for (const f of staged.filter((f) => f.startsWith(`${manifest.outName}-`) && f.endsWith('.js'))) {
  if ((await readFile(join(dir, f), 'utf8')).includes(`./${manifest.loader}`)) mainJs = f;
}
if (!mainJs) fail(`no main JS of this build imports the split loader ${manifest.loader}`);

for (const p of manifest.parts) await copyFile(join(partsDir, p.file), join(dir, p.file));
const loader = await readFile(join(partsDir, manifest.loader), 'utf8');
const imported = `"${manifest.mainImport}"`;
if (!loader.includes(imported)) fail(`the split loader does not import ${manifest.mainImport}`);
await writeFile(join(dir, manifest.loader), loader.split(imported).join(`"./${mainJs}"`));

execFileSync('bash', [join(src, 'scripts', 'docs.sh'), join(dir, 'docs')], { stdio: 'inherit' });
// The chapters the Help link and the classroom need offline, and every file they load (not the
// chapters they link to: those are cached when read).
const learners = ['index.html', 'introduction.html', 'using-the-page.html', 'classroom.html', 'offline.html', 'rooms.html', 'zh/classroom.html', 'toc.html'];
const book = new Set();
for (const p of learners) {
  book.add(`./docs/${p}`);
  const chapter = await readFile(join(dir, 'docs', p), 'utf8');
  for (const m of chapter.matchAll(/(?:href|src)="([^"#:?]+)"/g)) {
    if (!m[1].endsWith('.html')) book.add('./docs/' + posix.normalize(posix.join(posix.dirname(p), m[1])));
  }
}

const page = join(dir, 'index.html');
let html = await readFile(page, 'utf8');
const list = manifest.parts.map((p) => `./${p.file}`).join(' ');
html = html.replace('</head>', `<link rel="modulepreload" href="./${manifest.loader}">` +
  `<meta name="barrierscope-parts" content="${list}">` +
  `<meta name="barrierscope-book" content="${[...book].join(' ')}"></head>`);
await writeFile(page, html);
console.log(`rooms: ${manifest.parts.length} part(s) and the loader ${manifest.loader} staged; the book: ${book.size} files precached`);

// The service worker minified in a release build, as the page's JS is (terser, which
// scripts/bin/wasm-bindgen needs already): 1.4 to 0.7 KB gzipped. static/sw.js keeps its comments.
if (process.env.TRUNK_PROFILE === 'release') {
  execFileSync('terser', [join(dir, 'sw.js'), '--compress', '--mangle', '-o', join(dir, 'sw.js')], { stdio: 'inherit' });
}

await import('./no-inline-script.mjs');
await import('./prerender.mjs');
