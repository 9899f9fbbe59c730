import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';

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
  mkdirSync(dir, { recursive: true });
  writeFileSync(certFile, pems.cert);
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  return { cert: pems.cert, key: pems.private, selfSigned: true };
}
