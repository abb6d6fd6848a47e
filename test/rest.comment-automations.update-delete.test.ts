import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { insertFolder } from './support/contract-calls/folders.js';
import { storedAutomation } from './support/comment-automations.js';
import { unlimited } from './support/endpoints.js';
import { fixtures, sampleHideComments, sampleOptions, T0 } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { forbidden, invalidRequestData, isoNow, notFound, validationError } from './support/rest.js';

type Channel = 'photo' | 'net';

/** PATCH and DELETE /v1/photo-comments/{id} and /v1/net-comments/{id}. */
describe('comment automations: change and delete', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let f: ReturnType<typeof fixtures>;
  let foreign: Record<Channel, number>;

  const patch = (channel: Channel, id: number | string, body: unknown, token = ws.developerToken) => api.request('PATCH', `/v1/${channel}-comments/${id}`, { token, body });
  const remove = (channel: Channel, id: number | string, token = ws.developerToken) => api.request('DELETE', `/v1/${channel}-comments/${id}`, { token });
  const get = (channel: Channel, id: number | string) => api.request('GET', `/v1/${channel}-comments/${id}`, { token: ws.developerToken });
  const fresh = (channel: Channel, name = `${channel} rule`, opts: Parameters<typeof f.commentAutomation>[2] = {}) => f.commentAutomation(channel, name, opts);
  /** A PATCH refused with these issues, the automation unchanged. */
  const refused = async (channel: Channel, id: number, body: unknown, issues: { message: string; path: (string | number)[] }[]) => {
    const before = (await get(channel, id)).body;
    const res = await patch(channel, id, body);
    expect(res.status, JSON.stringify(body)).toBe(422);
    expect(res.body).toEqual(invalidRequestData(issues));
    expect((await get(channel, id)).body).toEqual(before);
  };

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    api = await contractClient(t);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
    f = fixtures(t.db, ws.id);
    const photoAccount = await f.inbox('Photo account', 'photo');
    const page = await f.inbox('Page', 'net');
    await f.channelPost('photo', photoAccount, { id: '17890001' });
    await f.channelPost('photo', photoAccount, { id: '17890002', kind: 'reels' });
    await f.channelPost('net', page, { id: '1020_9001' });
    const o = fixtures(t.db, other.id);
    await o.channelPost('photo', await o.inbox('Theirs', 'photo'), { id: '17890077' });
    foreign = { photo: await o.commentAutomation('photo', 'Theirs'), net: await o.commentAutomation('net', 'Theirs') };
  });
  afterAll(() => t.close());

  describe('PATCH', () => {
    it('switches an automation off and on: 200 with the whole record, updatedAt moved, the rest unchanged', async () => {
      for (const channel of ['photo', 'net'] as const) {
        const id = await fresh(channel);
        const off = await patch(channel, id, { isActive: false });
        expect(off.status).toBe(200);
        expect(off.body).toEqual(storedAutomation(id, `${channel} rule`, channel, { isActive: false, updatedAt: isoNow() }));
        expect(off.body.updatedAt).not.toBe(T0);
        expect((await get(channel, id)).body).toEqual(off.body);
        const on = await patch(channel, id, { isActive: true }, ws.userToken);
        expect(on.body).toEqual({ ...off.body, isActive: true, updatedAt: isoNow() });
      }
    });

    it('changes any subset of the create fields; nested objects are replaced whole; null clears folderId and the times', async () => {
      const id = await fresh('photo', 'Before', { folderId: '7' });
      const change = {
        name: 'After',
        type: 'photoNet',
        privateReply: { type: 'flow', value: 'welcome-flow' },
        hideComments: { ...sampleHideComments, hasLink: true, keywords: ['buy now'], showCommentsAfter: '1d' },
        excludeKeywords: ['spam', 'bot'],
        replyAfter: { type: 'minutes', value: 2 },
        startTime: '09:00',
        endTime: '17:30',
      };
      const res = await patch('photo', id, change);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(storedAutomation(id, 'After', 'photo', { ...change, folderId: '7', updatedAt: isoNow() }));
      const cleared = await patch('photo', id, { folderId: null, startTime: null, endTime: null });
      expect(cleared.body).toEqual({ ...res.body, folderId: null, startTime: null, endTime: null, updatedAt: isoNow() });
      const folder = String(await insertFolder(t.db, ws.id, 'commentAutomation', 'Filed'));
      const filed = await patch('photo', id, { folderId: folder });
      expect(filed.body.folderId).toBe(folder);
    });

    it('replaces a reply whole: values left out of the new reply are gone', async () => {
      const id = await fresh('net');
      const withValues = await patch('net', id, { publicReply: { type: 'text', value: 'Hi', values: [{ value: 'a' }, { value: 'b' }] } });
      expect(withValues.body.publicReply).toEqual({ type: 'text', value: 'Hi', values: [{ value: 'a' }, { value: 'b' }] });
      const replaced = await patch('net', id, { publicReply: { type: 'text', value: 'Bye' } });
      expect(replaced.body).toEqual(storedAutomation(id, 'net rule', 'net', { publicReply: { type: 'text', value: 'Bye' }, updatedAt: isoNow() }));
    });

    it('refuses a partial nested object (every nested field is required), naming each missing field; nothing changes', async () => {
      const id = await fresh('photo');
      await refused('photo', id, { options: { likeUserComment: true } }, [
        { message: 'Required', path: ['body', 'options', 'replyToNewContactsOnly'] },
        { message: 'Required', path: ['body', 'options', 'replyOncePerUserPerPost'] },
        { message: 'Required', path: ['body', 'options', 'replyToUsersWhoCommentedOnOtherPosts'] },
        { message: 'Required', path: ['body', 'options', 'ignoreCommentReplies'] },
        { message: 'Required', path: ['body', 'options', 'trackUserTags'] },
      ]);
      await refused('photo', id, { hideComments: { all: true } }, [
        { message: 'Required', path: ['body', 'hideComments', 'hasPhoneNumber'] },
        { message: 'Required', path: ['body', 'hideComments', 'hasImage'] },
        { message: 'Required', path: ['body', 'hideComments', 'hasVideo'] },
        { message: 'Required', path: ['body', 'hideComments', 'hasLink'] },
        { message: 'Required', path: ['body', 'hideComments', 'hasKeywords'] },
        { message: 'Required', path: ['body', 'hideComments', 'keywords'] },
        { message: 'Required', path: ['body', 'hideComments', 'showCommentsAfter'] },
      ]);
      await refused('photo', id, { post: { type: 'all' } }, [{ message: 'Required', path: ['body', 'post', 'value'] }]);
      await refused('photo', id, { replyAfter: { value: 5 } }, [{ message: 'Required', path: ['body', 'replyAfter', 'type'] }]);
    });

    it('never writes counters, ids or timestamps: they are unknown keys (422)', async () => {
      const id = await fresh('net');
      await refused('net', id, { repliesCount: 0, sentCount: 1, id: '5', createdAt: T0, updatedAt: T0, channel: 'photo', name: 'x' }, [
        { message: 'Unrecognized key: "repliesCount"', path: ['body', 'repliesCount'] },
        { message: 'Unrecognized key: "sentCount"', path: ['body', 'sentCount'] },
        { message: 'Unrecognized key: "id"', path: ['body', 'id'] },
        { message: 'Unrecognized key: "createdAt"', path: ['body', 'createdAt'] },
        { message: 'Unrecognized key: "updatedAt"', path: ['body', 'updatedAt'] },
        { message: 'Unrecognized key: "channel"', path: ['body', 'channel'] },
      ]);
      await refused('net', id, { options: { ...sampleOptions, autoLike: true } }, [{ message: 'Unrecognized key: "autoLike"', path: ['body', 'options', 'autoLike'] }]);
    });

    it('refuses an empty body (nothing to change), and the create rules apply to each field given', async () => {
      const id = await fresh('photo');
      await refused('photo', id, {}, [{ message: 'Provide at least one field to change', path: ['body'] }]);
      await refused('photo', id, { name: '' }, [{ message: 'name must not be empty', path: ['body', 'name'] }]);
      await refused('photo', id, { name: null }, [{ message: 'Invalid input: expected string, received null', path: ['body', 'name'] }]);
      await refused('photo', id, { isActive: 'no' }, [{ message: 'Invalid input: expected boolean, received string', path: ['body', 'isActive'] }]);
      await refused('photo', id, { startTime: '25:00' }, [{ message: 'must be a time of day as HH:mm', path: ['body', 'startTime'] }]);
      await refused('photo', id, { folderId: 'root' }, [{ message: 'must be a digit string', path: ['body', 'folderId'] }]);
    });

    it("keeps each channel's types: photo or photoNet on photo, chat on net", async () => {
      const photo = await fresh('photo');
      const net = await fresh('net');
      await refused('photo', photo, { type: 'chat' }, [{ message: 'Invalid option: expected one of "photo"|"photoNet"', path: ['body', 'type'] }]);
      await refused('net', net, { type: 'photo' }, [{ message: 'Invalid input: expected "chat"', path: ['body', 'type'] }]);
      expect((await patch('photo', photo, { type: 'photoNet' })).body.type).toBe('photoNet');
      expect((await patch('net', net, { type: 'chat' })).body.type).toBe('chat');
    });

    it('checks the merged automation against the create rules: a stored value they refuse must be replaced in the same PATCH', async () => {
      // Stored before the net channel took only chat: any change must bring a valid type.
      const id = await fresh('net', 'Legacy', { type: 'microblog' });
      await refused('net', id, { name: 'Renamed' }, [{ message: 'Invalid input: expected "chat"', path: ['body', 'type'] }]);
      await refused('net', id, { isActive: false }, [{ message: 'Invalid input: expected "chat"', path: ['body', 'type'] }]);
      const fixed = await patch('net', id, { name: 'Renamed', type: 'chat' });
      expect(fixed.status).toBe(200);
      expect(fixed.body).toEqual(storedAutomation(id, 'Renamed', 'net', { updatedAt: isoNow() }));
    });

    it("checks a new post selector's postIds against the channel's posts; a PATCH without post does not check the stored one", async () => {
      const photo = await fresh('photo', 'Watching gone media', { post: { type: 'postIds', value: ['17890009'] } });
      const renamed = await patch('photo', photo, { name: 'Still watching' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.post).toEqual({ type: 'postIds', value: ['17890009'] });

      const before = (await get('photo', photo)).body;
      const res = await patch('photo', photo, { post: { type: 'postIds', value: ['17890001', '1020_9001', '17890077', '17890009'] } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(validationError({ field: 'post.value', reason: 'notFound', ids: ['1020_9001', '17890077', '17890009'] }));
      expect((await get('photo', photo)).body).toEqual(before);

      const ok = await patch('photo', photo, { post: { type: 'postIds', value: ['17890001', '17890002'] } });
      expect(ok.body.post).toEqual({ type: 'postIds', value: ['17890001', '17890002'] });
      const net = await fresh('net');
      expect((await patch('net', net, { post: { type: 'postIds', value: ['9001'] } })).body.post).toEqual({ type: 'postIds', value: ['9001'] });
      expect((await patch('net', net, { post: { type: 'reels', value: ['anything'] } })).body.post).toEqual({ type: 'reels', value: ['anything'] });
    });

    it("is 404 for the other channel's automation, another workspace's, and a missing id; nothing changes", async () => {
      const photo = await fresh('photo', 'Mine');
      for (const [channel, id] of [['net', photo], ['photo', foreign.photo], ['net', foreign.net], ['photo', 999999], ['net', '99999999999999999999']] as const) {
        const res = await patch(channel, id, { isActive: false });
        expect(res.status, `${channel} ${id}`).toBe(404);
        expect(res.body).toEqual(notFound('Comment automation'));
      }
      expect((await get('photo', photo)).body.isActive).toBe(true);
      const theirs = await t.db.selectFrom('comment_automations').select(['is_active', 'updated_at']).where('id', 'in', [foreign.photo, foreign.net]).execute();
      expect(theirs.map((r) => [Number(r.is_active), r.updated_at])).toEqual([[1, T0], [1, T0]]);
    });

    it('needs a full token with the automations scope', async () => {
      const id = await fresh('photo');
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await patch('photo', id, { isActive: false }, readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      const tagsOnly = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
      expect((await patch('net', id, { isActive: false }, tagsOnly)).body).toEqual(forbidden({ reason: 'missingScope', scope: 'automations' }));
    });
  });

  describe('DELETE', () => {
    it('deletes permanently: 200 {success: true}, then 404 on get, change, delete and absent from the list', async () => {
      for (const channel of ['photo', 'net'] as const) {
        const id = await fresh(channel, `Doomed ${channel}`);
        const res = await remove(channel, id);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true });
        expect((await get(channel, id)).body).toEqual(notFound('Comment automation'));
        expect((await patch(channel, id, { isActive: true })).body).toEqual(notFound('Comment automation'));
        expect((await remove(channel, id)).body).toEqual(notFound('Comment automation'));
        const listed = (await api.request('GET', `/v1/${channel}-comments?name=Doomed`, { token: ws.developerToken })).body;
        expect(listed).toEqual({ data: [], pageCount: 0 });
        expect(await t.db.selectFrom('comment_automations').select('id').where('id', '=', id).execute()).toEqual([]);
      }
    });

    it("is 404 for the other channel's automation, another workspace's, and a missing id; each stays", async () => {
      const photo = await fresh('photo', 'Kept');
      for (const [channel, id] of [['net', photo], ['photo', foreign.photo], ['net', foreign.net], ['photo', 0]] as const) {
        const res = await remove(channel, id);
        expect(res.status, `${channel} ${id}`).toBe(404);
        expect(res.body).toEqual(notFound('Comment automation'));
      }
      expect((await get('photo', photo)).status).toBe(200);
      const theirs = await t.db.selectFrom('comment_automations').select('id').where('id', 'in', [foreign.photo, foreign.net]).orderBy('id').execute();
      expect(theirs.map((r) => r.id)).toEqual([foreign.photo, foreign.net]);
    });

    it('is 422 for an id that is not digits; a read-only token may not delete', async () => {
      expect((await remove('net', 'abc')).body).toEqual(invalidRequestData([{ message: 'must be a digit string', path: ['params', 'id'] }]));
      const id = await fresh('net');
      const readOnly = await t.token(ws.id, { kind: 'developer', readOnly: true });
      expect((await remove('net', id, readOnly)).body).toEqual(forbidden({ reason: 'readOnlyToken' }));
      expect((await get('net', id)).status).toBe(200);
    });
  });
});
