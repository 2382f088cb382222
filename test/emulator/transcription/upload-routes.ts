import { createReadStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { HttpError, sendJson } from '../http';
import type { EmulatorApp, Region } from '../types';
import { requireApiKey } from './auth';
import type { TranscriptionState, UploadRecord } from './transcription-state';
import { MAX_UPLOAD_BYTES, UploadTooLargeError, streamBodyToFile } from './upload-storage';

export const UPLOAD_PATH = /^\/v2\/upload\/(?<uploadId>[^/]+)$/;

function uploadUrl(app: EmulatorApp, region: Region, id: string): string {
  return `${app.baseUrl(region)}/v2/upload/${id}`;
}

/** POST /v2/upload (raw bytes in, `upload_url` out) and GET of that URL, per region. */
export function registerUploadRoutes(app: EmulatorApp, state: TranscriptionState): void {
  app.route({
    method: 'POST',
    pattern: /^\/v2\/upload$/,
    handler: async (ctx) => {
      requireApiKey(ctx, app.options.key);
      const tooLarge = { error: new UploadTooLargeError(MAX_UPLOAD_BYTES).message };
      if (Number(ctx.req.headers['content-length']) > MAX_UPLOAD_BYTES) {
        throw new HttpError(413, tooLarge, { Connection: 'close' });
      }
      const signal = state.signal;
      const id = state.nextUploadId(ctx.region);
      const path = join(state.directory(ctx.region, 'uploads'), id);
      let size: number;
      try {
        size = await streamBodyToFile(ctx.req, path, MAX_UPLOAD_BYTES);
      } catch (error) {
        rmSync(path, { force: true });
        if (!(error instanceof UploadTooLargeError)) throw error;
        // Discard what the client is still sending; the connection closes after the answer.
        ctx.req.resume();
        throw new HttpError(413, tooLarge, { Connection: 'close' });
      }
      if (signal.aborted) {
        rmSync(path, { force: true });
        throw new HttpError(503, { error: 'The emulator was reset during the upload' });
      }
      if (size === 0) {
        rmSync(path, { force: true });
        throw new HttpError(400, { error: 'The upload is empty: send the file bytes as the request body' });
      }
      const upload: UploadRecord = { id, path, size };
      state.uploads(ctx.region).set(id, upload);
      sendJson(ctx.res, 200, { upload_url: uploadUrl(app, ctx.region, id) });
    },
  });

  app.route({
    method: 'GET',
    pattern: UPLOAD_PATH,
    handler: async (ctx) => {
      requireApiKey(ctx, app.options.key);
      const upload = state.uploads(ctx.region).get(ctx.params.uploadId ?? '');
      if (!upload) throw new HttpError(404, { error: 'Upload not found' });
      ctx.res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': upload.size });
      await pipeline(createReadStream(upload.path), ctx.res);
    },
  });
}
