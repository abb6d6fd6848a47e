import { FILES_PREFIX, fileOfPath } from '../domain/contact-transfers/contact-file-links.js';
import { fileOfSignedLink, receiveUpload } from '../domain/contact-transfers/contact-file.service.js';
import { AppError, notFound } from '../errors/catalogue.js';
import type { AppDeps } from '../http/app-deps.js';
import { jsonAnswer, type Answer, type Incoming } from '../http/exchange.js';
import { withMethods, type PublicRoutes } from './system.routes.js';

/**
 * The signed addresses of contact files, without a token (the signature is the permission; the
 * per-IP budget applies):
 * - `PUT` (or `POST`) `/files/contact-imports/<fileId>?expires=&signature=`: an import file's bytes,
 *   as the request body, streamed to the file store. 200 `{fileId, size}`.
 * - `GET /files/contact-exports/<fileId>?expires=&signature=`: an export's CSV, streamed.
 * A signature that does not match, or has expired, is 403 with the reason.
 */
export function contactFileRoutes(deps: AppDeps): PublicRoutes {
  const db = deps.database.db;
  return {
    [`${FILES_PREFIX}*`]: withMethods(['GET', 'HEAD', 'PUT', 'POST'], async (request: Incoming): Promise<Answer> => {
      const target = fileOfPath(request.path);
      if (!target) throw notFound('File');
      const method = request.method;
      const file = await fileOfSignedLink(db, target.purpose, target.fileId, request.search);
      if (target.purpose === 'contact-imports') {
        if (method !== 'PUT' && method !== 'POST') throw new AppError('methodNotAllowed', { message: 'PUT (or POST) the file\'s bytes to this address' });
        return jsonAnswer(200, await receiveUpload(db, deps.files, file, request.header('content-length'), (limit) => request.stream(limit)));
      }
      if (method !== 'GET' && method !== 'HEAD') throw new AppError('methodNotAllowed', { message: 'GET this address to download the file' });
      if (file.status !== 'ready') throw notFound('Export file');
      const headers: Record<string, string> = {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${file.file_name.replace(/["\\\r\n]/g, '_')}"`,
        'cache-control': 'private, no-store',
      };
      if (file.size !== null) headers['content-length'] = String(file.size);
      return { status: 200, headers, body: method === 'HEAD' ? null : deps.files.store.read(db, file.id) };
    }),
  };
}
