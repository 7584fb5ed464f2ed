import { createHash } from 'node:crypto';
import type { H3 } from 'h3';
import { FastResponse } from 'srvx';

/**
 * The pages' one stylesheet and the Swagger UI initializer: our own static files, named by their content's hash so
 * that a browser keeps them for a year and a new version is a new name.
 */

const CSS = `:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;--link:#0b57d0;--open:#1a7f37;--closed:#8250df}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link);text-decoration:none}a:hover,a:focus{text-decoration:underline}
header.site{background:#24292f;color:#fff;padding:.5rem 1rem}header.site nav{display:flex;gap:1rem;align-items:center;max-width:64rem;margin:0 auto;justify-content:space-between}
header.site a{color:#fff}.brand{font-weight:600}
main{max-width:64rem;margin:1rem auto;padding:0 1rem}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.repo-header{border-bottom:1px solid var(--line);padding-bottom:.5rem;margin-bottom:1rem}
.repo-header h1 .sep{color:var(--muted);margin:0 .2rem}
.tabs{display:flex;flex-wrap:wrap;gap:1rem;margin:.5rem 0 0;padding:0;list-style:none}
.tabs a[aria-current]{font-weight:600;color:var(--fg)}
.muted,.meta{color:var(--muted)}.meta{font-size:.9rem}
.badge{display:inline-block;border-radius:1rem;padding:0 .6rem;font-size:.85rem;color:#fff;background:var(--muted)}
.badge.open{background:var(--open)}.badge.closed,.badge.merged{background:var(--closed)}
table.list{width:100%;border-collapse:collapse;border:1px solid var(--line)}
table.list td,table.list th{padding:.35rem .6rem;border-top:1px solid var(--line);text-align:left;vertical-align:top}
table.list th{background:var(--soft);font-weight:600}
ul.items{list-style:none;margin:0;padding:0;border:1px solid var(--line)}ul.items>li{padding:.5rem .75rem;border-top:1px solid var(--line)}ul.items>li:first-child{border-top:0}
.box{border:1px solid var(--line);border-radius:6px;margin:1rem 0}.box>.box-head{background:var(--soft);padding:.4rem .75rem;border-bottom:1px solid var(--line);display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap}
.box>.box-body{padding:.75rem 1rem;overflow-x:auto}
pre{margin:0;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre}
pre.code{padding:.5rem 1rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.markup img{max-width:100%}.markup pre{background:var(--soft);padding:.75rem;overflow-x:auto}.markup table{border-collapse:collapse}.markup td,.markup th{border:1px solid var(--line);padding:.25rem .5rem}
.clone{display:flex;flex-wrap:wrap;gap:.5rem 1rem;margin:.5rem 0}.clone input{font:13px ui-monospace,monospace;width:22rem;max-width:100%}
.filters{display:flex;gap:1rem;margin:.5rem 0}
.pager{display:flex;gap:1rem;margin:1rem 0}
.diff .add{background:#e6ffec}.diff .del{background:#ffebe9}.diff .hunk{color:var(--muted);background:var(--soft)}
.comment{border:1px solid var(--line);border-radius:6px;margin:1rem 0}.comment>header{background:var(--soft);padding:.4rem .75rem;border-bottom:1px solid var(--line)}.comment>.markup{padding:.5rem 1rem}
.avatar{width:20px;height:20px;vertical-align:middle;border-radius:3px}
.tok-keyword,.tok-operatorKeyword,.tok-modifier{color:#cf222e}.tok-string,.tok-string2,.tok-character{color:#0a3069}.tok-number,.tok-bool,.tok-atom,.tok-null{color:#0550ae}
.tok-comment,.tok-meta{color:#6e7781;font-style:italic}.tok-typeName,.tok-className,.tok-namespace{color:#953800}.tok-definition,.tok-function{color:#8250df}.tok-propertyName{color:#0550ae}
.tok-tagName{color:#116329}.tok-attributeName{color:#0550ae}.tok-regexp,.tok-escape{color:#116329}.tok-invalid{color:#82071e}
main.form-page{max-width:32rem;margin:3rem auto}.form-page .error{color:#b00}.form-page label{display:block}.form-page input{width:100%}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
`;

/** Swagger UI over our document; served as a file, so the page runs no inline script. */
const SWAGGER_INIT = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;

interface Asset {
  name: string;
  type: string;
  body: Buffer;
  etag: string;
}

function asset(base: string, ext: string, type: string, text: string): Asset {
  const body = Buffer.from(text);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { name: `${base}-${hash}.${ext}`, type, body, etag: `"${hash}"` };
}

/** The site's icon: a small branch mark, so that browsers asking for one get it (and no 404). */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#24292f"/><path d="M5 3v10M5 8c0-2 6-1 6-4" stroke="#fff" stroke-width="1.6" fill="none"/><circle cx="11" cy="4" r="1.6" fill="#fff"/></svg>`;

const STYLESHEET = asset('repohost', 'css', 'text/css;charset=utf-8', CSS);
const SWAGGER_INITIALIZER = asset('swagger-init', 'js', 'text/javascript;charset=utf-8', SWAGGER_INIT);

const FAVICON = asset('favicon', 'svg', 'image/svg+xml', ICON);

/** Where the stylesheet is, under ROOT_URL. */
export const STYLESHEET_PATH = `assets/${STYLESHEET.name}`;
/** Where the icon is, under ROOT_URL. */
export const FAVICON_PATH = `assets/${FAVICON.name}`;
/** Where the Swagger UI initializer is, under ROOT_URL. */
export const SWAGGER_INIT_PATH = `assets/${SWAGGER_INITIALIZER.name}`;

/** A year, and never revalidated: the name changes with the content. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export function fileAnswer(request: Request, body: Buffer, type: string, etag: string, cacheControl = IMMUTABLE): Response {
  const headers: Record<string, string> = { 'content-type': type, etag, 'cache-control': cacheControl, 'x-content-type-options': 'nosniff' };
  const match = request.headers.get('if-none-match');
  if (match !== null && match.split(',').some((tag) => tag.trim() === etag)) return new FastResponse(null, { status: 304, headers });
  headers['content-length'] = String(body.byteLength);
  if (request.method === 'HEAD') return new FastResponse(null, { status: 200, headers });
  return new FastResponse(new Uint8Array(body.buffer, body.byteOffset, body.byteLength), { status: 200, headers });
}

/** `/assets/<name>`: our stylesheet, icon and initializer; any other name there is the 404 page. */
export function registerOwnAssets(app: H3, notFound: () => Response): void {
  for (const file of [STYLESHEET, SWAGGER_INITIALIZER, FAVICON]) {
    app.get(`/assets/${file.name}`, (event) => fileAnswer(event.req, file.body, file.type, file.etag));
  }
  app.get('/assets/**', () => notFound());
  // What browsers ask for by themselves, before any page names the icon.
  app.get('/favicon.ico', (event) => fileAnswer(event.req, FAVICON.body, FAVICON.type, FAVICON.etag, 'public, max-age=86400'));
}
