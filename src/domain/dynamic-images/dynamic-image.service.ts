import type { Executor } from '../../db/database.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { countDynamicImages, listDynamicImages } from './dynamic-image.repository.js';
import type { DynamicImage } from './dynamic-image.schema.js';

export const listDynamicImagesPage = (db: Executor, workspaceId: number, q: PageRequest & { name?: string }): Promise<Page<DynamicImage>> =>
  fetchPage(q, () => countDynamicImages(db, workspaceId, q.name), (w) => listDynamicImages(db, workspaceId, { name: q.name, ...w }));
