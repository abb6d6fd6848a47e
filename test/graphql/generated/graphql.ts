/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** comment: a comment automation (photo or net); leadAd: a lead-ad automation */
export type AutomationKind =
  | 'comment'
  | 'leadAd';

export type ChannelPostKind =
  | 'ads'
  | 'published'
  | 'reels';

export type CommentActionName =
  | 'hide'
  | 'like'
  | 'privateReply'
  | 'publicReply'
  | 'unhide';

/** scheduled: waiting or running; done; skipped (see error); failed (see error) */
export type CommentActionStatus =
  | 'done'
  | 'failed'
  | 'scheduled'
  | 'skipped';

export type CommentAutomationOptionsInput = {
  ignoreCommentReplies: boolean;
  likeUserComment: boolean;
  replyOncePerUserPerPost: boolean;
  replyToNewContactsOnly: boolean;
  replyToUsersWhoCommentedOnOtherPosts: boolean;
  trackUserTags: boolean;
};

export type CommentAutomationType =
  | 'chat'
  | 'microblog'
  | 'photo'
  | 'photoNet';

/** photo: photo-sharing network comments; net: social-network post comments */
export type CommentChannel =
  | 'net'
  | 'photo';

/** pending: actions waiting; acted; declined (see reason); failed (see reason) */
export type CommentEventOutcome =
  | 'acted'
  | 'declined'
  | 'failed'
  | 'pending';

/** The body of POST /v1/contacts: at least one of email or phoneNumber (empty strings count as not given); phoneNumber is an optional + and 7 to 20 digits. With inboxId the contact joins that inbox; channel, when given, must be its channel. */
export type CreateContactInput = {
  channel?: string | null | undefined;
  email?: string | null | undefined;
  firstName?: string | null | undefined;
  gender?: Gender | null | undefined;
  /** An inbox of the workspace: its global id or plain digit id */
  inboxId?: string | number | null | undefined;
  lastName?: string | null | undefined;
  phoneNumber?: string | null | undefined;
};

/** The body of POST /v1/dynamic-images: name and data; customFieldId (null: none), backgroundUrl (default "") and enabled (default true) optional. */
export type CreateDynamicImageInput = {
  backgroundUrl?: string | null | undefined;
  /** A custom field of the workspace (global or digit id); null or "" for none */
  customFieldId?: string | number | null | undefined;
  data: DynamicImageDataInput;
  enabled?: boolean | null | undefined;
  name: string;
};

/** Where to send the data a flow event produces: a flow's `customEvent` item named `event` POSTs `{event, contact_id, flow_id, flow_name, timestamp}` to `url`, unsigned, retried by the job queue up to 5 tries. */
export type CreateExternalWebhookInput = {
  event: string;
  provider: string;
  /** http or https, at most 1000 characters; its host must be a public address */
  url: string;
};

/** The body of POST /v1/flows: a name (trimmed, 1 to 255 characters; not unique) and the items. */
export type CreateFlowInput = {
  /** 1 to 50 items, sent in order */
  items: Array<FlowItemInput>;
  name: string;
};

/** The body of POST /v1/net-lead-ads; fieldMappings, tagIds and sequenceIds default to none, isActive to true. */
export type CreateLeadAdAutomationInput = {
  /** Each question key once */
  fieldMappings?: Array<LeadAdFieldMappingInput> | null | undefined;
  /** Forms of the page (leadForms), or ["*"] for every form of the page */
  formIds: Array<string>;
  isActive?: boolean | null | undefined;
  name: string;
  /** A connected page (leadPages) */
  pageId: string;
  reply: ReplyInput;
  /** Sequences: global or plain digit ids */
  sequenceIds?: Array<string | number> | null | undefined;
  /** Live tags: global or plain digit ids */
  tagIds?: Array<string | number> | null | undefined;
};

/** The body of POST /v1/net-comments: the photo input, with type chat (the default). */
export type CreateNetCommentAutomationInput = {
  /** HH:mm */
  endTime?: string | null | undefined;
  excludeKeywords: Array<string>;
  folderId?: string | number | null | undefined;
  hideComments: HideCommentsInput;
  includeKeywords: IncludeKeywordsInput;
  name: string;
  options: CommentAutomationOptionsInput;
  post: PostSelectorInput;
  privateReply: ReplyInput;
  publicReply: ReplyInput;
  replyAfter: DelayInput;
  /** HH:mm */
  startTime?: string | null | undefined;
  /** chat (the default) */
  type?: NetConnectionType | null | undefined;
};

/** The body of POST /v1/photo-comments. */
export type CreatePhotoCommentAutomationInput = {
  /** HH:mm */
  endTime?: string | null | undefined;
  excludeKeywords: Array<string>;
  folderId?: string | number | null | undefined;
  hideComments: HideCommentsInput;
  includeKeywords: IncludeKeywordsInput;
  name: string;
  options: CommentAutomationOptionsInput;
  post: PostSelectorInput;
  privateReply: ReplyInput;
  publicReply: ReplyInput;
  replyAfter: DelayInput;
  /** HH:mm */
  startTime?: string | null | undefined;
  type: PhotoConnectionType;
};

/** name (trimmed, 1 to 255 characters), url and at least one condition. */
export type CreateWebhookInput = {
  conditions: Array<WebhookConditionInput>;
  name: string;
  /** http or https, at most 1000 characters; its host must be a public address */
  url: string;
};

export type DelayInput = {
  type: DelayType;
  value: number;
};

export type DelayType =
  | 'hours'
  | 'immediately'
  | 'minutes'
  | 'randomWithin3Minutes'
  | 'randomWithin5Minutes'
  | 'randomWithin10Minutes'
  | 'randomWithin20Minutes'
  | 'randomWithin30Minutes'
  | 'randomWithin60Minutes'
  | 'seconds';

/** The canvas (width and height: whole pixels, 1 to 4096) and at most 50 elements, ids unique, every box inside the canvas. */
export type DynamicImageDataInput = {
  /** #RRGGBB, or "" (default) for transparent */
  backgroundColor?: string | null | undefined;
  elements: Array<DynamicImageElementInput>;
  height: number;
  width: number;
};

/** A layout element, as REST takes it: id, x, y, width, height and type (`image`, `text` or `qrCode`) always; `image` elements take imageType, url, customFieldId, imageStyle; `text` elements take text, customFieldId, fontSize, color, align, fontFamily, bold, italic, uppercase, fallback; `qrCode` elements take text and color. Fields of another kind must be left out (or null). */
export type DynamicImageElementInput = {
  /** text: `left`, `center` or `right` */
  align?: string | null | undefined;
  /** text: default false */
  bold?: boolean | null | undefined;
  /** text and qrCode: #RRGGBB */
  color?: string | null | undefined;
  /** A custom field (global or digit id), or "" or null for none */
  customFieldId?: string | number | null | undefined;
  /** text: drawn in place of a variable the contact has no value for (default "") */
  fallback?: string | null | undefined;
  /** text: `arial` (default), `serif`, `roboto` or `greatVibes` */
  fontFamily?: string | null | undefined;
  /** text: 1 to 512 */
  fontSize?: number | null | undefined;
  height: number;
  id: string;
  /** image: `square` (default), `circle` or `rounded` */
  imageStyle?: string | null | undefined;
  /** image: `url`, `customField` or `avatarUser` (or `avatar`) */
  imageType?: string | null | undefined;
  /** text: default false */
  italic?: boolean | null | undefined;
  /** Default false */
  priority?: boolean | null | undefined;
  /** text and qrCode: the text with its variables (for text, the fallback of customFieldId) */
  text?: string | null | undefined;
  /** `image`, `text` or `qrCode` */
  type: string;
  /** text: default false */
  uppercase?: boolean | null | undefined;
  /** image: http or https URL, or "" */
  url?: string | null | undefined;
  width: number;
  x: number;
  y: number;
};

/** What changed in the workspace. contactReferredANewContact and contactReferredExistingContact are accepted and never fire: this service has no referrals. */
export type EventType =
  | 'archived'
  | 'contactInfoUpdated'
  | 'contactReferredANewContact'
  | 'contactReferredExistingContact'
  | 'contactUnsubscribedFormBroadcast'
  | 'conversationAssigned'
  | 'conversationTransferredToBot'
  | 'conversationTransferredToHuman'
  | 'conversationUnassigned'
  | 'customFieldValueChanged'
  | 'followUp'
  | 'messageReceived'
  | 'messageSent'
  | 'newContact'
  | 'subscribedToSequence'
  | 'tagApplied'
  | 'tagRemoved'
  | 'unsubscribedFromSequence';

/** One item: `type` and the fields its kind takes (REST's FlowItem); a field of another kind is refused */
export type FlowItemInput = {
  /** setCustomField: a custom field (global or plain id) */
  customFieldId?: string | number | null | undefined;
  /** dynamicImage: a dynamic image (global or plain id) */
  imageId?: string | number | null | undefined;
  /** customEvent: the event's name */
  name?: string | null | undefined;
  /** quickReplies: 1 to 13 buttons */
  replies?: Array<FlowQuickReplyInput> | null | undefined;
  /** subscribeSequence: a sequence (global or plain id) */
  sequenceId?: string | number | null | undefined;
  /** addTag, removeTag: a tag (global or plain id) */
  tagId?: string | number | null | undefined;
  /** text, quickReplies (1 to 2000 characters) */
  text?: string | null | undefined;
  type: FlowItemType;
  /** image: an http or https URL */
  url?: string | null | undefined;
  /** setCustomField: a value of the field's type as text ("42", "true", "2026-03-01"); null clears the field */
  value?: string | null | undefined;
};

/** Messages: text, image, dynamicImage, quickReplies. Actions: addTag, removeTag, setCustomField, subscribeSequence, customEvent */
export type FlowItemType =
  | 'addTag'
  | 'customEvent'
  | 'dynamicImage'
  | 'image'
  | 'quickReplies'
  | 'removeTag'
  | 'setCustomField'
  | 'subscribeSequence'
  | 'text';

export type FlowQuickReplyInput = {
  /** What the reply sends back (at most 1000 characters) */
  payload?: string | null | undefined;
  /** The button text (1 to 20 characters) */
  title: string;
};

export type Gender =
  | 'female'
  | 'male'
  | 'unknown';

export type HideCommentsInput = {
  all: boolean;
  hasImage: boolean;
  hasKeywords: boolean;
  hasLink: boolean;
  hasPhoneNumber: boolean;
  hasVideo: boolean;
  keywords: Array<string>;
  showCommentsAfter: ShowCommentsAfter;
};

export type IncludeKeywordsInput = {
  type: IncludeKeywordsType;
  value: Array<string>;
};

export type IncludeKeywordsType =
  | 'all'
  | 'contain'
  | 'equal';

export type LeadAdFieldMappingInput = {
  /** Global or plain digit id */
  customFieldId: string | number;
  questionKey: string;
};

/** archived forms get no new leads */
export type LeadFormStatus =
  | 'active'
  | 'archived';

export type MessageDirection =
  | 'incoming'
  | 'outgoing';

/** received: an incoming message; sent: the network accepted it; failed: the network refused it (see error) */
export type MessageStatus =
  | 'failed'
  | 'received'
  | 'sent';

/** chat: the private reply goes through the chat product */
export type NetConnectionType =
  | 'chat';

export type OutboxAction =
  | 'hide'
  | 'like'
  | 'message'
  | 'privateReply'
  | 'publicReply'
  | 'threadControl'
  | 'unhide';

export type OutgoingContentType =
  | 'AIAgent'
  | 'flow'
  | 'image'
  | 'quickReplies'
  | 'text';

/** photo: native login; photoNet: linked via a page of the social network */
export type PhotoConnectionType =
  | 'photo'
  | 'photoNet';

export type PostSelectorInput = {
  type: PostSelectorType;
  value: Array<string>;
};

export type PostSelectorType =
  | 'ads'
  | 'all'
  | 'postIds'
  | 'published'
  | 'reels';

export type ReplyInput = {
  type: ReplyType;
  value?: string | null | undefined;
  values?: Array<ReplyValueInput> | null | undefined;
};

export type ReplyType =
  | 'AIAgent'
  | 'flow'
  | 'none'
  | 'text';

export type ReplyValueInput = {
  value: string;
};

/** Values that start with a digit are prefixed with _ (e.g. _6h for 6h). */
export type ShowCommentsAfter =
  | '_1d'
  | '_2d'
  | '_3d'
  | '_4d'
  | '_5d'
  | '_6d'
  | '_6h'
  | '_7d'
  | '_8d'
  | '_9d'
  | '_10d'
  | '_12h'
  | 'none';

export type ThreadControlAction =
  | 'pass'
  | 'release'
  | 'sync'
  | 'take';

export type ThreadControlStatus =
  | 'applied'
  | 'notEscalation';

export type ThreadEvent =
  | 'message'
  | 'pass'
  | 'passThreadControl'
  | 'release'
  | 'requestThreadControl'
  | 'standbyMessage'
  | 'sync'
  | 'take'
  | 'takeThreadControl';

/** network: a webhook (or dev) event; api: one of our calls */
export type ThreadEventSource =
  | 'api'
  | 'network';

/** primary: our app (the primary receiver); secondary: another app */
export type ThreadOwnerRole =
  | 'primary'
  | 'secondary';

/** owned: our app holds the thread; standby: another app does; idle: nobody has acted for 24 hours */
export type ThreadStateValue =
  | 'idle'
  | 'owned'
  | 'standby';

/** The body of PATCH /v1/photo-comments/{id} and /v1/net-comments/{id}: any of the create fields and isActive (at least one); nested objects are replaced whole, and the changed automation must pass its channel's create rules (type: photo or photoNet on photo, chat on net). null clears folderId, startTime and endTime. */
export type UpdateCommentAutomationInput = {
  /** HH:mm */
  endTime?: string | null | undefined;
  excludeKeywords?: Array<string> | null | undefined;
  folderId?: string | number | null | undefined;
  hideComments?: HideCommentsInput | null | undefined;
  includeKeywords?: IncludeKeywordsInput | null | undefined;
  isActive?: boolean | null | undefined;
  name?: string | null | undefined;
  options?: CommentAutomationOptionsInput | null | undefined;
  post?: PostSelectorInput | null | undefined;
  privateReply?: ReplyInput | null | undefined;
  publicReply?: ReplyInput | null | undefined;
  replyAfter?: DelayInput | null | undefined;
  /** HH:mm */
  startTime?: string | null | undefined;
  type?: CommentAutomationType | null | undefined;
};

/** The body of PUT /v1/dynamic-images/{id}: a full replace. customFieldId left out or null means none. */
export type UpdateDynamicImageInput = {
  backgroundUrl: string;
  /** A custom field of the workspace (global or digit id); null, "" or left out for none */
  customFieldId?: string | number | null | undefined;
  data: DynamicImageDataInput;
  enabled: boolean;
  name: string;
};

/** The body of PATCH /v1/flows/{id}: at least one of name or items (which replace the whole list); fields left out keep their value. */
export type UpdateFlowInput = {
  /** 1 to 50 items, sent in order */
  items?: Array<FlowItemInput> | null | undefined;
  name?: string | null | undefined;
};

/** The body of PATCH /v1/net-lead-ads/{id}: at least one field; each given one replaces the stored value whole. */
export type UpdateLeadAdAutomationInput = {
  /** Each question key once */
  fieldMappings?: Array<LeadAdFieldMappingInput> | null | undefined;
  /** Forms of the page (leadForms), or ["*"] for every form of the page */
  formIds?: Array<string> | null | undefined;
  isActive?: boolean | null | undefined;
  name?: string | null | undefined;
  /** A connected page (leadPages) */
  pageId?: string | null | undefined;
  reply?: ReplyInput | null | undefined;
  /** Sequences: global or plain digit ids */
  sequenceIds?: Array<string | number> | null | undefined;
  /** Live tags: global or plain digit ids */
  tagIds?: Array<string | number> | null | undefined;
};

/** Any of name, url, conditions and enabled; at least one. */
export type UpdateWebhookInput = {
  conditions?: Array<WebhookConditionInput> | null | undefined;
  /** false stops its deliveries; true starts them again (and forgets why it was disabled) */
  enabled?: boolean | null | undefined;
  name?: string | null | undefined;
  /** http or https, at most 1000 characters; its host must be a public address */
  url?: string | null | undefined;
};

/** An event type, and for tag and sequence events the tag or sequence; an event of another source does not fire it. */
export type WebhookConditionInput = {
  /** The tag (tagApplied, tagRemoved) or sequence (subscribedToSequence, unsubscribedFromSequence, where it is required) the condition is about */
  sourceId?: string | number | null | undefined;
  /** What changed. contactReferredANewContact and contactReferredExistingContact are accepted and never fire: this service has no referrals. messageReceived and messageSent are ours (a message from the contact stored; a message to the contact sent), beyond the sixteen the product offers. */
  type: EventType;
};

/** pending: an attempt is due; succeeded; failed: every attempt of the schedule failed, or the webhook was disabled */
export type WebhookDeliveryStatus =
  | 'failed'
  | 'pending'
  | 'succeeded';

export type CommentAutomationFieldsFragment = { createdAt: string, updatedAt: string, name: string, folderId: string | null, type: CommentAutomationType, isActive: boolean, startTime: string | null, endTime: string | null, repliesCount: number, sentCount: number, deliveredCount: number, seenCount: number, clickedCount: number, failedCount: number, missedCount: number, excludeKeywords: Array<string>, id: string, post: { type: PostSelectorType, value: Array<string> }, privateReply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, publicReply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, includeKeywords: { type: IncludeKeywordsType, value: Array<string> }, options: { replyToNewContactsOnly: boolean, replyOncePerUserPerPost: boolean, likeUserComment: boolean, replyToUsersWhoCommentedOnOtherPosts: boolean, ignoreCommentReplies: boolean, trackUserTags: boolean }, hideComments: { all: boolean, hasPhoneNumber: boolean, hasImage: boolean, hasVideo: boolean, hasLink: boolean, hasKeywords: boolean, keywords: Array<string>, showCommentsAfter: ShowCommentsAfter }, replyAfter: { type: DelayType, value: number } };

export type CommentAutomationQueryVariables = Exact<{
  id: string | number;
  channel?: CommentChannel | null | undefined;
}>;


export type CommentAutomationQuery = { commentAutomation: { createdAt: string, updatedAt: string, name: string, folderId: string | null, type: CommentAutomationType, isActive: boolean, startTime: string | null, endTime: string | null, repliesCount: number, sentCount: number, deliveredCount: number, seenCount: number, clickedCount: number, failedCount: number, missedCount: number, excludeKeywords: Array<string>, id: string, post: { type: PostSelectorType, value: Array<string> }, privateReply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, publicReply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, includeKeywords: { type: IncludeKeywordsType, value: Array<string> }, options: { replyToNewContactsOnly: boolean, replyOncePerUserPerPost: boolean, likeUserComment: boolean, replyToUsersWhoCommentedOnOtherPosts: boolean, ignoreCommentReplies: boolean, trackUserTags: boolean }, hideComments: { all: boolean, hasPhoneNumber: boolean, hasImage: boolean, hasVideo: boolean, hasLink: boolean, hasKeywords: boolean, keywords: Array<string>, showCommentsAfter: ShowCommentsAfter }, replyAfter: { type: DelayType, value: number } } };

export type CommentAutomationsQueryVariables = Exact<{
  channel?: CommentChannel | null | undefined;
  first?: number | null | undefined;
}>;


export type CommentAutomationsQuery = { commentAutomations: { edges: Array<{ node: { channel: CommentChannel, name: string, id: string } }> } };

export type FilteredCommentAutomationsQueryVariables = Exact<{
  channel?: CommentChannel | null | undefined;
  name?: string | null | undefined;
  isActive?: boolean | null | undefined;
  folderId?: string | number | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type FilteredCommentAutomationsQuery = { commentAutomations: { edges: Array<{ node: { channel: CommentChannel, createdAt: string, updatedAt: string, name: string, folderId: string | null, type: CommentAutomationType, isActive: boolean, startTime: string | null, endTime: string | null, repliesCount: number, sentCount: number, deliveredCount: number, seenCount: number, clickedCount: number, failedCount: number, missedCount: number, excludeKeywords: Array<string>, id: string, post: { type: PostSelectorType, value: Array<string> }, privateReply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, publicReply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, includeKeywords: { type: IncludeKeywordsType, value: Array<string> }, options: { replyToNewContactsOnly: boolean, replyOncePerUserPerPost: boolean, likeUserComment: boolean, replyToUsersWhoCommentedOnOtherPosts: boolean, ignoreCommentReplies: boolean, trackUserTags: boolean }, hideComments: { all: boolean, hasPhoneNumber: boolean, hasImage: boolean, hasVideo: boolean, hasLink: boolean, hasKeywords: boolean, keywords: Array<string>, showCommentsAfter: ShowCommentsAfter }, replyAfter: { type: DelayType, value: number } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type CreatePhotoCommentAutomationMutationVariables = Exact<{
  input: CreatePhotoCommentAutomationInput;
}>;


export type CreatePhotoCommentAutomationMutation = { createPhotoCommentAutomation: { channel: CommentChannel, createdAt: string, updatedAt: string, name: string, folderId: string | null, type: CommentAutomationType, isActive: boolean, startTime: string | null, endTime: string | null, repliesCount: number, sentCount: number, deliveredCount: number, seenCount: number, clickedCount: number, failedCount: number, missedCount: number, excludeKeywords: Array<string>, id: string, post: { type: PostSelectorType, value: Array<string> }, privateReply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, publicReply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, includeKeywords: { type: IncludeKeywordsType, value: Array<string> }, options: { replyToNewContactsOnly: boolean, replyOncePerUserPerPost: boolean, likeUserComment: boolean, replyToUsersWhoCommentedOnOtherPosts: boolean, ignoreCommentReplies: boolean, trackUserTags: boolean }, hideComments: { all: boolean, hasPhoneNumber: boolean, hasImage: boolean, hasVideo: boolean, hasLink: boolean, hasKeywords: boolean, keywords: Array<string>, showCommentsAfter: ShowCommentsAfter }, replyAfter: { type: DelayType, value: number } } };

export type CreateNetCommentAutomationMutationVariables = Exact<{
  input: CreateNetCommentAutomationInput;
}>;


export type CreateNetCommentAutomationMutation = { createNetCommentAutomation: { channel: CommentChannel, createdAt: string, updatedAt: string, name: string, folderId: string | null, type: CommentAutomationType, isActive: boolean, startTime: string | null, endTime: string | null, repliesCount: number, sentCount: number, deliveredCount: number, seenCount: number, clickedCount: number, failedCount: number, missedCount: number, excludeKeywords: Array<string>, id: string, post: { type: PostSelectorType, value: Array<string> }, privateReply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, publicReply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, includeKeywords: { type: IncludeKeywordsType, value: Array<string> }, options: { replyToNewContactsOnly: boolean, replyOncePerUserPerPost: boolean, likeUserComment: boolean, replyToUsersWhoCommentedOnOtherPosts: boolean, ignoreCommentReplies: boolean, trackUserTags: boolean }, hideComments: { all: boolean, hasPhoneNumber: boolean, hasImage: boolean, hasVideo: boolean, hasLink: boolean, hasKeywords: boolean, keywords: Array<string>, showCommentsAfter: ShowCommentsAfter }, replyAfter: { type: DelayType, value: number } } };

export type UpdateCommentAutomationMutationVariables = Exact<{
  id: string | number;
  channel: CommentChannel;
  input: UpdateCommentAutomationInput;
}>;


export type UpdateCommentAutomationMutation = { updateCommentAutomation: { channel: CommentChannel, createdAt: string, updatedAt: string, name: string, folderId: string | null, type: CommentAutomationType, isActive: boolean, startTime: string | null, endTime: string | null, repliesCount: number, sentCount: number, deliveredCount: number, seenCount: number, clickedCount: number, failedCount: number, missedCount: number, excludeKeywords: Array<string>, id: string, post: { type: PostSelectorType, value: Array<string> }, privateReply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, publicReply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, includeKeywords: { type: IncludeKeywordsType, value: Array<string> }, options: { replyToNewContactsOnly: boolean, replyOncePerUserPerPost: boolean, likeUserComment: boolean, replyToUsersWhoCommentedOnOtherPosts: boolean, ignoreCommentReplies: boolean, trackUserTags: boolean }, hideComments: { all: boolean, hasPhoneNumber: boolean, hasImage: boolean, hasVideo: boolean, hasLink: boolean, hasKeywords: boolean, keywords: Array<string>, showCommentsAfter: ShowCommentsAfter }, replyAfter: { type: DelayType, value: number } } };

export type DeleteCommentAutomationMutationVariables = Exact<{
  id: string | number;
  channel: CommentChannel;
}>;


export type DeleteCommentAutomationMutation = { deleteCommentAutomation: { success: boolean } };

export type ChannelPostsQueryVariables = Exact<{
  channel: CommentChannel;
  inboxId?: string | number | null | undefined;
  kind?: ChannelPostKind | null | undefined;
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type ChannelPostsQuery = { channelPosts: { pageCount: number, data: Array<{ id: string, channel: CommentChannel, caption: string | null, mediaType: string, kind: ChannelPostKind, permalink: string | null, thumbnailUrl: string | null, timestamp: string, inboxId: string }> } };

export type ChannelPostsWithRelationsQueryVariables = Exact<{
  channel: CommentChannel;
  perPage?: number | null | undefined;
}>;


export type ChannelPostsWithRelationsQuery = { channelPosts: { pageCount: number, data: Array<{ id: string, kind: ChannelPostKind, inbox: { name: string, channel: string, id: string } | null, automations: Array<{ name: string, id: string, post: { type: PostSelectorType, value: Array<string> } }> }> } };

export type CommentAutomationEventsQueryVariables = Exact<{
  id: string | number;
  channel?: CommentChannel | null | undefined;
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type CommentAutomationEventsQuery = { commentAutomationEvents: { pageCount: number, data: Array<{ id: string, createdAt: string, commentId: string, postId: string | null, authorId: string, contactId: string | null, outcome: CommentEventOutcome, reason: string | null, actions: Array<{ action: CommentActionName, status: CommentActionStatus, at: string, error: string | null }> }> } };

export type ContactsWithEverythingQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  keyword?: string | null | undefined;
}>;


export type ContactsWithEverythingQuery = { contacts: { edges: Array<{ cursor: string, node: { fullName: string, email: string | null, phoneNumber: string | null, id: string, customFields: Array<{ name: string, description: string, value: string, type: string, id: string }>, sequences: Array<{ sequenceId: string, sequenceName: string }>, tags: Array<{ name: string, id: string }>, notes: Array<{ text: string, createdById: string | null, id: string }>, inboxes: Array<{ channel: string, inboxId: string, id: string, inbox: { name: string, channel: string, status: string, id: string } | null }>, conversations: Array<{ followed: boolean, id: string, inbox: { name: string, id: string } | null, assignedUser: { name: string, email: string, id: string } | null, assignedInboxTeam: { name: string, id: string } | null, contact: { email: string | null, id: string } }> } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type ContactIdsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  keyword?: string | null | undefined;
}>;


export type ContactIdsQuery = { contacts: { edges: Array<{ node: { id: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ContactEdgeCursorsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ContactEdgeCursorsQuery = { contacts: { edges: Array<{ cursor: string, node: { id: string } }>, pageInfo: { startCursor: string | null, endCursor: string | null } } };

export type ContactsBackwardsQueryVariables = Exact<{
  last?: number | null | undefined;
}>;


export type ContactsBackwardsQuery = { contacts: { edges: Array<{ node: { id: string } }> } };

export type ContactByIdentifierQueryVariables = Exact<{
  identifier: string;
}>;


export type ContactByIdentifierQuery = { contact: { email: string | null, id: string, customFields: Array<{ name: string, description: string, value: string, type: string, id: string }>, sequences: Array<{ sequenceId: string, sequenceName: string }> } };

export type CreateContactMutationVariables = Exact<{
  input: CreateContactInput;
}>;


export type CreateContactMutation = { createContact: { email: string | null, phoneNumber: string | null, firstName: string | null, lastName: string | null, fullName: string, gender: Gender, emailVerified: boolean, emailOptIn: boolean, workspaceId: string, id: string, tags: Array<{ id: string }>, notes: Array<{ id: string }>, inboxes: Array<{ id: string }>, customFields: Array<{ name: string, value: string }> } };

export type ConversationFieldsFragment = { workspaceId: string, contactId: string, inboxId: string | null, createdAt: string, updatedAt: string, botResumeAt: string | null, archivedAt: string | null, contactLastReadAt: string | null, agentLastReadAt: string | null, lastActivityAt: string | null, adminRepliedAt: string | null, contactRepliedAt: string | null, botEnabled: boolean, followed: boolean, additionalAttributes: string, aiContextLastMessageId: string | null, assignedUserId: string | null, assignedInboxTeamId: string | null, id: string, assignedUser: { name: string, email: string, emailVerified: boolean, image: string | null, isAnonymous: boolean, id: string } | null, assignedInboxTeam: { name: string, workspaceId: string, id: string } | null, inbox: { name: string, channel: string, sourceId: string, status: string, id: string } | null, contact: { email: string | null, id: string } };

export type ConversationQueryVariables = Exact<{
  id: string | number;
}>;


export type ConversationQuery = { conversation: { workspaceId: string, contactId: string, inboxId: string | null, createdAt: string, updatedAt: string, botResumeAt: string | null, archivedAt: string | null, contactLastReadAt: string | null, agentLastReadAt: string | null, lastActivityAt: string | null, adminRepliedAt: string | null, contactRepliedAt: string | null, botEnabled: boolean, followed: boolean, additionalAttributes: string, aiContextLastMessageId: string | null, assignedUserId: string | null, assignedInboxTeamId: string | null, id: string, assignedUser: { name: string, email: string, emailVerified: boolean, image: string | null, isAnonymous: boolean, id: string } | null, assignedInboxTeam: { name: string, workspaceId: string, id: string } | null, inbox: { name: string, channel: string, sourceId: string, status: string, id: string } | null, contact: { email: string | null, id: string } } };

export type ConversationsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  followed?: boolean | null | undefined;
}>;


export type ConversationsQuery = { conversations: { edges: Array<{ node: { followed: boolean, contactId: string, id: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ConversationPageQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  followed?: boolean | null | undefined;
  archived?: boolean | null | undefined;
  botEnabled?: boolean | null | undefined;
  assignedUserId?: string | number | null | undefined;
  assignedInboxTeamId?: string | number | null | undefined;
  inboxId?: string | number | null | undefined;
  keyword?: string | null | undefined;
}>;


export type ConversationPageQuery = { conversations: { edges: Array<{ cursor: string, node: { id: string } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type UnfollowConversationMutationVariables = Exact<{
  id: string | number;
}>;


export type UnfollowConversationMutation = { unfollowConversation: { success: boolean } };

export type FollowConversationMutationVariables = Exact<{
  id: string | number;
}>;


export type FollowConversationMutation = { followConversation: { success: boolean } };

export type ConversationsWithEverythingQueryVariables = Exact<{
  first?: number | null | undefined;
}>;


export type ConversationsWithEverythingQuery = { conversations: { edges: Array<{ node: { workspaceId: string, contactId: string, inboxId: string | null, createdAt: string, updatedAt: string, botResumeAt: string | null, archivedAt: string | null, contactLastReadAt: string | null, agentLastReadAt: string | null, lastActivityAt: string | null, adminRepliedAt: string | null, contactRepliedAt: string | null, botEnabled: boolean, followed: boolean, additionalAttributes: string, aiContextLastMessageId: string | null, assignedUserId: string | null, assignedInboxTeamId: string | null, id: string, assignedUser: { name: string, email: string, emailVerified: boolean, image: string | null, isAnonymous: boolean, id: string } | null, assignedInboxTeam: { name: string, workspaceId: string, id: string } | null, inbox: { name: string, channel: string, sourceId: string, status: string, id: string } | null, contact: { email: string | null, id: string } } }> } };

export type ArchiveConversationMutationVariables = Exact<{
  id: string | number;
}>;


export type ArchiveConversationMutation = { archiveConversation: { workspaceId: string, contactId: string, inboxId: string | null, createdAt: string, updatedAt: string, botResumeAt: string | null, archivedAt: string | null, contactLastReadAt: string | null, agentLastReadAt: string | null, lastActivityAt: string | null, adminRepliedAt: string | null, contactRepliedAt: string | null, botEnabled: boolean, followed: boolean, additionalAttributes: string, aiContextLastMessageId: string | null, assignedUserId: string | null, assignedInboxTeamId: string | null, id: string, assignedUser: { name: string, email: string, emailVerified: boolean, image: string | null, isAnonymous: boolean, id: string } | null, assignedInboxTeam: { name: string, workspaceId: string, id: string } | null, inbox: { name: string, channel: string, sourceId: string, status: string, id: string } | null, contact: { email: string | null, id: string } } };

export type UnarchiveConversationMutationVariables = Exact<{
  id: string | number;
}>;


export type UnarchiveConversationMutation = { unarchiveConversation: { workspaceId: string, contactId: string, inboxId: string | null, createdAt: string, updatedAt: string, botResumeAt: string | null, archivedAt: string | null, contactLastReadAt: string | null, agentLastReadAt: string | null, lastActivityAt: string | null, adminRepliedAt: string | null, contactRepliedAt: string | null, botEnabled: boolean, followed: boolean, additionalAttributes: string, aiContextLastMessageId: string | null, assignedUserId: string | null, assignedInboxTeamId: string | null, id: string, assignedUser: { name: string, email: string, emailVerified: boolean, image: string | null, isAnonymous: boolean, id: string } | null, assignedInboxTeam: { name: string, workspaceId: string, id: string } | null, inbox: { name: string, channel: string, sourceId: string, status: string, id: string } | null, contact: { email: string | null, id: string } } };

export type AssignConversationMutationVariables = Exact<{
  id: string | number;
  userId?: string | number | null | undefined;
  inboxTeamId?: string | number | null | undefined;
}>;


export type AssignConversationMutation = { assignConversation: { workspaceId: string, contactId: string, inboxId: string | null, createdAt: string, updatedAt: string, botResumeAt: string | null, archivedAt: string | null, contactLastReadAt: string | null, agentLastReadAt: string | null, lastActivityAt: string | null, adminRepliedAt: string | null, contactRepliedAt: string | null, botEnabled: boolean, followed: boolean, additionalAttributes: string, aiContextLastMessageId: string | null, assignedUserId: string | null, assignedInboxTeamId: string | null, id: string, assignedUser: { name: string, email: string, emailVerified: boolean, image: string | null, isAnonymous: boolean, id: string } | null, assignedInboxTeam: { name: string, workspaceId: string, id: string } | null, inbox: { name: string, channel: string, sourceId: string, status: string, id: string } | null, contact: { email: string | null, id: string } } };

export type EnableConversationBotMutationVariables = Exact<{
  id: string | number;
}>;


export type EnableConversationBotMutation = { enableConversationBot: { workspaceId: string, contactId: string, inboxId: string | null, createdAt: string, updatedAt: string, botResumeAt: string | null, archivedAt: string | null, contactLastReadAt: string | null, agentLastReadAt: string | null, lastActivityAt: string | null, adminRepliedAt: string | null, contactRepliedAt: string | null, botEnabled: boolean, followed: boolean, additionalAttributes: string, aiContextLastMessageId: string | null, assignedUserId: string | null, assignedInboxTeamId: string | null, id: string, assignedUser: { name: string, email: string, emailVerified: boolean, image: string | null, isAnonymous: boolean, id: string } | null, assignedInboxTeam: { name: string, workspaceId: string, id: string } | null, inbox: { name: string, channel: string, sourceId: string, status: string, id: string } | null, contact: { email: string | null, id: string } } };

export type DisableConversationBotMutationVariables = Exact<{
  id: string | number;
  resumeAt?: string | null | undefined;
}>;


export type DisableConversationBotMutation = { disableConversationBot: { workspaceId: string, contactId: string, inboxId: string | null, createdAt: string, updatedAt: string, botResumeAt: string | null, archivedAt: string | null, contactLastReadAt: string | null, agentLastReadAt: string | null, lastActivityAt: string | null, adminRepliedAt: string | null, contactRepliedAt: string | null, botEnabled: boolean, followed: boolean, additionalAttributes: string, aiContextLastMessageId: string | null, assignedUserId: string | null, assignedInboxTeamId: string | null, id: string, assignedUser: { name: string, email: string, emailVerified: boolean, image: string | null, isAnonymous: boolean, id: string } | null, assignedInboxTeam: { name: string, workspaceId: string, id: string } | null, inbox: { name: string, channel: string, sourceId: string, status: string, id: string } | null, contact: { email: string | null, id: string } } };

export type MarkConversationReadMutationVariables = Exact<{
  id: string | number;
}>;


export type MarkConversationReadMutation = { markConversationRead: { workspaceId: string, contactId: string, inboxId: string | null, createdAt: string, updatedAt: string, botResumeAt: string | null, archivedAt: string | null, contactLastReadAt: string | null, agentLastReadAt: string | null, lastActivityAt: string | null, adminRepliedAt: string | null, contactRepliedAt: string | null, botEnabled: boolean, followed: boolean, additionalAttributes: string, aiContextLastMessageId: string | null, assignedUserId: string | null, assignedInboxTeamId: string | null, id: string, assignedUser: { name: string, email: string, emailVerified: boolean, image: string | null, isAnonymous: boolean, id: string } | null, assignedInboxTeam: { name: string, workspaceId: string, id: string } | null, inbox: { name: string, channel: string, sourceId: string, status: string, id: string } | null, contact: { email: string | null, id: string } } };

export type MarkConversationUnreadMutationVariables = Exact<{
  id: string | number;
}>;


export type MarkConversationUnreadMutation = { markConversationUnread: { workspaceId: string, contactId: string, inboxId: string | null, createdAt: string, updatedAt: string, botResumeAt: string | null, archivedAt: string | null, contactLastReadAt: string | null, agentLastReadAt: string | null, lastActivityAt: string | null, adminRepliedAt: string | null, contactRepliedAt: string | null, botEnabled: boolean, followed: boolean, additionalAttributes: string, aiContextLastMessageId: string | null, assignedUserId: string | null, assignedInboxTeamId: string | null, id: string, assignedUser: { name: string, email: string, emailVerified: boolean, image: string | null, isAnonymous: boolean, id: string } | null, assignedInboxTeam: { name: string, workspaceId: string, id: string } | null, inbox: { name: string, channel: string, sourceId: string, status: string, id: string } | null, contact: { email: string | null, id: string } } };

export type DynamicImageFieldsFragment = { name: string, customFieldId: string, backgroundUrl: string, imageUrl: string, createdAt: string, updatedAt: string, enabled: boolean, id: string, data: { width: number, height: number, backgroundColor: string, elements: Array<
      | { id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string, url: string, imageStyle: string }
      | { text: string, color: string, id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string | null, url: string | null, imageStyle: string | null }
      | { text: string, fontSize: number, color: string, align: string, fontFamily: string, bold: boolean, italic: boolean, uppercase: boolean, fallback: string, id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string | null, url: string | null, imageStyle: string | null }
    > } };

export type DynamicImagesQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
  name?: string | null | undefined;
}>;


export type DynamicImagesQuery = { dynamicImages: { pageCount: number, data: Array<{ name: string, customFieldId: string, backgroundUrl: string, imageUrl: string, createdAt: string, updatedAt: string, enabled: boolean, id: string, data: { width: number, height: number, backgroundColor: string, elements: Array<
          | { id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string, url: string, imageStyle: string }
          | { text: string, color: string, id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string | null, url: string | null, imageStyle: string | null }
          | { text: string, fontSize: number, color: string, align: string, fontFamily: string, bold: boolean, italic: boolean, uppercase: boolean, fallback: string, id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string | null, url: string | null, imageStyle: string | null }
        > } }> } };

export type DynamicImageQueryVariables = Exact<{
  id: string | number;
}>;


export type DynamicImageQuery = { dynamicImage: { name: string, customFieldId: string, backgroundUrl: string, imageUrl: string, createdAt: string, updatedAt: string, enabled: boolean, id: string, data: { width: number, height: number, backgroundColor: string, elements: Array<
        | { id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string, url: string, imageStyle: string }
        | { text: string, color: string, id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string | null, url: string | null, imageStyle: string | null }
        | { text: string, fontSize: number, color: string, align: string, fontFamily: string, bold: boolean, italic: boolean, uppercase: boolean, fallback: string, id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string | null, url: string | null, imageStyle: string | null }
      > } } };

export type DynamicImagesWithCustomFieldQueryVariables = Exact<{
  perPage?: number | null | undefined;
}>;


export type DynamicImagesWithCustomFieldQuery = { dynamicImages: { data: Array<{ id: string, customField: { name: string, type: string, id: string } | null }> } };

export type CreateDynamicImageMutationVariables = Exact<{
  input: CreateDynamicImageInput;
}>;


export type CreateDynamicImageMutation = { createDynamicImage: { name: string, customFieldId: string, backgroundUrl: string, imageUrl: string, createdAt: string, updatedAt: string, enabled: boolean, id: string, data: { width: number, height: number, backgroundColor: string, elements: Array<
        | { id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string, url: string, imageStyle: string }
        | { text: string, color: string, id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string | null, url: string | null, imageStyle: string | null }
        | { text: string, fontSize: number, color: string, align: string, fontFamily: string, bold: boolean, italic: boolean, uppercase: boolean, fallback: string, id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string | null, url: string | null, imageStyle: string | null }
      > } } };

export type UpdateDynamicImageMutationVariables = Exact<{
  id: string | number;
  input: UpdateDynamicImageInput;
}>;


export type UpdateDynamicImageMutation = { updateDynamicImage: { name: string, customFieldId: string, backgroundUrl: string, imageUrl: string, createdAt: string, updatedAt: string, enabled: boolean, id: string, data: { width: number, height: number, backgroundColor: string, elements: Array<
        | { id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string, url: string, imageStyle: string }
        | { text: string, color: string, id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string | null, url: string | null, imageStyle: string | null }
        | { text: string, fontSize: number, color: string, align: string, fontFamily: string, bold: boolean, italic: boolean, uppercase: boolean, fallback: string, id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string | null, url: string | null, imageStyle: string | null }
      > } } };

export type SetDynamicImageEnabledMutationVariables = Exact<{
  id: string | number;
  enabled: boolean;
}>;


export type SetDynamicImageEnabledMutation = { setDynamicImageEnabled: { name: string, customFieldId: string, backgroundUrl: string, imageUrl: string, createdAt: string, updatedAt: string, enabled: boolean, id: string, data: { width: number, height: number, backgroundColor: string, elements: Array<
        | { id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string, url: string, imageStyle: string }
        | { text: string, color: string, id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string | null, url: string | null, imageStyle: string | null }
        | { text: string, fontSize: number, color: string, align: string, fontFamily: string, bold: boolean, italic: boolean, uppercase: boolean, fallback: string, id: string, x: number, y: number, width: number, height: number, type: string, priority: boolean, customFieldId: string, imageType: string | null, url: string | null, imageStyle: string | null }
      > } } };

export type DeleteDynamicImageMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteDynamicImageMutation = { deleteDynamicImage: { success: boolean } };

export type FlowFieldsFragment = { name: string, createdAt: string, updatedAt: string, id: string, items: Array<{ type: FlowItemType, text: string | null, url: string | null, imageId: string | null, tagId: string | null, customFieldId: string | null, value: unknown, sequenceId: string | null, name: string | null, replies: Array<{ title: string, payload: string | null }> | null }> };

export type FlowsQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type FlowsQuery = { flows: { pageCount: number, data: Array<{ name: string, createdAt: string, updatedAt: string, id: string, items: Array<{ type: FlowItemType, text: string | null, url: string | null, imageId: string | null, tagId: string | null, customFieldId: string | null, value: unknown, sequenceId: string | null, name: string | null, replies: Array<{ title: string, payload: string | null }> | null }> }> } };

export type FlowQueryVariables = Exact<{
  id: string | number;
}>;


export type FlowQuery = { flow: { name: string, createdAt: string, updatedAt: string, id: string, items: Array<{ type: FlowItemType, text: string | null, url: string | null, imageId: string | null, tagId: string | null, customFieldId: string | null, value: unknown, sequenceId: string | null, name: string | null, replies: Array<{ title: string, payload: string | null }> | null }> } };

export type CreateFlowMutationVariables = Exact<{
  input: CreateFlowInput;
}>;


export type CreateFlowMutation = { createFlow: { name: string, createdAt: string, updatedAt: string, id: string, items: Array<{ type: FlowItemType, text: string | null, url: string | null, imageId: string | null, tagId: string | null, customFieldId: string | null, value: unknown, sequenceId: string | null, name: string | null, replies: Array<{ title: string, payload: string | null }> | null }> } };

export type UpdateFlowMutationVariables = Exact<{
  id: string | number;
  input: UpdateFlowInput;
}>;


export type UpdateFlowMutation = { updateFlow: { name: string, createdAt: string, updatedAt: string, id: string, items: Array<{ type: FlowItemType, text: string | null, url: string | null, imageId: string | null, tagId: string | null, customFieldId: string | null, value: unknown, sequenceId: string | null, name: string | null, replies: Array<{ title: string, payload: string | null }> | null }> } };

export type DeleteFlowMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteFlowMutation = { deleteFlow: { success: boolean } };

export type LeadAdAutomationFieldsFragment = { createdAt: string, updatedAt: string, name: string, pageId: string | null, formIds: Array<string>, isActive: boolean, id: string, reply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, fieldMappings: Array<{ questionKey: string, customFieldId: string, customField: { rawId: string, name: string, type: string } }>, tags: Array<{ rawId: string, name: string }>, sequences: Array<{ rawId: string, name: string }> };

export type LeadAdAutomationsQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
  keyword?: string | null | undefined;
}>;


export type LeadAdAutomationsQuery = { leadAdAutomations: { pageCount: number, data: Array<{ createdAt: string, updatedAt: string, name: string, pageId: string | null, formIds: Array<string>, isActive: boolean, id: string, reply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null } }> } };

export type LeadAdAutomationsWithRelationsQueryVariables = Exact<{
  perPage?: number | null | undefined;
}>;


export type LeadAdAutomationsWithRelationsQuery = { leadAdAutomations: { pageCount: number, data: Array<{ createdAt: string, updatedAt: string, name: string, pageId: string | null, formIds: Array<string>, isActive: boolean, id: string, reply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, fieldMappings: Array<{ questionKey: string, customFieldId: string, customField: { rawId: string, name: string, type: string } }>, tags: Array<{ rawId: string, name: string }>, sequences: Array<{ rawId: string, name: string }> }> } };

export type LeadAdAutomationQueryVariables = Exact<{
  id: string | number;
}>;


export type LeadAdAutomationQuery = { leadAdAutomation: { createdAt: string, updatedAt: string, name: string, pageId: string | null, formIds: Array<string>, isActive: boolean, id: string, reply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, fieldMappings: Array<{ questionKey: string, customFieldId: string, customField: { rawId: string, name: string, type: string } }>, tags: Array<{ rawId: string, name: string }>, sequences: Array<{ rawId: string, name: string }> } };

export type CreateLeadAdAutomationMutationVariables = Exact<{
  input: CreateLeadAdAutomationInput;
}>;


export type CreateLeadAdAutomationMutation = { createLeadAdAutomation: { createdAt: string, updatedAt: string, name: string, pageId: string | null, formIds: Array<string>, isActive: boolean, id: string, reply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, fieldMappings: Array<{ questionKey: string, customFieldId: string, customField: { rawId: string, name: string, type: string } }>, tags: Array<{ rawId: string, name: string }>, sequences: Array<{ rawId: string, name: string }> } };

export type UpdateLeadAdAutomationMutationVariables = Exact<{
  id: string | number;
  input: UpdateLeadAdAutomationInput;
}>;


export type UpdateLeadAdAutomationMutation = { updateLeadAdAutomation: { createdAt: string, updatedAt: string, name: string, pageId: string | null, formIds: Array<string>, isActive: boolean, id: string, reply: { type: ReplyType, value: string | null, values: Array<{ value: string }> | null }, fieldMappings: Array<{ questionKey: string, customFieldId: string, customField: { rawId: string, name: string, type: string } }>, tags: Array<{ rawId: string, name: string }>, sequences: Array<{ rawId: string, name: string }> } };

export type DeleteNetLeadAdAutomationMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteNetLeadAdAutomationMutation = { deleteNetLeadAdAutomation: { success: boolean } };

export type LeadPagesQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type LeadPagesQuery = { leadPages: { pageCount: number, data: Array<{ rawId: string, name: string, inboxId: string | null, formsCount: number, createdAt: string, updatedAt: string, forms: Array<{ rawId: string, name: string, status: LeadFormStatus }> }> } };

export type LeadFormsQueryVariables = Exact<{
  pageId: string;
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type LeadFormsQuery = { leadForms: { pageCount: number, data: Array<{ rawId: string, pageId: string, name: string, status: LeadFormStatus, createdAt: string, updatedAt: string, questions: Array<{ key: string, label: string, type: string }> }> } };

export type TooDeepQueryVariables = Exact<{ [key: string]: never; }>;


export type TooDeepQuery = { contacts: { edges: Array<{ node: { conversations: Array<{ contact: { conversations: Array<{ contact: { conversations: Array<{ id: string }> } }> } }> } }> } };

export type TooManyAliasesQueryVariables = Exact<{ [key: string]: never; }>;


export type TooManyAliasesQuery = { t1: Array<{ id: string }>, t2: Array<{ id: string }>, t3: Array<{ id: string }>, t4: Array<{ id: string }>, t5: Array<{ id: string }>, t6: Array<{ id: string }>, t7: Array<{ id: string }>, t8: Array<{ id: string }>, t9: Array<{ id: string }>, t10: Array<{ id: string }>, t11: Array<{ id: string }>, t12: Array<{ id: string }>, t13: Array<{ id: string }>, t14: Array<{ id: string }>, t15: Array<{ id: string }>, t16: Array<{ id: string }>, t17: Array<{ id: string }>, t18: Array<{ id: string }>, t19: Array<{ id: string }>, t20: Array<{ id: string }>, t21: Array<{ id: string }>, t22: Array<{ id: string }>, t23: Array<{ id: string }>, t24: Array<{ id: string }>, t25: Array<{ id: string }>, t26: Array<{ id: string }>, t27: Array<{ id: string }>, t28: Array<{ id: string }>, t29: Array<{ id: string }>, t30: Array<{ id: string }>, t31: Array<{ id: string }> };

export type TwoExpensivePagesQueryVariables = Exact<{ [key: string]: never; }>;


export type TwoExpensivePagesQuery = { a: { edges: Array<{ node: { conversations: Array<{ contact: { id: string }, inbox: { id: string } | null, assignedUser: { id: string } | null }> } }> }, b: { edges: Array<{ node: { conversations: Array<{ contact: { id: string }, inbox: { id: string } | null, assignedUser: { id: string } | null }> } }> } };

export type MessageFieldsFragment = { id: string, rawId: string, contactId: string, conversationId: string, inboxId: string, direction: MessageDirection, externalId: string | null, text: string | null, status: MessageStatus, error: string | null, automationKind: AutomationKind | null, automationId: string | null, seenAt: string | null, clickedAt: string | null, createdAt: string, attachments: Array<{ type: string, url: string | null }> };

export type ContactMessagesQueryVariables = Exact<{
  identifier: string;
  first?: number | null | undefined;
  after?: string | null | undefined;
  direction?: MessageDirection | null | undefined;
  inboxId?: string | number | null | undefined;
}>;


export type ContactMessagesQuery = { contact: { id: string, messages: { edges: Array<{ cursor: string, node: { id: string, rawId: string, contactId: string, conversationId: string, inboxId: string, direction: MessageDirection, externalId: string | null, text: string | null, status: MessageStatus, error: string | null, automationKind: AutomationKind | null, automationId: string | null, seenAt: string | null, clickedAt: string | null, createdAt: string, attachments: Array<{ type: string, url: string | null }> } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } } };

export type SendMessageMutationVariables = Exact<{
  identifier: string;
  text: string;
  inboxId?: string | number | null | undefined;
}>;


export type SendMessageMutation = { sendMessage: { id: string, rawId: string, contactId: string, conversationId: string, inboxId: string, direction: MessageDirection, externalId: string | null, text: string | null, status: MessageStatus, error: string | null, automationKind: AutomationKind | null, automationId: string | null, seenAt: string | null, clickedAt: string | null, createdAt: string, attachments: Array<{ type: string, url: string | null }> } };

export type TriggerAutoReplyMutationVariables = Exact<{
  identifier: string;
  inboxId?: string | number | null | undefined;
}>;


export type TriggerAutoReplyMutation = { triggerAutoReply: { id: string, rawId: string, contactId: string, conversationId: string, inboxId: string, direction: MessageDirection, externalId: string | null, text: string | null, status: MessageStatus, error: string | null, automationKind: AutomationKind | null, automationId: string | null, seenAt: string | null, clickedAt: string | null, createdAt: string, attachments: Array<{ type: string, url: string | null }> } };

export type RefreshContactProfileMutationVariables = Exact<{
  identifier: string;
}>;


export type RefreshContactProfileMutation = { refreshContactProfile: { id: string, rawId: string, firstName: string | null, lastName: string | null, fullName: string, avatar: string | null } };

export type ContactsWithMessagesQueryVariables = Exact<{
  first?: number | null | undefined;
  messagesFirst?: number | null | undefined;
  direction?: MessageDirection | null | undefined;
}>;


export type ContactsWithMessagesQuery = { contacts: { edges: Array<{ node: { rawId: string, messages: { edges: Array<{ node: { rawId: string, contactId: string, text: string | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } } }> } };

export type OutboxQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
  contactId?: string | number | null | undefined;
  automationId?: string | number | null | undefined;
  automationKind?: AutomationKind | null | undefined;
  action?: OutboxAction | null | undefined;
  channel?: CommentChannel | null | undefined;
}>;


export type OutboxQuery = { outbox: { pageCount: number, data: Array<{ createdAt: string, channel: CommentChannel, inboxId: string, action: OutboxAction, commentId: string | null, postId: string | null, recipientId: string | null, contactId: string | null, automationKind: AutomationKind | null, automationId: string | null, id: string, contact: { email: string | null, id: string } | null, payload: { type: OutgoingContentType, text: string | null, flowId: string | null, agentId: string | null } | null }> } };

export type ErrorLogsQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
  keyword?: string | null | undefined;
}>;


export type ErrorLogsQuery = { errorLogs: { pageCount: number, data: Array<{ workspaceId: string, contactId: string, action: string, detail: string, httpCode: string, createdAt: string, updatedAt: string, id: string }> } };

export type ThreadStateFieldsFragment = { contactInboxId: string, state: ThreadStateValue, ownerRole: ThreadOwnerRole, ownerAppId: string | null, transitionedAt: string | null, lastUserMessageAt: string | null, expiresAt: string | null, idleSince: string | null, lastEvent: ThreadEvent | null, lastEventSource: ThreadEventSource | null, updatedAt: string | null };

export type ThreadControlMutationVariables = Exact<{
  conversationId: string | number;
  contactInboxId: string | number;
  action: ThreadControlAction;
  targetAppId?: string | null | undefined;
  metadata?: string | null | undefined;
}>;


export type ThreadControlMutation = { threadControl: { status: ThreadControlStatus, snapshot: { contactInboxId: string, state: ThreadStateValue, ownerRole: ThreadOwnerRole, ownerAppId: string | null, transitionedAt: string | null, lastUserMessageAt: string | null, expiresAt: string | null, idleSince: string | null, lastEvent: ThreadEvent | null, lastEventSource: ThreadEventSource | null, updatedAt: string | null } } };

export type SyncThreadOwnerMutationVariables = Exact<{
  conversationId: string | number;
  contactInboxId: string | number;
}>;


export type SyncThreadOwnerMutation = { syncThreadOwner: { status: ThreadControlStatus, snapshot: { contactInboxId: string, state: ThreadStateValue, ownerRole: ThreadOwnerRole, ownerAppId: string | null, transitionedAt: string | null, lastUserMessageAt: string | null, expiresAt: string | null, idleSince: string | null, lastEvent: ThreadEvent | null, lastEventSource: ThreadEventSource | null, updatedAt: string | null } } };

export type ContactThreadStatesQueryVariables = Exact<{
  identifier: string;
}>;


export type ContactThreadStatesQuery = { contact: { inboxes: Array<{ rawId: string, inboxId: string, threadState: { contactInboxId: string, state: ThreadStateValue, ownerRole: ThreadOwnerRole, ownerAppId: string | null, transitionedAt: string | null, lastUserMessageAt: string | null, expiresAt: string | null, idleSince: string | null, lastEvent: ThreadEvent | null, lastEventSource: ThreadEventSource | null, updatedAt: string | null } }> } };

export type WebhookFieldsFragment = { name: string, url: string, enabled: boolean, disabledReason: string | null, failingSince: string | null, createdAt: string, updatedAt: string, id: string, conditions: Array<{ type: EventType, sourceId: string | null }> };

export type WebhooksQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type WebhooksQuery = { webhooks: { pageCount: number, data: Array<{ name: string, url: string, enabled: boolean, disabledReason: string | null, failingSince: string | null, createdAt: string, updatedAt: string, id: string, conditions: Array<{ type: EventType, sourceId: string | null }> }> } };

export type WebhookQueryVariables = Exact<{
  id: string | number;
}>;


export type WebhookQuery = { webhook: { secret: string | null, name: string, url: string, enabled: boolean, disabledReason: string | null, failingSince: string | null, createdAt: string, updatedAt: string, id: string, conditions: Array<{ type: EventType, sourceId: string | null }> } };

export type WebhookDeliveriesQueryVariables = Exact<{
  id: string | number;
  status?: WebhookDeliveryStatus | null | undefined;
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type WebhookDeliveriesQuery = { webhookDeliveries: { pageCount: number, data: Array<{ id: string, webhookId: string, eventId: string, event: string, status: WebhookDeliveryStatus, nextAttemptAt: string | null, createdAt: string, updatedAt: string, attempts: Array<{ attemptedAt: string, durationMs: number, statusCode: number | null, error: string | null, responseExcerpt: string | null }> }> } };

export type ExternalWebhooksQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type ExternalWebhooksQuery = { externalWebhooks: { pageCount: number, data: Array<{ url: string, event: string, provider: string, createdAt: string, updatedAt: string, id: string }> } };

export type CreateWebhookMutationVariables = Exact<{
  input: CreateWebhookInput;
}>;


export type CreateWebhookMutation = { createWebhook: { secret: string | null, name: string, url: string, enabled: boolean, disabledReason: string | null, failingSince: string | null, createdAt: string, updatedAt: string, id: string, conditions: Array<{ type: EventType, sourceId: string | null }> } };

export type UpdateWebhookMutationVariables = Exact<{
  id: string | number;
  input: UpdateWebhookInput;
}>;


export type UpdateWebhookMutation = { updateWebhook: { name: string, url: string, enabled: boolean, disabledReason: string | null, failingSince: string | null, createdAt: string, updatedAt: string, id: string, conditions: Array<{ type: EventType, sourceId: string | null }> } };

export type DeleteWebhookMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteWebhookMutation = { deleteWebhook: { success: boolean } };

export type RotateWebhookSecretMutationVariables = Exact<{
  id: string | number;
}>;


export type RotateWebhookSecretMutation = { rotateWebhookSecret: { secret: string | null, id: string } };

export type RetryWebhookDeliveryMutationVariables = Exact<{
  id: string | number;
  deliveryId: string | number;
}>;


export type RetryWebhookDeliveryMutation = { retryWebhookDelivery: { success: boolean } };

export type TestWebhookMutationVariables = Exact<{
  id: string | number;
}>;


export type TestWebhookMutation = { testWebhook: { success: boolean } };

export type RecoverWebhookMutationVariables = Exact<{
  id: string | number;
  since: string;
}>;


export type RecoverWebhookMutation = { recoverWebhook: { retried: number } };

export type CreateExternalWebhookMutationVariables = Exact<{
  input: CreateExternalWebhookInput;
}>;


export type CreateExternalWebhookMutation = { createExternalWebhook: { url: string, event: string, provider: string, createdAt: string, updatedAt: string, id: string } };

export type DeleteExternalWebhookMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteExternalWebhookMutation = { deleteExternalWebhook: { success: boolean } };

export type WorkspaceQueryVariables = Exact<{ [key: string]: never; }>;


export type WorkspaceQuery = { workspace: { name: string, defaultReply: string, targetCountry: string, language: string, timezone: string, brandColor: string, logo: string, ownerId: string, developmentMode: boolean, createdAt: string, updatedAt: string, id: string } };

export type WorkspaceCountsQueryVariables = Exact<{ [key: string]: never; }>;


export type WorkspaceCountsQuery = { workspace: { id: string, counts: { contacts: number | null, tags: number | null, conversations: number | null, commentAutomations: number | null, leadAdAutomations: number | null, dynamicImages: number | null, errorLogs: number | null } } };

export type TagsQueryVariables = Exact<{ [key: string]: never; }>;


export type TagsQuery = { tags: Array<{ name: string, id: string }> };

export type IntrospectionQueryVariables = Exact<{ [key: string]: never; }>;


export type IntrospectionQuery = { __schema: { queryType: { name: string | null } } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const CommentAutomationFieldsFragmentDoc = new TypedDocumentString(`
    fragment CommentAutomationFields on CommentAutomation {
  id: rawId
  createdAt
  updatedAt
  name
  folderId
  type
  isActive
  startTime
  endTime
  repliesCount
  sentCount
  deliveredCount
  seenCount
  clickedCount
  failedCount
  missedCount
  post {
    type
    value
  }
  privateReply {
    type
    value
    values {
      value
    }
  }
  publicReply {
    type
    value
    values {
      value
    }
  }
  includeKeywords {
    type
    value
  }
  excludeKeywords
  options {
    replyToNewContactsOnly
    replyOncePerUserPerPost
    likeUserComment
    replyToUsersWhoCommentedOnOtherPosts
    ignoreCommentReplies
    trackUserTags
  }
  hideComments {
    all
    hasPhoneNumber
    hasImage
    hasVideo
    hasLink
    hasKeywords
    keywords
    showCommentsAfter
  }
  replyAfter {
    type
    value
  }
}
    `, {"fragmentName":"CommentAutomationFields"}) as unknown as TypedDocumentString<CommentAutomationFieldsFragment, unknown>;
export const ConversationFieldsFragmentDoc = new TypedDocumentString(`
    fragment ConversationFields on Conversation {
  id: rawId
  workspaceId
  contactId
  inboxId
  createdAt
  updatedAt
  botResumeAt
  archivedAt
  contactLastReadAt
  agentLastReadAt
  lastActivityAt
  adminRepliedAt
  contactRepliedAt
  botEnabled
  followed
  additionalAttributes
  aiContextLastMessageId
  assignedUserId
  assignedInboxTeamId
  assignedUser {
    id: rawId
    name
    email
    emailVerified
    image
    isAnonymous
  }
  assignedInboxTeam {
    id: rawId
    name
    workspaceId
  }
  inbox {
    id: rawId
    name
    channel
    sourceId
    status
  }
  contact {
    id: rawId
    email
  }
}
    `, {"fragmentName":"ConversationFields"}) as unknown as TypedDocumentString<ConversationFieldsFragment, unknown>;
export const DynamicImageFieldsFragmentDoc = new TypedDocumentString(`
    fragment DynamicImageFields on DynamicImage {
  id: rawId
  name
  customFieldId
  backgroundUrl
  imageUrl
  createdAt
  updatedAt
  enabled
  data {
    width
    height
    backgroundColor
    elements {
      id
      x
      y
      width
      height
      type
      priority
      customFieldId
      imageType
      url
      imageStyle
      ... on DynamicImageTextElement {
        text
        fontSize
        color
        align
        fontFamily
        bold
        italic
        uppercase
        fallback
      }
      ... on DynamicImageQrCodeElement {
        text
        color
      }
    }
  }
}
    `, {"fragmentName":"DynamicImageFields"}) as unknown as TypedDocumentString<DynamicImageFieldsFragment, unknown>;
export const FlowFieldsFragmentDoc = new TypedDocumentString(`
    fragment FlowFields on Flow {
  id: rawId
  name
  items {
    type
    text
    url
    imageId
    replies {
      title
      payload
    }
    tagId
    customFieldId
    value
    sequenceId
    name
  }
  createdAt
  updatedAt
}
    `, {"fragmentName":"FlowFields"}) as unknown as TypedDocumentString<FlowFieldsFragment, unknown>;
export const LeadAdAutomationFieldsFragmentDoc = new TypedDocumentString(`
    fragment LeadAdAutomationFields on LeadAdAutomation {
  id: rawId
  createdAt
  updatedAt
  name
  pageId
  formIds
  isActive
  reply {
    type
    value
    values {
      value
    }
  }
  fieldMappings {
    questionKey
    customFieldId
    customField {
      rawId
      name
      type
    }
  }
  tags {
    rawId
    name
  }
  sequences {
    rawId
    name
  }
}
    `, {"fragmentName":"LeadAdAutomationFields"}) as unknown as TypedDocumentString<LeadAdAutomationFieldsFragment, unknown>;
export const MessageFieldsFragmentDoc = new TypedDocumentString(`
    fragment MessageFields on Message {
  id
  rawId
  contactId
  conversationId
  inboxId
  direction
  externalId
  text
  attachments {
    type
    url
  }
  status
  error
  automationKind
  automationId
  seenAt
  clickedAt
  createdAt
}
    `, {"fragmentName":"MessageFields"}) as unknown as TypedDocumentString<MessageFieldsFragment, unknown>;
export const ThreadStateFieldsFragmentDoc = new TypedDocumentString(`
    fragment ThreadStateFields on ThreadState {
  contactInboxId
  state
  ownerRole
  ownerAppId
  transitionedAt
  lastUserMessageAt
  expiresAt
  idleSince
  lastEvent
  lastEventSource
  updatedAt
}
    `, {"fragmentName":"ThreadStateFields"}) as unknown as TypedDocumentString<ThreadStateFieldsFragment, unknown>;
export const WebhookFieldsFragmentDoc = new TypedDocumentString(`
    fragment WebhookFields on Webhook {
  id: rawId
  name
  url
  conditions {
    type
    sourceId
  }
  enabled
  disabledReason
  failingSince
  createdAt
  updatedAt
}
    `, {"fragmentName":"WebhookFields"}) as unknown as TypedDocumentString<WebhookFieldsFragment, unknown>;
export const CommentAutomationDocument = new TypedDocumentString(`
    query CommentAutomation($id: ID!, $channel: CommentChannel) {
  commentAutomation(id: $id, channel: $channel) {
    ...CommentAutomationFields
  }
}
    fragment CommentAutomationFields on CommentAutomation {
  id: rawId
  createdAt
  updatedAt
  name
  folderId
  type
  isActive
  startTime
  endTime
  repliesCount
  sentCount
  deliveredCount
  seenCount
  clickedCount
  failedCount
  missedCount
  post {
    type
    value
  }
  privateReply {
    type
    value
    values {
      value
    }
  }
  publicReply {
    type
    value
    values {
      value
    }
  }
  includeKeywords {
    type
    value
  }
  excludeKeywords
  options {
    replyToNewContactsOnly
    replyOncePerUserPerPost
    likeUserComment
    replyToUsersWhoCommentedOnOtherPosts
    ignoreCommentReplies
    trackUserTags
  }
  hideComments {
    all
    hasPhoneNumber
    hasImage
    hasVideo
    hasLink
    hasKeywords
    keywords
    showCommentsAfter
  }
  replyAfter {
    type
    value
  }
}`) as unknown as TypedDocumentString<CommentAutomationQuery, CommentAutomationQueryVariables>;
export const CommentAutomationsDocument = new TypedDocumentString(`
    query CommentAutomations($channel: CommentChannel, $first: Int) {
  commentAutomations(channel: $channel, first: $first) {
    edges {
      node {
        id: rawId
        channel
        name
      }
    }
  }
}
    `) as unknown as TypedDocumentString<CommentAutomationsQuery, CommentAutomationsQueryVariables>;
export const FilteredCommentAutomationsDocument = new TypedDocumentString(`
    query FilteredCommentAutomations($channel: CommentChannel, $name: String, $isActive: Boolean, $folderId: ID, $first: Int, $after: String) {
  commentAutomations(
    channel: $channel
    name: $name
    isActive: $isActive
    folderId: $folderId
    first: $first
    after: $after
  ) {
    edges {
      node {
        channel
        ...CommentAutomationFields
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    fragment CommentAutomationFields on CommentAutomation {
  id: rawId
  createdAt
  updatedAt
  name
  folderId
  type
  isActive
  startTime
  endTime
  repliesCount
  sentCount
  deliveredCount
  seenCount
  clickedCount
  failedCount
  missedCount
  post {
    type
    value
  }
  privateReply {
    type
    value
    values {
      value
    }
  }
  publicReply {
    type
    value
    values {
      value
    }
  }
  includeKeywords {
    type
    value
  }
  excludeKeywords
  options {
    replyToNewContactsOnly
    replyOncePerUserPerPost
    likeUserComment
    replyToUsersWhoCommentedOnOtherPosts
    ignoreCommentReplies
    trackUserTags
  }
  hideComments {
    all
    hasPhoneNumber
    hasImage
    hasVideo
    hasLink
    hasKeywords
    keywords
    showCommentsAfter
  }
  replyAfter {
    type
    value
  }
}`) as unknown as TypedDocumentString<FilteredCommentAutomationsQuery, FilteredCommentAutomationsQueryVariables>;
export const CreatePhotoCommentAutomationDocument = new TypedDocumentString(`
    mutation CreatePhotoCommentAutomation($input: CreatePhotoCommentAutomationInput!) {
  createPhotoCommentAutomation(input: $input) {
    channel
    ...CommentAutomationFields
  }
}
    fragment CommentAutomationFields on CommentAutomation {
  id: rawId
  createdAt
  updatedAt
  name
  folderId
  type
  isActive
  startTime
  endTime
  repliesCount
  sentCount
  deliveredCount
  seenCount
  clickedCount
  failedCount
  missedCount
  post {
    type
    value
  }
  privateReply {
    type
    value
    values {
      value
    }
  }
  publicReply {
    type
    value
    values {
      value
    }
  }
  includeKeywords {
    type
    value
  }
  excludeKeywords
  options {
    replyToNewContactsOnly
    replyOncePerUserPerPost
    likeUserComment
    replyToUsersWhoCommentedOnOtherPosts
    ignoreCommentReplies
    trackUserTags
  }
  hideComments {
    all
    hasPhoneNumber
    hasImage
    hasVideo
    hasLink
    hasKeywords
    keywords
    showCommentsAfter
  }
  replyAfter {
    type
    value
  }
}`) as unknown as TypedDocumentString<CreatePhotoCommentAutomationMutation, CreatePhotoCommentAutomationMutationVariables>;
export const CreateNetCommentAutomationDocument = new TypedDocumentString(`
    mutation CreateNetCommentAutomation($input: CreateNetCommentAutomationInput!) {
  createNetCommentAutomation(input: $input) {
    channel
    ...CommentAutomationFields
  }
}
    fragment CommentAutomationFields on CommentAutomation {
  id: rawId
  createdAt
  updatedAt
  name
  folderId
  type
  isActive
  startTime
  endTime
  repliesCount
  sentCount
  deliveredCount
  seenCount
  clickedCount
  failedCount
  missedCount
  post {
    type
    value
  }
  privateReply {
    type
    value
    values {
      value
    }
  }
  publicReply {
    type
    value
    values {
      value
    }
  }
  includeKeywords {
    type
    value
  }
  excludeKeywords
  options {
    replyToNewContactsOnly
    replyOncePerUserPerPost
    likeUserComment
    replyToUsersWhoCommentedOnOtherPosts
    ignoreCommentReplies
    trackUserTags
  }
  hideComments {
    all
    hasPhoneNumber
    hasImage
    hasVideo
    hasLink
    hasKeywords
    keywords
    showCommentsAfter
  }
  replyAfter {
    type
    value
  }
}`) as unknown as TypedDocumentString<CreateNetCommentAutomationMutation, CreateNetCommentAutomationMutationVariables>;
export const UpdateCommentAutomationDocument = new TypedDocumentString(`
    mutation UpdateCommentAutomation($id: ID!, $channel: CommentChannel!, $input: UpdateCommentAutomationInput!) {
  updateCommentAutomation(id: $id, channel: $channel, input: $input) {
    channel
    ...CommentAutomationFields
  }
}
    fragment CommentAutomationFields on CommentAutomation {
  id: rawId
  createdAt
  updatedAt
  name
  folderId
  type
  isActive
  startTime
  endTime
  repliesCount
  sentCount
  deliveredCount
  seenCount
  clickedCount
  failedCount
  missedCount
  post {
    type
    value
  }
  privateReply {
    type
    value
    values {
      value
    }
  }
  publicReply {
    type
    value
    values {
      value
    }
  }
  includeKeywords {
    type
    value
  }
  excludeKeywords
  options {
    replyToNewContactsOnly
    replyOncePerUserPerPost
    likeUserComment
    replyToUsersWhoCommentedOnOtherPosts
    ignoreCommentReplies
    trackUserTags
  }
  hideComments {
    all
    hasPhoneNumber
    hasImage
    hasVideo
    hasLink
    hasKeywords
    keywords
    showCommentsAfter
  }
  replyAfter {
    type
    value
  }
}`) as unknown as TypedDocumentString<UpdateCommentAutomationMutation, UpdateCommentAutomationMutationVariables>;
export const DeleteCommentAutomationDocument = new TypedDocumentString(`
    mutation DeleteCommentAutomation($id: ID!, $channel: CommentChannel!) {
  deleteCommentAutomation(id: $id, channel: $channel) {
    success
  }
}
    `) as unknown as TypedDocumentString<DeleteCommentAutomationMutation, DeleteCommentAutomationMutationVariables>;
export const ChannelPostsDocument = new TypedDocumentString(`
    query ChannelPosts($channel: CommentChannel!, $inboxId: ID, $kind: ChannelPostKind, $page: SafeInt, $perPage: Int) {
  channelPosts(
    channel: $channel
    inboxId: $inboxId
    kind: $kind
    page: $page
    perPage: $perPage
  ) {
    pageCount
    data {
      id
      channel
      caption
      mediaType
      kind
      permalink
      thumbnailUrl
      timestamp
      inboxId
    }
  }
}
    `) as unknown as TypedDocumentString<ChannelPostsQuery, ChannelPostsQueryVariables>;
export const ChannelPostsWithRelationsDocument = new TypedDocumentString(`
    query ChannelPostsWithRelations($channel: CommentChannel!, $perPage: Int) {
  channelPosts(channel: $channel, perPage: $perPage) {
    pageCount
    data {
      id
      kind
      inbox {
        id: rawId
        name
        channel
      }
      automations {
        id: rawId
        name
        post {
          type
          value
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ChannelPostsWithRelationsQuery, ChannelPostsWithRelationsQueryVariables>;
export const CommentAutomationEventsDocument = new TypedDocumentString(`
    query CommentAutomationEvents($id: ID!, $channel: CommentChannel, $page: SafeInt, $perPage: Int) {
  commentAutomationEvents(
    id: $id
    channel: $channel
    page: $page
    perPage: $perPage
  ) {
    pageCount
    data {
      id
      createdAt
      commentId
      postId
      authorId
      contactId
      outcome
      reason
      actions {
        action
        status
        at
        error
      }
    }
  }
}
    `) as unknown as TypedDocumentString<CommentAutomationEventsQuery, CommentAutomationEventsQueryVariables>;
export const ContactsWithEverythingDocument = new TypedDocumentString(`
    query ContactsWithEverything($first: Int, $after: String, $keyword: String) {
  contacts(first: $first, after: $after, keyword: $keyword) {
    edges {
      cursor
      node {
        id: rawId
        fullName
        email
        phoneNumber
        customFields {
          id: rawId
          name
          description
          value
          type
        }
        sequences {
          sequenceId
          sequenceName
        }
        tags {
          id: rawId
          name
        }
        notes {
          id: rawId
          text
          createdById
        }
        inboxes {
          id: rawId
          channel
          inboxId
          inbox {
            id: rawId
            name
            channel
            status
          }
        }
        conversations {
          id: rawId
          followed
          inbox {
            id: rawId
            name
          }
          assignedUser {
            id: rawId
            name
            email
          }
          assignedInboxTeam {
            id: rawId
            name
          }
          contact {
            id: rawId
            email
          }
        }
      }
    }
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<ContactsWithEverythingQuery, ContactsWithEverythingQueryVariables>;
export const ContactIdsDocument = new TypedDocumentString(`
    query ContactIds($first: Int, $after: String, $keyword: String) {
  contacts(first: $first, after: $after, keyword: $keyword) {
    edges {
      node {
        id: rawId
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<ContactIdsQuery, ContactIdsQueryVariables>;
export const ContactEdgeCursorsDocument = new TypedDocumentString(`
    query ContactEdgeCursors($first: Int, $after: String) {
  contacts(first: $first, after: $after) {
    edges {
      cursor
      node {
        id: rawId
      }
    }
    pageInfo {
      startCursor
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<ContactEdgeCursorsQuery, ContactEdgeCursorsQueryVariables>;
export const ContactsBackwardsDocument = new TypedDocumentString(`
    query ContactsBackwards($last: Int) {
  contacts(last: $last) {
    edges {
      node {
        id: rawId
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ContactsBackwardsQuery, ContactsBackwardsQueryVariables>;
export const ContactByIdentifierDocument = new TypedDocumentString(`
    query ContactByIdentifier($identifier: String!) {
  contact(identifier: $identifier) {
    id: rawId
    email
    customFields {
      id: rawId
      name
      description
      value
      type
    }
    sequences {
      sequenceId
      sequenceName
    }
  }
}
    `) as unknown as TypedDocumentString<ContactByIdentifierQuery, ContactByIdentifierQueryVariables>;
export const CreateContactDocument = new TypedDocumentString(`
    mutation CreateContact($input: CreateContactInput!) {
  createContact(input: $input) {
    id: rawId
    email
    phoneNumber
    firstName
    lastName
    fullName
    gender
    emailVerified
    emailOptIn
    workspaceId
    tags {
      id: rawId
    }
    notes {
      id: rawId
    }
    inboxes {
      id: rawId
    }
    customFields {
      name
      value
    }
  }
}
    `) as unknown as TypedDocumentString<CreateContactMutation, CreateContactMutationVariables>;
export const ConversationDocument = new TypedDocumentString(`
    query Conversation($id: ID!) {
  conversation(id: $id) {
    ...ConversationFields
  }
}
    fragment ConversationFields on Conversation {
  id: rawId
  workspaceId
  contactId
  inboxId
  createdAt
  updatedAt
  botResumeAt
  archivedAt
  contactLastReadAt
  agentLastReadAt
  lastActivityAt
  adminRepliedAt
  contactRepliedAt
  botEnabled
  followed
  additionalAttributes
  aiContextLastMessageId
  assignedUserId
  assignedInboxTeamId
  assignedUser {
    id: rawId
    name
    email
    emailVerified
    image
    isAnonymous
  }
  assignedInboxTeam {
    id: rawId
    name
    workspaceId
  }
  inbox {
    id: rawId
    name
    channel
    sourceId
    status
  }
  contact {
    id: rawId
    email
  }
}`) as unknown as TypedDocumentString<ConversationQuery, ConversationQueryVariables>;
export const ConversationsDocument = new TypedDocumentString(`
    query Conversations($first: Int, $after: String, $followed: Boolean) {
  conversations(first: $first, after: $after, followed: $followed) {
    edges {
      node {
        id: rawId
        followed
        contactId
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<ConversationsQuery, ConversationsQueryVariables>;
export const ConversationPageDocument = new TypedDocumentString(`
    query ConversationPage($first: Int, $after: String, $last: Int, $before: String, $followed: Boolean, $archived: Boolean, $botEnabled: Boolean, $assignedUserId: ID, $assignedInboxTeamId: ID, $inboxId: ID, $keyword: String) {
  conversations(
    first: $first
    after: $after
    last: $last
    before: $before
    followed: $followed
    archived: $archived
    botEnabled: $botEnabled
    assignedUserId: $assignedUserId
    assignedInboxTeamId: $assignedInboxTeamId
    inboxId: $inboxId
    keyword: $keyword
  ) {
    edges {
      cursor
      node {
        id: rawId
      }
    }
    pageInfo {
      hasNextPage
      hasPreviousPage
      startCursor
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<ConversationPageQuery, ConversationPageQueryVariables>;
export const UnfollowConversationDocument = new TypedDocumentString(`
    mutation UnfollowConversation($id: ID!) {
  unfollowConversation(id: $id) {
    success
  }
}
    `) as unknown as TypedDocumentString<UnfollowConversationMutation, UnfollowConversationMutationVariables>;
export const FollowConversationDocument = new TypedDocumentString(`
    mutation FollowConversation($id: ID!) {
  followConversation(id: $id) {
    success
  }
}
    `) as unknown as TypedDocumentString<FollowConversationMutation, FollowConversationMutationVariables>;
export const ConversationsWithEverythingDocument = new TypedDocumentString(`
    query ConversationsWithEverything($first: Int) {
  conversations(first: $first) {
    edges {
      node {
        ...ConversationFields
      }
    }
  }
}
    fragment ConversationFields on Conversation {
  id: rawId
  workspaceId
  contactId
  inboxId
  createdAt
  updatedAt
  botResumeAt
  archivedAt
  contactLastReadAt
  agentLastReadAt
  lastActivityAt
  adminRepliedAt
  contactRepliedAt
  botEnabled
  followed
  additionalAttributes
  aiContextLastMessageId
  assignedUserId
  assignedInboxTeamId
  assignedUser {
    id: rawId
    name
    email
    emailVerified
    image
    isAnonymous
  }
  assignedInboxTeam {
    id: rawId
    name
    workspaceId
  }
  inbox {
    id: rawId
    name
    channel
    sourceId
    status
  }
  contact {
    id: rawId
    email
  }
}`) as unknown as TypedDocumentString<ConversationsWithEverythingQuery, ConversationsWithEverythingQueryVariables>;
export const ArchiveConversationDocument = new TypedDocumentString(`
    mutation ArchiveConversation($id: ID!) {
  archiveConversation(id: $id) {
    ...ConversationFields
  }
}
    fragment ConversationFields on Conversation {
  id: rawId
  workspaceId
  contactId
  inboxId
  createdAt
  updatedAt
  botResumeAt
  archivedAt
  contactLastReadAt
  agentLastReadAt
  lastActivityAt
  adminRepliedAt
  contactRepliedAt
  botEnabled
  followed
  additionalAttributes
  aiContextLastMessageId
  assignedUserId
  assignedInboxTeamId
  assignedUser {
    id: rawId
    name
    email
    emailVerified
    image
    isAnonymous
  }
  assignedInboxTeam {
    id: rawId
    name
    workspaceId
  }
  inbox {
    id: rawId
    name
    channel
    sourceId
    status
  }
  contact {
    id: rawId
    email
  }
}`) as unknown as TypedDocumentString<ArchiveConversationMutation, ArchiveConversationMutationVariables>;
export const UnarchiveConversationDocument = new TypedDocumentString(`
    mutation UnarchiveConversation($id: ID!) {
  unarchiveConversation(id: $id) {
    ...ConversationFields
  }
}
    fragment ConversationFields on Conversation {
  id: rawId
  workspaceId
  contactId
  inboxId
  createdAt
  updatedAt
  botResumeAt
  archivedAt
  contactLastReadAt
  agentLastReadAt
  lastActivityAt
  adminRepliedAt
  contactRepliedAt
  botEnabled
  followed
  additionalAttributes
  aiContextLastMessageId
  assignedUserId
  assignedInboxTeamId
  assignedUser {
    id: rawId
    name
    email
    emailVerified
    image
    isAnonymous
  }
  assignedInboxTeam {
    id: rawId
    name
    workspaceId
  }
  inbox {
    id: rawId
    name
    channel
    sourceId
    status
  }
  contact {
    id: rawId
    email
  }
}`) as unknown as TypedDocumentString<UnarchiveConversationMutation, UnarchiveConversationMutationVariables>;
export const AssignConversationDocument = new TypedDocumentString(`
    mutation AssignConversation($id: ID!, $userId: ID, $inboxTeamId: ID) {
  assignConversation(id: $id, userId: $userId, inboxTeamId: $inboxTeamId) {
    ...ConversationFields
  }
}
    fragment ConversationFields on Conversation {
  id: rawId
  workspaceId
  contactId
  inboxId
  createdAt
  updatedAt
  botResumeAt
  archivedAt
  contactLastReadAt
  agentLastReadAt
  lastActivityAt
  adminRepliedAt
  contactRepliedAt
  botEnabled
  followed
  additionalAttributes
  aiContextLastMessageId
  assignedUserId
  assignedInboxTeamId
  assignedUser {
    id: rawId
    name
    email
    emailVerified
    image
    isAnonymous
  }
  assignedInboxTeam {
    id: rawId
    name
    workspaceId
  }
  inbox {
    id: rawId
    name
    channel
    sourceId
    status
  }
  contact {
    id: rawId
    email
  }
}`) as unknown as TypedDocumentString<AssignConversationMutation, AssignConversationMutationVariables>;
export const EnableConversationBotDocument = new TypedDocumentString(`
    mutation EnableConversationBot($id: ID!) {
  enableConversationBot(id: $id) {
    ...ConversationFields
  }
}
    fragment ConversationFields on Conversation {
  id: rawId
  workspaceId
  contactId
  inboxId
  createdAt
  updatedAt
  botResumeAt
  archivedAt
  contactLastReadAt
  agentLastReadAt
  lastActivityAt
  adminRepliedAt
  contactRepliedAt
  botEnabled
  followed
  additionalAttributes
  aiContextLastMessageId
  assignedUserId
  assignedInboxTeamId
  assignedUser {
    id: rawId
    name
    email
    emailVerified
    image
    isAnonymous
  }
  assignedInboxTeam {
    id: rawId
    name
    workspaceId
  }
  inbox {
    id: rawId
    name
    channel
    sourceId
    status
  }
  contact {
    id: rawId
    email
  }
}`) as unknown as TypedDocumentString<EnableConversationBotMutation, EnableConversationBotMutationVariables>;
export const DisableConversationBotDocument = new TypedDocumentString(`
    mutation DisableConversationBot($id: ID!, $resumeAt: DateTime) {
  disableConversationBot(id: $id, resumeAt: $resumeAt) {
    ...ConversationFields
  }
}
    fragment ConversationFields on Conversation {
  id: rawId
  workspaceId
  contactId
  inboxId
  createdAt
  updatedAt
  botResumeAt
  archivedAt
  contactLastReadAt
  agentLastReadAt
  lastActivityAt
  adminRepliedAt
  contactRepliedAt
  botEnabled
  followed
  additionalAttributes
  aiContextLastMessageId
  assignedUserId
  assignedInboxTeamId
  assignedUser {
    id: rawId
    name
    email
    emailVerified
    image
    isAnonymous
  }
  assignedInboxTeam {
    id: rawId
    name
    workspaceId
  }
  inbox {
    id: rawId
    name
    channel
    sourceId
    status
  }
  contact {
    id: rawId
    email
  }
}`) as unknown as TypedDocumentString<DisableConversationBotMutation, DisableConversationBotMutationVariables>;
export const MarkConversationReadDocument = new TypedDocumentString(`
    mutation MarkConversationRead($id: ID!) {
  markConversationRead(id: $id) {
    ...ConversationFields
  }
}
    fragment ConversationFields on Conversation {
  id: rawId
  workspaceId
  contactId
  inboxId
  createdAt
  updatedAt
  botResumeAt
  archivedAt
  contactLastReadAt
  agentLastReadAt
  lastActivityAt
  adminRepliedAt
  contactRepliedAt
  botEnabled
  followed
  additionalAttributes
  aiContextLastMessageId
  assignedUserId
  assignedInboxTeamId
  assignedUser {
    id: rawId
    name
    email
    emailVerified
    image
    isAnonymous
  }
  assignedInboxTeam {
    id: rawId
    name
    workspaceId
  }
  inbox {
    id: rawId
    name
    channel
    sourceId
    status
  }
  contact {
    id: rawId
    email
  }
}`) as unknown as TypedDocumentString<MarkConversationReadMutation, MarkConversationReadMutationVariables>;
export const MarkConversationUnreadDocument = new TypedDocumentString(`
    mutation MarkConversationUnread($id: ID!) {
  markConversationUnread(id: $id) {
    ...ConversationFields
  }
}
    fragment ConversationFields on Conversation {
  id: rawId
  workspaceId
  contactId
  inboxId
  createdAt
  updatedAt
  botResumeAt
  archivedAt
  contactLastReadAt
  agentLastReadAt
  lastActivityAt
  adminRepliedAt
  contactRepliedAt
  botEnabled
  followed
  additionalAttributes
  aiContextLastMessageId
  assignedUserId
  assignedInboxTeamId
  assignedUser {
    id: rawId
    name
    email
    emailVerified
    image
    isAnonymous
  }
  assignedInboxTeam {
    id: rawId
    name
    workspaceId
  }
  inbox {
    id: rawId
    name
    channel
    sourceId
    status
  }
  contact {
    id: rawId
    email
  }
}`) as unknown as TypedDocumentString<MarkConversationUnreadMutation, MarkConversationUnreadMutationVariables>;
export const DynamicImagesDocument = new TypedDocumentString(`
    query DynamicImages($page: SafeInt, $perPage: Int, $name: String) {
  dynamicImages(page: $page, perPage: $perPage, name: $name) {
    pageCount
    data {
      ...DynamicImageFields
    }
  }
}
    fragment DynamicImageFields on DynamicImage {
  id: rawId
  name
  customFieldId
  backgroundUrl
  imageUrl
  createdAt
  updatedAt
  enabled
  data {
    width
    height
    backgroundColor
    elements {
      id
      x
      y
      width
      height
      type
      priority
      customFieldId
      imageType
      url
      imageStyle
      ... on DynamicImageTextElement {
        text
        fontSize
        color
        align
        fontFamily
        bold
        italic
        uppercase
        fallback
      }
      ... on DynamicImageQrCodeElement {
        text
        color
      }
    }
  }
}`) as unknown as TypedDocumentString<DynamicImagesQuery, DynamicImagesQueryVariables>;
export const DynamicImageDocument = new TypedDocumentString(`
    query DynamicImage($id: ID!) {
  dynamicImage(id: $id) {
    ...DynamicImageFields
  }
}
    fragment DynamicImageFields on DynamicImage {
  id: rawId
  name
  customFieldId
  backgroundUrl
  imageUrl
  createdAt
  updatedAt
  enabled
  data {
    width
    height
    backgroundColor
    elements {
      id
      x
      y
      width
      height
      type
      priority
      customFieldId
      imageType
      url
      imageStyle
      ... on DynamicImageTextElement {
        text
        fontSize
        color
        align
        fontFamily
        bold
        italic
        uppercase
        fallback
      }
      ... on DynamicImageQrCodeElement {
        text
        color
      }
    }
  }
}`) as unknown as TypedDocumentString<DynamicImageQuery, DynamicImageQueryVariables>;
export const DynamicImagesWithCustomFieldDocument = new TypedDocumentString(`
    query DynamicImagesWithCustomField($perPage: Int) {
  dynamicImages(perPage: $perPage) {
    data {
      id: rawId
      customField {
        id: rawId
        name
        type
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DynamicImagesWithCustomFieldQuery, DynamicImagesWithCustomFieldQueryVariables>;
export const CreateDynamicImageDocument = new TypedDocumentString(`
    mutation CreateDynamicImage($input: CreateDynamicImageInput!) {
  createDynamicImage(input: $input) {
    ...DynamicImageFields
  }
}
    fragment DynamicImageFields on DynamicImage {
  id: rawId
  name
  customFieldId
  backgroundUrl
  imageUrl
  createdAt
  updatedAt
  enabled
  data {
    width
    height
    backgroundColor
    elements {
      id
      x
      y
      width
      height
      type
      priority
      customFieldId
      imageType
      url
      imageStyle
      ... on DynamicImageTextElement {
        text
        fontSize
        color
        align
        fontFamily
        bold
        italic
        uppercase
        fallback
      }
      ... on DynamicImageQrCodeElement {
        text
        color
      }
    }
  }
}`) as unknown as TypedDocumentString<CreateDynamicImageMutation, CreateDynamicImageMutationVariables>;
export const UpdateDynamicImageDocument = new TypedDocumentString(`
    mutation UpdateDynamicImage($id: ID!, $input: UpdateDynamicImageInput!) {
  updateDynamicImage(id: $id, input: $input) {
    ...DynamicImageFields
  }
}
    fragment DynamicImageFields on DynamicImage {
  id: rawId
  name
  customFieldId
  backgroundUrl
  imageUrl
  createdAt
  updatedAt
  enabled
  data {
    width
    height
    backgroundColor
    elements {
      id
      x
      y
      width
      height
      type
      priority
      customFieldId
      imageType
      url
      imageStyle
      ... on DynamicImageTextElement {
        text
        fontSize
        color
        align
        fontFamily
        bold
        italic
        uppercase
        fallback
      }
      ... on DynamicImageQrCodeElement {
        text
        color
      }
    }
  }
}`) as unknown as TypedDocumentString<UpdateDynamicImageMutation, UpdateDynamicImageMutationVariables>;
export const SetDynamicImageEnabledDocument = new TypedDocumentString(`
    mutation SetDynamicImageEnabled($id: ID!, $enabled: Boolean!) {
  setDynamicImageEnabled(id: $id, enabled: $enabled) {
    ...DynamicImageFields
  }
}
    fragment DynamicImageFields on DynamicImage {
  id: rawId
  name
  customFieldId
  backgroundUrl
  imageUrl
  createdAt
  updatedAt
  enabled
  data {
    width
    height
    backgroundColor
    elements {
      id
      x
      y
      width
      height
      type
      priority
      customFieldId
      imageType
      url
      imageStyle
      ... on DynamicImageTextElement {
        text
        fontSize
        color
        align
        fontFamily
        bold
        italic
        uppercase
        fallback
      }
      ... on DynamicImageQrCodeElement {
        text
        color
      }
    }
  }
}`) as unknown as TypedDocumentString<SetDynamicImageEnabledMutation, SetDynamicImageEnabledMutationVariables>;
export const DeleteDynamicImageDocument = new TypedDocumentString(`
    mutation DeleteDynamicImage($id: ID!) {
  deleteDynamicImage(id: $id) {
    success
  }
}
    `) as unknown as TypedDocumentString<DeleteDynamicImageMutation, DeleteDynamicImageMutationVariables>;
export const FlowsDocument = new TypedDocumentString(`
    query Flows($page: SafeInt, $perPage: Int) {
  flows(page: $page, perPage: $perPage) {
    pageCount
    data {
      ...FlowFields
    }
  }
}
    fragment FlowFields on Flow {
  id: rawId
  name
  items {
    type
    text
    url
    imageId
    replies {
      title
      payload
    }
    tagId
    customFieldId
    value
    sequenceId
    name
  }
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<FlowsQuery, FlowsQueryVariables>;
export const FlowDocument = new TypedDocumentString(`
    query Flow($id: ID!) {
  flow(id: $id) {
    ...FlowFields
  }
}
    fragment FlowFields on Flow {
  id: rawId
  name
  items {
    type
    text
    url
    imageId
    replies {
      title
      payload
    }
    tagId
    customFieldId
    value
    sequenceId
    name
  }
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<FlowQuery, FlowQueryVariables>;
export const CreateFlowDocument = new TypedDocumentString(`
    mutation CreateFlow($input: CreateFlowInput!) {
  createFlow(input: $input) {
    ...FlowFields
  }
}
    fragment FlowFields on Flow {
  id: rawId
  name
  items {
    type
    text
    url
    imageId
    replies {
      title
      payload
    }
    tagId
    customFieldId
    value
    sequenceId
    name
  }
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<CreateFlowMutation, CreateFlowMutationVariables>;
export const UpdateFlowDocument = new TypedDocumentString(`
    mutation UpdateFlow($id: ID!, $input: UpdateFlowInput!) {
  updateFlow(id: $id, input: $input) {
    ...FlowFields
  }
}
    fragment FlowFields on Flow {
  id: rawId
  name
  items {
    type
    text
    url
    imageId
    replies {
      title
      payload
    }
    tagId
    customFieldId
    value
    sequenceId
    name
  }
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<UpdateFlowMutation, UpdateFlowMutationVariables>;
export const DeleteFlowDocument = new TypedDocumentString(`
    mutation DeleteFlow($id: ID!) {
  deleteFlow(id: $id) {
    success
  }
}
    `) as unknown as TypedDocumentString<DeleteFlowMutation, DeleteFlowMutationVariables>;
export const LeadAdAutomationsDocument = new TypedDocumentString(`
    query LeadAdAutomations($page: SafeInt, $perPage: Int, $keyword: String) {
  leadAdAutomations(page: $page, perPage: $perPage, keyword: $keyword) {
    data {
      id: rawId
      createdAt
      updatedAt
      name
      pageId
      formIds
      isActive
      reply {
        type
        value
        values {
          value
        }
      }
    }
    pageCount
  }
}
    `) as unknown as TypedDocumentString<LeadAdAutomationsQuery, LeadAdAutomationsQueryVariables>;
export const LeadAdAutomationsWithRelationsDocument = new TypedDocumentString(`
    query LeadAdAutomationsWithRelations($perPage: Int) {
  leadAdAutomations(perPage: $perPage) {
    data {
      ...LeadAdAutomationFields
    }
    pageCount
  }
}
    fragment LeadAdAutomationFields on LeadAdAutomation {
  id: rawId
  createdAt
  updatedAt
  name
  pageId
  formIds
  isActive
  reply {
    type
    value
    values {
      value
    }
  }
  fieldMappings {
    questionKey
    customFieldId
    customField {
      rawId
      name
      type
    }
  }
  tags {
    rawId
    name
  }
  sequences {
    rawId
    name
  }
}`) as unknown as TypedDocumentString<LeadAdAutomationsWithRelationsQuery, LeadAdAutomationsWithRelationsQueryVariables>;
export const LeadAdAutomationDocument = new TypedDocumentString(`
    query LeadAdAutomation($id: ID!) {
  leadAdAutomation(id: $id) {
    ...LeadAdAutomationFields
  }
}
    fragment LeadAdAutomationFields on LeadAdAutomation {
  id: rawId
  createdAt
  updatedAt
  name
  pageId
  formIds
  isActive
  reply {
    type
    value
    values {
      value
    }
  }
  fieldMappings {
    questionKey
    customFieldId
    customField {
      rawId
      name
      type
    }
  }
  tags {
    rawId
    name
  }
  sequences {
    rawId
    name
  }
}`) as unknown as TypedDocumentString<LeadAdAutomationQuery, LeadAdAutomationQueryVariables>;
export const CreateLeadAdAutomationDocument = new TypedDocumentString(`
    mutation CreateLeadAdAutomation($input: CreateLeadAdAutomationInput!) {
  createLeadAdAutomation(input: $input) {
    ...LeadAdAutomationFields
  }
}
    fragment LeadAdAutomationFields on LeadAdAutomation {
  id: rawId
  createdAt
  updatedAt
  name
  pageId
  formIds
  isActive
  reply {
    type
    value
    values {
      value
    }
  }
  fieldMappings {
    questionKey
    customFieldId
    customField {
      rawId
      name
      type
    }
  }
  tags {
    rawId
    name
  }
  sequences {
    rawId
    name
  }
}`) as unknown as TypedDocumentString<CreateLeadAdAutomationMutation, CreateLeadAdAutomationMutationVariables>;
export const UpdateLeadAdAutomationDocument = new TypedDocumentString(`
    mutation UpdateLeadAdAutomation($id: ID!, $input: UpdateLeadAdAutomationInput!) {
  updateLeadAdAutomation(id: $id, input: $input) {
    ...LeadAdAutomationFields
  }
}
    fragment LeadAdAutomationFields on LeadAdAutomation {
  id: rawId
  createdAt
  updatedAt
  name
  pageId
  formIds
  isActive
  reply {
    type
    value
    values {
      value
    }
  }
  fieldMappings {
    questionKey
    customFieldId
    customField {
      rawId
      name
      type
    }
  }
  tags {
    rawId
    name
  }
  sequences {
    rawId
    name
  }
}`) as unknown as TypedDocumentString<UpdateLeadAdAutomationMutation, UpdateLeadAdAutomationMutationVariables>;
export const DeleteNetLeadAdAutomationDocument = new TypedDocumentString(`
    mutation DeleteNetLeadAdAutomation($id: ID!) {
  deleteNetLeadAdAutomation(id: $id) {
    success
  }
}
    `) as unknown as TypedDocumentString<DeleteNetLeadAdAutomationMutation, DeleteNetLeadAdAutomationMutationVariables>;
export const LeadPagesDocument = new TypedDocumentString(`
    query LeadPages($page: SafeInt, $perPage: Int) {
  leadPages(page: $page, perPage: $perPage) {
    data {
      rawId
      name
      inboxId
      formsCount
      createdAt
      updatedAt
      forms {
        rawId
        name
        status
      }
    }
    pageCount
  }
}
    `) as unknown as TypedDocumentString<LeadPagesQuery, LeadPagesQueryVariables>;
export const LeadFormsDocument = new TypedDocumentString(`
    query LeadForms($pageId: String!, $page: SafeInt, $perPage: Int) {
  leadForms(pageId: $pageId, page: $page, perPage: $perPage) {
    data {
      rawId
      pageId
      name
      status
      questions {
        key
        label
        type
      }
      createdAt
      updatedAt
    }
    pageCount
  }
}
    `) as unknown as TypedDocumentString<LeadFormsQuery, LeadFormsQueryVariables>;
export const TooDeepDocument = new TypedDocumentString(`
    query TooDeep {
  contacts(first: 1) {
    edges {
      node {
        conversations {
          contact {
            conversations {
              contact {
                conversations {
                  id
                }
              }
            }
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<TooDeepQuery, TooDeepQueryVariables>;
export const TooManyAliasesDocument = new TypedDocumentString(`
    query TooManyAliases {
  t1: tags {
    id
  }
  t2: tags {
    id
  }
  t3: tags {
    id
  }
  t4: tags {
    id
  }
  t5: tags {
    id
  }
  t6: tags {
    id
  }
  t7: tags {
    id
  }
  t8: tags {
    id
  }
  t9: tags {
    id
  }
  t10: tags {
    id
  }
  t11: tags {
    id
  }
  t12: tags {
    id
  }
  t13: tags {
    id
  }
  t14: tags {
    id
  }
  t15: tags {
    id
  }
  t16: tags {
    id
  }
  t17: tags {
    id
  }
  t18: tags {
    id
  }
  t19: tags {
    id
  }
  t20: tags {
    id
  }
  t21: tags {
    id
  }
  t22: tags {
    id
  }
  t23: tags {
    id
  }
  t24: tags {
    id
  }
  t25: tags {
    id
  }
  t26: tags {
    id
  }
  t27: tags {
    id
  }
  t28: tags {
    id
  }
  t29: tags {
    id
  }
  t30: tags {
    id
  }
  t31: tags {
    id
  }
}
    `) as unknown as TypedDocumentString<TooManyAliasesQuery, TooManyAliasesQueryVariables>;
export const TwoExpensivePagesDocument = new TypedDocumentString(`
    query TwoExpensivePages {
  a: contacts(first: 100) {
    edges {
      node {
        conversations {
          contact {
            id
          }
          inbox {
            id
          }
          assignedUser {
            id
          }
        }
      }
    }
  }
  b: contacts(first: 100) {
    edges {
      node {
        conversations {
          contact {
            id
          }
          inbox {
            id
          }
          assignedUser {
            id
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<TwoExpensivePagesQuery, TwoExpensivePagesQueryVariables>;
export const ContactMessagesDocument = new TypedDocumentString(`
    query ContactMessages($identifier: String!, $first: Int, $after: String, $direction: MessageDirection, $inboxId: ID) {
  contact(identifier: $identifier) {
    id
    messages(first: $first, after: $after, direction: $direction, inboxId: $inboxId) {
      edges {
        cursor
        node {
          ...MessageFields
        }
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
    }
  }
}
    fragment MessageFields on Message {
  id
  rawId
  contactId
  conversationId
  inboxId
  direction
  externalId
  text
  attachments {
    type
    url
  }
  status
  error
  automationKind
  automationId
  seenAt
  clickedAt
  createdAt
}`) as unknown as TypedDocumentString<ContactMessagesQuery, ContactMessagesQueryVariables>;
export const SendMessageDocument = new TypedDocumentString(`
    mutation SendMessage($identifier: String!, $text: String!, $inboxId: ID) {
  sendMessage(identifier: $identifier, text: $text, inboxId: $inboxId) {
    ...MessageFields
  }
}
    fragment MessageFields on Message {
  id
  rawId
  contactId
  conversationId
  inboxId
  direction
  externalId
  text
  attachments {
    type
    url
  }
  status
  error
  automationKind
  automationId
  seenAt
  clickedAt
  createdAt
}`) as unknown as TypedDocumentString<SendMessageMutation, SendMessageMutationVariables>;
export const TriggerAutoReplyDocument = new TypedDocumentString(`
    mutation TriggerAutoReply($identifier: String!, $inboxId: ID) {
  triggerAutoReply(identifier: $identifier, inboxId: $inboxId) {
    ...MessageFields
  }
}
    fragment MessageFields on Message {
  id
  rawId
  contactId
  conversationId
  inboxId
  direction
  externalId
  text
  attachments {
    type
    url
  }
  status
  error
  automationKind
  automationId
  seenAt
  clickedAt
  createdAt
}`) as unknown as TypedDocumentString<TriggerAutoReplyMutation, TriggerAutoReplyMutationVariables>;
export const RefreshContactProfileDocument = new TypedDocumentString(`
    mutation RefreshContactProfile($identifier: String!) {
  refreshContactProfile(identifier: $identifier) {
    id
    rawId
    firstName
    lastName
    fullName
    avatar
  }
}
    `) as unknown as TypedDocumentString<RefreshContactProfileMutation, RefreshContactProfileMutationVariables>;
export const ContactsWithMessagesDocument = new TypedDocumentString(`
    query ContactsWithMessages($first: Int, $messagesFirst: Int, $direction: MessageDirection) {
  contacts(first: $first) {
    edges {
      node {
        rawId
        messages(first: $messagesFirst, direction: $direction) {
          edges {
            node {
              rawId
              contactId
              text
            }
          }
          pageInfo {
            hasNextPage
            endCursor
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ContactsWithMessagesQuery, ContactsWithMessagesQueryVariables>;
export const OutboxDocument = new TypedDocumentString(`
    query Outbox($page: SafeInt, $perPage: Int, $contactId: ID, $automationId: ID, $automationKind: AutomationKind, $action: OutboxAction, $channel: CommentChannel) {
  outbox(
    page: $page
    perPage: $perPage
    contactId: $contactId
    automationId: $automationId
    automationKind: $automationKind
    action: $action
    channel: $channel
  ) {
    pageCount
    data {
      id: rawId
      createdAt
      channel
      inboxId
      action
      commentId
      postId
      recipientId
      contactId
      contact {
        id: rawId
        email
      }
      automationKind
      automationId
      payload {
        type
        text
        flowId
        agentId
      }
    }
  }
}
    `) as unknown as TypedDocumentString<OutboxQuery, OutboxQueryVariables>;
export const ErrorLogsDocument = new TypedDocumentString(`
    query ErrorLogs($page: SafeInt, $perPage: Int, $keyword: String) {
  errorLogs(page: $page, perPage: $perPage, keyword: $keyword) {
    pageCount
    data {
      id: rawId
      workspaceId
      contactId
      action
      detail
      httpCode
      createdAt
      updatedAt
    }
  }
}
    `) as unknown as TypedDocumentString<ErrorLogsQuery, ErrorLogsQueryVariables>;
export const ThreadControlDocument = new TypedDocumentString(`
    mutation ThreadControl($conversationId: ID!, $contactInboxId: ID!, $action: ThreadControlAction!, $targetAppId: String, $metadata: String) {
  threadControl(
    conversationId: $conversationId
    contactInboxId: $contactInboxId
    action: $action
    targetAppId: $targetAppId
    metadata: $metadata
  ) {
    status
    snapshot {
      ...ThreadStateFields
    }
  }
}
    fragment ThreadStateFields on ThreadState {
  contactInboxId
  state
  ownerRole
  ownerAppId
  transitionedAt
  lastUserMessageAt
  expiresAt
  idleSince
  lastEvent
  lastEventSource
  updatedAt
}`) as unknown as TypedDocumentString<ThreadControlMutation, ThreadControlMutationVariables>;
export const SyncThreadOwnerDocument = new TypedDocumentString(`
    mutation SyncThreadOwner($conversationId: ID!, $contactInboxId: ID!) {
  syncThreadOwner(
    conversationId: $conversationId
    contactInboxId: $contactInboxId
  ) {
    status
    snapshot {
      ...ThreadStateFields
    }
  }
}
    fragment ThreadStateFields on ThreadState {
  contactInboxId
  state
  ownerRole
  ownerAppId
  transitionedAt
  lastUserMessageAt
  expiresAt
  idleSince
  lastEvent
  lastEventSource
  updatedAt
}`) as unknown as TypedDocumentString<SyncThreadOwnerMutation, SyncThreadOwnerMutationVariables>;
export const ContactThreadStatesDocument = new TypedDocumentString(`
    query ContactThreadStates($identifier: String!) {
  contact(identifier: $identifier) {
    inboxes {
      rawId
      inboxId
      threadState {
        ...ThreadStateFields
      }
    }
  }
}
    fragment ThreadStateFields on ThreadState {
  contactInboxId
  state
  ownerRole
  ownerAppId
  transitionedAt
  lastUserMessageAt
  expiresAt
  idleSince
  lastEvent
  lastEventSource
  updatedAt
}`) as unknown as TypedDocumentString<ContactThreadStatesQuery, ContactThreadStatesQueryVariables>;
export const WebhooksDocument = new TypedDocumentString(`
    query Webhooks($page: SafeInt, $perPage: Int) {
  webhooks(page: $page, perPage: $perPage) {
    pageCount
    data {
      ...WebhookFields
    }
  }
}
    fragment WebhookFields on Webhook {
  id: rawId
  name
  url
  conditions {
    type
    sourceId
  }
  enabled
  disabledReason
  failingSince
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<WebhooksQuery, WebhooksQueryVariables>;
export const WebhookDocument = new TypedDocumentString(`
    query Webhook($id: ID!) {
  webhook(id: $id) {
    ...WebhookFields
    secret
  }
}
    fragment WebhookFields on Webhook {
  id: rawId
  name
  url
  conditions {
    type
    sourceId
  }
  enabled
  disabledReason
  failingSince
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<WebhookQuery, WebhookQueryVariables>;
export const WebhookDeliveriesDocument = new TypedDocumentString(`
    query WebhookDeliveries($id: ID!, $status: WebhookDeliveryStatus, $page: SafeInt, $perPage: Int) {
  webhookDeliveries(id: $id, status: $status, page: $page, perPage: $perPage) {
    pageCount
    data {
      id
      webhookId
      eventId
      event
      status
      attempts {
        attemptedAt
        durationMs
        statusCode
        error
        responseExcerpt
      }
      nextAttemptAt
      createdAt
      updatedAt
    }
  }
}
    `) as unknown as TypedDocumentString<WebhookDeliveriesQuery, WebhookDeliveriesQueryVariables>;
export const ExternalWebhooksDocument = new TypedDocumentString(`
    query ExternalWebhooks($page: SafeInt, $perPage: Int) {
  externalWebhooks(page: $page, perPage: $perPage) {
    pageCount
    data {
      id: rawId
      url
      event
      provider
      createdAt
      updatedAt
    }
  }
}
    `) as unknown as TypedDocumentString<ExternalWebhooksQuery, ExternalWebhooksQueryVariables>;
export const CreateWebhookDocument = new TypedDocumentString(`
    mutation CreateWebhook($input: CreateWebhookInput!) {
  createWebhook(input: $input) {
    ...WebhookFields
    secret
  }
}
    fragment WebhookFields on Webhook {
  id: rawId
  name
  url
  conditions {
    type
    sourceId
  }
  enabled
  disabledReason
  failingSince
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<CreateWebhookMutation, CreateWebhookMutationVariables>;
export const UpdateWebhookDocument = new TypedDocumentString(`
    mutation UpdateWebhook($id: ID!, $input: UpdateWebhookInput!) {
  updateWebhook(id: $id, input: $input) {
    ...WebhookFields
  }
}
    fragment WebhookFields on Webhook {
  id: rawId
  name
  url
  conditions {
    type
    sourceId
  }
  enabled
  disabledReason
  failingSince
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<UpdateWebhookMutation, UpdateWebhookMutationVariables>;
export const DeleteWebhookDocument = new TypedDocumentString(`
    mutation DeleteWebhook($id: ID!) {
  deleteWebhook(id: $id) {
    success
  }
}
    `) as unknown as TypedDocumentString<DeleteWebhookMutation, DeleteWebhookMutationVariables>;
export const RotateWebhookSecretDocument = new TypedDocumentString(`
    mutation RotateWebhookSecret($id: ID!) {
  rotateWebhookSecret(id: $id) {
    id: rawId
    secret
  }
}
    `) as unknown as TypedDocumentString<RotateWebhookSecretMutation, RotateWebhookSecretMutationVariables>;
export const RetryWebhookDeliveryDocument = new TypedDocumentString(`
    mutation RetryWebhookDelivery($id: ID!, $deliveryId: ID!) {
  retryWebhookDelivery(id: $id, deliveryId: $deliveryId) {
    success
  }
}
    `) as unknown as TypedDocumentString<RetryWebhookDeliveryMutation, RetryWebhookDeliveryMutationVariables>;
export const TestWebhookDocument = new TypedDocumentString(`
    mutation TestWebhook($id: ID!) {
  testWebhook(id: $id) {
    success
  }
}
    `) as unknown as TypedDocumentString<TestWebhookMutation, TestWebhookMutationVariables>;
export const RecoverWebhookDocument = new TypedDocumentString(`
    mutation RecoverWebhook($id: ID!, $since: DateTime!) {
  recoverWebhook(id: $id, since: $since) {
    retried
  }
}
    `) as unknown as TypedDocumentString<RecoverWebhookMutation, RecoverWebhookMutationVariables>;
export const CreateExternalWebhookDocument = new TypedDocumentString(`
    mutation CreateExternalWebhook($input: CreateExternalWebhookInput!) {
  createExternalWebhook(input: $input) {
    id: rawId
    url
    event
    provider
    createdAt
    updatedAt
  }
}
    `) as unknown as TypedDocumentString<CreateExternalWebhookMutation, CreateExternalWebhookMutationVariables>;
export const DeleteExternalWebhookDocument = new TypedDocumentString(`
    mutation DeleteExternalWebhook($id: ID!) {
  deleteExternalWebhook(id: $id) {
    success
  }
}
    `) as unknown as TypedDocumentString<DeleteExternalWebhookMutation, DeleteExternalWebhookMutationVariables>;
export const WorkspaceDocument = new TypedDocumentString(`
    query Workspace {
  workspace {
    id: rawId
    name
    defaultReply
    targetCountry
    language
    timezone
    brandColor
    logo
    ownerId
    developmentMode
    createdAt
    updatedAt
  }
}
    `) as unknown as TypedDocumentString<WorkspaceQuery, WorkspaceQueryVariables>;
export const WorkspaceCountsDocument = new TypedDocumentString(`
    query WorkspaceCounts {
  workspace {
    id: rawId
    counts {
      contacts
      tags
      conversations
      commentAutomations
      leadAdAutomations
      dynamicImages
      errorLogs
    }
  }
}
    `) as unknown as TypedDocumentString<WorkspaceCountsQuery, WorkspaceCountsQueryVariables>;
export const TagsDocument = new TypedDocumentString(`
    query Tags {
  tags {
    id: rawId
    name
  }
}
    `) as unknown as TypedDocumentString<TagsQuery, TagsQueryVariables>;
export const IntrospectionDocument = new TypedDocumentString(`
    query Introspection {
  __schema {
    queryType {
      name
    }
  }
}
    `) as unknown as TypedDocumentString<IntrospectionQuery, IntrospectionQueryVariables>;