// The first screen before the wasm (issue 52): run by scripts/post-build.mjs on the staged page,
// last. The app draws its own first screen here, in headless Chromium (Debian's, driven by
// playwright-core from the tools folder): the default job, in English and in Chinese, at a desk's,
// a narrow window's and an upright phone's width (the three kinds of screen the canvas lays out
// for, `Screen::of_width`). Each is kept as it is drawn, ids and all, and put into the page's
// body, where style.css shows the one for the window's width and the language of the last run
// kept in this browser (index.html's first script reads it before the first paint). The app
// takes them away in the same task as its own first render, so no frame shows both or neither.
// The copies say they are not ready (`data-ready="false"`), so nothing waits on them as on the app.
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { homedir } from 'node:os';

const dir = process.env.TRUNK_STAGING_DIR || process.argv[2];
if (!dir) throw new Error('run by scripts/post-build.mjs (TRUNK_STAGING_DIR is not set), or give the built dir');
const page = join(dir, 'index.html');
const MARK = '<!-- barrierscope-prerender: scripts/prerender.mjs puts the app\'s first screen here -->';

// The three kinds of screen (`Screen::of_width`: up to 640 px an upright phone, up to 1000 px a
// narrow window, else a desk), each drawn at a width well inside its range.
const SCREENS = [['portrait', 390, 844], ['narrow', 800, 900], ['desk', 1366, 768]];
const LANGS = ['en', 'zh'];

function fail(msg) {
  console.error(`\nerror: the first screen could not be prerendered: ${msg}\n` +
    'Build the page through bash scripts/serve.sh or bash scripts/test.sh, which install Chromium and playwright-core.\n');
  process.exit(1);
}

let html = await readFile(page, 'utf8');
if (!html.includes(MARK)) fail('index.html has no place for it (its barrierscope-prerender comment)');

const tools = process.env.BARRIERSCOPE_TOOLS || join(homedir(), '.local/share/barrierscope-tools');
let chromium;
try {
  ({ chromium } = createRequire(join(tools, 'node_modules', 'noop.js'))('playwright-core'));
} catch {
  fail(`playwright-core is not in ${tools}`);
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json', '.webmanifest': 'application/manifest+json',
};
const root = normalize(dir);
const server = createServer(async (req, res) => {
  let file = normalize(join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
  if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream' });
    res.end(await readFile(file));
  } catch {
    res.writeHead(404).end('not found');
  }
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const url = `http://127.0.0.1:${server.address().port}/`;

let browser;
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
  });
} catch (e) {
  server.close();
  fail(`Chromium did not start (${e.message.split('\n')[0]})`);
}

const copies = [];
try {
  for (const lang of LANGS) {
    for (const [screen, width, height] of SCREENS) {
      const context = await browser.newContext({ viewport: { width, height }, serviceWorkers: 'block' });
      const tab = await context.newPage();
      const errors = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      await tab.goto(url);
      await tab.waitForSelector('#app[data-ready="true"]', { timeout: 60000 });
      if (lang === 'zh') {
        await tab.click('#btn-lang');
        await tab.waitForSelector('#app[data-lang="zh"]', { timeout: 10000 });
      }
      // The narration's words come in a part of their own after ready: wait until it is there.
      await tab.waitForLoadState('networkidle');
      await tab.waitForTimeout(300);
      if (errors.length) fail(`the page reported ${errors[0]}`);
      let body = await tab.$eval('#app-root', (e) => e.innerHTML);
      if (!body.includes('data-ready="true"')) fail('the app was not ready');
      body = body.replace('data-ready="true"', 'data-ready="false" data-prerendered=""');
      copies.push(`<div class="pre pre-${lang} pre-${screen}">${body}</div>`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}

// The service worker caches every `./…` file the page names: the copies must name none it would
// not find.
for (const m of copies.join('').matchAll(/(?:href|src)="(\.\/[^"#?]+)"/g)) {
  try { await stat(join(dir, m[1])); } catch { fail(`a copy names ${m[1]}, which the build does not have`); }
}
html = html.replace(MARK, `<div id="prerender" class="prerender">${copies.join('')}</div>`);
await writeFile(page, html);
console.log(`prerender: the first screen in ${copies.length} copies (${LANGS.join(', ')} × ${SCREENS.map((s) => s[0]).join(', ')}), ${copies.join('').length} characters`);
