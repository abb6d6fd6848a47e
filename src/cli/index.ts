// Operator CLI: `npm run --silent cli -- <command>`. Uses DATABASE_URL like the server.
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/config.js';
import { contactsCommands } from './contacts.command.js';
import { describeError } from './context.js';
import { flowsCommands } from './flows.command.js';
import { seedCommand } from './seed.command.js';
import { tokenCommands } from './token.command.js';
import { workspaceCommands } from './workspace.command.js';

const program = new Command('messaging-api')
  .description('Operator commands for the messaging API (uses DATABASE_URL)')
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });
workspaceCommands(program);
tokenCommands(program);
seedCommand(program);
contactsCommands(program);
flowsCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // commander already printed its message (or help, which exits 0).
    process.exitCode = err.exitCode;
  } else {
    console.error(`error: ${err instanceof ConfigError ? err.message : describeError(err)}`);
    process.exitCode = 1;
  }
}
