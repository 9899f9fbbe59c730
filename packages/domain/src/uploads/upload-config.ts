/** Limits of chunked uploads (README, Uploads). */
export interface UploadConfig {
  /** an upload with no chunk for this long (or done and never made a document) is removed with its bytes */
  expirySeconds: number;
  /** the largest file_size accepted */
  maxFileSize: number;
}

/** 500 kB of base64 per chunk, as the contract says (counted as 500 KiB, in characters). */
export const MAX_CHUNK_ENCODED_LENGTH = 500 * 1024;

export const DEFAULT_UPLOAD_CONFIG: UploadConfig = { expirySeconds: 24 * 60 * 60, maxFileSize: 5 * 1024 ** 3 };

export function uploadConfigFromEnv(env: NodeJS.ProcessEnv = process.env): UploadConfig {
  const read = (name: string, fallback: number) => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${v}"`);
    return n;
  };
  return {
    expirySeconds: read('UPLOAD_EXPIRY_SECONDS', DEFAULT_UPLOAD_CONFIG.expirySeconds),
    maxFileSize: read('UPLOAD_MAX_FILE_SIZE', DEFAULT_UPLOAD_CONFIG.maxFileSize),
  };
}
