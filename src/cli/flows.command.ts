import { readFile } from 'node:fs/promises';
import Table from 'cli-table3';
import type { Command } from 'commander';
import type { Executor } from '../db/database.js';
import { createFlowInput, flowsQuery, updateFlowInput } from '../domain/flows/flow.schema.js';
import { createFlow, deleteFlow, getFlow, listFlowsPage, updateFlow } from '../domain/flows/flow.service.js';
import { findWorkspace } from '../domain/workspaces/workspace.repository.js';
import { parseOrThrow } from '../errors/validation.js';
import { CliError, print, withDatabase } from './context.js';
import { positiveId } from './parse.js';

/** The database (migrated), for a workspace that exists. */
const inWorkspace = <T>(workspaceId: number, fn: (db: Executor) => Promise<T>): Promise<T> =>
  withDatabase(async ({ db }) => {
    if (!(await findWorkspace(db, workspaceId))) throw new CliError(`No workspace with id ${workspaceId}`);
    return fn(db);
  });

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new CliError('Give the flow as JSON with --file, or pipe it to stdin');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON body of a create or update, from --file or stdin, as the API would receive it. */
async function readBody(file: string | undefined): Promise<unknown> {
  const text = file === undefined || file === '-' ? await readStdin() : await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new CliError(`Cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`${file && file !== '-' ? file : 'stdin'} is not valid JSON: ${(err as Error).message}`);
  }
}

interface WorkspaceFlag {
  workspace: number;
}

const fileOption = ['--file <path>', 'read the JSON from this file ("-" or none: stdin)'] as const;

/** `flows list|get|create|update|delete`: the operations of /v1/flows, on the database directly. */
export function flowsCommands(program: Command) {
  const flows = program.command('flows').description("Manage a workspace's flows (their items as JSON, as the API takes them)");

  flows
    .command('list')
    .description('List flows in creation order (as GET /v1/flows)')
    .requiredOption('--workspace <id>', 'workspace id', positiveId)
    .option('--page <n>', 'page number', '1')
    .option('--per-page <n>', 'flows per page, at most 50', '50')
    .option('--json', 'print the page as JSON', false)
    .action(async (o: WorkspaceFlag & { page: string; perPage: string; json: boolean }) => {
      const query = parseOrThrow(flowsQuery, { page: o.page, perPage: o.perPage });
      const page = await inWorkspace(o.workspace, (db) => listFlowsPage(db, o.workspace, { page: query.page, perPage: query.perPage }));
      if (o.json) return print(true, page, '');
      if (!page.data.length) return console.log(`No flows in workspace ${o.workspace}${query.page > 1 ? ` on page ${query.page}` : ''}.`);
      const table = new Table({ head: ['id', 'name', 'items', 'updated'], style: { head: [], border: [] } });
      for (const f of page.data) table.push([f.id, f.name, f.items.map((i) => i.type).join(', '), f.updatedAt]);
      console.log(table.toString());
      if (page.pageCount > 1) console.log(`Page ${query.page} of ${page.pageCount}.`);
    });

  flows
    .command('get')
    .description('Print a flow as JSON (as GET /v1/flows/{id})')
    .argument('<flowId>', 'flow id')
    .requiredOption('--workspace <id>', 'workspace id', positiveId)
    .action(async (id: string, o: WorkspaceFlag) => {
      print(true, await inWorkspace(o.workspace, (db) => getFlow(db, o.workspace, id)), '');
    });

  flows
    .command('create')
    .description('Create a flow from JSON {name, items} (as POST /v1/flows) and print it')
    .requiredOption('--workspace <id>', 'workspace id', positiveId)
    .option(...fileOption)
    .action(async (o: WorkspaceFlag & { file?: string }) => {
      const body = parseOrThrow(createFlowInput, await readBody(o.file));
      print(true, await inWorkspace(o.workspace, (db) => createFlow(db, o.workspace, body, [])), '');
    });

  flows
    .command('update')
    .description('Change a flow from JSON {name?, items?} (as PATCH /v1/flows/{id}; items replace the list) and print it')
    .argument('<flowId>', 'flow id')
    .requiredOption('--workspace <id>', 'workspace id', positiveId)
    .option(...fileOption)
    .action(async (id: string, o: WorkspaceFlag & { file?: string }) => {
      const body = parseOrThrow(updateFlowInput, await readBody(o.file));
      print(true, await inWorkspace(o.workspace, (db) => updateFlow(db, o.workspace, id, body, [])), '');
    });

  flows
    .command('delete')
    .description('Delete a flow (as DELETE /v1/flows/{id}); sequence steps that send it stay, with no flow')
    .argument('<flowId>', 'flow id')
    .requiredOption('--workspace <id>', 'workspace id', positiveId)
    .action(async (id: string, o: WorkspaceFlag) => {
      await inWorkspace(o.workspace, (db) => deleteFlow(db, o.workspace, id));
      console.log(`Deleted flow ${id}.`);
    });
}
