import express, { type Router } from 'express';

/**
 * The `download_url` of uploads and documents: an address for a browser with
 * a web session, which the contract keeps apart from the API. API tokens are
 * refused there (403); programmatic downloads use /api/v2/documents/download/{id}.
 * This service has no web sign-in yet, so without a token the answer is 401.
 */
export function createBrowserDownloadRouter(): Router {
  const r = express.Router();
  r.all('/{*rest}', (req, res) => {
    const hasToken = Boolean(
      req.headers['authentication-key'] || req.headers['authentication-secret'] || req.headers.authorization,
    );
    res.setHeader('Cache-Control', 'no-store');
    if (hasToken) {
      res
        .status(403)
        .type('text/plain')
        .send('API tokens are not accepted here: this address needs a browser session. Use /api/v2/documents/download/{id}.');
      return;
    }
    res.status(401).type('text/plain').send('A browser session is required to download this file.');
  });
  return r;
}

/** Where a browser with a web session downloads a file: the `download_url` of uploads and documents. */
export function browserDownloadPath(kind: 'upload' | 'document', id: string): string {
  return `/web/download/${kind}/${encodeURIComponent(id)}`;
}
