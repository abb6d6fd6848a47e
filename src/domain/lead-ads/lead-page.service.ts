import type { Executor } from '../../db/database.js';
import { notFound } from '../../errors/catalogue.js';
import { fetchPage, type Page, type PageRequest } from '../shared/pagination.js';
import { countLeadForms, countLeadPages, findLeadPageRowId, listLeadForms, listLeadPages } from './lead-page.repository.js';
import type { LeadForm, LeadPage } from './lead-page.schema.js';

/** The workspace's connected pages, in the order they were connected. */
export const listLeadPagesPage = (db: Executor, workspaceId: number, p: PageRequest): Promise<Page<LeadPage>> =>
  fetchPage(p, () => countLeadPages(db, workspaceId), (w) => listLeadPages(db, workspaceId, w));

/**
 * One page's lead forms (archived ones included, with their status), in creation order. The page
 * is the subject of the call: one the workspace has not connected is 404 `Lead page`, so a wrong
 * id is not mistaken for a page without forms.
 */
export async function listLeadFormsPage(db: Executor, workspaceId: number, p: PageRequest & { pageId: string }): Promise<Page<LeadForm>> {
  const pageRowId = await findLeadPageRowId(db, workspaceId, p.pageId);
  if (pageRowId === null) throw notFound('Lead page');
  return fetchPage(p, () => countLeadForms(db, workspaceId, pageRowId), (w) => listLeadForms(db, workspaceId, pageRowId, w));
}
