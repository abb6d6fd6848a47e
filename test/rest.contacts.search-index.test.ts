import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCondition } from '../src/domain/contacts/contact-filter.service.js';
import { compileFilter, countMatchingContacts } from '../src/domain/contacts/contact-search.repository.js';
import type { ContactCondition } from '../src/domain/contacts/contact-filter.schema.js';
import { testEngine } from './support/engine.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { openRecordingHandle, type RecordingHandle } from './support/query-plans.js';

/**
 * The search conditions docs/postgres-redis.md lists as indexed are served by their index on both engines:
 * the plans of the real count statement, for a workspace of 3,000 contacts beside another one.
 */
describe('contact search conditions use their indexes', () => {
  let t: TestApp;
  let recording: RecordingHandle;
  let workspaceId: number;
  let fieldId: number;
  let tagId: number;

  beforeAll(async () => {
    t = await createTestApp();
    workspaceId = (await t.workspace()).id;
    const other = (await t.workspace({ name: 'Other' })).id;
    recording = await openRecordingHandle(t.app.deps.config.DATABASE_URL, { forbidSeqScans: true });
    const at = '2026-11-01T10:00:00.000Z';
    for (let batch = 0; batch < 3; batch++) {
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        workspace_id: i % 10 === 9 ? other : workspaceId,
        email: `c${batch}-${i}@example.com`,
        gender: 'unknown' as const,
        email_verified: 0,
        email_opt_in: 0,
        created_at: at,
        updated_at: at,
      }));
      await t.db.insertInto('contacts').values(rows).execute();
    }
    fieldId = (await t.db.insertInto('custom_fields').values({ workspace_id: workspaceId, name: 'Plan', description: '', type: 'shortText', options: null, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow()).id;
    tagId = (await t.db.insertInto('tags').values({ workspace_id: workspaceId, name: 'vip', folder_id: null, deleted_at: null, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow()).id;
    const contacts = await t.db.selectFrom('contacts').select('id').where('workspace_id', '=', workspaceId).execute();
    await t.db
      .insertInto('contact_custom_fields')
      .values(contacts.map((c, i) => ({ workspace_id: workspaceId, contact_id: c.id, custom_field_id: fieldId, value: i % 100 === 0 ? 'gold' : 'basic', created_at: at, updated_at: at })))
      .execute();
    await t.db
      .insertInto('contact_tags')
      .values(contacts.filter((_, i) => i % 50 === 0).map((c) => ({ workspace_id: workspaceId, contact_id: c.id, tag_id: tagId, created_at: at })))
      .execute();
    if (testEngine === 'postgres') await sql`vacuum analyze`.execute(t.db);
  });
  afterAll(async () => {
    await recording.close();
    await t.close();
  });

  const planOf = async (filter: ContactCondition) => {
    const { where } = await checkCondition(t.db, workspaceId, filter, []);
    const plans = await recording.plansOf(() => countMatchingContacts(recording.db, workspaceId, compileFilter(recording.db, workspaceId, where)));
    expect(plans).toHaveLength(1);
    // Never a walk of every workspace's contacts.
    expect(plans[0]).not.toMatch(testEngine === 'postgres' ? /Seq Scan on contacts/ : /\bSCAN contacts\b/);
    return plans[0];
  };

  it('email equals: the (workspace, lower(email)) index', async () => {
    expect(await planOf({ field: 'email', operator: 'equals', value: 'C1-5@example.com' })).toContain('contacts_workspace_email_uq');
  });

  it('a custom-field value equals: the (workspace, field, value) index', async () => {
    expect(await planOf({ field: `customField:${fieldId}`, operator: 'equals', value: 'gold' })).toContain('contact_custom_fields_field_value_idx');
  });

  it('a tag with a custom-field value: found from the tag, each contact probed for its value', async () => {
    const plan = await planOf({ and: [{ field: 'tags', operator: 'hasAny', value: [String(tagId)] }, { field: `customField:${fieldId}`, operator: 'equals', value: 'gold' }] });
    expect(plan).toMatch(/contact_tags_tag_idx|contact_tags_pk/);
    if (testEngine === 'sqlite') expect(plan).toMatch(/SEARCH contacts USING INTEGER PRIMARY KEY[\s\S]*SEARCH v EXISTS USING INDEX contact_custom_fields_contact_field_uq/);
  });

  it('tags: the tag index of the link table', async () => {
    expect(await planOf({ field: 'tags', operator: 'hasAny', value: [String(tagId)] })).toMatch(/contact_tags_tag_idx|contact_tags_pk/);
  });

  it('created range: the (workspace, created_at) index', async () => {
    expect(await planOf({ field: 'createdAt', operator: 'after', value: '2026-11-02T00:00:00Z' })).toContain('contacts_workspace_created_idx');
  });
});
