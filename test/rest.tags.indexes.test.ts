import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLiveTagByName, liveTagIdsByNames, removeContactTags, untagAllContacts } from '../src/domain/tags/tag.repository.js';
import { subscriberCounts, unsubscribeContact } from '../src/domain/sequences/sequence.repository.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { openRecordingHandle, type RecordingHandle } from './support/query-plans.js';

/**
 * The lookups of tags and sequences are served by indexes on both engines (PostgreSQL planning with
 * sequential scans switched off, so a plan that still scans has no index to use): tag names by the
 * partial unique index on live names, a tag's contact rows by contact_tags_tag_idx, a contact's
 * rows by the primary key / unique index, subscriber counts by sequence_subscriptions_sequence_idx.
 */
describe('tag and sequence lookups use their indexes', () => {
  let t: TestApp;
  let recording: RecordingHandle;
  let ws: number;
  let tag: number;
  let sequence: number;
  let contact: number;

  beforeAll(async () => {
    t = await createTestApp();
    ws = (await t.workspace()).id;
    const f = fixtures(t.db, ws);
    tag = await f.tag('VIP');
    sequence = await f.sequence('Welcome');
    contact = await f.contact({ email: 'ada@example.com' });
    await f.tagContact(contact, tag);
    await f.subscribe(contact, sequence);
    recording = await openRecordingHandle(t.app.deps.config.DATABASE_URL, { forbidSeqScans: true });
  });
  afterAll(async () => {
    await recording.close();
    await t.close();
  });

  const planOf = async (run: () => Promise<unknown>) => {
    const plans = await recording.plansOf(run);
    expect(plans).toHaveLength(1);
    return plans[0];
  };

  it('finds a live tag by name, and live tags by names, through tags_workspace_live_lower_name_uq', async () => {
    expect(await planOf(() => findLiveTagByName(recording.db, ws, 'vip'))).toContain('tags_workspace_live_lower_name_uq');
    expect(await planOf(() => liveTagIdsByNames(recording.db, ws, ['vip', 'Lead', 'new']))).toContain('tags_workspace_live_lower_name_uq');
    expect((await findLiveTagByName(recording.db, ws, 'vIP'))?.id).toBe(String(tag));
  });

  it("reads a tag's contact rows by contact_tags_tag_idx and a contact's by its primary key", async () => {
    expect(await planOf(() => untagAllContacts(recording.db, ws, 424242))).toContain('contact_tags_tag_idx');
    expect(await planOf(() => removeContactTags(recording.db, ws, 424242, [1, 2]))).toMatch(/contact_tags_pk|sqlite_autoindex_contact_tags/);
  });

  it("counts subscribers by sequence_subscriptions_sequence_idx and reads a contact's by its unique index", async () => {
    expect(await planOf(() => subscriberCounts(recording.db, ws, [sequence, 424242]))).toContain('sequence_subscriptions_sequence_idx');
    expect(await planOf(() => unsubscribeContact(recording.db, ws, 424242, [sequence]))).toContain('sequence_subscriptions_contact_sequence_uq');
    expect(await subscriberCounts(recording.db, ws, [sequence, 424242])).toEqual(new Map([[sequence, 1]]));
  });
});
