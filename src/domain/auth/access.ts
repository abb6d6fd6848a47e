import type { Executor } from '../../db/database.js';
import { AppError } from '../../errors/catalogue.js';
import { countMonthlyActiveContacts } from '../workspaces/plan.repository.js';
import type { AuthScheme, Principal } from './principal.js';
import type { Scope } from './scopes.js';

/**
 * What an operation does, for the access rules: reads are open to read-only tokens; writes
 * (REST POST/PUT/PATCH, GraphQL create/update mutations) need a full token and pass the plan gates;
 * deletes need a full token but stay open when the trial ended or the MAC limit is reached.
 */
export type Action = 'read' | 'write' | 'delete';

export interface AccessRule {
  action: Action;
  /** The area the operation touches; null only for reading the presented token itself (GET /v1/token). */
  scope: Scope | null;
  /** Schemes this operation accepts; all three when omitted. */
  schemes?: readonly AuthScheme[];
}

/**
 * The one place the permission, scope and plan rules live; REST and GraphQL both call it. Errors
 * carry the contract's default message; `data.reason` says which rule refused the call.
 */
export async function assertAccess(db: Executor, who: Principal, rule: AccessRule, now = new Date()): Promise<void> {
  if (rule.schemes && !rule.schemes.includes(who.scheme)) {
    throw new AppError('FORBIDDEN', { data: { reason: 'workspaceTokenRequired', acceptedSchemes: [...rule.schemes] } });
  }
  if (rule.action !== 'read' && who.permission === 'read_only') {
    throw new AppError('FORBIDDEN', { data: { reason: 'readOnlyToken' } });
  }
  if (rule.scope !== null && who.scopes !== null && !who.scopes.includes(rule.scope)) {
    throw new AppError('FORBIDDEN', { data: { reason: 'missingScope', scope: rule.scope } });
  }
  if (rule.action === 'write') await assertPlanAllowsWrite(db, who, now);
}

async function assertPlanAllowsWrite(db: Executor, who: Principal, now: Date): Promise<void> {
  const { trialEndsAt, macLimit } = who.plan;
  if (trialEndsAt !== null && Date.parse(trialEndsAt) <= now.getTime()) throw new AppError('trialExpired', { data: { trialEndedAt: new Date(trialEndsAt).toISOString() } });
  if (macLimit !== null) {
    const active = await countMonthlyActiveContacts(db, who.workspaceId, now);
    if (active >= macLimit) throw new AppError('macLimitReached', { data: { limit: macLimit, active } });
  }
}
