// Trunk post-build hook: the built page keeps no inline script, so its Content-Security-Policy can
// say `script-src 'self'`. Trunk writes its wasm loader (and, under `trunk serve`, its reload
// client) as inline <script> elements; this moves each into a file named by its content hash and
// points the element at it. The loader's file also registers the service worker (static/sw.js),
// once the page is interactive and the browser is idle: the worker then fetches every room's part.
// Trunk fills the reload client's placeholders only in the HTML it serves, so here the address
// becomes the page's own host, as trunk itself does when it knows no host, and the base is `/`
// (the `./` public URL serves from `/`).
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('run by trunk as a post_build hook (TRUNK_STAGING_DIR is not set)');
const page = join(dir, 'index.html');
let html = await readFile(page, 'utf8');
const REGISTER = `
if ('serviceWorker' in navigator) {
  const register = () => navigator.serviceWorker.register('./sw.js')
    .catch((e) => console.warn('offline cache unavailable:', e.message));
  if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: 3000 });
  else setTimeout(register, 1000);
}
`;
let moved = 0;
html = await replaceAsync(html, /<script(\s[^>]*)?>([\s\S]*?)<\/script>/g, async (whole, attrs = '', body) => {
  if (/\ssrc=/.test(attrs) || !body.trim()) return whole;
  const loader = body.includes('TrunkApplicationStarted');
  const code = (loader ? body + REGISTER : body)
    .replaceAll("'{{__TRUNK_ADDRESS__}}'", 'window.location.host')
    .replaceAll('`{{__TRUNK_ADDRESS__}}`', 'window.location.host')
    .replaceAll('{{__TRUNK_WS_BASE__}}', '/');
  const name = `${loader ? 'boot' : 'script'}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.js`;
  await writeFile(join(dir, name), code);
  moved++;
  return `<script${attrs} src="./${name}"></script>`;
});
await writeFile(page, html);
console.log(`no-inline-script: moved ${moved} inline script(s) into files`);

async function replaceAsync(s, re, f) {
  const parts = [];
  let last = 0;
  for (const m of s.matchAll(re)) {
    parts.push(s.slice(last, m.index), await f(...m));
    last = m.index + m[0].length;
  }
  parts.push(s.slice(last));
  return parts.join('');
}
