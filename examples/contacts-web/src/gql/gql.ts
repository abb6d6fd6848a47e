/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query ContactDetail($identifier: String!) {\n    contact(identifier: $identifier) {\n      id\n      rawId\n      fullName\n      email\n      phoneNumber\n      avatar\n      location\n      createdAt\n      ...TagEditor_contact\n      ...FieldEditor_contact\n      ...Conversations_contact\n      ...Notes_contact\n      ...Sequences_contact\n    }\n    tags {\n      id\n      name\n    }\n    ...ContactImage_query\n  }\n": typeof types.ContactDetailDocument,
    "\n  fragment ContactImage_query on Query {\n    dynamicImages(perPage: 10) {\n      data {\n        id\n        name\n        enabled\n        renderUrl(contact: $identifier)\n      }\n    }\n  }\n": typeof types.ContactImage_QueryFragmentDoc,
    "\n  fragment Conversations_contact on Contact {\n    conversations {\n      id\n      rawId\n      createdAt\n      lastActivityAt\n      archivedAt\n      followed\n      inbox {\n        id\n        name\n        channel\n      }\n    }\n    messages(first: 50) {\n      edges {\n        node {\n          id\n          conversationId\n          direction\n          status\n          text\n          createdAt\n        }\n      }\n    }\n  }\n": typeof types.Conversations_ContactFragmentDoc,
    "\n  fragment FieldEditor_contact on Contact {\n    rawId\n    customFields {\n      rawId\n      name\n      type\n      description\n      value\n    }\n  }\n": typeof types.FieldEditor_ContactFragmentDoc,
    "\n  mutation SetContactField($identifier: String!, $idOrName: String!, $value: String) {\n    setContactCustomField(identifier: $identifier, idOrName: $idOrName, value: $value) {\n      rawId\n      value\n    }\n  }\n": typeof types.SetContactFieldDocument,
    "\n  fragment Notes_contact on Contact {\n    notes {\n      id\n      text\n      createdAt\n    }\n  }\n": typeof types.Notes_ContactFragmentDoc,
    "\n  fragment Sequences_contact on Contact {\n    sequences {\n      sequenceId\n      sequenceName\n    }\n  }\n": typeof types.Sequences_ContactFragmentDoc,
    "\n  fragment TagEditor_contact on Contact {\n    rawId\n    tags {\n      id\n      name\n    }\n  }\n": typeof types.TagEditor_ContactFragmentDoc,
    "\n  mutation AddContactTags($identifier: String!, $names: [String!]!) {\n    addContactTagsByName(identifier: $identifier, names: $names) {\n      success\n    }\n  }\n": typeof types.AddContactTagsDocument,
    "\n  mutation RemoveContactTags($identifier: String!, $tagIds: [ID!]!) {\n    removeContactTags(identifier: $identifier, tagIds: $tagIds) {\n      success\n    }\n  }\n": typeof types.RemoveContactTagsDocument,
    "\n  query ContactsPage($first: Int!, $after: String, $keyword: String, $tagIds: [ID!]) {\n    contacts(first: $first, after: $after, keyword: $keyword, tagIds: $tagIds) {\n      edges {\n        cursor\n        node {\n          id\n          rawId\n          ...ContactRow_contact\n        }\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n    tags {\n      id\n      name\n    }\n  }\n": typeof types.ContactsPageDocument,
    "\n  fragment ContactRow_contact on Contact {\n    rawId\n    fullName\n    email\n    phoneNumber\n    avatar\n    tags {\n      id\n      name\n    }\n    customFields {\n      rawId\n      name\n      value\n    }\n    notes {\n      id\n    }\n    inboxes {\n      id\n      channel\n      inbox {\n        id\n        name\n      }\n    }\n    messages(first: 1) {\n      edges {\n        node {\n          id\n          text\n          direction\n          createdAt\n        }\n      }\n    }\n  }\n": typeof types.ContactRow_ContactFragmentDoc,
    "\n  subscription LiveEvents($types: [EventType!], $after: ID) {\n    events(types: $types, after: $after) {\n      id\n      type\n      occurredAt\n      data\n      contact {\n        id\n        rawId\n        fullName\n      }\n    }\n  }\n": typeof types.LiveEventsDocument,
};
const documents: Documents = {
    "\n  query ContactDetail($identifier: String!) {\n    contact(identifier: $identifier) {\n      id\n      rawId\n      fullName\n      email\n      phoneNumber\n      avatar\n      location\n      createdAt\n      ...TagEditor_contact\n      ...FieldEditor_contact\n      ...Conversations_contact\n      ...Notes_contact\n      ...Sequences_contact\n    }\n    tags {\n      id\n      name\n    }\n    ...ContactImage_query\n  }\n": types.ContactDetailDocument,
    "\n  fragment ContactImage_query on Query {\n    dynamicImages(perPage: 10) {\n      data {\n        id\n        name\n        enabled\n        renderUrl(contact: $identifier)\n      }\n    }\n  }\n": types.ContactImage_QueryFragmentDoc,
    "\n  fragment Conversations_contact on Contact {\n    conversations {\n      id\n      rawId\n      createdAt\n      lastActivityAt\n      archivedAt\n      followed\n      inbox {\n        id\n        name\n        channel\n      }\n    }\n    messages(first: 50) {\n      edges {\n        node {\n          id\n          conversationId\n          direction\n          status\n          text\n          createdAt\n        }\n      }\n    }\n  }\n": types.Conversations_ContactFragmentDoc,
    "\n  fragment FieldEditor_contact on Contact {\n    rawId\n    customFields {\n      rawId\n      name\n      type\n      description\n      value\n    }\n  }\n": types.FieldEditor_ContactFragmentDoc,
    "\n  mutation SetContactField($identifier: String!, $idOrName: String!, $value: String) {\n    setContactCustomField(identifier: $identifier, idOrName: $idOrName, value: $value) {\n      rawId\n      value\n    }\n  }\n": types.SetContactFieldDocument,
    "\n  fragment Notes_contact on Contact {\n    notes {\n      id\n      text\n      createdAt\n    }\n  }\n": types.Notes_ContactFragmentDoc,
    "\n  fragment Sequences_contact on Contact {\n    sequences {\n      sequenceId\n      sequenceName\n    }\n  }\n": types.Sequences_ContactFragmentDoc,
    "\n  fragment TagEditor_contact on Contact {\n    rawId\n    tags {\n      id\n      name\n    }\n  }\n": types.TagEditor_ContactFragmentDoc,
    "\n  mutation AddContactTags($identifier: String!, $names: [String!]!) {\n    addContactTagsByName(identifier: $identifier, names: $names) {\n      success\n    }\n  }\n": types.AddContactTagsDocument,
    "\n  mutation RemoveContactTags($identifier: String!, $tagIds: [ID!]!) {\n    removeContactTags(identifier: $identifier, tagIds: $tagIds) {\n      success\n    }\n  }\n": types.RemoveContactTagsDocument,
    "\n  query ContactsPage($first: Int!, $after: String, $keyword: String, $tagIds: [ID!]) {\n    contacts(first: $first, after: $after, keyword: $keyword, tagIds: $tagIds) {\n      edges {\n        cursor\n        node {\n          id\n          rawId\n          ...ContactRow_contact\n        }\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n    tags {\n      id\n      name\n    }\n  }\n": types.ContactsPageDocument,
    "\n  fragment ContactRow_contact on Contact {\n    rawId\n    fullName\n    email\n    phoneNumber\n    avatar\n    tags {\n      id\n      name\n    }\n    customFields {\n      rawId\n      name\n      value\n    }\n    notes {\n      id\n    }\n    inboxes {\n      id\n      channel\n      inbox {\n        id\n        name\n      }\n    }\n    messages(first: 1) {\n      edges {\n        node {\n          id\n          text\n          direction\n          createdAt\n        }\n      }\n    }\n  }\n": types.ContactRow_ContactFragmentDoc,
    "\n  subscription LiveEvents($types: [EventType!], $after: ID) {\n    events(types: $types, after: $after) {\n      id\n      type\n      occurredAt\n      data\n      contact {\n        id\n        rawId\n        fullName\n      }\n    }\n  }\n": types.LiveEventsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ContactDetail($identifier: String!) {\n    contact(identifier: $identifier) {\n      id\n      rawId\n      fullName\n      email\n      phoneNumber\n      avatar\n      location\n      createdAt\n      ...TagEditor_contact\n      ...FieldEditor_contact\n      ...Conversations_contact\n      ...Notes_contact\n      ...Sequences_contact\n    }\n    tags {\n      id\n      name\n    }\n    ...ContactImage_query\n  }\n"): (typeof documents)["\n  query ContactDetail($identifier: String!) {\n    contact(identifier: $identifier) {\n      id\n      rawId\n      fullName\n      email\n      phoneNumber\n      avatar\n      location\n      createdAt\n      ...TagEditor_contact\n      ...FieldEditor_contact\n      ...Conversations_contact\n      ...Notes_contact\n      ...Sequences_contact\n    }\n    tags {\n      id\n      name\n    }\n    ...ContactImage_query\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ContactImage_query on Query {\n    dynamicImages(perPage: 10) {\n      data {\n        id\n        name\n        enabled\n        renderUrl(contact: $identifier)\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment ContactImage_query on Query {\n    dynamicImages(perPage: 10) {\n      data {\n        id\n        name\n        enabled\n        renderUrl(contact: $identifier)\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment Conversations_contact on Contact {\n    conversations {\n      id\n      rawId\n      createdAt\n      lastActivityAt\n      archivedAt\n      followed\n      inbox {\n        id\n        name\n        channel\n      }\n    }\n    messages(first: 50) {\n      edges {\n        node {\n          id\n          conversationId\n          direction\n          status\n          text\n          createdAt\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment Conversations_contact on Contact {\n    conversations {\n      id\n      rawId\n      createdAt\n      lastActivityAt\n      archivedAt\n      followed\n      inbox {\n        id\n        name\n        channel\n      }\n    }\n    messages(first: 50) {\n      edges {\n        node {\n          id\n          conversationId\n          direction\n          status\n          text\n          createdAt\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment FieldEditor_contact on Contact {\n    rawId\n    customFields {\n      rawId\n      name\n      type\n      description\n      value\n    }\n  }\n"): (typeof documents)["\n  fragment FieldEditor_contact on Contact {\n    rawId\n    customFields {\n      rawId\n      name\n      type\n      description\n      value\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetContactField($identifier: String!, $idOrName: String!, $value: String) {\n    setContactCustomField(identifier: $identifier, idOrName: $idOrName, value: $value) {\n      rawId\n      value\n    }\n  }\n"): (typeof documents)["\n  mutation SetContactField($identifier: String!, $idOrName: String!, $value: String) {\n    setContactCustomField(identifier: $identifier, idOrName: $idOrName, value: $value) {\n      rawId\n      value\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment Notes_contact on Contact {\n    notes {\n      id\n      text\n      createdAt\n    }\n  }\n"): (typeof documents)["\n  fragment Notes_contact on Contact {\n    notes {\n      id\n      text\n      createdAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment Sequences_contact on Contact {\n    sequences {\n      sequenceId\n      sequenceName\n    }\n  }\n"): (typeof documents)["\n  fragment Sequences_contact on Contact {\n    sequences {\n      sequenceId\n      sequenceName\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TagEditor_contact on Contact {\n    rawId\n    tags {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  fragment TagEditor_contact on Contact {\n    rawId\n    tags {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddContactTags($identifier: String!, $names: [String!]!) {\n    addContactTagsByName(identifier: $identifier, names: $names) {\n      success\n    }\n  }\n"): (typeof documents)["\n  mutation AddContactTags($identifier: String!, $names: [String!]!) {\n    addContactTagsByName(identifier: $identifier, names: $names) {\n      success\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveContactTags($identifier: String!, $tagIds: [ID!]!) {\n    removeContactTags(identifier: $identifier, tagIds: $tagIds) {\n      success\n    }\n  }\n"): (typeof documents)["\n  mutation RemoveContactTags($identifier: String!, $tagIds: [ID!]!) {\n    removeContactTags(identifier: $identifier, tagIds: $tagIds) {\n      success\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ContactsPage($first: Int!, $after: String, $keyword: String, $tagIds: [ID!]) {\n    contacts(first: $first, after: $after, keyword: $keyword, tagIds: $tagIds) {\n      edges {\n        cursor\n        node {\n          id\n          rawId\n          ...ContactRow_contact\n        }\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n    tags {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  query ContactsPage($first: Int!, $after: String, $keyword: String, $tagIds: [ID!]) {\n    contacts(first: $first, after: $after, keyword: $keyword, tagIds: $tagIds) {\n      edges {\n        cursor\n        node {\n          id\n          rawId\n          ...ContactRow_contact\n        }\n      }\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n    }\n    tags {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ContactRow_contact on Contact {\n    rawId\n    fullName\n    email\n    phoneNumber\n    avatar\n    tags {\n      id\n      name\n    }\n    customFields {\n      rawId\n      name\n      value\n    }\n    notes {\n      id\n    }\n    inboxes {\n      id\n      channel\n      inbox {\n        id\n        name\n      }\n    }\n    messages(first: 1) {\n      edges {\n        node {\n          id\n          text\n          direction\n          createdAt\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment ContactRow_contact on Contact {\n    rawId\n    fullName\n    email\n    phoneNumber\n    avatar\n    tags {\n      id\n      name\n    }\n    customFields {\n      rawId\n      name\n      value\n    }\n    notes {\n      id\n    }\n    inboxes {\n      id\n      channel\n      inbox {\n        id\n        name\n      }\n    }\n    messages(first: 1) {\n      edges {\n        node {\n          id\n          text\n          direction\n          createdAt\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveEvents($types: [EventType!], $after: ID) {\n    events(types: $types, after: $after) {\n      id\n      type\n      occurredAt\n      data\n      contact {\n        id\n        rawId\n        fullName\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription LiveEvents($types: [EventType!], $after: ID) {\n    events(types: $types, after: $after) {\n      id\n      type\n      occurredAt\n      data\n      contact {\n        id\n        rawId\n        fullName\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;