import { z } from 'zod';

import { digitId, isoDateTime } from '../shared/schemas.js';

/** The contract's Workspace object (GET /v1/workspaces). */
export const workspaceSchema = z
  .object({
    id: digitId,
    name: z.string(),
    defaultReply: z.string(),
    targetCountry: z.string(),
    language: z.string(),
    timezone: z.string(),
    brandColor: z.string(),
    logo: z.string(),
    ownerId: z.string(),
    developmentMode: z.boolean(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Workspace' });
export type Workspace = z.infer<typeof workspaceSchema>;

/** Operator input for a new workspace (CLI). */
export const createWorkspaceInput = z.strictObject({
  name: z.string().trim().min(1).max(255),
  trialEndsAt: isoDateTime.nullish(),
  macLimit: z.number().int().min(0).max(2_147_483_647).nullish(),
  developmentMode: z.boolean().default(false),
});
export type CreateWorkspaceInput = z.input<typeof createWorkspaceInput>;
