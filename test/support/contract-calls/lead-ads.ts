import type { fixtures } from '../fixtures.js';
import type { CallTable } from './seed.js';

/**
 * The seeded workspace's lead page: its network ids differ by workspace (another workspace's page
 * and forms are unknown ids, never the caller's own), forms 1 to 3 answered by the automations the
 * delete calls consume, form 4 by the automation get and update read, 5 and 6 free for creates
 * (a seeded workspace sees one successful create).
 */
export async function seedLeadAds(f: ReturnType<typeof fixtures>, workspaceId: number, refs: { customField: number; tag: number; sequence: number }) {
  const pageId = String(9_000_000 + workspaceId * 100);
  const page = await f.leadPage(pageId, `Page of workspace ${workspaceId}`);
  const forms = Array.from({ length: 6 }, (_, i) => `${pageId}${i + 1}`);
  await f.leadForms(page, forms);
  const onForm = (name: string, form: string) => f.leadAd(name, { pageId, formIds: [form] });
  return {
    leadAds: [await onForm('First', forms[0]), await onForm('Second', forms[1]), await onForm('Third', forms[2])],
    leadAdKept: await f.leadAd('Kept', {
      pageId,
      formIds: [forms[3]],
      fieldMappings: [{ questionKey: 'company', customFieldId: refs.customField }],
      tagIds: [refs.tag],
      sequenceIds: [refs.sequence],
    }),
    leadAdPage: { pageId, spareForms: forms.slice(4) },
  };
}

let created = 0;

export const leadAdCalls: CallTable = {
  'netLeadAds.list': () => ({ method: 'GET', path: '/v1/net-lead-ads?page=1&perPage=10&keyword=kept' }),
  'netLeadAds.get': (s) => ({ method: 'GET', path: `/v1/net-lead-ads/${s.leadAdKept}` }),
  // Each create answers a spare form of its own: a form has one automation.
  'netLeadAds.create': (s) => ({
    method: 'POST',
    path: '/v1/net-lead-ads',
    body: {
      name: 'New leads',
      pageId: s.leadAdPage.pageId,
      formIds: [s.leadAdPage.spareForms[created++ % s.leadAdPage.spareForms.length]],
      fieldMappings: [{ questionKey: 'company', customFieldId: String(s.customFields.plan) }],
      reply: { type: 'text', value: 'Thanks!' },
      tagIds: [String(s.tags.vip)],
      sequenceIds: [String(s.sequences.onboarding)],
    },
  }),
  'netLeadAds.update': (s) => ({
    method: 'PATCH',
    path: `/v1/net-lead-ads/${s.leadAdKept}`,
    body: { name: 'Kept and renamed', tagIds: [String(s.tags.lead)], sequenceIds: [String(s.sequences.newsletter)] },
  }),
  'netLeadAds.listPages': () => ({ method: 'GET', path: '/v1/net-lead-ads/pages?page=1&perPage=10' }),
  'netLeadAds.listForms': (s) => ({ method: 'GET', path: `/v1/net-lead-ads/forms?pageId=${s.leadAdPage.pageId}&perPage=5` }),
};
