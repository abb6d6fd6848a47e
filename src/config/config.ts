import { z } from 'zod';

/**
 * Every setting the service reads from the environment, validated once at start-up so that a typo
 * stops the process with the variable's name instead of surfacing as odd behaviour later.
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce.number({ message: 'must be a number' }).int('must be a whole number').positive('must be positive');

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce
    .number({ message: 'must be a port number (0-65535)' })
    .int('must be a port number (0-65535)')
    .min(0, 'must be a port number (0-65535)')
    .max(65535, 'must be a port number (0-65535)')
    .default(4000),
  DATABASE_URL: z
    .string()
    .min(1)
    .default('data/app.db')
    .refine((v) => !/^[a-z]+:\/\//i.test(v) || /^postgres(ql)?:\/\//i.test(v), {
      message: 'must be a SQLite file path or a postgres:// URL',
    }),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Seed the demo workspace when the database has no workspace yet. */
  SEED_DEMO: booleanFlag.default(true),
  RATE_LIMIT_IP_POINTS: positiveInt.default(600),
  RATE_LIMIT_IP_WINDOW_SECONDS: positiveInt.default(10),
  RATE_LIMIT_WORKSPACE_POINTS: positiveInt.default(120),
  RATE_LIMIT_WORKSPACE_WINDOW_SECONDS: positiveInt.default(10),
  /** Use X-Forwarded-For for the client IP; only behind a proxy you control. */
  TRUST_PROXY: booleanFlag.default(false),
  /** Largest accepted request body, in bytes. */
  BODY_LIMIT_BYTES: positiveInt.default(1_000_000),
  /** How long a token lookup is cached; a revocation takes effect within this time. */
  TOKEN_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(5),
  GRAPHIQL: booleanFlag.optional(),
  INTROSPECTION: booleanFlag.optional(),
  GRAPHQL_MAX_DEPTH: positiveInt.default(8),
  GRAPHQL_MAX_COST: positiveInt.default(5000),
  GRAPHQL_MAX_ALIASES: positiveInt.default(30),
  GRAPHQL_MAX_TOKENS: positiveInt.default(2000),
  /** Expose X-Db-Statements (SQL statements run for the request). */
  EXPOSE_DB_STATEMENTS: booleanFlag.optional(),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
});

export type Config = z.infer<typeof configSchema> & {
  GRAPHIQL: boolean;
  INTROSPECTION: boolean;
  EXPOSE_DB_STATEMENTS: boolean;
};

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty variables mean "not set", as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(withoutPassword(present[String(i.path[0])]))})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const dev = c.NODE_ENV !== 'production';
  return {
    ...c,
    GRAPHIQL: c.GRAPHIQL ?? dev,
    INTROSPECTION: c.INTROSPECTION ?? dev,
    EXPOSE_DB_STATEMENTS: c.EXPOSE_DB_STATEMENTS ?? dev,
  };
}

/** A URL's password never reaches a terminal or a log: `postgres://me:***@host/db`. */
const withoutPassword = (value: string | undefined) => value?.replace(/^([a-z][\w+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');

export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url);
