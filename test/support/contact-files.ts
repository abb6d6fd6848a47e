import { expect } from 'vitest';
import type { TestApp } from './harness.js';
import { waitFor } from './queue.js';

/**
 * The import flow as a client runs it: ask for an upload address, PUT the bytes there (no token),
 * start the import, follow it to its end. And the export flow: ask, wait, download.
 */

/** The path and query of an absolute address this server signed (the test app answers in process). */
export const localPath = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

export async function uploadCsv(t: TestApp, token: string, csv: string, fileName = 'contacts.csv'): Promise<string> {
  const size = Buffer.byteLength(csv);
  const asked = await t.request('POST', '/v1/contacts/imports/upload-url', { token, body: { fileName, mimeType: 'text/csv', fileSize: size } });
  expect(asked.status, asked.text).toBe(201);
  const put = await t.request('PUT', localPath(asked.body.presignedPostUrl), { body: csv, headers: { 'content-type': 'text/csv' } });
  expect(put.status, put.text).toBe(200);
  return asked.body.fileId as string;
}

/** Polls the import until it is completed or failed; answers every processedCount seen on the way. */
export async function followImport(t: TestApp, token: string, importId: string, timeoutMs = 60_000): Promise<{ final: any; seen: number[] }> {
  const seen: number[] = [];
  const final = await waitFor(
    `import ${importId} to finish`,
    async () => {
      const res = await t.request('GET', `/v1/contacts/imports/${importId}`, { token });
      expect(res.status, res.text).toBe(200);
      seen.push(res.body.processedCount);
      return res.body.status === 'completed' || res.body.status === 'failed' ? res.body : null;
    },
    timeoutMs,
  );
  return { final, seen };
}

export async function followExport(t: TestApp, token: string, fileId: string, timeoutMs = 60_000): Promise<any> {
  return waitFor(
    `export ${fileId} to be written`,
    async () => {
      const res = await t.request('GET', `/v1/contacts/export-files/${fileId}`, { token });
      expect(res.status, res.text).toBe(200);
      return res.body.status === 'ready' || res.body.status === 'failed' ? res.body : null;
    },
    timeoutMs,
  );
}
