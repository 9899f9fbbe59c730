/**
 * The v2 storage endpoints in the OpenAPI document. Their shapes are this
 * service's decision (the contract names the paths only); they are kept here
 * beside the routes (storage-routes.ts) that serve them.
 */
type Json = Record<string, unknown>;

const ERROR = { $ref: '#/components/schemas/Error' };
const errors = (...statuses: number[]): Json =>
  Object.fromEntries(
    statuses.map((s) => [String(s), { description: `error (${s})`, content: { 'application/json': { schema: ERROR } } }]),
  );

const q = (name: string, description: string, required = false, schema: Json = { type: 'string' }): Json => ({
  name,
  in: 'query',
  required,
  description,
  schema,
});

const header = (name: string, description: string): Json => ({
  name,
  in: 'header',
  required: false,
  description,
  schema: { type: 'string' },
});

const DOWNLOAD_HEADERS = [
  header('Range', 'one byte range (bytes=a-b, bytes=a-, bytes=-n); several ranges are answered whole'),
  header('If-Range', 'the ETag: the range applies only while the file is unchanged'),
  header('If-None-Match', 'an ETag from an earlier answer: 304 while it still matches'),
];

const bytesAnswer = (types: string, disposition: string): Json => ({
  '200': {
    description: `the bytes (${types}); Content-Disposition ${disposition}; ETag; Accept-Ranges: bytes`,
    headers: {
      ETag: { schema: { type: 'string' } },
      'Content-Disposition': { schema: { type: 'string' } },
    },
    content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
  },
  '206': {
    description: 'the requested byte range, with Content-Range',
    content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
  },
  '304': { description: 'not modified: If-None-Match matched the ETag' },
  '416': { description: 'the range lies outside the file; Content-Range: bytes */size' },
  ...errors(400, 401, 403, 404, 429),
});

const DOCUMENT_ID = q('id', 'the id of a document (documents read right, or invoices read for an invoice document)', true);
const SIZE = q('size', 'the longest side in pixels', false, { type: 'integer', enum: [64, 128, 256, 512, 1024], default: 256 });
const PROFILE = q('my_organization_profile_id', 'the company profile (crm right); default: the main profile');
const USER = q('user_id', "a user of the environment; default: the token's user");

const get = (operationId: string, summary: string, parameters: Json[], responses: Json): Json => ({
  get: { tags: ['storage'], operationId, summary, parameters: [...parameters, ...DOWNLOAD_HEADERS], responses },
});

const ASSET = {
  type: 'object',
  required: ['id', 'type', 'file_name', 'file_size', 'content_type', 'updated_at', 'url'],
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: ['logo', 'letterpaper', 'avatar', 'signature'] },
    my_organization_profile_id: { type: 'string', description: 'logo and letter paper' },
    user_id: { type: 'string', description: 'avatar and signature' },
    file_name: { type: 'string' },
    file_size: { type: 'integer' },
    content_type: { type: 'string' },
    updated_at: { type: 'string', format: 'date-time' },
    url: { type: 'string', description: 'where it is read' },
  },
};

const UPLOAD_STATUS = {
  type: 'object',
  required: [
    'chunked_upload_id',
    'pointer',
    'state',
    'file_size_current',
    'file_size_expected',
    'upload_queue_id',
    'download_url',
  ],
  properties: {
    chunked_upload_id: { type: 'string' },
    pointer: { type: 'integer' },
    state: { type: 'string', enum: ['done'] },
    file_size_current: { type: 'integer' },
    file_size_expected: { type: 'integer' },
    upload_queue_id: { type: 'string', description: 'POST documents/document takes it as a finished chunked upload' },
    download_url: { type: 'string' },
  },
};

const envelope = (data: Json): Json => ({
  type: 'object',
  required: ['data', 'errors', 'debug'],
  properties: { data, errors: { type: ['array', 'null'], items: { type: 'string' } }, debug: { type: ['object', 'null'] } },
});

const RAW_BODY = {
  required: true,
  description:
    "the file's bytes, as they are (no JSON, no base64), streamed to disk as they arrive. Content-Type is the declared type (application/octet-stream when unknown): bytes that contradict it are refused, as is a name whose extension they contradict.",
  content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
};
const FILE_NAME = [
  q('file_name', 'the file name (or the X-File-Name header, URL-encoded): a name, never a path'),
  header('X-File-Name', 'the file name, URL-encoded, when not in the query'),
];
const REFUSALS =
  'Refused with 400, storing nothing: a name with a path in it (/, \\, .., a leading dot, control characters), bytes that contradict the declared type or the extension, more bytes than the configured limit (UPLOAD_MAX_FILE_SIZE; UPLOAD_MAX_ASSET_SIZE for company and user files), an image whose header declares more pixels than UPLOAD_MAX_IMAGE_PIXELS (never decoded), an empty body.';

const iconAnswer = (): Json => ({
  '200': { description: 'an SVG icon', content: { 'image/svg+xml': { schema: { type: 'string' } } } },
  '304': { description: 'not modified' },
  ...errors(400, 401, 403, 404, 429),
});

export function storagePaths(): Record<string, Json> {
  const documentGet = (name: string, what: string) =>
    get(
      `storage.${name}`,
      what,
      [DOCUMENT_ID],
      bytesAnswer("the document's own type", 'inline for PDF, PNG, JPEG, GIF, WebP and plain text, attachment otherwise'),
    );
  const thumb = (name: string, what: string, params: Json[]) =>
    get(`storage.${name}`, what, params, {
      ...bytesAnswer(
        'image/png for an image and for a PDF (its first page, by pdf.js); image/svg+xml, the type icon, for anything else',
        'inline',
      ),
    });
  return {
    '/storage/download': documentGet('download', "a document's bytes"),
    '/storage/getfile': documentGet('getfile', "a document's bytes (as download)"),
    '/storage/loadfile': documentGet('loadfile', "a document's bytes (as download)"),
    '/storage/filex': documentGet('filex', "a document's bytes (as download)"),
    '/storage/documenteditordownload': documentGet('documenteditordownload', "a document's bytes for an editor (as download)"),
    '/storage/downloadasattachment': get(
      'storage.downloadasattachment',
      "a document's bytes to save",
      [DOCUMENT_ID],
      bytesAnswer("the document's own type", 'attachment'),
    ),
    '/storage/thumbnail': thumb('thumbnail', 'a thumbnail (PNG, made with sharp, cached on disk by the SHA-256 of the bytes)', [
      DOCUMENT_ID,
      SIZE,
    ]),
    '/storage/cachedthumb': thumb('cachedthumb', 'the cached thumbnail (as thumbnail; Cache-Control immutable)', [
      DOCUMENT_ID,
      SIZE,
    ]),
    '/storage/preview': thumb('preview', 'a preview: the 1024-pixel thumbnail', [DOCUMENT_ID]),
    '/storage/fileicon': {
      get: {
        tags: ['storage'],
        operationId: 'storage.fileicon',
        summary: 'the icon of a file type, by document, extension, content type or file name',
        parameters: [
          q('id', 'a document'),
          q('extension', 'e.g. pdf, xlsx'),
          q('content_type', 'e.g. application/pdf'),
          q('file_name', 'e.g. offer.docx'),
          header('If-None-Match', 'an earlier ETag'),
        ],
        responses: iconAnswer(),
      },
    },
    '/storage/getfileicon': {
      post: {
        tags: ['storage'],
        operationId: 'storage.getfileicon',
        summary: 'the icon of a file type (as GET fileicon, with a JSON body)',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  id: { type: 'string' },
                  extension: { type: 'string' },
                  content_type: { type: 'string' },
                  file_name: { type: 'string' },
                },
              },
            },
          },
        },
        responses: { ...iconAnswer(), ...errors(415) },
      },
    },
    '/storage/costsattachment': get(
      'storage.costsattachment',
      "an expense's attachment (costs read right): the newest document linked to the expense",
      [q('expense_id', 'the expense'), q('id', 'or the attachment document itself')],
      bytesAnswer("the attachment's own type", 'inline for PDF and images'),
    ),
    '/storage/logo': get(
      'storage.logo',
      "a company profile's logo (crm read right)",
      [PROFILE],
      bytesAnswer('an image', 'inline'),
    ),
    '/storage/getlogofile': get('storage.getlogofile', 'the logo (as logo)', [PROFILE], bytesAnswer('an image', 'inline')),
    '/storage/downloadlogo': get('storage.downloadlogo', 'the logo to save', [PROFILE], bytesAnswer('an image', 'attachment')),
    '/storage/letterpaper': get(
      'storage.letterpaper',
      "a company profile's letter paper (crm read right)",
      [PROFILE],
      bytesAnswer('PDF, PNG or JPEG', 'inline'),
    ),
    '/storage/downloadletterpaper': get(
      'storage.downloadletterpaper',
      'the letter paper to save',
      [PROFILE],
      bytesAnswer('PDF, PNG or JPEG', 'attachment'),
    ),
    '/storage/avatar': get(
      'storage.avatar',
      "a user's avatar (any user of the environment)",
      [USER],
      bytesAnswer('an image', 'inline'),
    ),
    '/storage/signature': get(
      'storage.signature',
      "the token user's own signature (no one else's)",
      [USER],
      bytesAnswer('an image', 'inline'),
    ),
    '/storage/paperlayoutupload': {
      post: {
        tags: ['storage'],
        operationId: 'storage.paperlayoutupload',
        summary: `a company profile's logo (PNG, JPEG, WebP, GIF) or letter paper (PDF, PNG, JPEG); crm write right; replaces the current one. ${REFUSALS}`,
        parameters: [
          q('type', 'logo or letterpaper', true, { type: 'string', enum: ['logo', 'letterpaper'] }),
          PROFILE,
          ...FILE_NAME,
        ],
        requestBody: RAW_BODY,
        responses: {
          '200': { description: 'stored', content: { 'application/json': { schema: envelope(ASSET) } } },
          ...errors(400, 401, 403, 404, 429),
        },
      },
    },
    '/storage/dropzoneupload': {
      post: {
        tags: ['storage'],
        operationId: 'storage.dropzoneupload',
        summary: `the token user's own avatar or signature (PNG, JPEG, WebP, GIF); replaces the current one. ${REFUSALS}`,
        parameters: [q('type', 'avatar or signature', true, { type: 'string', enum: ['avatar', 'signature'] }), ...FILE_NAME],
        requestBody: RAW_BODY,
        responses: {
          '200': { description: 'stored', content: { 'application/json': { schema: envelope(ASSET) } } },
          ...errors(400, 401, 403, 429),
        },
      },
    },
    '/storage/uploadstream': {
      post: {
        tags: ['storage'],
        operationId: 'storage.uploadstream',
        summary: `a streamed upload (documents write right): the body is the file, written to disk as it arrives in flat memory; the answer is a done upload whose upload_queue_id makes a document as a finished chunked upload's does. Content-Length is optional (chunked transfer works). ${REFUSALS}`,
        parameters: FILE_NAME,
        requestBody: RAW_BODY,
        responses: {
          '200': { description: 'the done upload', content: { 'application/json': { schema: envelope(UPLOAD_STATUS) } } },
          ...errors(400, 401, 403, 429, 503),
        },
      },
    },
  };
}
