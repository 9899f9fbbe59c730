import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { inSqlWrite } from '../shared/entity/index.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import { requireRight } from '../shared/rights.js';
import type { UserContext } from '../trpc.js';
import { PREFERRED_PROFILE_ORDER } from '../crm/myorganization/myorganizationprofile.entity.js';
import { requireStorage } from '../uploads/require-storage.js';
import { DEFAULT_MAX_ASSET_SIZE, DEFAULT_MAX_IMAGE_PIXELS, DEFAULT_UPLOAD_CONFIG } from '../uploads/upload-config.js';
import { etagOf, type StoredFile } from './stored-file.js';
import { type IncomingFile, receiveFile, storedSha256 } from './stream-upload.js';

/**
 * Files of a company profile (logo, letter paper) and of a user (avatar,
 * signature): one current file per owner and kind, replaced by a new upload.
 */
export const ASSET_KINDS = ['logo', 'letterpaper', 'avatar', 'signature'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];
export const PROFILE_ASSETS = ['logo', 'letterpaper'] as const;
export const USER_ASSETS = ['avatar', 'signature'] as const;

const IMAGES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
/** what each kind takes: never SVG (it can carry script) */
const ALLOWED: Record<AssetKind, readonly string[]> = {
  logo: IMAGES,
  avatar: IMAGES,
  signature: IMAGES,
  letterpaper: ['application/pdf', 'image/png', 'image/jpeg'],
};

export const assetSchema = z.object({
  id: z.string(),
  kind: z.enum(ASSET_KINDS),
  ownerId: z.string(),
  fileName: z.string(),
  fileSize: z.number().int(),
  contentType: z.string(),
  updatedAt: z.date(),
});
export type Asset = z.infer<typeof assetSchema>;

export function assetKind(value: unknown, among: readonly AssetKind[]): AssetKind {
  const k = among.find((x) => x === value);
  if (!k) throw new ValidationError([{ path: 'type', message: `type is one of ${among.join(', ')}`, code: 'invalid_value' }]);
  return k;
}

/**
 * The owner of a kind of file: a company profile (the main one when none is
 * named; the crm right; to upload, the profile must be open to the user) or a user (only one's own: anyone may see a colleague's
 * avatar, but a signature and every upload are one's own).
 */
async function ownerOf(ctx: UserContext, kind: AssetKind, ownerId: unknown, write: boolean): Promise<string> {
  const given = typeof ownerId === 'string' && ownerId.trim() !== '' ? ownerId : null;
  if (kind === 'logo' || kind === 'letterpaper') {
    requireRight(ctx.principal.rights, 'crm', write ? 'write' : 'read');
    const profile = given
      ? await ctx.db.myOrganizationProfile.findFirst({ where: { id: given }, select: { id: true } })
      : await ctx.db.myOrganizationProfile.findFirst({
          orderBy: [...PREFERRED_PROFILE_ORDER],
          select: { id: true },
        });
    if (!profile) throw new NotFoundError('company profile', given ?? undefined);
    if (write) {
      // a profile with access rows is only for those users (a profile without rows is open to everyone)
      const access = await ctx.db.myOrganizationProfileAccess.findMany({
        where: { profileId: profile.id },
        select: { userId: true },
      });
      if (access.length > 0 && !access.some((a) => a.userId === ctx.principal.userId)) {
        throw new ForbiddenError('this company profile is not open to you');
      }
    }
    return profile.id;
  }
  const self = ctx.principal.userId;
  if (!given || given === self) return self;
  if (write || kind === 'signature') throw new ForbiddenError('only your own avatar and signature');
  const user = await ctx.db.user.findFirst({ where: { id: given, isActive: true }, select: { id: true } });
  if (!user) throw new NotFoundError('user', given);
  return user.id;
}

function view(row: {
  id: string;
  kind: string;
  ownerId: string;
  fileName: string;
  fileSize: bigint | number;
  contentType: string;
  updatedAt: Date;
}): Asset {
  return {
    id: row.id,
    kind: row.kind as AssetKind,
    ownerId: row.ownerId,
    fileName: row.fileName,
    fileSize: Number(row.fileSize),
    contentType: row.contentType,
    updatedAt: row.updatedAt,
  };
}

/** POST storage/paperlayoutupload (logo, letter paper) and storage/dropzoneupload (avatar, signature). */
export async function putAsset(
  ctx: UserContext,
  input: { kind: AssetKind; ownerId?: unknown; file: IncomingFile },
): Promise<Asset> {
  const storage = requireStorage(ctx);
  const ownerId = await ownerOf(ctx, input.kind, input.ownerId, true);
  const config = ctx.services?.uploads ?? DEFAULT_UPLOAD_CONFIG;
  const hex = randomBytes(16).toString('hex');
  const storageKey = `assets/${hex.slice(0, 2)}/${hex}`;
  const received = await receiveFile(storage, storageKey, input.file, {
    maxBytes: Math.min(config.maxAssetSize ?? DEFAULT_MAX_ASSET_SIZE, config.maxFileSize),
    maxPixels: config.maxImagePixels ?? DEFAULT_MAX_IMAGE_PIXELS,
    allowed: ALLOWED[input.kind],
  });
  try {
    const sha256 = await storedSha256(storage, storageKey);
    const { row, old } = await inSqlWrite(ctx, async ({ sql, now }) => {
      const [before] = await sql.read<{ id: string; storage_key: string }>(
        'SELECT id, storage_key FROM storage_asset WHERE environment_id = $1 AND kind = $2 AND owner_id = $3 FOR UPDATE',
        [input.kind, ownerId],
      );
      const columns = {
        storage_key: storageKey,
        file_name: received.fileName,
        file_size: received.size,
        content_type: received.inspected.contentType,
        sha256,
        created_by_id: ctx.principal.userId,
        updated_at: now,
      };
      const id = before?.id ?? newEntityId('storageasset');
      // queued with the COMMIT: the answer is made of what was written, nothing is read back
      if (before) await sql.update('storage_asset', id, columns);
      else await sql.insert('storage_asset', { ...columns, id, kind: input.kind, owner_id: ownerId });
      const saved = {
        id,
        kind: input.kind,
        ownerId,
        fileName: received.fileName,
        fileSize: received.size,
        contentType: received.inspected.contentType,
        updatedAt: now,
      };
      return { row: saved, old: before?.storage_key ?? null };
    });
    if (old) await storage.remove(old);
    return view(row);
  } catch (err) {
    await storage.remove(storageKey);
    throw err;
  }
}

/** The current file of a kind (logo, getlogofile, downloadlogo, letterpaper, downloadletterpaper, avatar, signature). */
export async function openAsset(ctx: UserContext, input: { kind: AssetKind; ownerId?: unknown }): Promise<StoredFile> {
  const storage = requireStorage(ctx);
  const ownerId = await ownerOf(ctx, input.kind, input.ownerId, false);
  const row = await ctx.db.storageAsset.findFirst({ where: { kind: input.kind, ownerId } });
  const size = row ? await storage.size(row.storageKey) : null;
  if (!row || size === null) throw new NotFoundError(input.kind);
  return {
    fileName: row.fileName,
    contentType: row.contentType,
    size,
    etag: etagOf(row.sha256, size),
    open: (range) => storage.createReadStream(row.storageKey, range),
  };
}
