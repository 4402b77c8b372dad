/** The page served in place of the views when apps/overlay has not been built. */
export function missingViewsPage(viewsDir: string | undefined): string {
  const where = viewsDir === undefined ? 'apps/overlay/dist' : viewsDir;
  const escaped = where.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Muster: views not built</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{background:#eee;padding:0 .3em}</style>
</head><body>
<h1>The views are not built yet</h1>
<p>The service is running (try <a href="/api/health"><code>/api/health</code></a> and the ws at <code>/ws</code>),
but there are no built views in <code>${escaped}</code>.</p>
<p>Build them once with</p>
<pre><code>npm run build -w @muster/overlay</code></pre>
<p>then reload this page. (<code>npm start</code> tries this itself when the views are missing.)</p>
</body></html>
`;
}
