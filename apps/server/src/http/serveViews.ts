/**
 * The built views (apps/overlay/dist) as static files; when they are not built, every page is a 503
 * explaining how to build them.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express } from 'express';
import { missingViewsPage } from './missingViewsPage.ts';

export function serveViews(app: Express, viewsDir: string | undefined): void {
  if (viewsDir !== undefined && existsSync(join(viewsDir, 'index.html'))) {
    app.use(express.static(viewsDir, { index: 'index.html' }));
  } else {
    app.get('/{*path}', (_req, res) => {
      res.status(503).type('html').send(missingViewsPage(viewsDir));
    });
  }
}
