import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface TlsMaterial {
  cert: string;
  key: string;
  selfSigned: boolean;
}

/**
 * TLS_CERT/TLS_KEY when given (paths to PEM files); otherwise a self-signed
 * certificate for localhost and *.localhost, generated once into dataDir/tls.
 */
export async function loadTls(opts: { cert?: string; key?: string; dataDir: string }): Promise<TlsMaterial> {
  if (opts.cert || opts.key) {
    if (!opts.cert || !opts.key) throw new Error('TLS_CERT and TLS_KEY go together: give both or neither');
    return { cert: readFileSync(opts.cert, 'utf8'), key: readFileSync(opts.key, 'utf8'), selfSigned: false };
  }
  const dir = path.join(opts.dataDir, 'tls');
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) {
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), selfSigned: true };
  }
  // loaded only to make a certificate (the first start on a data folder): about 0.12 s of every start otherwise
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 2, value: '*.localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  // several processes may start at once on one DATA_DIR: each writes its pair into a folder of
  // its own and renames it into place; the first rename wins and the others read the winner's pair
  mkdirSync(opts.dataDir, { recursive: true });
  const mine = mkdtempSync(path.join(opts.dataDir, '.tls-'));
  writeFileSync(path.join(mine, 'cert.pem'), pems.cert);
  writeFileSync(path.join(mine, 'key.pem'), pems.private, { mode: 0o600 });
  try {
    renameSync(mine, dir);
  } catch {
    rmSync(mine, { recursive: true, force: true });
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), selfSigned: true };
  }
  return { cert: pems.cert, key: pems.private, selfSigned: true };
}
